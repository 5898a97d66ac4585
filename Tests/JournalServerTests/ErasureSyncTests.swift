import JournalFile
import Foundation
import JournalEvents
import JournalServer
import JournalStore
import JournalSync
import JournalTesting
import Testing
import PostgresNIO

/// Account erasure reaches the devices (SYNC.md §"Account erasure"): one device erases (`journal erase`) and syncs,
/// the server erases its copy, and every other device's next `journal sync` erases its own journal physically through
/// the same path (`EventJournal.eraseAllData(adopting:)`), keeping what it recorded after the erasure.
@Suite("account erasure reaches every device on its next sync")
struct ErasureSyncTests {
    /// What must disappear everywhere: her name, her e-mail, the phone's weight and the watch's unsynced weight.
    static let needles = ["Zelda Quintanilla", "zelda.q@example.org", "137.25", "142.75"]

    /// A workout of one set of `weight` kg at `at`, as recording drafts.
    static func workout(_ id: String, weight: Double, at: Timestamp) -> [JSONValue] {
        [
            .object(["type": "workout.started", "at": .string(at.rfc3339), "workout": .string(id), "name": "Push", "session": .null]),
            .object(["type": "set.completed", "at": .string(at.adding(milliseconds: 60_000).rfc3339), "workout": .string(id),
                     "exercise": "barbell-bench-press", "set": 1, "weight": .number(weight), "unit": "kg", "reps": 5, "kind": "working"]),
            .object(["type": "workout.finished", "at": .string(at.adding(milliseconds: 120_000).rfc3339), "workout": .string(id)]),
        ]
    }

    /// The phone's journal: Zelda's account and a workout with a weight no one else lifts (4 events).
    static func zeldasPhone(_ path: String) throws {
        let phone = try EventJournal(path: path, device: "ph", clock: { Fixtures.start })
        defer { phone.close() }
        try phone.record(.object(["type": "account.created", "at": "2026-01-05T17:00:00.000+01:00",
                                  "name": "Zelda Quintanilla", "email": "zelda.q@example.org"]))
        try phone.record(batch: workout("w1", weight: 137.25, at: Fixtures.start))
    }

