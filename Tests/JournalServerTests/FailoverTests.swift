import JournalFile
import Foundation
import Hummingbird
import HummingbirdTesting
import JournalEvents
import JournalLoad
@testable import JournalServer
import JournalStore
import JournalSync
import JournalTesting
import Logging
import PostgresNIO
import Testing
import JournalServerBench

/// A primary with a synchronous standby (`scripts/postgres start-replicated`), made for one test and stopped
/// at its end, also when it fails.
final class ReplicatedCluster: @unchecked Sendable {
    let directory: String
    let url: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-failover-\(getpid())-\(UInt32.random(in: 0 ... .max))").path
        do {
            url = try PostgresFixture.startCluster(["start-replicated", directory])
        } catch {
            Self.stop(directory)
            throw error
        }
    }

    static func stop(_ directory: String) {
        PostgresFixture.script(["stop-replicated", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }

    func stop() { Self.stop(directory) }

    /// `scripts/postgres failover`: SIGKILL the primary, promote the standby. Returns the kill's epoch milliseconds.
    func failover() throws -> (killedAt: Int64, promoteMilliseconds: Int64) {
        let result = PostgresFixture.script(["failover", directory])
        guard result.status == 0, let killed = Self.field("killed_at", result.stdout), let promote = Self.field("promote_ms", result.stdout) else {
            throw PostgresFixture.Failure(description: "scripts/postgres failover failed (\(result.status)): \(result)")
        }
        return (killed, promote)
    }

    /// `scripts/postgres rejoin`: the dead node back as a synchronous standby. Returns how long it took.
    func rejoin() throws -> Int64 {
        let result = PostgresFixture.script(["rejoin", directory])
        guard result.status == 0, let milliseconds = Self.field("rejoin_ms", result.stdout) else {
            throw PostgresFixture.Failure(description: "scripts/postgres rejoin failed (\(result.status)): \(result)")
        }
        return milliseconds
    }

    /// `SHOW name` on each node, in the order of the URL's hosts (a connection of its own to each, as the failover
    /// store's probes make).
    func setting(_ name: String) async throws -> [String] {
        let database = try DatabaseURL(url)
        var values: [String] = []
        for node in database.endpoints {
            let logger = Logger(label: "failover-test")
            let connection = try await database.plainConnection(to: node, logger: logger)
            do {
                for try await value in try await connection.query("SHOW \(unescaped: name)", logger: logger).decode(String.self) {
                    values.append(value)
                }
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
        }
        return values
    }

    static func field(_ name: String, _ output: String) -> Int64? {
        for word in output.split(whereSeparator: { $0 == " " || $0 == "\n" }) where word.hasPrefix(name + "=") {
            return Int64(word.dropFirst(name.count + 1))
        }
        return nil
    }
}

func epochMilliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

/// What the simulated devices of a failover run saw.
actor AckLedger {
    struct Push { var startedAt: Int64; var answeredAt: Int64 }
    var acknowledged: [String: Set<String>] = [:]
    var pushes: [Push] = []
    var retries = 0
    var notes: [String] = []

    func record(user: String, ids: [String], startedAt: Int64, answeredAt: Int64) {
        acknowledged[user, default: []].formUnion(ids)
        pushes.append(Push(startedAt: startedAt, answeredAt: answeredAt))
    }
    func retried() { retries += 1 }
    func note(_ line: String) { notes.append(line) }

    /// From `killedAt` to the answer of the first push started after it that was acknowledged.
    func unavailability(after killedAt: Int64) -> Int64? {
        pushes.filter { $0.startedAt >= killedAt }.map(\.answeredAt).min().map { $0 - killedAt }
    }
}

/// A flag the device loops poll.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    func stop() { lock.lock(); stopped = true; lock.unlock() }
    var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }
}

@Suite("journal-server: failover to a synchronous standby under load", .serialized)
struct FailoverTests {
    /// 3 in CI; `FAILOVER_COUNT=20 swift test --filter FailoverTests` for the longer run of SCALE-FIGURES.md
    /// §"The test and its figures".
    static let failovers = Int(ProcessInfo.processInfo.environment["FAILOVER_COUNT"] ?? "") ?? 3
    /// How long after a rejoin the service may stay unavailable before the test fails.
    static let recoveryBound: Duration = .seconds(30)

