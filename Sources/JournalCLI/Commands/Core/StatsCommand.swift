import ArgumentParser
import WorkoutJournalSync
import Foundation

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Count events by type and show compressed and plain sizes.")

    @Argument(help: "The journal file.") var file: String
    @Flag(help: "Print as JSON.") var json = false

    func run() throws {
        try reportingFailures {
            let stats = try JournalStats.read(path: file)
            if json {
                print(stats.jsonString)
                return
            }
            print("events:      \(stats.events) in \(stats.frames) frames (\(stats.unsealedFrames) unsealed)")
            print("compressed:  \(stats.compressedBytes) bytes")
            print("plain JSONL: \(stats.plainBytes) bytes")
            print("ratio:       \(formatRatio(stats.ratio))x")
            print("")
            let width = max(4, stats.byType.map(\.type.count).max() ?? 0)
            for (type, count) in stats.byType {
                print(type.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + String(count))
            }
        }
    }
}

func formatRatio(_ ratio: Double) -> String {
    let scaled = Int((ratio * 10).rounded())
    return "\(scaled / 10).\(scaled % 10)"
}
