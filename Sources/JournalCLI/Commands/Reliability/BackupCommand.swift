import ArgumentParser
import Foundation
import WorkoutJournalSync

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy a journal to a backup, writing only what is new since the last backup, and verify it.",
        discussion: """
        DEST is a file, or a directory to hold FILE's name. The backup is a journal: FILE's bytes up to the end of \
        its data (no padding; a torn tail is not copied). Sealed frames never change (FORMAT.md §6), so an earlier \
        backup is kept up to the first byte where it differs from FILE and only the rest is written: the frames \
        sealed since and the unsealed tail. Crash-safe and idempotent: after a crash, run it again. Refuses a DEST \
        that is not an earlier backup of FILE, and a damaged FILE (salvage it first). Check a backup later with \
        `journal verify DEST --against FILE`. The backup's path is recorded in FILE.backups so that `journal erase` \
        erases it too.
        """
    )

    @Argument(help: "The journal to back up (read only).") var file: String
    @Argument(help: "The backup file, or a directory to put it in.") var dest: String
    @Flag(help: "Print the result as JSON.") var json = false

    func run() throws {
        try reportingFailures {
            guard FileManager.default.fileExists(atPath: file) else { throw Failure(message: "\(file): no such journal (check the path)") }
            var isDirectory: ObjCBool = false
            var target = FileManager.default.fileExists(atPath: dest, isDirectory: &isDirectory) && isDirectory.boolValue
                ? (dest as NSString).appendingPathComponent((file as NSString).lastPathComponent) : dest
            // Recorded in FILE.backups for erasure: an absolute path, whatever the directory it runs from later.
            if !target.hasPrefix("/") { target = (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(target) }
            target = (target as NSString).standardizingPath
            if (target as NSString).standardizingPath == (file as NSString).standardizingPath {
                throw Failure(message: "\(target) is the journal itself; back up to another file")
            }
            let outcome = try JournalBackups.backup(source: file, destination: target)
            if json {
                print(JSONWriter.string(outcome.jsonValue(file: file, backup: target)))
                return
            }
            var lines = [
                "backup:   \(file) → \(target)" + (outcome.created ? " (new)" : ""),
                "copied:   \(outcome.copied) bytes (kept \(outcome.kept) bytes already there; \(outcome.bytes) bytes, \(outcome.records) events in all)",
                "sealed:   the first \(outcome.sealedEnd) bytes never change; later backups keep them",
            ]
            if let torn = outcome.sourceTornTail {
                lines.append("note:     \(file) ends with a torn tail at byte \(torn.offset) (\(torn.length) bytes), not copied; `journal record` repairs it")
            }
            lines.append("verified: \(target) reads back byte for byte as written")
            print(lines.joined(separator: "\n"))
        }
    }
}
