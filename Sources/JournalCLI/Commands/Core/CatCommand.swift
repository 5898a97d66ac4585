import ArgumentParser
import WorkoutJournalSync
import JournalFile
import JournalEvents

struct CatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cat",
        abstract: "Print the journal's events as JSON lines, exactly as stored.",
        discussion: "Without filters the output is byte for byte what `zstd -dc FILE` prints."
    )

    @Argument(help: "The journal file.") var file: String
    @Option(help: "Only events of this type (repeatable; a trailing .* matches a prefix, e.g. set.*).") var type: [String] = []
    @Option(help: "Only events of this workout id.") var workout: String?
    @Option(help: "Only events at or after this time (RFC 3339 or YYYY-MM-DD).") var since: String?
    @Option(help: "Only events before this time (RFC 3339 or YYYY-MM-DD).") var until: String?
    @Option(help: "Only events with seq ≤ N.") var untilSeq: Int?

    func run() throws {
        try reportingFailures {
            let sinceTime = try since.map { try parseTime($0, option: "--since") }
            let untilTime = try until.map { try parseTime($0, option: "--until") }
            let filtered = !type.isEmpty || workout != nil || sinceTime != nil || untilTime != nil || untilSeq != nil
            var out = Output()
            var bad: [String] = []
            let report = try EventReader.forEachLine(path: file) { line, lineNumber in
                if filtered {
                    guard let event = try? EventCodec.decode(line) else {
                        bad.append("line \(lineNumber) is not a valid event")
                        return
                    }
                    if let untilSeq, event.seq > untilSeq { return }
                    if !type.isEmpty && !type.contains(where: { matches(event.type, $0) }) { return }
                    if let workout, event.string(.workout) != workout { return }
                    if let sinceTime, event.at < sinceTime { return }
                    if let untilTime, event.at >= untilTime { return }
                }
                out.write(line)
                out.write("\n")
            }
            out.flush()
            for damage in report.damage { printError("\(file): \(damage) — skipped; run `journal verify \(file)`") }
            for problem in bad { printError("\(file): \(problem)") }
        }
    }

    func matches(_ type: String, _ pattern: String) -> Bool {
        pattern.hasSuffix(".*") ? type.hasPrefix(String(pattern.dropLast(1))) : type == pattern
    }
}
