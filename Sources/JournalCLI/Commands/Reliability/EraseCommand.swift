import ArgumentParser
import Foundation
import WorkoutJournalSync
import JournalEvents

struct EraseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase",
        abstract: "Erase every event of a journal physically (delete account, delete all data).",
        discussion: """
        Rewrites FILE, crash-safely through FILE.erase, so that it holds one event, the marker data.erased \
        (through_seq: the last seq erased; events: how many; no personal data), and removes every file the engine \
        wrote beside it (FILE.snapshot, FILE.home-snapshot, FILE.torn-*, FILE.seal, temporary files); every backup \
        listed in FILE.backups is replaced by the erased journal. Recording goes on after the marker. What it cannot \
        reach is printed and listed in FORMAT.md §6: backups not plugged in, exports, copies made by other tools, \
        and blocks the file system or the disk keep. `journal record` of data.cleared does not erase: it hides \
        earlier events from the views and keeps their bytes.
        """
    )

    @Argument(help: "The journal to erase.") var file: String
    @Option(help: "Device tag for the marker's id.") var device: String = "cli"
    @Flag(help: "Print the result as JSON.") var json = false

    func run() throws {
        try reportingFailures {
            guard FileManager.default.fileExists(atPath: file) else { throw Failure(message: "\(file): no such journal (check the path)") }
            // An empty file is a journal with nothing to erase; opening it for writing would give it a header.
            if (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) == 0 { throw JournalError.nothingToErase(path: file) }
            let journal = try UserJournal.open(path: file, device: device, clock: SystemClock.now)
            defer { journal.close() }
            let erasure = try journal.eraseAllData()
            let outcome = erasure.outcome
            let through = erasure.marker.int(.throughSeq) ?? 0
            let count = erasure.marker.int(.events) ?? 0
            if json {
                print(JSONWriter.string(.object([
                    "file": .string(file), "through_seq": .int(through), "events": .int(count),
                    "marker": .string(EventCodec.encodeString(erasure.marker)),
                    "removed": .array(outcome.removed.map { .string($0) }),
                    "backups_rewritten": .array(outcome.backupsRewritten.map { .string($0) }),
                    "backups_unreachable": .array(outcome.backupsUnreachable.map { .string($0) }),
                ])))
                return
            }
            var lines = [
                "erased:   \(count) events, through seq \(through), from \(file); it now holds only the marker:",
                "          \(EventCodec.encodeString(erasure.marker))",
                "removed:  " + (outcome.removed.isEmpty ? "no other file" : outcome.removed.joined(separator: ", ")),
            ]
            if !outcome.backupsRewritten.isEmpty { lines.append("backups:  rewritten: " + outcome.backupsRewritten.joined(separator: ", ")) }
            if !outcome.backupsUnreachable.isEmpty {
                lines.append("NOT reached: " + outcome.backupsUnreachable.joined(separator: ", ") + " (absent now; run `journal erase` again once it is back, or delete it)")
            }
            lines.append("not reachable by the engine: exports you wrote, copies made by other tools, blocks the file system or disk keep")
            print(lines.joined(separator: "\n"))
        }
    }
}
