import Foundation
import JournalEvents
import JournalFile
import JournalModel
import JournalProjections
import JournalStore
import Logging
import NIOCore
import PostgresNIO
import TrainingDomain

/// `journal-server fleet verify|replay|export` (SCALE.md §"Fleet jobs"): every user's journal, streamed from
/// PostgreSQL a page of users at a time, checked or folded by the journal's own code on worker threads.
public enum FleetJob: Sendable, Equatable {
    /// `journal verify` on each user's journal (`JournalVerifier`, with the built-in catalogue as the CLI checks it).
    case verify
    /// `journal replay`'s summary of each (`ReplaySummary`: the one fold, `Ledger`).
    case replay
    /// Each user's journal written to `directory/USER.journal` in the journal's own format.
    case export(directory: String)

    /// Whether the job decodes the events (and so can count them against the acknowledged head).
    var readsEvents: Bool { if case .export = self { false } else { true } }

    public var name: String {
        switch self {
        case .verify: "verify"
        case .replay: "replay"
        case .export: "export"
        }
    }
}

/// One user's journal as the server stores it (SYNC.md §"Schema"), read in one snapshot.
public struct StoredJournal: Sendable {
    public struct Batch: Sendable {
        public var first: Int64
        public var last: Int64
        public var eventCount: Int
        public var ids: [UInt8]
        public var block: [UInt8]
        /// `journal_batches.id_ranges` (`IDRanges`); nil for a batch stored before migration 4.
        public var idRanges: String?
    }

    public var user: String
    /// `journal_users.head`: how many events the server acknowledged as stored.
    public var head: Int64
    public var batches: [Batch] = []

    /// The journal file of this user: `Layout.header` and the blocks in position order.
    public var journalBytes: [UInt8] { StoredBatch.journal(blocks: batches.map(\.block)) }

    /// What the server's own rules say of its rows, before the journal is read: positions run 1…head without
    /// gaps or overlaps (so no acknowledged event is missing), each batch's ids frame lists as many ids as it holds
    /// events, and its id ranges (when it has them) are its ids' (a push that trusted wrong ranges could store an
    /// event twice). One line a problem.
    public var storeProblems: [String] {
        var problems: [String] = []
        var expected: Int64 = 1
        for batch in batches {
            if batch.first != expected {
                problems.append("journal_batches: the batch of positions \(batch.first)…\(batch.last) should start at position \(expected) (positions must run 1…head without gaps or overlaps)")
            }
            do {
                let ids = try StoredBatch.ids(ofFrame: batch.ids)
                if ids.count != batch.eventCount {
                    problems.append("journal_batches: the ids frame of positions \(batch.first)…\(batch.last) lists \(ids.count) ids for \(batch.eventCount) events")
                }
                if let ranges = batch.idRanges, case let actual = IDRanges(ids: ids)?.text, ranges != actual {
                    problems.append("journal_batches: the id_ranges of positions \(batch.first)…\(batch.last) are \(ranges.debugDescription) but its ids give \(actual.map(\.debugDescription) ?? "none (NULL)")")
                }
            } catch {
                problems.append("journal_batches: the ids frame of positions \(batch.first)…\(batch.last) is damaged: \(error)")
            }
            expected = batch.last + 1
        }
        if expected - 1 != head {
            problems.append("journal_users.head is \(head) but the batches end at position \(expected - 1): \(head > expected - 1 ? "acknowledged events are missing" : "events are stored past the acknowledged head")")
        }
        return problems
    }
}

/// What one job did with one user's journal.
public struct FleetUserResult: Sendable {
    public var user: String
    public var events = 0
    public var problems: [String] = []
    /// `replay` only.
    public var summary: ReplaySummary?
    /// `export` only: bytes written.
    public var bytesWritten = 0

