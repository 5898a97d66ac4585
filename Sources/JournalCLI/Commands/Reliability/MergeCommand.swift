import ArgumentParser
import WorkoutJournalSync
import Foundation
import JournalFile

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge two copies of one user's journal (two devices that were offline) into a new journal.",
        discussion: """
        The union of both by event id, ordered by at, then device tag, then counter, with seq renumbered \
        1…n. Idempotent (merging the result again adds nothing) and commutative (A B and B A give the \
        same bytes). Conflicting edits from two devices are both kept; the later one wins in every view. \
        Refuses journals with damage (salvage them first) and journals of two different users (their \
        account e-mails differ).
        """
    )

    @Argument(help: "The first journal (read only).") var a: String
    @Argument(help: "The second journal (read only).") var b: String
    @Option(name: .shortAndLong, help: "The new journal to write (must not exist).") var output: String

    func validate() throws {
        if output == a || output == b { throw ValidationError("-o \"\(output)\" is one of the inputs; write to a new file") }
    }

    func run() throws {
        try reportingFailures {
            for path in [a, b] where !FileManager.default.fileExists(atPath: path) {
                throw Failure(message: "\(path): no such journal (check the path)")
            }
            if FileManager.default.fileExists(atPath: output) {
                throw Failure(message: "\(output) already exists; merge writes a new journal (choose another -o, or remove it first)")
            }
            let report = try Merge.merge(a: a, b: b, output: output)
            var lines = [
                "merged:   \(a) (\(report.eventsA) events) + \(b) (\(report.eventsB) events) → \(output)",
                "events:   \(report.output) (\(report.shared) in both, \(report.onlyA) only in \(a), \(report.onlyB) only in \(b))",
            ]
            if !report.renamed.isEmpty {
                lines.append("renamed:  \(report.renamed.count) id collision\(report.renamed.count == 1 ? "" : "s") (both versions kept)")
                for rename in report.renamed.prefix(JournalVerifier.maximumListed) { lines.append("  \(rename.from) → \(rename.to)") }
            }
            print(lines.joined(separator: "\n"))
        }
    }
}
