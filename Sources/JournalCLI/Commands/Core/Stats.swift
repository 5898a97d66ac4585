import ArgumentParser
import EventJournal
import JournalEvents
import JournalStore

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Count events by type and show compressed and plain sizes.")

    @Argument(help: "The journal file.") var file: String
    @Flag(help: "Print as JSON.") var json = false

    func run() throws {
        try reportingFailures {
            var counts: [String: Int] = [:]
            var events = 0
            let scan = try EventReader.forEach(path: file) { event in
                counts[event.type, default: 0] += 1
                events += 1
            }
            let ratio = scan.fileSize > 0 ? Double(scan.plainBytes) / Double(scan.fileSize) : 0
            let sorted = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            if json {
                print(JSONWriter.string(.object([
                    "events": .int(events), "frames": .int(scan.frames), "unsealed_frames": .int(scan.tailRun.count),
                    "compressed_bytes": .int(scan.fileSize), "plain_bytes": .int(scan.plainBytes),
                    "ratio": .number((ratio * 100).rounded() / 100),
                    "by_type": .object(JSONObject(sorted.map { JSONField($0.key, .int($0.value)) })),
                ])))
                return
            }
            print("events:      \(events) in \(scan.frames) frames (\(scan.tailRun.count) unsealed)")
            print("compressed:  \(scan.fileSize) bytes")
            print("plain JSONL: \(scan.plainBytes) bytes")
            print("ratio:       \(formatRatio(ratio))x")
            print("")
            let width = max(4, sorted.map(\.key.count).max() ?? 0)
            for (type, count) in sorted {
                print(type.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + String(count))
            }
        }
    }
}

func formatRatio(_ ratio: Double) -> String {
    let scaled = Int((ratio * 10).rounded())
    return "\(scaled / 10).\(scaled % 10)"
}