    /// Runs `job` on `journal`: the store's own checks, then the journal's code on the journal's bytes.
    public static func run(_ job: FleetJob, on journal: StoredJournal) -> FleetUserResult {
        var result = FleetUserResult(user: journal.user)
        result.problems = journal.storeProblems
        let bytes = journal.journalBytes
        let storage = MemoryStorage()
        let path = "/fleet/\(journal.user).journal"
        storage.setContents(of: path, to: bytes)
        do {
            switch job {
            case .verify:
                let report = try JournalVerifier.verify(path: path, storage: storage, catalogue: CatalogueCopy.forThisThread)
                result.events = report.events
                result.problems += report.problems
            case .replay:
                var events: [Event] = []
                var badLines: [EventReader.BadLine] = []
                let scan = try EventReader.forEach(path: path, storage: storage, badLines: { badLines.append($0) }) { events.append($0) }
                result.events = events.count
                result.summary = ReplaySummary(events: events, countingVolumeOf: { $0.addsVolume })
                result.problems += scan.damage.prefix(JournalVerifier.maximumListed).map(\.description)
                result.problems += badLines.prefix(JournalVerifier.maximumListed).map { "bad \($0)" }
            case .export(let directory):
                result.events = journal.batches.reduce(0) { $0 + $1.eventCount }
                result.bytesWritten = bytes.count
                try FleetExport.write(bytes, to: FleetExport.path(user: journal.user, directory: directory))
            }
        } catch {
            result.problems.append("\(error)")
        }
        if job.readsEvents, Int64(result.events) != journal.head {
            result.problems.append("the journal holds \(result.events) events but the server acknowledged \(journal.head) (journal_users.head)")
        }
        return result
    }
}

/// The catalogue's exercise ids as `journal verify` checks them, one copy per thread. The rules look every event's
/// exercise ids up in it, retaining the set each time: one set shared by the worker threads had its reference count
/// bounced between their cores on every event (`perf record -e cpu-clock`: `swift_retain` took 4.9% of the job's
/// samples with one worker and 10.7% with two; SCALE.md §"Fleet jobs").
final class CatalogueCopy {
    let ids: Set<String>

    private init() { ids = Set(ExerciseCatalogue.builtInIDs.map { String(decoding: Array($0.utf8), as: UTF8.self) }) }

    static var forThisThread: Set<String> {
        let key = "JournalServer.CatalogueCopy"
        if let copy = Thread.current.threadDictionary[key] as? CatalogueCopy { return copy.ids }
        let copy = CatalogueCopy()
        Thread.current.threadDictionary[key] = copy
        return copy.ids
    }
}

/// Where `fleet export` writes.
public enum FleetExport {
    /// `DIRECTORY/USER.journal` (a user id has no `/`: `SyncProtocol.isValidUser`).
    public static func path(user: String, directory: String) -> String {
        (directory as NSString).appendingPathComponent("\(user).journal")
    }

    /// Writes `bytes` to `path` whole or not at all (`Storage.replace`: through `path.partial`, fsync, rename).
    static func write(_ bytes: [UInt8], to path: String) throws {
        try PosixStorage().replace(path, with: bytes, through: path + ".partial")
    }
}

/// A fleet job (or `fleet ingest`) that could not run: what failed, on which database, and what to do.
public struct FleetFailure: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }

    /// Fleet jobs read (and `fleet ingest` writes) one node.
    static func requireOneHost(_ database: DatabaseURL) throws {
        guard database.endpoints.count <= 1 else {
            throw FleetFailure(description: "database URL \(database) names \(database.endpoints.count) hosts: fleet jobs read one node; pass one host's URL (scripts/postgres url-replicated DIR lists them, the primary first)")
        }
    }
}

/// One problem a fleet job found.
public struct FleetProblem: Sendable, Equatable, Codable {
    public var user: String
    public var reason: String
}

/// What a fleet job did (`journal-server fleet … [--json]`).
public struct FleetReport: Sendable {
    public var job: String
    public var jobs: Int
    public var users = 0
    public var events = 0
    public var seconds = 0.0
    /// Users with at least one problem.
    public var usersWithProblems = 0
    /// Every problem, up to `maximumListed` (`problemCount` counts them all).
    public var problems: [FleetProblem] = []
    public var problemCount = 0
    /// `replay`: the fold's totals over every user.
    public var workoutsFinished = 0
    public var workingSets = 0
    public var volumeKg = 0.0
    /// `export`: files and bytes written.
    public var filesWritten = 0
    public var bytesWritten = 0
    /// The replica the job read, with its lag when the job started (`--read-database`); nil when it read `--database`.
    public var readFrom: ReplicaLag?

