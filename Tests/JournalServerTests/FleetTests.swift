import Foundation
import JournalEvents
import JournalFile
@testable import JournalServer
import JournalServerBench
import JournalStore
import JournalTesting
import Logging
import PostgresNIO
import Testing

/// `journal-server fleet ingest|verify|replay|export` (SCALE.md §"Fleet jobs"), each test on a database of its own
/// in the test process's cluster, so that its counts are exact.
@Suite("Fleet jobs: bulk ingest through COPY, then verify, replay and export every user's journal")
struct FleetTests {
    /// A fresh database in the test cluster; its URL.
    static func freshDatabase(_ name: String) async throws -> DatabaseURL {
        try DatabaseURL(try await freshDatabaseURL(name))
    }

    static func freshDatabaseURL(_ name: String) async throws -> String {
        let database = "fleet_\(name)_\(getpid())_\(UInt32.random(in: 0 ... .max))"
        let admin = PostgresClient(configuration: try DatabaseURL(try PostgresFixture.url()).clientConfiguration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await admin.run() }
            defer { group.cancelAll() }
            try await admin.query("CREATE DATABASE \(unescaped: database)")
        }
        let cluster = try PostgresFixture.url()
        guard let slash = cluster.lastIndex(of: "/") else { throw PostgresFixture.Failure(description: "cluster URL \(cluster) has no database") }
        return cluster[..<slash] + "/" + database
    }

    static func ingest(_ url: DatabaseURL, users: Int, weeks: Int = 1, prefix: String = "sim") async throws -> FleetIngest.Report {
        try await withFleetClient(url, migrate: true) { client, logger in
            try await FleetIngest.run(client: client, logger: logger, users: users, seed: 1, weeks: weeks, prefix: prefix, jobs: 2)
        }
    }

    static func run(_ job: FleetJob, _ url: DatabaseURL, jobs: Int = 2) async throws -> FleetReport {
        try await withFleetClient(url, migrate: false) { client, logger in
            try await FleetRunner(client: client, logger: logger).run(job, jobs: jobs)
        }
    }

    static func execute(_ url: DatabaseURL, _ query: PostgresQuery) async throws {
        _ = try await withFleetClient(url, migrate: false) { client, logger in try await client.query(query, logger: logger) }
    }

    /// The fleet's size: 300 users in CI, `FLEET_USERS=2000` for the size of SCALE.md's figures.
    static let users = Int(ProcessInfo.processInfo.environment["FLEET_USERS"] ?? "") ?? 300
    /// The events the simulator gives the first N users (seed 1, one week each), for the sizes pinned.
    static let eventsOfUsers = [300: 68_406, 2000: 460_697]

    @Test("simulated users through COPY (300 in CI, FLEET_USERS for more): fleet verify finds every acknowledged event and no problem")
    func ingestAndVerify() async throws {
        let url = try await Self.freshDatabase("verify")
        let ingested = try await Self.ingest(url, users: Self.users)
        #expect(ingested.users == Self.users)
        if let events = Self.eventsOfUsers[Self.users] { #expect(ingested.events == events) }
        let size = try await withFleetClient(url, migrate: false) { client, logger in try await AtRestSize.measure(client: client, logger: logger) }
        #expect(size.users == Self.users)
        #expect(size.events == ingested.events)
        let report = try await Self.run(.verify, url, jobs: 2)
        #expect(report.users == Self.users)
        #expect(report.events == ingested.events)
        #expect(report.problems == [])
        #expect(report.problemCount == 0)
    }

    @Test("ingest stores a user's events exactly as pushes of the same events do")
    func ingestRowsArePushRows() async throws {
        let url = try await Self.freshDatabase("rows")
        // Three weeks: some users pass 512 events, so a sealed batch and a growing one.
        _ = try await Self.ingest(url, users: 4, weeks: 3)
        var batchCounts: [Int] = []
        try await withFleetClient(url, migrate: false) { client, logger in
            let store = PostgresSyncStore(client: client, logger: logger)
            for index in 0..<4 {
                let events = try FleetIngest.simulatedEvents(index: index, seed: 1, weeks: 3)
                for start in stride(from: 0, to: events.count, by: 100) {
                    _ = try await store.push(user: "pushed-\(index)", events: Array(events[start..<min(start + 100, events.count)]))
                }
            }
        }
        for index in 0..<4 {
            let ingested = try await Self.rows(url, user: FleetIngest.user(prefix: "sim", index: index))
            let pushed = try await Self.rows(url, user: "pushed-\(index)")
            // However the pushes were split, every position holds the same line and id; the sealed batches (their
            // compactions) are byte for byte ingest's, id ranges included, from the one encoder (`StoredBatch`).
            #expect(try Self.content(ingested) == Self.content(pushed), "user \(index): the events of ingest and of pushes differ")
            #expect(ingested.filter { $0.count == StoredBatch.targetEvents } == pushed.filter { $0.count == StoredBatch.targetEvents },
                    "user \(index): the sealed batches of ingest and of pushes differ")
            batchCounts.append(ingested.count)
        }
        #expect(batchCounts == [1, 3, 2, 1])
    }

    @Test("a push reads a sealed batch's ids only when its id ranges may hold a pushed id, and still finds every stored one")
    func idRangesFindStoredEvents() async throws {
        let url = try await Self.freshDatabase("ranges")
        _ = try await Self.ingest(url, users: 2, weeks: 3)
        let user = FleetIngest.user(prefix: "sim", index: 1)   // two sealed batches and an open one
        let events = try FleetIngest.simulatedEvents(index: 1, seed: 1, weeks: 3)
        let ingested = try await Self.idRanges(url, user: user)
        #expect(ingested == ["ph:1-e8", "ph:e9-sg", "ph:sh-zm"])
        @Sendable func setting(_ id: String) throws -> Event {
            try EventCodec.decode(Array(#"{"v":1,"seq":1,"id":"\#(id)","at":"2025-03-01T10:00:00.000+00:00","type":"settings.changed","key":"theme","value":"dark"}"#.utf8))
        }
        try await withFleetClient(url, migrate: false) { client, logger in
            let store = PostgresSyncStore(client: client, logger: logger)
            // A retry of events of the first sealed batch, with one new event: only the new one is stored.
            let retried = try await store.push(user: user, events: Array(events[10..<20]) + [try setting("tab-1")])
            #expect(retried.stored == 1)
            #expect(retried.acknowledged.count == 11)
            // A stored id with other content, in the second sealed batch, is found and refused.
            do {
                _ = try await store.push(user: user, events: [try setting(events[700].id)])
                Issue.record("a conflicting id in a sealed batch was stored")
            } catch let failure as SyncFailure {
                #expect(failure.description == "409 id_conflict: event id ph-jh is already stored for user sim-0000001 with different content (two devices with the same device tag?); nothing was stored")
            }
        }
        let pushed = try await Self.idRanges(url, user: user)
        #expect(pushed == ["ph:1-e8", "ph:e9-sg", "ph:sh-zm", "tab:1-1"])
        // Batches stored before migration 4 have no ranges: their ids are looked into whatever the pushed ids, and a
        // retry stores nothing, of a sealed batch (its ids frame read) or of the open one.
        try await Self.execute(url, "UPDATE journal_batches SET id_ranges = NULL WHERE user_id = \(user)")
        try await withFleetClient(url, migrate: false) { client, logger in
            let again = try await PostgresSyncStore(client: client, logger: logger).push(
                user: user, events: Array(events[600..<610]) + Array(events[1030..<1035]))
            #expect(again.stored == 0)
            #expect(again.acknowledged.count == 15)
        }
        // Wrong ranges would let a push store an event twice: fleet verify reports them.
        try await Self.execute(url, "UPDATE journal_batches SET id_ranges = 'ph:1-2' WHERE user_id = \(user) AND last_position = 512")
        let report = try await Self.run(.verify, url)
        #expect(report.problems.map(\.reason) == [#"journal_batches: the id_ranges of positions 1…512 are "ph:1-2" but its ids give "ph:1-e8""#])
    }

    @Test("fleet verify names the user and the reason of a damaged block, a missing batch and a head past the batches")
    func problemsNameTheUser() async throws {
        let text = try await Self.freshDatabaseURL("damage")
        let url = try DatabaseURL(text)
        _ = try await Self.ingest(url, users: 50)
        let damaged = FleetIngest.user(prefix: "sim", index: 7), truncated = FleetIngest.user(prefix: "sim", index: 21)
        // One byte of the zstd frame flipped (byte 20 of the block: inside the frame, before its checksum frame).
        try await Self.execute(url, """
            UPDATE journal_batches SET block = set_byte(block, 20, get_byte(block, 20) # 255) WHERE user_id = \(damaged)
            """)
        // An acknowledged event that is not stored.
        try await Self.execute(url, "UPDATE journal_users SET head = head + 1 WHERE user_id = \(truncated)")
        let report = try await Self.run(.verify, url)
        #expect(report.users == 50)
        #expect(report.usersWithProblems == 2)
        #expect(report.problems.map(\.user) == [damaged, damaged, truncated, truncated])
        #expect(report.problems.map(\.reason) == [
            // The damaged block is the file's last frame: `journal verify` sees a torn tail (the next writer would cut it).
            "torn tail at byte 16 (3925 bytes): the frame's 3913 bytes have CRC-32C 0xAC8FB89F but its checksum frame holds 0x70BA9BD4",
            "the journal holds 0 events but the server acknowledged 184 (journal_users.head)",
            "journal_users.head is 406 but the batches end at position 405: acknowledged events are missing",
            "the journal holds 405 events but the server acknowledged 406 (journal_users.head)",
        ])
        // The command: the same report, exit status 2.
        let binary = try builtExecutable("journal-server", override: "JOURNAL_SERVER_BIN")
        let scratch = ScratchDirectory("fleet-cli")
        var run = try Subprocess.run(binary, ["fleet", "verify", "--database", text, "--jobs", "2"], scratch: scratch.path)
        #expect(run.status == 2)
        #expect(run.stderr == "")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("  ") } == report.problems.map { "  \($0.user): \($0.reason)" })
        #expect(lines.contains("users:        50"))
        #expect(lines.contains("problems:     4 in 2 users"))
        run = try Subprocess.run(binary, ["fleet", "verify", "--database", text, "--json"], scratch: scratch.path)
        #expect(run.status == 2)
        #expect(run.stdout.contains(#""problem_count":4,"problems":[{"reason":"#))
        #expect(run.stdout.contains(#""users":50,"users_per_second":"#))
    }

    @Test("fleet export writes each user's journal in the journal's own format; each verifies clean with the ingested events")
    func exportWritesJournals() async throws {
        let url = try await Self.freshDatabase("export")
        let ingested = try await Self.ingest(url, users: 40)
        let scratch = ScratchDirectory("fleet-export")
        let report = try await Self.run(.export(directory: scratch.path), url)
        #expect(report.users == 40)
        #expect(report.filesWritten == 40)
        #expect(report.events == ingested.events)
        #expect(ingested.events == 8900)
        #expect(report.problemCount == 0)
        var events = 0
        for index in 0..<40 {
            let path = FleetExport.path(user: FleetIngest.user(prefix: "sim", index: index), directory: scratch.path)
            let verified = try JournalVerifier.verify(path: path)
            #expect(verified.isClean, "\(path): \(verified.problems)")
            #expect(verified.events == (try FleetIngest.simulatedEvents(index: index, seed: 1, weeks: 1)).count)
            events += verified.events
        }
        #expect(events == ingested.events)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).count == 40)
        // The fold of the same journals, with one worker and with two: the same totals.
        for jobs in [1, 2] {
            let replay = try await Self.run(.replay, url, jobs: jobs)
            #expect(replay.users == 40)
            #expect(replay.events == ingested.events)
            #expect(replay.workoutsFinished == 98)
            #expect(replay.workingSets == 2421)
            #expect(replay.problemCount == 0)
        }
    }
}

