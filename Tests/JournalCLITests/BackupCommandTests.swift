import Foundation
import Testing

/// `journal backup FILE DEST` and `journal verify BACKUP --against FILE` (FORMAT.md §"Backups").
@Suite("journal backup")
struct BackupCommandTests {
    @Test("backup copies everything once, then only what is new; verify --against accepts it and refuses another journal")
    func backupAndVerifyAgainst() throws {
        let directory = try CLI.temporaryDirectory()
        let journal = directory + "/tom.journal"
        try FileManager.default.copyItem(atPath: CLI.sample("ppl-12-weeks.journal"), toPath: journal)
        try FileManager.default.createDirectory(atPath: directory + "/usb", withIntermediateDirectories: true)
        let backup = directory + "/usb/tom.journal"

        let first = try CLI.run(["backup", journal, directory + "/usb"])
        #expect(first == CLI.Result(status: 0, stdout: """
            backup:   \(journal) → \(backup) (new)
            copied:   62159 bytes (kept 0 bytes already there; 62159 bytes, 4729 events in all)
            sealed:   the first 62159 bytes never change; later backups keep them
            verified: \(backup) reads back byte for byte as written

            """, stderr: ""))
        #expect(try String(contentsOfFile: journal + ".backups", encoding: .utf8) == backup + "\n")

        #expect(try CLI.run(["record", journal, "--device", "ph"], stdin: #"{"type":"profile.updated","at":"2026-11-30T08:00:00.000+01:00","name":"Tom"}"# + "\n").stdout == "4730\n")
        let second = try CLI.run(["backup", journal, backup, "--json"])
        #expect(second == CLI.Result(status: 0, stdout: """
            {"file":"\(journal)","backup":"\(backup)","created":false,"bytes":62282,"kept_bytes":62159,"copied_bytes":123,"sealed_bytes":62159,"events":4730,"source_torn_tail":null,"verified":true}

            """, stderr: ""))

        let verified = try CLI.run(["verify", backup, "--against", journal])
        #expect(verified.status == 0)
        #expect(verified.stdout.hasSuffix("""
            against:          an earlier state of \(journal): its sealed 62159 bytes are a prefix of it, its 4730 events are its first 4730 (\(journal) has 0 more)
            result:           clean

            """))

        let foreign = try CLI.run(["verify", backup, "--against", CLI.sample("upper-lower-2y-lb.journal"), "--json"])
        #expect(foreign.status == 1)
        #expect(foreign.stdout.contains(#""against":{"source":"\#(CLI.sample("upper-lower-2y-lb.journal"))","matches":false,"matching_bytes":21,"sealed_bytes":62159,"backup_events":4730,"matching_events":0,"source_events":30506,"problem":"the backup's sealed part (bytes 0–62158) differs from \#(CLI.sample("upper-lower-2y-lb.journal")) at byte 21"}"#))
        #expect(foreign.stdout.contains(#""clean":false"#))

        // A destination that is not a backup of the journal is refused and left as it was.
        let other = directory + "/other.journal"
        try FileManager.default.copyItem(atPath: CLI.sample("new-user.journal"), toPath: other)
        let refused = try CLI.run(["backup", journal, other])
        #expect(refused == CLI.Result(status: 1, stdout: "", stderr: """
            journal: \(other): not backed up from \(journal): its sealed part (bytes 0–1100) differs from \(journal) at byte 21, so it is another journal or a backup from before an erasure; choose another destination or remove it; \(other) was left as it was

            """))
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == Data(contentsOf: URL(fileURLWithPath: CLI.sample("new-user.journal"))))
    }
}