    @Test("a primary killed while no call is in flight is left at once: the store's own idle connection to it closes, and the store moves to the promoted standby without waiting for a call")
    func idlePrimaryKilled() async throws {
        let cluster = try ReplicatedCluster()
        defer { cluster.stop() }
        let (made, clients) = makeSyncStore(try DatabaseURL(cluster.url), logger: Logger(label: "failover-idle-test"))
        let store = try #require(made as? FailoverSyncStore)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.run() } }
            group.addTask { await store.watchPrimary() }
            defer { group.cancelAll() }
            try await store.migrate()
            #expect(await store.primary.current() == (0, 0))
            try await Task.sleep(for: .milliseconds(500))
            let (killedAt, _) = try cluster.failover()
            // No call is made from here on: only the watch can move the store.
            let waited = ContinuousClock.now
            while await store.primary.current().generation == 0, ContinuousClock.now - waited < .seconds(15) {
                try await Task.sleep(for: .milliseconds(20))
            }
            let moved = epochMilliseconds() - killedAt
            #expect(await store.primary.current() == (1, 1), "the store did not move within 15 s of the kill")
            if await store.primary.current().generation == 1 {
                print("idle failover: the store moved \(moved) ms after the kill, with no call made")
            }
        }
    }

    @Test("the primary is SIGKILLed and the standby promoted, again and again, while devices push: every acknowledged event is on the server afterwards")
    func failoverUnderLoad() async throws {
        let cluster = try ReplicatedCluster()
        defer { cluster.stop() }
        let database = try DatabaseURL(cluster.url)
        #expect(database.endpoints.count == 2)
        // At PostgreSQL's default of 5 s, a promotion that races the end of the stream waits out those 5 s
        // (SCALE.md §"The slow promotion"); both nodes, and each node made again by a rejoin, start at 100 ms.
        #expect(try await cluster.setting("wal_retrieve_retry_interval") == ["100ms", "100ms"])
        // Each device has a long live session to push, one event per request, as a phone does during a workout: 50
        // workouts per failover, so that the devices still push at the last one (20 failovers ran out of 150).
        let probes = try await ProbeDevices(prefix: "fo", count: 8, workouts: 50 * max(3, Self.failovers), database: database)
        let users = probes.users, tokens = probes.tokens
        let ledger = AckLedger()
        let stop = StopFlag()
        // The real binary, as deployed; stopped (SIGTERM, then SIGKILL) also when the test fails.
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("journal-server").path
        // FAILOVER_LOG_LEVEL=notice shows when the server lost a node and which one it moved to.
        let process = try ServerProcess(binary: binary, database: cluster.url, design: .batches,
                                        logLevel: ProcessInfo.processInfo.environment["FAILOVER_LOG_LEVEL"] ?? "error")
        defer { process.stop() }
        do {
            let server = process.url
            try await withThrowingTaskGroup(of: Void.self) { group in
                probes.run(in: &group, server: server, ledger: ledger, stop: stop)
                group.addTask {
                    defer { stop.stop() }
                    try await Task.sleep(for: .seconds(1))
                    for round in 1...Self.failovers {
                        let before = await ledger.pushes.count
                        let (killedAt, promote) = try cluster.failover()
                        let rejoin = try cluster.rejoin()
                        // Pushes must be acknowledged again within `recoveryBound` of the rejoin (on a loaded
                        // machine the pools' reconnections take seconds), then half a second more of load.
                        let waited = ContinuousClock.now
                        while await ledger.unavailability(after: killedAt) == nil, ContinuousClock.now - waited < Self.recoveryBound {
                            try await Task.sleep(for: .milliseconds(100))
                        }
                        try await Task.sleep(for: .milliseconds(500))
                        let window = await ledger.unavailability(after: killedAt)
                        let after = await ledger.pushes.count
                        let killedClock = Date(timeIntervalSince1970: Double(killedAt) / 1000).formatted(.iso8601.time(includingFractionalSeconds: true))
                        await ledger.note("failover \(round) (killed at \(killedClock) UTC): promote \(promote) ms, unavailable \(window.map { "\($0) ms" } ?? "-"), rejoin \(rejoin) ms, \(after - before) pushes acknowledged meanwhile")
                        // Pushes were acknowledged again after the kill, before the next one.
                        #expect(window != nil)
                    }
                }
                try await group.waitForAll()
            }
            // Every acknowledged event is on the server (read through it), and nothing else is.
            var total = 0
            for (index, user) in users.enumerated() {
                var cursor = SyncCursor.start
                var stored: [String] = []
                while true {
                    let page = try await SyncClient(server: server, token: tokens[index]).pull(user: user, after: cursor)
                    stored += page.events.map(\.id)
                    cursor = page.cursor
                    if !page.more { break }
                }
                let acknowledged = await ledger.acknowledged[user] ?? []
                #expect(Set(stored) == acknowledged, "user \(user): \(acknowledged.subtracting(stored).count) acknowledged events missing")
                #expect(stored.count == Set(stored).count, "user \(user): an event stored twice")
                total += acknowledged.count
            }
            let retries = await ledger.retries
            print("failover run: \(Self.failovers) failovers, \(total) events acknowledged, all present; \(retries) retried pushes")
            for line in await ledger.notes { print("  " + line) }
            #expect(total > 0)
            #expect(try await cluster.setting("wal_retrieve_retry_interval") == ["100ms", "100ms"])
        }
    }
}

@Suite("DatabaseURL: multi-host URLs for a primary and its standbys")
struct MultiHostURLTests {
    @Test("every host is kept in order; the first is the URL's host; a single-host URL has one endpoint")
    func parsesHosts() throws {
        let url = try DatabaseURL("postgres://postgres@127.0.0.1:5433,127.0.0.1:5434/journal?target_session_attrs=read-write")
        #expect(url.endpoints == [DatabaseEndpoint(host: "127.0.0.1", port: 5433), DatabaseEndpoint(host: "127.0.0.1", port: 5434)])
        #expect(url.host == "127.0.0.1")
        #expect(url.port == 5433)
        #expect(url.user == "postgres")
        #expect(url.database == "journal")
        #expect(url.description == "postgres://postgres@127.0.0.1:5433,127.0.0.1:5434/journal")
        let single = try DatabaseURL("postgres://me@localhost:6000/db")
        #expect(single.endpoints == [DatabaseEndpoint(host: "localhost", port: 6000)])
        #expect(single.description == "postgres://me@localhost:6000/db")
    }

    @Test("a host of the list without a port is refused, naming the URL and the form")
    func refusesHostWithoutPort() {
        #expect(throws: (any Error).self) { try DatabaseURL("postgres://u@h1:5432,h2/db") }
        do {
            _ = try DatabaseURL("postgres://u@h1:5432,h2/db")
        } catch {
            #expect("\(error)" == #"database URL "postgres://u@h1:5432,h2/db": every host of a multi-host URL must be HOST:PORT (postgres://USER@H1:P1,H2:P2/DB)"#)
        }
    }
}
