import JournalFile
import Foundation
import JournalEvents
import JournalServer
import JournalStore
import JournalSync
import JournalTesting
import Logging
import PostgresNIO
import Testing

/// SYNC.md §"At-rest size": bytes per event on disk (`pg_total_relation_size`, indexes and TOAST included)
/// of the server's tables against a one-JSONB-row-per-event table holding the same events, in the same run,
/// on a cluster of the test's own. The server's copy must be at least 4x smaller.
@Suite("At-rest size of the server's copy against one JSONB row per event")
struct AtRestSizeTests {
    /// (profile, weeks, seed) of the simulated users (`journal simulate --profile P --weeks W --seed S`):
    /// four users, 23,101 events with SYNC_SIZE_FULL=1 (the figures in SYNC.md); two smaller ones in CI.
    static let users: [(String, Int, UInt64)] = ProcessInfo.processInfo.environment["SYNC_SIZE_FULL"] == "1"
        ? [("ppl", 26, 1), ("upper-lower-lb", 26, 2), ("full-body", 26, 3), ("new-user", 12, 4)]
        : [("ppl", 8, 1), ("new-user", 8, 4)]

    @Test("the server keeps simulated users' events at least 4x smaller than JSONB rows, pushed in bulk or a workout at a time")
    func atRestBytesPerEvent() async throws {
        let cluster = try PrivateCluster(name: "size")
        defer { cluster.stop() }
        let scratch = ScratchDirectory("size")
        var logger = Logger(label: "size")
        logger.logLevel = .error
        let client = PostgresClient(configuration: try DatabaseURL(cluster.url).clientConfiguration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let store = PostgresSyncStore(client: client, logger: logger)
            try await store.migrate()
            try await client.query("""
                CREATE TABLE jsonb_events (user_id text NOT NULL, event_id text NOT NULL, seq bigint NOT NULL, body jsonb NOT NULL,
                                           PRIMARY KEY (user_id, event_id))
                """)
            func bytes(_ table: String) async throws -> Int64 { try await AtRestSize.bytes(of: table, client: client, logger: logger) }
            func serverBytes() async throws -> Int64 {
                try await client.query("VACUUM FULL ANALYZE")
                return try await bytes("journal_batches") + bytes("journal_users")
            }
            // The empty tables' own pages (16 partitions' index meta pages, …) are not per-event: subtract them.
            let emptyServer = try await serverBytes()
            try await client.query("VACUUM FULL ANALYZE jsonb_events")
            let emptyJSONB = try await bytes("jsonb_events")
            var journals: [[Event]] = []
            for (index, (profile, weeks, seed)) in Self.users.enumerated() {
                journals.append(try Fixtures.simulatedJournal(at: scratch.file("user\(index).journal"), storage: PosixStorage(),
                                                              weeks: weeks, profile: profile, seed: seed))
            }
            let total = journals.map(\.count).reduce(0, +)
            // One JSONB row per event.
            for (index, events) in journals.enumerated() {
                let ids = events.map(\.id), seqs = events.map { Int64($0.seq) }
                let bodies = events.map { String(decoding: EventCodec.encode($0), as: UTF8.self) }
                try await client.query("""
                    INSERT INTO jsonb_events SELECT \("u\(index)"), id, seq, body::jsonb
                    FROM unnest(\(ids)::text[], \(seqs)::bigint[], \(bodies)::text[]) AS t(id, seq, body)
                    """)
            }
            try await client.query("VACUUM FULL ANALYZE jsonb_events")
            let jsonb = try await bytes("jsonb_events") - emptyJSONB
            // The server, pushed in bulk (a first sync): batches of the push limit.
            for (index, events) in journals.enumerated() {
                for start in stride(from: 0, to: events.count, by: SyncProtocol.maximumPushEvents) {
                    _ = try await store.push(user: "u\(index)", events: Array(events[start..<min(start + SyncProtocol.maximumPushEvents, events.count)]))
                }
            }
            let bulk = try await serverBytes() - emptyServer
            // The server, pushed by a device that syncs after every workout: one push per workout.finished.
            try await client.query("TRUNCATE journal_batches, journal_users")
            for (index, events) in journals.enumerated() {
                var pending: [Event] = []
                for event in events {
                    pending.append(event)
                    if event.type == "workout.finished" {
                        _ = try await store.push(user: "u\(index)", events: pending)
                        pending = []
                    }
                }
                if !pending.isEmpty { _ = try await store.push(user: "u\(index)", events: pending) }
            }
            let daily = try await serverBytes() - emptyServer
            func perEvent(_ bytes: Int64) -> String { String(format: "%.1f", Double(bytes) / Double(total)) }
            func ratio(_ bytes: Int64) -> String { String(format: "%.2f", Double(jsonb) / Double(bytes)) }
            print("at-rest (beyond the empty tables: server \(emptyServer) B, jsonb \(emptyJSONB) B): \(Self.users.count) simulated users, \(total) events; jsonb rows \(jsonb) B (\(perEvent(jsonb)) B/event); journal-server bulk \(bulk) B (\(perEvent(bulk)) B/event, \(ratio(bulk))x smaller); per-workout pushes \(daily) B (\(perEvent(daily)) B/event, \(ratio(daily))x smaller)")
            #expect(Double(jsonb) / Double(bulk) >= 4)
            #expect(Double(jsonb) / Double(daily) >= 4)
        }
    }
}