extension FleetTests {
    struct Row: Equatable, Sendable {
        var first: Int64, last: Int64, count: Int, ids: [UInt8], block: [UInt8], idRanges: String?
    }

    /// The lines and ids of `rows`, in position order.
    static func content(_ rows: [Row]) throws -> Content {
        Content(lines: try rows.flatMap { try StoredBatch.lines(ofBlock: $0.block) }, ids: try rows.flatMap { try StoredBatch.ids(ofFrame: $0.ids) })
    }

    struct Content: Equatable { var lines: [[UInt8]], ids: [String] }

    /// A user's `journal_batches.id_ranges` in position order ("NULL" for none).
    static func idRanges(_ url: DatabaseURL, user: String) async throws -> [String] {
        try await withFleetClient(url, migrate: false) { client, logger in
            var ranges: [String] = []
            for try await text in try await client.query("""
                SELECT id_ranges FROM journal_batches WHERE user_id = \(user) ORDER BY last_position
                """, logger: logger).decode(String?.self) { ranges.append(text ?? "NULL") }
            return ranges
        }
    }

    /// A user's `journal_batches` rows in position order.
    static func rows(_ url: DatabaseURL, user: String) async throws -> [Row] {
        try await withFleetClient(url, migrate: false) { client, logger in
            var rows: [Row] = []
            for try await (first, last, count, ids, block, ranges) in try await client.query("""
                SELECT first_position, last_position, event_count, ids, block, id_ranges FROM journal_batches WHERE user_id = \(user) ORDER BY last_position
                """, logger: logger).decode((Int64, Int64, Int, ByteBuffer, ByteBuffer, String?).self) {
                rows.append(Row(first: first, last: last, count: count, ids: Array(buffer: ids), block: Array(buffer: block), idRanges: ranges))
            }
            return rows
        }
    }
}
