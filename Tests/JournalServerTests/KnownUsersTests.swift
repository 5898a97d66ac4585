import Foundation
import JournalEvents
import JournalSync
@testable import JournalServer
import JournalServerBench
import Logging
import PostgresNIO
import Testing
import Prometheus

/// `KnownUsers` (SCALE.md §"Known users"): a push of a user this server committed for last is planned on what it
/// knows and written in one statement that checks the user's head; when another writer moved the head, nothing of
/// that statement is written and the push is read again under the lock.
@Suite("Known users: a push planned on what this server last committed, checked against the database's head", .serialized)
struct KnownUsersTests {
    /// The server's counters of group commits (`ServerMetrics`), as `GET /metrics` shows them: known, locked, head moved.
    static func groupCounters() -> [Int] {
        let text = String(decoding: ServerMetrics.registry.emitToBuffer(), as: UTF8.self)
        return [#"journal_sync_group_commits_total{path="known"}"#, #"journal_sync_group_commits_total{path="locked"}"#,
                "journal_sync_known_head_moved_total"].map { name in
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        }
    }

    @Test("two servers pushing to one user in turn: each finds the other's events, stores every event once, positions without gaps")
    func twoServers() async throws {
        let url = try await FleetTests.freshDatabase("known")
        let user = "two-servers"
        let events = try FleetIngest.simulatedEvents(index: 0, seed: 1, weeks: 1)
        try #require(events.count >= 8)
        let before = Self.groupCounters()
        try await withFleetClient(url, migrate: true) { client, logger in
            let first = PostgresSyncStore(client: client, logger: logger)
            let second = PostgresSyncStore(client: client, logger: logger)
            /// What a push of `events[range]` through `store` stored, and the cursor it answered: "stored cursor".
            func pushed(_ store: PostgresSyncStore, _ range: Range<Int>) async throws -> String {
                let outcome = try await store.push(user: user, events: Array(events[range]))
                return "\(outcome.stored) \(outcome.cursor)"
            }
            #expect(try await pushed(first, 0..<3) == "3 1-3")
            #expect(first.knownUsers.count == 1)
            // The second server knows nothing of the user: it reads the user under the lock.
            #expect(try await pushed(second, 3..<5) == "2 1-5")
            // The first server still knows the user at position 3: its statement finds position 5, writes nothing,
            // and the push runs again under the lock.
            #expect(try await pushed(first, 5..<7) == "2 1-7")
            // Now it knows the second server's events too: a retry of them stores nothing.
            #expect(try await pushed(first, 3..<5) == "0 1-7")
            // The second server's knowledge (position 5) is stale: nothing stored twice, the head unchanged.
            #expect(try await pushed(second, 0..<8) == "1 1-8")
            #expect(second.knownUsers.count == 1)
            let page = try await first.pull(user: user, after: .start, limit: 100)
            #expect(try page.lines.map { try EventCodec.decode($0).id } == events[0..<8].map(\.id))
            #expect(try page.lines.map { try EventCodec.decode($0).seq } == Array(1...8))
        }
        // One group went the known way (the retry through the first server); four were read under the lock (each
        // server's first push, the user new to it; the two whose known head had moved, which sent them back).
        #expect(zip(Self.groupCounters(), before).map { $0 - $1 } == [1, 4, 2])
        let rows = try await FleetTests.rows(url, user: user)
        #expect(rows.map(\.first) == [1, 4, 6, 8])
        #expect(rows.map(\.last) == [3, 5, 7, 8])
    }

    @Test("pushes planned on what the server knows leave exactly the rows of pushes read under the lock, compactions and refusals included")
    func knownEqualsLocked() async throws {
        let url = try await FleetTests.freshDatabase("known_rows")
        // Enough events for a sealed batch; pushed in small pushes, so open batches are compacted many times.
        let events = try FleetIngest.simulatedEvents(index: 1, seed: 1, weeks: 3)
        try #require(events.count > StoredBatch.targetEvents)
        let conflicting = try EventCodec.decode(Array(
            #"{"v":1,"seq":1,"id":"\#(events[2].id)","at":"2025-03-01T10:00:00.000+00:00","type":"settings.changed","key":"theme","value":"dark"}"#.utf8))
        let refusals = try await withFleetClient(url, migrate: true) { client, logger in
            let known = PostgresSyncStore(client: client, logger: logger)
            var refusals: [String] = []
            for start in stride(from: 0, to: events.count, by: 7) {
                let chunk = Array(events[start..<min(start + 7, events.count)])
                _ = try await known.push(user: "known", events: chunk)
                // A fresh store knows nothing: every one of its pushes is read under the lock.
                _ = try await PostgresSyncStore(client: client, logger: logger).push(user: "locked", events: chunk)
                if start == 70 {
                    for (user, store) in [("known", known), ("locked", PostgresSyncStore(client: client, logger: logger))] {
                        // A retry of earlier events (some of them compacted since) stores nothing...
                        #expect(try await store.push(user: user, events: Array(events[0..<20])).stored == 0)
                        // ...and a stored id with other content is refused.
                        do {
                            _ = try await store.push(user: user, events: [conflicting])
                        } catch let failure as SyncFailure {
                            refusals.append(failure.description)
                        }
                    }
                }
            }
            #expect(known.knownUsers.count == 1)
            return refusals
        }
        #expect(refusals == [
            "409 id_conflict: event id \(events[2].id) is already stored for user known with different content (two devices with the same device tag?); nothing was stored",
            "409 id_conflict: event id \(events[2].id) is already stored for user locked with different content (two devices with the same device tag?); nothing was stored",
        ])
        let known = try await FleetTests.rows(url, user: "known")
        let locked = try await FleetTests.rows(url, user: "locked")
        #expect(known == locked)
        #expect(known.map(\.count).reduce(0, +) == events.count)
        #expect(known.first?.count == StoredBatch.targetEvents)
    }