    public static let maximumListed = 1000

    public var usersPerSecond: Double { seconds > 0 ? Double(users) / seconds : 0 }
    public var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }

    mutating func add(_ result: FleetUserResult) {
        users += 1
        events += result.events
        if !result.problems.isEmpty { usersWithProblems += 1 }
        for reason in result.problems {
            problemCount += 1
            if problems.count < Self.maximumListed { problems.append(FleetProblem(user: result.user, reason: reason)) }
        }
        if let summary = result.summary {
            workoutsFinished += summary.workoutsFinished
            workingSets += summary.workingSets
            volumeKg += summary.volumeKg
        }
        if result.bytesWritten > 0 { filesWritten += 1; bytesWritten += result.bytesWritten }
    }

    public var text: String {
        var lines = [
            "job:          fleet \(job), \(jobs) worker\(jobs == 1 ? "" : "s")",
            "users:        \(users)",
            "events:       \(events)",
            "time:         \(String(format: "%.2f", seconds)) s",
            "users/s:      \(String(format: "%.0f", usersPerSecond))",
            "events/s:     \(String(format: "%.0f", eventsPerSecond))",
        ]
        if job == "replay" {
            lines.append("totals:       \(workoutsFinished) workouts finished, \(workingSets) working sets, \(String(format: "%.1f", volumeKg)) kg")
        }
        if job == "export" { lines.append("written:      \(filesWritten) files, \(bytesWritten) bytes") }
        if let readFrom { lines.append("read from:    " + readFrom.text) }
        lines.append("problems:     " + (problemCount == 0 ? "none" : "\(problemCount) in \(usersWithProblems) user\(usersWithProblems == 1 ? "" : "s")"))
        for problem in problems { lines.append("  \(problem.user): \(problem.reason)") }
        if problemCount > problems.count { lines.append("  … and \(problemCount - problems.count) more") }
        return lines.joined(separator: "\n") + "\n"
    }

    public var json: String {
        struct ReadFrom: Encodable { var replica: String, bytes_behind: Int64, seconds_since_last_replay: Double? }
        struct Body: Encodable {
            var job: String, jobs: Int, users: Int, events: Int, seconds: Double
            var users_per_second: Double, events_per_second: Double
            var workouts_finished: Int?, working_sets: Int?, volume_kg: Double?
            var files_written: Int?, bytes_written: Int?
            var read_from: ReadFrom?
            var users_with_problems: Int, problem_count: Int, problems: [FleetProblem]
        }
        let replay = job == "replay", export = job == "export"
        let body = Body(job: job, jobs: jobs, users: users, events: events, seconds: seconds,
                        users_per_second: usersPerSecond, events_per_second: eventsPerSecond,
                        workouts_finished: replay ? workoutsFinished : nil, working_sets: replay ? workingSets : nil,
                        volume_kg: replay ? volumeKg : nil,
                        files_written: export ? filesWritten : nil, bytes_written: export ? bytesWritten : nil,
                        read_from: readFrom.map { ReadFrom(replica: $0.replica, bytes_behind: $0.bytesBehind, seconds_since_last_replay: $0.secondsSinceLastReplay) },
                        users_with_problems: usersWithProblems, problem_count: problemCount, problems: problems)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(body)) ?? Data(), as: UTF8.self)
    }
}

/// Progress of a running fleet job, for a progress bar.
public struct FleetProgress: Sendable {
    public var done: Int
    public var total: Int
    public var seconds: Double
    package init(done: Int, total: Int, seconds: Double) { self.done = done; self.total = total; self.seconds = seconds }
}