    /// Every file of the device beside `journal` (the journal, its sync state, snapshots…) holding erased data.
    static func leaks(_ journal: String) throws -> [String] {
        let directory = (journal as NSString).deletingLastPathComponent, name = (journal as NSString).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(name) }.sorted().compactMap { file in
            let hits = Leaks.found(needles, in: readFileBytes(directory + "/" + file) ?? [])
            return hits.isEmpty ? nil : "\(file): \(hits.joined(separator: ", "))"
        }
    }

    @Test("the phone erases and syncs; the watch's next sync erases everything it held (no erased byte left); what it records after is kept, whatever its clock; both converge")
    func erasureReachesTheOtherDevice() async throws {
        let user = PostgresFixture.freshUser("zelda")
        let token = try await PostgresFixture.token(user: user)
        let journal = try journalBinary()
        let scratch = ScratchDirectory("erase-sync")
        let phone = scratch.file("phone.journal"), watch = scratch.file("watch.journal")
        try Self.zeldasPhone(phone)
        try await withServer { server in
            let url = server.absoluteString
            func sync(_ file: String, json: Bool = true) async throws -> (status: Int32, stdout: String, stderr: String) {
                try await Subprocess.runDetached(journal, ["sync", file, "--server", url, "--token", token] + (json ? ["--json"] : []), scratch: scratch.path)
            }
            var run = try await sync(phone)
            #expect(run.stdout == #"{"user":"\#(user)","pulled":0,"merged":0,"pushed":4,"stored_by_server":4,"events":4,"cursor":"1-4"}"# + "\n", "\(run.stderr)")
            run = try await sync(watch)
            #expect(run.stdout == #"{"user":"\#(user)","pulled":4,"merged":4,"pushed":0,"stored_by_server":0,"events":4,"cursor":"1-4"}"# + "\n", "\(run.stderr)")
            // The watch records a workout offline before the erasure; it never reaches the server.
            var wa = try EventJournal(path: watch, device: "wa", clock: { Fixtures.start })
            try wa.record(batch: Self.workout("wa1", weight: 142.75, at: Fixtures.start.adding(milliseconds: 86_400_000)))
            wa.close()
            #expect(try Self.leaks(watch) == ["watch.journal: Zelda Quintanilla, zelda.q@example.org, 137.25, 142.75"])

            // The phone erases the account, then syncs: the server erases its copy (a new epoch).
            run = try Subprocess.run(journal, ["erase", phone], scratch: scratch.path)
            #expect(run.status == 0, "\(run.stderr)")
            let marker = try #require(try EventReader.events(path: phone).first)
            #expect(marker.type == "data.erased")
            run = try await sync(phone)
            #expect(run.stdout == #"{"user":"\#(user)","pulled":0,"merged":0,"pushed":1,"stored_by_server":1,"events":1,"cursor":"1-4"}"# + "\n", "\(run.stderr)")
            #expect(try await PostgresFixture.scalar("SELECT epoch FROM journal_users WHERE user_id = \(user)") == 2)
            #expect(try await PostgresFixture.scalar("SELECT coalesce(sum(event_count), 0)::bigint FROM journal_batches WHERE user_id = \(user)") == 1)

            // Offline meanwhile, the watch records a workout timed after the erasure: the watch learns of the erasure
            // only at its next sync, so it held this workout before it learnt, and no clock decides otherwise.
            let later = marker.at.adding(milliseconds: 60_000)
            wa = try EventJournal(path: watch, device: "wa", clock: { later })
            try wa.record(batch: Self.workout("wa2", weight: 70, at: later))
            wa.close()
            #expect(try EventReader.events(path: watch).count == 10)

            // The watch's next sync erases its journal through the erasure path, adopting the phone's marker.
            run = try await sync(watch, json: false)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == """
                synced:   \(watch) with \(url) as user \(user)
                erased:   the account was erased at \(marker.at.rfc3339) (marker \(marker.id)): 10 events of this journal erased, 0 kept
                pulled:   1 events (0 new to this journal)
                pushed:   0 events (0 new to the server)
                journal:  1 events; cursor 2-1

                """)
            var events = try EventReader.events(path: watch)
            #expect(events.map(\.type) == ["data.erased"])
            #expect(events.map(\.seq) == [5])
            #expect(events[0].id == marker.id)
            // No byte of the erased events in any file of the watch, raw or inside any zstd frame.
            #expect(try Self.leaks(watch) == [])
            run = try Subprocess.run(journal, ["verify", watch], scratch: scratch.path)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")

            // Now the watch records a workout with its clock a year behind, timed before the erasure: pushed after
            // it, so it is kept, on the server and on the phone, after the marker.
            let behind = marker.at.adding(milliseconds: -365 * 86_400_000)
            wa = try EventJournal(path: watch, device: "wa", clock: { behind })
            try wa.record(batch: Self.workout("wa3", weight: 70, at: behind))
            wa.close()
            run = try await sync(watch)
            #expect(run.stdout == #"{"user":"\#(user)","pulled":0,"merged":0,"pushed":3,"stored_by_server":3,"events":4,"cursor":"2-4"}"# + "\n", "\(run.stderr)")
            run = try await sync(phone)
            #expect(run.stdout == #"{"user":"\#(user)","pulled":4,"merged":3,"pushed":0,"stored_by_server":0,"events":4,"cursor":"2-4"}"# + "\n", "\(run.stderr)")
            events = try EventReader.events(path: phone)
            #expect(events.map(\.type) == ["data.erased", "workout.started", "set.completed", "workout.finished"])
            #expect(events.map(\.seq) == [5, 6, 7, 8])
            #expect(events.map(EventCodec.encode) == (try EventReader.events(path: watch)).map(EventCodec.encode))
            #expect(try Self.leaks(phone) == [])
            let restored = scratch.file("restored.journal")
            run = try await Subprocess.runDetached(journal, ["restore", "--server", url, "--token", token, "-o", restored], scratch: scratch.path)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(readFileBytes(restored) == readFileBytes(phone))
        }
        #expect(try await PostgresFixture.scalar("SELECT coalesce(sum(event_count), 0)::bigint FROM journal_batches WHERE user_id = \(user)") == 4)
    }

    @Test("the erasing device keeps out the older events it pulls before its marker reaches the server; the other device's unsynced older workout is erased everywhere")
    func erasingDeviceKeepsOlderEventsOut() async throws {
        let user = PostgresFixture.freshUser("zelda")
        let token = try await PostgresFixture.token(user: user)
        let scratch = ScratchDirectory("erase-first")
        let phone = scratch.file("phone.journal"), watch = scratch.file("watch.journal")
        try Self.zeldasPhone(phone)
        try await withServer { server in
            let client = SyncClient(server: server, token: token)
            _ = try await JournalSyncing.sync(phone, client: client)
            _ = try await JournalSyncing.sync(watch, client: client)
            // The watch logs a workout offline; the phone erases (ten days later) before the watch syncs it.
            let wa = try EventJournal(path: watch, device: "wa", clock: { Fixtures.start })
            try wa.record(batch: Self.workout("wa1", weight: 142.75, at: Fixtures.start.adding(milliseconds: 86_400_000)))
            wa.close()
            let erasing = try EventJournal(path: phone, device: "ph", clock: { Fixtures.start.adding(milliseconds: 10 * 86_400_000) })
            let marker = try erasing.eraseAllData().marker
            erasing.close()
            var report = try await JournalSyncing.sync(watch, client: client)
            #expect(report.storedByServer == 3)
            // The phone pulls the watch's workout, older than its marker: kept out; its marker erases the server's copy.
            report = try await JournalSyncing.sync(phone, client: client)
            #expect((report.pulled, report.merged, report.pushed, report.storedByServer, report.events) == (3, 0, 1, 1, 1))
            #expect(report.erasure == nil)
            #expect(try Self.leaks(phone) == [])
            #expect(try await PostgresFixture.scalar("SELECT coalesce(sum(event_count), 0)::bigint FROM journal_batches WHERE user_id = \(user)") == 1)
            // The watch's next sync erases everything it had, its unsynced older workout too.
            report = try await JournalSyncing.sync(watch, client: client)
            let erasure = try #require(report.erasure)
            #expect((erasure.marker, erasure.at, erasure.erased, erasure.kept) == (marker.id, "2026-01-15T18:00:00.000+01:00", 7, 0))
            // `journal sync --json`'s shape, erasure last.
            #expect(JSONWriter.string(report.jsonValue).hasSuffix(#""erasure":{"marker":"\#(marker.id)","at":"2026-01-15T18:00:00.000+01:00","erased":7,"kept":0}}"#))
            #expect((report.pulled, report.merged, report.pushed, report.events, report.cursor) == (1, 0, 0, 1, "2-1"))
            #expect(try Self.leaks(watch) == [])
            report = try await JournalSyncing.sync(phone, client: client)
            #expect((report.pulled, report.merged, report.pushed, report.events, report.cursor) == (1, 0, 0, 1, "2-1"))
            #expect(readFileBytes(phone) == readFileBytes(watch))
        }
    }
}
