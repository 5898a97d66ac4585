import JournalEvents
import Foundation
import JournalLoad
@testable import JournalServer
import JournalSync
import Logging
import Testing

/// The topology of `scripts/cluster` (OPERATIONS.md), made for one test and stopped at its end, also when it fails:
/// etcd, three PostgreSQL nodes under Patroni, HAProxy, and `servers` journal-server processes behind it.
final class PatroniCluster: @unchecked Sendable {
    static let script = PostgresFixture.packageRoot.appendingPathComponent("scripts/cluster").path
    /// The journal-server built beside the test binary: the one the servers run.
    static let serverBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("journal-server").path

    let directory: String
    /// HAProxy's port to the leader, its port to the replicas, and its port to the servers (nil without servers).
    let write: String
    let read: String
    let server: URL?

    init(servers: Int) throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("journal-cluster-\(getpid())-\(UInt32.random(in: 0 ... .max))").path
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        directory = parent + "/c"
        let result = Self.run(["start", directory, "--servers", String(servers), "--server-binary", Self.serverBinary])
        func field(_ name: String) -> String? {
            result.stdout.split(separator: "\n").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        guard result.status == 0, let write = field("write"), let read = field("read") else {
            Self.stop(directory)
            throw PostgresFixture.Failure(description: "scripts/cluster start failed (\(result.status)): \(result)")
        }
        self.write = write
        self.read = read
        server = field("server").flatMap(URL.init(string:))
    }

    @discardableResult
    static func run(_ arguments: [String]) -> PostgresFixture.Output { PostgresFixture.run(script, arguments) }