/// Runs fleet jobs against the server's PostgreSQL.
public struct FleetRunner: Sendable {
    public let client: PostgresClient
    public let logger: Logger
    /// Users read per page (one snapshot, two queries); two pages' journals are in memory at once (at rest a
    /// simulated user took 5.8 KB, SCALE-FIGURES.md §"Fleet jobs measured"). Each page costs PostgreSQL a few milliseconds of planning over the
    /// partitions, which pages of 100 users made most of its CPU in a fleet job.
    public var pageSize = 500

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// How many users the server holds (for a progress bar's total).
    public func userCount() async throws -> Int {
        var count = 0
        for try await value in try await client.query(Statements.FleetReads.userCount(), logger: logger).decode(Int.self) { count = value }
        return count
    }

    /// The users after `after` in user id order, at most `limit`, each with its batches, read in one
    /// REPEATABLE READ snapshot (a push between the two queries cannot make head and batches disagree).
    public func page(after: String, limit: Int) async throws -> [StoredJournal] {
        let logger = self.logger
        return try await client.withConnection { connection in
            try await connection.query("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                var journals: [StoredJournal] = []
                for try await (user, head) in try await connection.query(
                    Statements.FleetReads.users(after: after, limit: limit), logger: logger
                ).decode((String, Int64).self) {
                    journals.append(StoredJournal(user: user, head: head))
                }
                if !journals.isEmpty {
                    var index: [String: Int] = [:]
                    for (position, journal) in journals.enumerated() { index[journal.user] = position }
                    // The page's users are every user from its first to its last (in this snapshot): one range scan
                    // per partition, where `= ANY(users)` made one index descent per user and partition.
                    let first = journals[0].user, last = journals[journals.count - 1].user
                    let rows = try await connection.query(Statements.FleetReads.batches(from: first, through: last), logger: logger)
                    for try await (user, first, last, count, ids, block, ranges) in rows.decode((String, Int64, Int64, Int, ByteBuffer, ByteBuffer, String?).self) {
                        guard let position = index[user] else { continue }
                        journals[position].batches.append(StoredJournal.Batch(first: first, last: last, eventCount: count,
                                                                              ids: Array(buffer: ids), block: Array(buffer: block),
                                                                              idRanges: ranges))
                    }
                }
                try await connection.query("COMMIT", logger: logger)
                return journals
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Runs `job` on every user's journal with `jobs` worker threads. While the threads work on one page the next
    /// one is read, and its users are queued behind the first page's as soon as it is in: a thread that finishes
    /// its last user of a page takes the next page's first instead of waiting for the other threads (users differ
    /// in size a hundredfold). At most two pages are in memory at once. `progress` is called after each page.
    public func run(_ job: FleetJob, jobs: Int, progress: (@Sendable (FleetProgress) -> Void)? = nil) async throws -> FleetReport {
        precondition(jobs >= 1)
        if case .export(let directory) = job {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let total = try await userCount()
        let clock = ContinuousClock()
        let started = clock.now
        let threads = WorkerThreads(count: jobs)
        defer { threads.stop() }
        var report = FleetReport(job: job.name, jobs: jobs)
        let pageSize = self.pageSize
        let runner = self
        func account(_ results: [FleetUserResult]) {
            for result in results { report.add(result) }
            let elapsed = clock.now - started
            report.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            progress?(FleetProgress(done: report.users, total: max(total, report.users), seconds: report.seconds))
        }
        var pending = Task { try await runner.page(after: "", limit: pageSize) }
        defer { pending.cancel() }
        // The page on the threads, whose results are accounted once the next page is queued behind it.
        var working: Task<[FleetUserResult], Never>?
        // Each page starts after the last user of the one before (keyset pagination): the loop ends once a page is
        // empty, at the latest after every user that exists when it reaches them.
        while true {
            let page = try await pending.value
            guard let last = page.last?.user else { break }
            let queued = Task { await threads.map(page, { FleetUserResult.run(job, on: $0) }) }
            if let working { account(await working.value) }
            working = queued
            pending = Task { try await runner.page(after: last, limit: pageSize) }
        }
        if let working { account(await working.value) }
        let elapsed = clock.now - started
        report.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return report
    }
}

/// Runs `body` with a PostgreSQL client on `database`, which must name one host: fleet jobs read (and `fleet ingest`
/// writes) one node; point read-only jobs at a standby to keep them off the primary (SCALE.md §"Fleet jobs").
/// With `migrate`, the schema's pending migrations are applied first.
public func withFleetClient<T: Sendable>(_ database: DatabaseURL, migrate: Bool, logLevel: Logger.Level = .warning,
                                         _ body: @Sendable (PostgresClient, Logger) async throws -> T) async throws -> T {
    try FleetFailure.requireOneHost(database)
    var logger = Logger(label: "journal-server-fleet")
    logger.logLevel = logLevel
    let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
    return try await withRunning([client]) {
        if migrate { try await PostgresSyncStore(client: client, logger: logger).migrate() }
        return try await body(client, logger)
    }
}

/// Runs a read-only fleet job's `body` with the client it reads through: `read`'s, a replica, when given (after
/// measuring its lag against `database`, the primary), else `database`'s. Either client is read-only
/// (`DatabaseURL.readOnlyClientConfiguration`). OPERATIONS.md §"Reads from replicas".
public func withFleetReader<T: Sendable>(_ database: DatabaseURL, read: DatabaseURL?, logLevel: Logger.Level = .warning,
                                         _ body: @Sendable (PostgresClient, Logger, ReplicaLag?) async throws -> T) async throws -> T {
    try FleetFailure.requireOneHost(database)
    if let read { try FleetFailure.requireOneHost(read) }
    var logger = Logger(label: "journal-server-fleet")
    logger.logLevel = logLevel
    guard let read else {
        let client = PostgresClient(configuration: database.readOnlyClientConfiguration, backgroundLogger: logger)
        return try await withRunning([client]) { try await body(client, logger, nil) }
    }
    let primary = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
    let replica = PostgresClient(configuration: read.readOnlyClientConfiguration, backgroundLogger: logger)
    return try await withRunning([primary, replica]) {
        let lag = try await ReplicaLag.measure(primary: primary, replica: replica, replicaURL: read, logger: logger)
        return try await body(replica, logger, lag)
    }
}

/// The server's tables on disk (`fleet size`): `pg_total_relation_size` (heap, TOAST and indexes) of `journal_users`
/// and `journal_batches` with their partitions, against the users and events they hold.
public struct AtRestSize: Sendable {
    public var users: Int64
    public var events: Int64
    public var usersBytes: Int64
    public var batchesBytes: Int64
    public var totalBytes: Int64 { usersBytes + batchesBytes }
    public var bytesPerUser: Double { users > 0 ? Double(totalBytes) / Double(users) : 0 }
    public var bytesPerEvent: Double { events > 0 ? Double(totalBytes) / Double(events) : 0 }

    /// `pg_total_relation_size` of `table` and, when it is partitioned (it then holds nothing itself), of its partitions.
    public static func bytes(of table: String, client: PostgresClient, logger: Logger) async throws -> Int64 {
        var value: Int64 = 0
        for try await v in try await client.query(Statements.FleetReads.totalRelationSize(of: table), logger: logger).decode(Int64.self) {
            value = v
        }
        return value
    }

    public static func measure(client: PostgresClient, logger: Logger) async throws -> AtRestSize {
        func bytes(_ table: String) async throws -> Int64 { try await Self.bytes(of: table, client: client, logger: logger) }
        var users: Int64 = 0, events: Int64 = 0
        for try await (u, e) in try await client.query(Statements.FleetReads.usersAndEvents(), logger: logger).decode((Int64, Int64).self) {
            users = u; events = e
        }
        return AtRestSize(users: users, events: events, usersBytes: try await bytes("journal_users"), batchesBytes: try await bytes("journal_batches"))
    }

    public var text: String {
        """
        users:          \(users)
        events:         \(events)
        journal_users:  \(usersBytes) bytes
        journal_batches: \(batchesBytes) bytes
        total:          \(totalBytes) bytes (pg_total_relation_size: heap, TOAST and indexes, every partition)
        per user:       \(String(format: "%.1f", bytesPerUser)) bytes
        per event:      \(String(format: "%.2f", bytesPerEvent)) bytes

        """
    }
}
