import JournalFile
import Foundation
import Hummingbird
import HummingbirdTesting
import JournalEvents
import JournalServer
import JournalStore
import JournalSync
import JournalTesting
import Logging
import PostgresNIO
import Testing

/// Runs `body` with a live journal-server (real socket, real PostgreSQL) and a client for it.
func withServer(_ body: @escaping @Sendable (URL) async throws -> Void) async throws {
    let app = try await buildApplication(try PostgresFixture.configuration())
    try await app.test(.live) { client in
        let port = try #require(client.port)
        try await body(URL(string: "http://127.0.0.1:\(port)")!)
    }
}

/// A small journal on disk recorded with the library's own rules, for pushes.
func recordedEvents(device: String, workouts: Int, in directory: ScratchDirectory, name: String = "device.journal") throws -> [Event] {
    try Fixtures.smallJournal(at: directory.file(name), storage: PosixStorage(), device: device, workouts: workouts, setsPerWorkout: 2, openSets: 0)
}

@Suite("journal-server: push and pull against a real PostgreSQL")
struct SyncRoundTripTests {
    @Test("a push is acknowledged with the server's cursor; a pull returns the same events; a retried push stores nothing")
    func pushPullRoundTrip() async throws {
        let user = PostgresFixture.freshUser()
        let token = try await PostgresFixture.token(user: user)
        let scratch = ScratchDirectory("roundtrip")
        let events = try recordedEvents(device: "ph", workouts: 2, in: scratch)
        #expect(events.count == 8)
        try await withServer { server in
            let client = SyncClient(server: server, token: token)
            #expect(try await client.whoami() == SyncClient.Identity(user: user, role: "user"))
            let first = try await client.push(user: user, events: events)
            #expect(first.acknowledged == events.map(\.id))
            #expect(first.stored == 8)
            #expect(first.cursor == "1-8")
            let again = try await client.push(user: user, events: events)
            #expect(again.stored == 0)
            #expect(again.cursor == "1-8")
            let page = try await client.pull(user: user, after: .start)
            #expect(page.cursor == SyncCursor(epoch: 1, position: 8))
            #expect(page.more == false)
            #expect(page.events.map(Merge.identity) == events.map(Merge.identity))
            #expect(page.events.map(\.seq) == Array(1...8))
            let rest = try await client.pull(user: user, after: SyncCursor(epoch: 1, position: 5))
            #expect(rest.events.map(\.id) == events[5...].map(\.id))
            let paged = try await client.pull(user: user, after: .start, limit: 3)
            #expect(paged.events.map(\.id) == events[..<3].map(\.id))
            #expect(paged.more == true)
            #expect(paged.cursor.description == "1-3")
        }
        #expect(try await PostgresFixture.scalar("SELECT count(*) FROM journal_batches WHERE user_id = \(user)") == 1)
    }
}

extension SyncRoundTripTests {
    @Test("data.cleared after account.deleted erases every event stored or pushed before it; old cursors are unknown; what is pushed after it is stored, whatever its at")
    func accountErasure() async throws {
        let user = PostgresFixture.freshUser("erase")
        let token = try await PostgresFixture.token(user: user)
        let scratch = ScratchDirectory("erase")
        let path = scratch.file("device.journal")
        let workouts = try recordedEvents(device: "ph", workouts: 2, in: scratch)
        let journal = try EventJournal(path: path, device: "ph", clock: { Fixtures.start.adding(milliseconds: 10 * 86_400_000) })
        let deletion = try journal.record(batch: [.object(["type": "account.deleted"]), .object(["type": "data.cleared"])])
        journal.close()
        try await withServer { server in
            let client = SyncClient(server: server, token: token)
            let first = try await client.push(user: user, events: workouts)
            #expect(first.cursor == "1-8")
            let erase = try await client.push(user: user, events: deletion)
            #expect(erase.acknowledged == ["ph-9", "ph-a"])
            #expect(erase.stored == 2)
            #expect(erase.cursor == "2-1")
            let page = try await client.pull(user: user, after: .start)
            #expect(page.events.map(\.type) == ["data.cleared"])
            #expect(page.cursor.description == "2-1")
            do {
                _ = try await client.pull(user: user, after: SyncCursor(epoch: 1, position: 8))
                Issue.record("an erased epoch's cursor was accepted")
            } catch {
                #expect(error as? SyncClient.Failure == .refused(status: 410, code: "unknown_cursor", message: "cursor 1-8 belongs to an earlier copy of user \(user)'s journal (now epoch 2, erased since); pull from cursor 0"))
            }
            // Events pushed after the erasure, timed ten days before it, are stored: acknowledged means stored.
            let again = try await client.push(user: user, events: workouts)
            #expect(again.stored == 8)
            #expect(again.cursor == "2-9")
            #expect(try await client.pull(user: user, after: .start).events.map(\.id) == ["ph-a"] + workouts.map(\.id))
        }
        #expect(try await PostgresFixture.scalar("SELECT coalesce(sum(event_count), 0)::bigint FROM journal_batches WHERE user_id = \(user)") == 9)
    }
}

extension SyncRoundTripTests {
    @Test("the server's connections plan a statement on the partitioned tables once, not on every run")
    func genericPlans() async throws {
        var logger = Logger(label: "plans")
        logger.logLevel = .error
        let client = PostgresClient(configuration: try DatabaseURL(try PostgresFixture.url()).clientConfiguration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await PostgresSyncStore(client: client, logger: logger).migrate()
            try await client.withConnection { connection in
                try await connection.query("PREPARE head_probe(text) AS SELECT head FROM journal_users WHERE user_id = $1", logger: logger)
                for _ in 1...7 { try await connection.query("EXECUTE head_probe('nobody')", logger: logger) }
                let rows = try await connection.query("""
                    SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'head_probe'
                    """, logger: logger)
                var plans: [(Int64, Int64)] = []
                for try await row in rows.decode((Int64, Int64).self) { plans.append(row) }
                // Without `plan_cache_mode = force_generic_plan` PostgreSQL 15 plans this one 7 times (0, 7).
                #expect(plans.map(\.0) == [7])
                #expect(plans.map(\.1) == [0])
                try await connection.query("DEALLOCATE head_probe", logger: logger)
            }
        }
    }
}
