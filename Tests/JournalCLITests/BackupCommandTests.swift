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

/// `journal erase FILE` (FORMAT.md §6 "Erasure").
@Suite("journal erase")
struct EraseCommandTests {
    @Test("erase leaves only the marker in the journal and its backup, removes the snapshots, and refuses an empty journal")
    func erase() throws {
        let directory = try CLI.temporaryDirectory()
        let journal = directory + "/zelda.journal"
        let input = """
        {"type":"account.created","at":"2026-11-20T09:00:00.000+01:00","name":"Zelda Quintanilla","email":"zelda.q@example.org"}
        {"type":"workout.started","at":"2026-11-21T18:00:00.000+01:00","workout":"w1","name":"Legs","session":null}
        {"type":"set.completed","at":"2026-11-21T18:03:00.000+01:00","workout":"w1","exercise":"barbell-back-squat","set":1,"weight":137.25,"unit":"kg","reps":5,"kind":"working"}
        {"type":"workout.finished","at":"2026-11-21T18:30:00.000+01:00","workout":"w1"}

        """
        #expect(try CLI.run(["record", journal, "--device", "ph"], stdin: input).stdout == "1\n2\n3\n4\n")
        #expect(try CLI.run(["backup", journal, directory + "/copy.journal"]).status == 0)
        try Data("Zelda Quintanilla".utf8).write(to: URL(fileURLWithPath: journal + ".home-snapshot"))

        let erased = try CLI.run(["erase", journal, "--device", "ph", "--json"])
        #expect(erased.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(erased.stdout.utf8)) as? [String: Any]
        #expect(object?["through_seq"] as? Int == 4)
        #expect(object?["events"] as? Int == 4)
        #expect(object?["removed"] as? [String] == [journal + ".home-snapshot"])
        #expect(object?["backups_rewritten"] as? [String] == [directory + "/copy.journal"])
        #expect((object?["marker"] as? String)?.hasPrefix(#"{"v":1,"seq":5,"id":"ph-5","at":""#) == true)

        for file in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let raw = String(decoding: try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file)), as: UTF8.self)
            #expect(!raw.contains("Zelda"), "\(file)")
        }
        for file in [journal, directory + "/copy.journal"] {
            let lines = try CLI.run(["cat", file]).stdout
            #expect(lines.hasPrefix(#"{"v":1,"seq":5,"id":"ph-5","#) && lines.hasSuffix(#""type":"data.erased","through_seq":4,"events":4}"# + "\n"))
            #expect(try CLI.tool("/usr/bin/zstd", ["-dcq", file]).stdout == Data(lines.utf8))
        }

        let empty = directory + "/empty.journal"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(try CLI.run(["erase", empty]) == CLI.Result(status: 1, stdout: "", stderr:
            "journal: \(empty): holds no event, so there is nothing to erase; nothing was changed\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).isEmpty)
    }
}