    static func stop(_ directory: String) {
        run(["stop", directory])
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: directory).deletingLastPathComponent().path)
    }

    func stop() { Self.stop(directory) }

    /// The processes whose command line names the cluster's directory or one of its servers' ports (etcd, Patroni,
    /// PostgreSQL, HAProxy, journal-server), read from /proc.
    func processes() throws -> [String] {
        let servers = try servers().map { "127.0.0.1:\($0.port!)" }
        var found: [String] = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") where Int32(entry) != nil {
            guard let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !data.isEmpty else { continue }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            if line.contains(directory) || servers.contains(where: { line.contains("--listen " + $0) }) { found.append("\(entry): \(line)") }
        }
        return found
    }

    /// `scripts/cluster kill-leader`: SIGKILLs the leader's postmaster and its processes. Returns the node and the
    /// kill's epoch milliseconds.
    func killLeader() throws -> (node: String, killedAt: Int64) {
        let result = Self.run(["kill-leader", directory])
        guard result.status == 0, let killed = ReplicatedCluster.field("killed_at", result.stdout),
              let node = result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).first(where: { $0.hasPrefix("node=") }) else {
            throw PostgresFixture.Failure(description: "scripts/cluster kill-leader failed (\(result.status)): \(result)")
        }
        return (String(node.dropFirst(5)), killed)
    }

    /// `scripts/cluster kill-server`: SIGKILLs journal-server `k` (1…N). Returns the kill's epoch milliseconds.
    func killServer(_ k: Int) throws -> Int64 {
        let result = Self.run(["kill-server", directory, String(k)])
        guard result.status == 0, let killed = ReplicatedCluster.field("killed_at", result.stdout) else {
            throw PostgresFixture.Failure(description: "scripts/cluster kill-server failed (\(result.status)): \(result)")
        }
        return killed
    }

    /// `scripts/cluster start` again: starts what is not running (a killed server) and waits for a healthy cluster.
    func restart() throws {
        let result = Self.run(["start", directory])
        guard result.status == 0 else { throw PostgresFixture.Failure(description: "scripts/cluster start (again) failed (\(result.status)): \(result)") }
    }

    /// `scripts/cluster wait`: a leader with a synchronous standby and a streaming replica.
    func waitHealthy(seconds: Int = 60) throws {
        let result = Self.run(["wait", directory, String(seconds)])
        guard result.status == 0 else { throw PostgresFixture.Failure(description: "scripts/cluster wait failed (\(result.status)): \(result)") }
    }

    func leader() throws -> String {
        let result = Self.run(["leader", directory])
        guard result.status == 0, let name = result.lastLine else { throw PostgresFixture.Failure(description: "no leader: \(result)") }
        return name
    }

    /// Milliseconds from `since` (epoch milliseconds) to the first line of any node's Patroni log at or after it that
    /// contains `text`; nil when none does.
    func patroniLogged(_ text: String, since: Int64) -> Int64? {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd HH:mm:ss,SSS"
        var first: Int64?
        for node in ["n1", "n2", "n3"] {
            guard let log = try? String(contentsOfFile: "\(directory)/\(node)/patroni.log", encoding: .utf8) else { continue }
            for line in log.split(separator: "\n") where line.contains(text) && line.count > 23 {
                guard let date = format.date(from: String(line.prefix(23))) else { continue }
                let at = Int64(date.timeIntervalSince1970 * 1000)
                if at >= since { first = min(first ?? at, at) }
            }
        }
        return first.map { $0 - since }
    }

    /// Each journal-server's own URL, s1 first (HAProxy's server port balances over them).
    func servers() throws -> [URL] {
        let count = Int(try String(contentsOfFile: directory + "/servers/count", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return try (1...max(1, count)).prefix(count).map { k in
            let port = try String(contentsOfFile: "\(directory)/servers/s\(k).port", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            return URL(string: "http://127.0.0.1:\(port)")!
        }
    }

    /// Each node's own URL (database `journal`), by name.
    func nodes() throws -> [String: DatabaseURL] {
        let ports = try String(contentsOfFile: directory + "/ports", encoding: .utf8)
        var urls: [String: DatabaseURL] = [:]
        for line in ports.split(separator: "\n") where line.hasPrefix("pg_") {
            let parts = line.dropFirst(3).split(separator: "=")
            urls[String(parts[0])] = try DatabaseURL("postgres://postgres@127.0.0.1:\(parts[1])/journal")
        }
        return urls
    }

    /// One SQL statement's single value on `node`.
    func value(_ sql: String, on node: DatabaseURL) throws -> String {
        let result = PostgresFixture.psql(sql, on: node)
        guard result.status == 0 else { throw PostgresFixture.Failure(description: "psql \(sql.debugDescription) on \(node) failed: \(result)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until every replica has replayed the leader's WAL as of now (the asynchronous one may lag).
    func waitReplayed(seconds: Double = 30) async throws {
        let nodes = try nodes(), leader = try leader()
        let target = try value("SELECT pg_current_wal_lsn()", on: nodes[leader]!)
        for (name, url) in nodes where name != leader {
            let started = ContinuousClock.now
            while try value("SELECT pg_last_wal_replay_lsn() >= '\(target)'::pg_lsn", on: url) != "t" {
                guard ContinuousClock.now - started < .seconds(seconds) else {
                    throw PostgresFixture.Failure(description: "replica \(name) did not replay to \(target) within \(seconds) s")
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Every event id of each user's journal as `node` holds it, pulled from cursor 0 by the store's own pull, on a
    /// connection to that node alone (read-only: no migration).
    func journals(on node: DatabaseURL, users: [String]) async throws -> [String: [String]] {
        var logger = Logger(label: "patroni-cluster-test")
        logger.logLevel = .error
        let (made, clients) = makeSyncStore(node, logger: logger)
        let store = try #require(made as? PostgresSyncStore)
        return try await withRunning(clients) {
            var journals: [String: [String]] = [:]
            for user in users { journals[user] = try await store.wholeJournal(user: user).lines.map { try EventCodec.decode($0).id } }
            return journals
        }
    }

    /// Every node's copy of each user's journal is a superset of what was acknowledged, with no event twice.
    /// Returns the number of acknowledged events checked on each node.
    func expectEveryNodeHolds(_ acknowledged: [String: Set<String>]) async throws -> Int {
        try waitHealthy()
        try await waitReplayed()
        let users = Array(acknowledged.keys)
        for (name, url) in try nodes().sorted(by: { $0.key < $1.key }) {
            let journals = try await journals(on: url, users: users)
            for user in users {
                let stored = journals[user] ?? []
                let missing = acknowledged[user, default: []].subtracting(stored)
                #expect(missing.isEmpty, "node \(name), user \(user): \(missing.count) acknowledged events missing")
                #expect(stored.count == Set(stored).count, "node \(name), user \(user): an event stored twice")
            }
        }
        return acknowledged.values.map(\.count).reduce(0, +)
    }
}

/// p50 and max of `values`, for the report of unavailability windows.
func percentileSummary(_ values: [Int64]) -> String {
    guard !values.isEmpty else { return "none" }
    let sorted = values.sorted()
    return "p50 \(sorted[(sorted.count - 1) / 2]) ms, max \(sorted.last!) ms over \(sorted.count)"
}

extension AckLedger {
    /// Waits up to `bound` for a push started after `killedAt` to be acknowledged; returns the unavailability window
    /// (`unavailability(after:)`), nil when none was.
    func window(after killedAt: Int64, within bound: Duration) async throws -> Int64? {
        let waited = ContinuousClock.now
        while unavailability(after: killedAt) == nil, ContinuousClock.now - waited < bound {
            try await Task.sleep(for: .milliseconds(50))
        }
        return unavailability(after: killedAt)
    }
}

extension LoadRun {
    /// journal-load's users for `options`, named `prefix-N`, with a token each made on `database`.
    static func users(prefix: String, options: Options, database: DatabaseURL) async throws -> [User] {
        let planned = users(prefix: prefix, options: options)
        let tokens = try await ProbeDevices.tokens(for: planned.map(\.id), database: database)
        return zip(planned, tokens).map { User(id: $0.id, token: $1, devices: $0.devices) }
    }
}
