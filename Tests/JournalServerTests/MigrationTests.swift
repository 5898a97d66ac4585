import Foundation
import JournalEvents
@testable import JournalServer
import JournalSync
import JournalTesting
import Logging
import PostgresNIO
import Testing

/// Forward-only migrations (SYNC.md §"Schema") apply on a database an earlier server wrote, keep what it holds, and
/// leave a schema this server reads and writes.
@Suite("schema migrations apply on an earlier server's database")
struct MigrationTests {
    static func event(_ id: String, at: Timestamp, _ type: String = "profile.updated", _ fields: JSONObject = ["name": "Ana"]) -> Event {
        Event(seq: 1, id: id, at: at, type: type, fields: fields)
    }

    static func column(_ name: String, of table: String, _ client: PostgresClient, _ logger: Logger) async throws -> Int {
        var count = 0
        for try await value in try await client.query("""
            SELECT count(*)::integer FROM information_schema.columns WHERE table_name = \(table) AND column_name = \(name)
            """, logger: logger).decode(Int.self) { count = value }
        return count
    }

    static func pulled(_ store: PostgresSyncStore, user: String) async throws -> (ids: [String], cursor: String) {
        let page = try await store.pull(user: user, after: .start, limit: 100)
        return (try page.lines.map { try EventCodec.decode($0).id }, page.cursor.description)
    }

    @Test("migration 12 on a database of migration 11 with an erased user: the erasure time's column is gone, the journals and their epochs are kept, and pushes timed before the old erasure time are stored")
    func dropErasureTime() async throws {
        let url = try await FleetTests.freshDatabase("migrations")
        try await withFleetClient(url, migrate: false) { client, logger in
            let store = PostgresSyncStore(client: client, logger: logger)
            try await store.migrate(through: 11)
            #expect(try await Self.column("erased_before_ms", of: "journal_users", client, logger) == 1)
            // What a server of migration 11 wrote: a user erased once (epoch 2, the erasure time set as servers of
            // migration 2 set it), holding the marker and two events stored after it.
            let erasedAt = Fixtures.start.adding(milliseconds: 86_400_000)
            let held = [Self.event("ph-9", at: erasedAt, "data.erased", ["through_seq": 8, "events": 8]),
                        Self.event("ph-a", at: erasedAt.adding(milliseconds: 1)), Self.event("ph-b", at: erasedAt.adding(milliseconds: 2))]
            let row = StoredBatch.rows(held)[0]
            try await client.query("""
                INSERT INTO journal_users (user_id, head, epoch, erased_before_ms) VALUES ('old', 3, 2, \(erasedAt.epochMilliseconds))
                """, logger: logger)
            try await client.query("""
                INSERT INTO journal_batches (user_id, first_position, last_position, event_count, ids, block, id_ranges)
                VALUES ('old', 1, \(row.last), \(Int32(row.eventCount)), \(ByteBuffer(bytes: row.ids)), \(ByteBuffer(bytes: row.block)), \(row.idRanges))
                """, logger: logger)
            #expect(try await Self.pulled(store, user: "old") == (["ph-9", "ph-a", "ph-b"], "2-3"))
            // Migration 6's group read, as servers of then call it: the user's row with its erasure time, then its batch.
            var rows: [String] = []
            for try await (head, erasedBefore, last) in try await client.query("""
                SELECT r_head, r_erased_before_ms, r_last FROM journal_lock_group(ARRAY['old'], 512)
                """, logger: logger).decode((Int64?, Int64?, Int64?).self) {
                rows.append("\(head.map(String.init) ?? "-") \(erasedBefore.map(String.init) ?? "-") \(last.map(String.init) ?? "-")")
            }
            #expect(rows == ["3 \(erasedAt.epochMilliseconds) -", "- - 3"])

            try await store.migrate()
            var versions: [Int] = []
            for try await version in try await client.query("SELECT version FROM journal_schema_migrations ORDER BY version", logger: logger).decode(Int.self) {
                versions.append(version)
            }
            #expect(versions == Array(1...12))
            #expect(try await Self.column("erased_before_ms", of: "journal_users", client, logger) == 0)
            #expect(try await Self.pulled(store, user: "old") == (["ph-9", "ph-a", "ph-b"], "2-3"))

            // A new device's events timed a year before the old erasure time are stored after it, in the same epoch.
            let early = [Self.event("tab-1", at: erasedAt.adding(milliseconds: -365 * 86_400_000)),
                         Self.event("tab-2", at: erasedAt.adding(milliseconds: -365 * 86_400_000 + 1))]
            let pushed = try await store.push(user: "old", events: early)
            #expect(pushed.acknowledged == ["tab-1", "tab-2"])
            #expect(pushed.stored == 2)
            #expect(pushed.cursor.description == "2-5")
            // An erasure still moves the epoch, without the column.
            let erased = try await store.push(user: "old", events: [Self.event("tab-3", at: erasedAt.adding(milliseconds: -1), "data.erased", ["through_seq": 2, "events": 2])])
            #expect(erased.cursor.description == "3-1")
            #expect(try await Self.pulled(store, user: "old") == (["tab-3"], "3-1"))
            // A new user is made by the new group read.
            #expect(try await store.push(user: "new", events: early).cursor.description == "1-2")

            // Migrating again changes nothing.
            try await store.migrate()
            #expect(try await Self.pulled(store, user: "new") == (["tab-1", "tab-2"], "1-2"))
        }
    }
}
