import JournalFile
import Foundation
import JournalEvents
import JournalProjections
import JournalServer
import JournalStore
import JournalSync
import JournalTesting
import Testing

/// `journal sync` and `journal restore` through the real CLI binary, against a live server.
@Suite("journal sync and journal restore, end to end through the CLI")
struct EndToEndTests {
    @Test("two devices sync through the server; a new device restores; support restores read-only and is logged")
    func syncAndRestoreThroughTheCLI() async throws {
        let (user, token) = try await PostgresFixture.freshPrincipal("e2e")
        let (supportUser, support) = try await PostgresFixture.freshPrincipal("helpdesk", role: .support)
        let journal = try journalBinary()
        let scratch = ScratchDirectory("e2e")
        let phone = scratch.file("phone.journal"), watch = scratch.file("watch.journal")
        try Fixtures.smallJournal(at: phone, storage: PosixStorage(), device: "ph", workouts: 2, setsPerWorkout: 2, openSets: 0)
        let watchJournal = try EventJournal(path: watch, device: "wa", clock: { Fixtures.start })
        try watchJournal.record(batch: Fixtures.workoutDrafts("wa1", sets: 1, at: Fixtures.start.adding(milliseconds: 3_600_000)))
        watchJournal.close()
        try await withServer { server in
            let url = server.absoluteString
            var run = try await Subprocess.runDetached(journal, ["sync", phone, "--server", url, "--token", token], scratch: scratch.path)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == """
                synced:   \(phone) with \(url) as user \(user)
                pulled:   0 events (0 new to this journal)
                pushed:   8 events (8 new to the server)
                journal:  8 events; cursor 1-8

                """)
            run = try await Subprocess.runDetached("/usr/bin/env", ["JOURNAL_TOKEN=\(token)", journal, "sync", watch, "--server", url, "--json"], scratch: scratch.path)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == #"{"user":"\#(user)","pulled":8,"merged":8,"pushed":3,"stored_by_server":3,"events":11,"cursor":"1-11"}"# + "\n")
            run = try await Subprocess.runDetached(journal, ["sync", phone, "--server", url, "--token", token, "--json"], scratch: scratch.path)
            #expect(run.stdout == #"{"user":"\#(user)","pulled":3,"merged":3,"pushed":0,"stored_by_server":0,"events":11,"cursor":"1-11"}"# + "\n")
            // Nothing moves once both are in step.
            run = try await Subprocess.runDetached(journal, ["sync", watch, "--server", url, "--token", token, "--json"], scratch: scratch.path)
            #expect(run.stdout == #"{"user":"\#(user)","pulled":0,"merged":0,"pushed":0,"stored_by_server":0,"events":11,"cursor":"1-11"}"# + "\n")
            #expect(readFileBytes(phone) == readFileBytes(watch))

            // A new device restores the whole journal.
            let fresh = scratch.file("new-phone.journal")
            run = try await Subprocess.runDetached(journal, ["restore", "--server", url, "--token", token, "-o", fresh], scratch: scratch.path)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == "restored: 11 events of user \(user) → \(fresh) (cursor 1-11)\n")
            #expect(readFileBytes(fresh) == readFileBytes(phone))
            run = try await Subprocess.runDetached(journal, ["restore", "--server", url, "--token", token, "-o", fresh], scratch: scratch.path)
            #expect(run.status == 1)
            #expect(run.stderr == "journal: restore: \(fresh) already exists; choose another output (-o), or remove it first\n")

            // Support opens the user's journal: allowed, read-only, logged.
            let opened = scratch.file("support-copy.journal")
            run = try await Subprocess.runDetached(journal, ["restore", "--server", url, "--token", support, "--user", user, "-o", opened, "--json"], scratch: scratch.path)
            #expect(run.stdout == #"{"user":"\#(user)","events":11,"cursor":"1-11","output":"\#(opened)"}"# + "\n")
            #expect(readFileBytes(opened) == readFileBytes(phone))
            run = try await Subprocess.runDetached(journal, ["sync", opened, "--server", url, "--token", support], scratch: scratch.path)
            #expect(run.status == 1)
            // Another user's token cannot restore this journal.
            let other = try await PostgresFixture.token(user: PostgresFixture.freshUser("mallory"))
            run = try await Subprocess.runDetached(journal, ["restore", "--server", url, "--token", other, "--user", user, "-o", scratch.file("stolen.journal")], scratch: scratch.path)
            #expect(run.status == 1)
            #expect(run.stderr.contains("journal: restore: the server refused (403 forbidden): this token belongs to user mallory-"))
            #expect(!FileManager.default.fileExists(atPath: scratch.file("stolen.journal")))
            // No token at all.
            run = try await Subprocess.runDetached("/usr/bin/env", ["-u", "JOURNAL_TOKEN", journal, "sync", phone, "--server", url], scratch: scratch.path)
            #expect(run.status == 64)
            #expect(run.stderr.contains("no token: pass --token T or set JOURNAL_TOKEN"))
        }
        let log = try await withSyncStore(try DatabaseURL(try PostgresFixture.url())) { store in try await store.accessLog(subject: user) }
        #expect(log.map(\.actor) == [supportUser])
        #expect(log.map(\.detail) == ["after=0 events=11 cursor=1-11"])
    }
}
