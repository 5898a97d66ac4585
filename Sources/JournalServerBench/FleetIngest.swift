import Foundation
import JournalEvents
import JournalModel
import JournalServer
import JournalSimulator
import Logging
import NIOCore
import PostgresNIO
import TrainingDomain

/// `journal-server fleet ingest` (SCALE.md §"Fleet jobs"): simulated users loaded through PostgreSQL's COPY, their
/// rows exactly what pushes of the same events store (`StoredBatch.rows`), for fleet jobs and at-rest figures.
public enum FleetIngest {
    /// The day every simulated user starts on.
    public static let start = LocalDate(iso: "2025-01-06")!
    /// Users per COPY transaction.
    public static let usersPerTransaction = 1000

    public typealias Failure = FleetFailure

    /// User `index`'s id: `PREFIX-` and the index, zero-padded to 7 digits so that ids sort by index.
    public static func user(prefix: String, index: Int) -> String {
        let digits = String(index)
        return "\(prefix)-" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    /// The events simulated user `index` records on one device (`ph`) over `weeks` weeks: the simulator's drafts
    /// (`Simulator`, profile `SimulationProfile.names[index % 4]`, seed `seed + index`), each prepared and
    /// checked by the journal's recording rules with the built-in catalogue, as `EventJournal.record` does.
    public static func simulatedEvents(index: Int, seed: UInt64, weeks: Int) throws -> [Event] {
        let profileName = SimulationProfile.names[index % SimulationProfile.names.count]
        guard let profile = SimulationProfile.named(profileName) else {
            throw Failure(description: "simulation profile \(profileName) is missing")
        }
        let simulator = Simulator(seed: seed &+ UInt64(index), weeks: weeks, profile: profile, start: start)
        var rules = RecordingRules(catalogue: ExerciseCatalogue.builtInIDs)
        var events: [Event] = []
        for batch in simulator.batches() {
            let now = batch.last?.objectValue?["at"]?.stringValue.flatMap { Timestamp(rfc3339: $0) }
                ?? Timestamp(epochMilliseconds: 0, offsetSeconds: 0)
            for draft in batch {
                switch rules.prepare(draft, device: "ph", now: now) {
                case .success(let event):
                    rules.apply(event)
                    events.append(event)
                case .failure(let problem):
                    throw Failure(description: "simulated user \(index) (profile \(profileName), seed \(seed &+ UInt64(index))): the recording rules refuse event \(events.count + 1): \(problem)")
                }
            }
        }
        return events
    }

    /// One user's rows, ready for COPY.
    struct UserRows: Sendable {
        var user: String
        var head: Int64
        var rows: [StoredBatch.Row]
    }

    public struct Report: Sendable {
        public var users = 0
        public var events = 0
        public var batches = 0
        public var seconds = 0.0
    }

    /// Simulates users `0..<users` on `jobs` worker threads and loads them with COPY, `usersPerTransaction` users a
    /// transaction (the next ones are simulated while one is copied). Refuses (PostgreSQL's unique violation,
    /// nothing of that transaction stored) when a user id already exists: ingest only adds new users.
    public static func run(client: PostgresClient, logger: Logger, users: Int, seed: UInt64, weeks: Int, prefix: String,
                           jobs: Int, progress: (@Sendable (FleetProgress) -> Void)? = nil) async throws -> Report {
        precondition(jobs >= 1 && users >= 0 && weeks >= 1)
        let clock = ContinuousClock()
        let started = clock.now
        let threads = WorkerThreads(count: jobs)
        defer { threads.stop() }
        var report = Report()
        var copying: Task<Void, any Error>?
        for chunkStart in stride(from: 0, to: users, by: usersPerTransaction) {
            let indices = Array(chunkStart..<min(chunkStart + usersPerTransaction, users))
            let made = await threads.map(indices) { index -> Result<UserRows, Failure> in
                do {
                    let events = try simulatedEvents(index: index, seed: seed, weeks: weeks)
                    return .success(UserRows(user: user(prefix: prefix, index: index), head: Int64(events.count), rows: StoredBatch.rows(events)))
                } catch let failure as Failure {
                    return .failure(failure)
                } catch {
                    return .failure(Failure(description: "\(error)"))
                }
            }
            let chunk = try made.map { try $0.get() }
            try await copying?.value
            copying = Task { try await copy(chunk, client: client, logger: logger) }
            report.users += chunk.count
            report.events += chunk.reduce(0) { $0 + Int($1.head) }
            report.batches += chunk.reduce(0) { $0 + $1.rows.count }
            let elapsed = clock.now - started
            progress?(FleetProgress(done: report.users, total: users, seconds: seconds(elapsed)))
        }
        try await copying?.value
        report.seconds = seconds(clock.now - started)
        return report
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// One transaction: COPY the users, then their batches (text format; `bytea` as `\\x` and hex).
    static func copy(_ chunk: [UserRows], client: PostgresClient, logger: Logger) async throws {
        do {
            try await copyTransaction(chunk, client: client, logger: logger)
        } catch {
            let range = "\(chunk.first?.user ?? "")…\(chunk.last?.user ?? "")"
            throw Failure(description: "COPY of users \(range) failed, nothing of them stored: \(databaseReason(error)) (ingest only adds new users: pass another --prefix, or load into an empty database)")
        }
    }

    static func copyTransaction(_ chunk: [UserRows], client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.copyFrom(table: "journal_users", columns: ["user_id", "head"], logger: logger) { writer in
                var buffer = ByteBuffer()
                for user in chunk { buffer.writeString("\(user.user)\t\(user.head)\n") }
                try await writer.write(buffer)
            }
            try await connection.copyFrom(table: "journal_batches",
                                          columns: ["user_id", "first_position", "last_position", "event_count", "ids", "block", "id_ranges"],
                                          logger: logger) { writer in
                var buffer = ByteBuffer()
                for user in chunk {
                    for row in user.rows {
                        buffer.writeString("\(user.user)\t\(row.first)\t\(row.last)\t\(row.eventCount)\t")
                        writeBytea(row.ids, into: &buffer)
                        buffer.writeInteger(UInt8(ascii: "\t"))
                        writeBytea(row.block, into: &buffer)
                        // Tags and base-36 counters need no COPY escape; `\N` is NULL.
                        buffer.writeString("\t\(row.idRanges ?? "\\N")\n")
                    }
                    if buffer.readableBytes >= 1 << 20 {
                        try await writer.write(buffer)
                        buffer.clear()
                    }
                }
                if buffer.readableBytes > 0 { try await writer.write(buffer) }
            }
        }
    }

    /// `bytea` in COPY's text format: `\x` and two hex digits a byte, the backslash doubled (COPY's own escape).
    static func writeBytea(_ bytes: [UInt8], into buffer: inout ByteBuffer) {
        let hex = Array("0123456789abcdef".utf8)
        buffer.reserveCapacity(minimumWritableBytes: 3 + 2 * bytes.count)
        buffer.writeBytes([UInt8(ascii: "\\"), UInt8(ascii: "\\"), UInt8(ascii: "x")])
        var digits: [UInt8] = []
        digits.reserveCapacity(2 * bytes.count)
        for byte in bytes {
            digits.append(hex[Int(byte >> 4)])
            digits.append(hex[Int(byte & 0x0F)])
        }
        buffer.writeBytes(digits)
    }
}