    @Test("a journal pushed one event at a time is stored as tiers of open batches, the same read under the lock or not")
    func tiers() async throws {
        let url = try await FleetTests.freshDatabase("tiers")
        let events = Array(try FleetIngest.simulatedEvents(index: 1, seed: 1, weeks: 4).prefix(600))
        try #require(events.count == 600)
        try await withFleetClient(url, migrate: true) { client, logger in
            let known = PostgresSyncStore(client: client, logger: logger)
            for event in events {
                _ = try await known.push(user: "known", events: [event])
                _ = try await PostgresSyncStore(client: client, logger: logger).push(user: "locked", events: [event])
            }
        }
        let known = try await FleetTests.rows(url, user: "known")
        #expect(known == (try await FleetTests.rows(url, user: "locked")))
        #expect(known.map(\.count) == [512, 64, 8, 8, 8])
        #expect(known.map(\.first) == [1, 513, 577, 585, 593])
        let content = try FleetTests.content(known)
        #expect(content.ids == events.map(\.id))
        #expect(try content.lines.map { try EventCodec.decode($0).seq } == Array(1...600))
    }

    @Test("a known group's heads move only all together: the first user whose head moved is named, and nothing is written")
    func headsChecked() async throws {
        let url = try await FleetTests.freshDatabase("known_heads")
        let users = ["heads-a", "heads-b", "heads-c"]
        /// Each user's head, epoch and number of batches.
        @Sendable func stored(_ client: PostgresClient, _ logger: Logger) async throws -> [String] {
            var lines: [String] = []
            for try await (user, head, epoch, batches) in try await client.query("""
                SELECT u.user_id, u.head, u.epoch, (SELECT count(*) FROM journal_batches b WHERE b.user_id = u.user_id)
                FROM journal_users u WHERE u.user_id = ANY(\(users)) ORDER BY u.user_id
                """, logger: logger).decode((String, Int64, Int64, Int64).self) {
                lines.append("\(user) \(head) \(epoch) \(batches)")
            }
            return lines
        }
        /// A group of the three users, one new batch each, planned on `expected` heads.
        @Sendable func group(expected: [Int64]) -> Statements.WriteKnownGroup {
            var writes = Statements.WriteGroup(sealedCount: Int32(StoredBatch.targetEvents))
            for (user, head) in zip(users, expected) {
                writes.batches.add(user: user, first: head + 1, lines: [Array("{\"n\":\(head + 1)}".utf8)], ids: ["ph-\(head + 1)"])
            }
            return Statements.WriteKnownGroup(tokens: [], users: users, expectedHeads: expected, epochs: [1, 1, 1],
                                              heads: expected.map { $0 + 1 }, writes: writes)
        }
        try await withFleetClient(url, migrate: true) { client, logger in
            try await client.query("INSERT INTO journal_users (user_id, head) VALUES ('heads-a', 2), ('heads-b', 4), ('heads-c', 0)", logger: logger)
            // heads-b is at 4, not 3, and heads-c at 0, not 1: the first that differs, in the order given, is named.
            var reason = ""
            do {
                try await client.withConnection { try await $0.run(group(expected: [2, 3, 1]), logger: logger) }
            } catch let error as PSQLError {
                reason = "\(error.serverInfo?[.sqlState] ?? "") \(error.serverInfo?[.message] ?? "")"
            }
            #expect(reason == "\(PostgresSyncStore.headMovedState) user heads-b is no longer at position 3 of epoch 1")
            #expect(try await stored(client, logger) == ["heads-a 2 1 0", "heads-b 4 1 0", "heads-c 0 1 0"])
            // Planned on the heads as they are, every head moves and every batch is written.
            try await client.withConnection { try await $0.run(group(expected: [2, 4, 0]), logger: logger) }
            #expect(try await stored(client, logger) == ["heads-a 3 1 1", "heads-b 5 1 1", "heads-c 1 1 1"])
        }
    }

    @Test("the known users are bounded in bytes: past the budget, users are forgotten")
    func bounded() {
        let users = KnownUsers(byteBudget: 1_000)
        let small = PostgresSyncStore.UserState(head: 3, epoch: 1, batches: [])
        #expect(small.bytes == 64)
        users.keep(Dictionary(uniqueKeysWithValues: (0..<20).map { ("user-\($0)", small) }))
        #expect(users.count == 15)   // 15 × 64 = 960 bytes
        #expect(users.take((0..<20).map { "user-\($0)" } + ["nobody"]).count == 15)
        #expect(users.count == 0)
        let huge = PostgresSyncStore.UserState(head: 9, batches: [PostgresSyncStore.StoredRow(last: 9, count: 9, ids: Array(repeating: "ph-1", count: 40))])
        users.keep(["huge": huge])
        #expect(users.take(["huge"]).isEmpty)
    }
}
