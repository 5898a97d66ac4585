import Foundation
import JournalEvents
import JournalSync
import Logging
import NIOCore
import PostgresNIO

/// One host of a database URL.
public struct DatabaseEndpoint: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public init(host: String, port: Int) { self.host = host; self.port = port }
    public var description: String { "\(host):\(port)" }
}

extension DatabaseURL {
    /// A multi-host URL (`postgres://USER@H1:P1,H2:P2/DB?target_session_attrs=read-write`, libpq's form, what
    /// `scripts/postgres start-replicated` prints) split into the URL of its first host and every host in order.
    /// A single-host URL comes back as it is, with its one host. Nil when a host of the list is not HOST:PORT.
    static func splitHosts(_ text: String) -> (first: String, hosts: [DatabaseEndpoint])? {
        guard let schemeEnd = text.range(of: "://") else { return (text, []) }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let userEnd = authority.lastIndex(of: "@")
        let hostList = userEnd.map { authority[authority.index(after: $0)...] } ?? authority
        guard hostList.contains(",") else { return (text, []) }
        var hosts: [DatabaseEndpoint] = []
        for item in hostList.split(separator: ",", omittingEmptySubsequences: false) {
            guard let colon = item.lastIndex(of: ":"), case let host = String(item[..<colon]), !host.isEmpty,
                  let port = Int(item[item.index(after: colon)...]), (1...65535).contains(port) else { return nil }
            hosts.append(DatabaseEndpoint(host: host, port: port))
        }
        let prefix = text[..<schemeEnd.upperBound] + (userEnd.map { String(authority[...$0]) } ?? "")
        return (prefix + hosts[0].description + String(rest[authorityEnd...]), hosts)
    }

    /// A connection of its own to `endpoint`, outside any pool (the failover store's probes and watch): this URL's
    /// user, password and database, plaintext (loopback here; SCALE.md §"The path past one machine" says what
    /// changes for TLS between machines), 1 s to connect.
    func plainConnection(to endpoint: DatabaseEndpoint, logger: Logger) async throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(host: endpoint.host, port: endpoint.port,
                                                             username: user, password: password,
                                                             database: database, tls: .disable)
        configuration.options.connectTimeout = .seconds(1)
        return try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
    }

    /// The same URL on one of its hosts (same user, database and TLS).
    func url(for endpoint: DatabaseEndpoint) -> DatabaseURL {
        var copy = self
        copy.host = endpoint.host
        copy.port = endpoint.port
        copy.endpoints = [endpoint]
        return copy
    }
}

/// The store the server runs on `database`, and the PostgreSQL clients it needs running (one per host).
/// One host: `PostgresSyncStore`. Several hosts (a primary and its standbys): `FailoverSyncStore`, which sends
/// everything to the host that accepts writes and moves to another when that one is lost. (The load generator's peer
/// designs are made by `StoreDesign.makeStore`, outside the production server.)
public func makeSyncStore(_ database: DatabaseURL, logger: Logger,
                          deadline: Duration = .seconds(10)) -> (store: any SyncStore, clients: [PostgresClient]) {
    guard database.endpoints.count > 1 else {
        let client = PostgresClient(configuration: PostgresSyncStore.clientConfiguration(database), backgroundLogger: logger)
        return (PostgresSyncStore(client: client, logger: logger, deadline: deadline), [client])
    }
    let clients = database.endpoints.map {
        PostgresClient(configuration: PostgresSyncStore.clientConfiguration(database.url(for: $0)), backgroundLogger: logger)
    }
    let store = FailoverSyncStore(nodes: clients.map { PostgresSyncStore(client: $0, logger: logger, deadline: deadline) },
                                  database: database, logger: logger, deadline: deadline)
    return (store, clients)
}

/// `SyncStore` over a primary and its standbys (SCALE.md §"Failover"). Every call goes to the node that
/// accepts writes; when a call fails for any reason but a refusal (`SyncFailure`) — the connection broke, the
/// node went read-only, a probe after `suspectAfter` found its node gone, the store moved away from its node
/// meanwhile, or the call outlived `callTimeout` — the store probes
/// every host with `SELECT pg_is_in_recovery()` until one answers false, moves there and runs the call again,
/// once. `watchPrimary` moves the store the same way, without a call, when the node closes the store's own idle
/// connection and a probe finds it gone. Running a push again is safe: pushes are idempotent by event id, and
/// with synchronous replication a commit the old primary acknowledged is on the standby that took over.
public final class FailoverSyncStore: SyncStore {
    let nodes: [PostgresSyncStore]
    let database: DatabaseURL
    let logger: Logger
    let primary: PrimaryTracker
    /// How long one call may wait before the node is presumed gone.
    let callTimeout: Duration
    /// How long the store looks for a writable node before the call fails (503; devices retry).
    let searchTimeout: Duration
    /// How long one call may take in all, its search for a writable node included: past it, 503 (the request
    /// deadline of `ServerConfiguration.databaseDeadline`, SYNC.md §"Refusals").
    let deadline: Duration

    init(nodes: [PostgresSyncStore], database: DatabaseURL, logger: Logger,
         callTimeout: Duration = .seconds(10), searchTimeout: Duration = .seconds(20), deadline: Duration = .seconds(10)) {
        self.deadline = deadline
        self.nodes = nodes
        self.database = database
        self.logger = logger
        self.callTimeout = callTimeout
        self.searchTimeout = searchTimeout
        primary = PrimaryTracker()
    }

    struct NoWritableNode: DatabaseUnavailable {
        var hosts: [DatabaseEndpoint]
        var waited: Duration
        var description: String { "no host of \(hosts.map(\.description).joined(separator: ",")) accepted writes within \(waited)" }
    }

    struct CallTimedOut: DatabaseUnavailable {
        var node: DatabaseEndpoint
        var description: String { "the database call to \(node) did not finish in time" }
    }

    /// Runs `body` on the writable node, moving once to another node when it fails; all within `deadline`.
    func onPrimary<T: Sendable>(_ body: @escaping @Sendable (PostgresSyncStore) async throws -> T) async throws -> T {
        var moved = false
        let end = ContinuousClock.now + deadline
        while true {
            let (index, generation) = await primary.current()
            do {
                let limit = min(callTimeout, ContinuousClock.now.duration(to: end))
                return try await withDeadline(limit, node: database.endpoints[index], generation: generation) { [nodes] in
                    try await body(nodes[index])
                }
            } catch let failure as SyncFailure {
                throw failure
            } catch {
                guard !moved else { throw error }
                moved = true
                logger.warning("database node \(database.endpoints[index]) failed (\(error)); looking for the writable node")
                guard try await primary.relocate(after: generation, search: { try await self.findWritable(until: end) }) != nil else { throw error }
            }
        }
    }

    /// The first host that answers `pg_is_in_recovery() = false`, probing every host in turn until `end` (by default
    /// `searchTimeout` from now).
    func findWritable(until end: ContinuousClock.Instant? = nil) async throws -> Int {
        let clock = ContinuousClock()
        let started = clock.now
        let end = end ?? started + searchTimeout
        while clock.now < end {
            for (index, endpoint) in database.endpoints.enumerated() where await isWritable(endpoint) {
                logger.notice("database node \(endpoint) accepts writes; using it (after \(clock.now - started))")
                return index
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw NoWritableNode(hosts: database.endpoints, waited: started.duration(to: clock.now))
    }

    func isWritable(_ endpoint: DatabaseEndpoint) async -> Bool {
        do {
            let connection = try await database.plainConnection(to: endpoint, logger: logger)
            defer { Task { try? await connection.close() } }
            var inRecovery = true
            for try await value in try await connection.query("SELECT pg_is_in_recovery()", logger: logger).decode(Bool.self) {
                inRecovery = value
            }
            return !inRecovery
        } catch {
            return false
        }
    }

    struct NodeReplaced: DatabaseUnavailable {
        var node: DatabaseEndpoint
        var description: String { "the store moved away from \(node) while the call waited on it" }
    }

    struct NodeUnreachable: DatabaseUnavailable {
        var node: DatabaseEndpoint
        var description: String { "\(node) no longer accepts writes (a probe failed while the call waited on it)" }
    }

    /// How long a call waits before the store probes its node (and every second after that).
    static let suspectAfter: Duration = .seconds(1)

    /// `body`, or `CallTimedOut` after `limit`; or `NodeReplaced` as soon as the store moved to another node
    /// (checked every 50 ms); or `NodeUnreachable` when the call has waited `suspectAfter` and a probe of its node
    /// (one at a time for all calls, at most one a second) finds it gone or read-only. A node killed with every
    /// connection of its pool idle fails no call: the pool queues the calls while it tries to reconnect, so
    /// without the probe each waited for `limit`, the 10 s unavailability windows of some failovers (SCALE.md
    /// §"The server").
    func withDeadline<T: Sendable>(_ limit: Duration, node: DatabaseEndpoint, generation: Int,
                                   _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask { [primary] in
                let clock = ContinuousClock()
                let start = clock.now
                let end = start + limit
                var nextProbe = start + Self.suspectAfter
                while clock.now < end {
                    try await Task.sleep(for: min(.milliseconds(50), end - clock.now))
                    if primary.generationNow != generation { throw NodeReplaced(node: node) }
                    if clock.now >= nextProbe {
                        nextProbe = clock.now + .seconds(1)
                        let alive = await primary.isAlive(generation: generation) { await self.isWritable(node) }
                        if !alive { throw NodeUnreachable(node: node) }
                    }
                }
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw CallTimedOut(node: node) }
            return value
        }
    }

    /// Watches the writable node through an idle connection of the store's own, and moves the store as soon as that
    /// connection closes and a probe finds the node gone, without waiting for a call. A node killed while every
    /// connection of its pool was idle fails no call: the pool queues the calls while it tries to reconnect, and
    /// only a call that has waited `suspectAfter` probes it (the unavailability windows of 0.7–1.1 s in SCALE.md
    /// §"The server"). A node that dies closes its sockets, so the watch hears of it at once; one
    /// cut off without a word is still found by the calls' probes. Runs until cancelled (a service of the server).
    public func watchPrimary() async {
        while !Task.isCancelled {
            let (index, generation) = await primary.current()
            let node = database.endpoints[index]
            if let connection = try? await database.plainConnection(to: node, logger: logger) {
                await waitUntilClosed(connection, orMovedFrom: generation)
            }
            guard !Task.isCancelled, primary.generationNow == generation else { continue }
            if await isWritable(node) {
                // Alive (its connection was closed by something else, or could not be made): watch again shortly.
                try? await Task.sleep(for: .seconds(1))
                continue
            }
            logger.notice("database node \(node) closed the store's idle connection and no longer accepts writes; looking for the writable node")
            do {
                _ = try await primary.relocate(after: generation, search: { try await self.findWritable() })
            } catch where !Task.isCancelled {
                logger.warning("\(error); requests answer 503 until one does: check that the hosts run and that one of them is promoted (pg_ctl promote); looking again")
            } catch {}
        }
    }

    /// Returns when `connection` closes, or when the store moved on from `generation` (then closes it), or when
    /// cancelled.
    private func waitUntilClosed(_ connection: PostgresConnection, orMovedFrom generation: Int) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await connection.closeFuture.get() }
            group.addTask { [primary] in
                while !Task.isCancelled, primary.generationNow == generation {
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            await group.next()
            group.cancelAll()
            try? await connection.close()
        }
    }

    public func migrate() async throws { try await onPrimary { try await $0.migrate() } }
    public func push(user: String, events: [Event]) async throws -> PushOutcome {
        try await onPrimary { try await $0.push(user: user, events: events) }
    }
    public func pull(user: String, after cursor: SyncCursor, limit: Int) async throws -> PullPage {
        try await onPrimary { try await $0.pull(user: user, after: cursor, limit: limit) }
    }
    public func authenticate(token: String) async throws -> Principal? {
        try await onPrimary { try await $0.authenticate(token: token) }
    }
    public func authenticateForPush(token: String) async throws -> Principal? {
        try await onPrimary { try await $0.authenticateForPush(token: token) }
    }
    public func push(user: String, events: [Event], token: String) async throws -> PushOutcome {
        try await onPrimary { try await $0.push(user: user, events: events, token: token) }
    }
    public func addToken(_ token: String, user: String, role: Role) async throws {
        try await onPrimary { try await $0.addToken(token, user: user, role: role) }
    }
    public func revoke(token: String) async throws -> Bool { try await onPrimary { try await $0.revoke(token: token) } }
    public func revokeAll(user: String) async throws -> Int { try await onPrimary { try await $0.revokeAll(user: user) } }
    public func logAccess(actor: String, subject: String, action: String, detail: String) async throws {
        try await onPrimary { try await $0.logAccess(actor: actor, subject: subject, action: action, detail: detail) }
    }
    public func accessLog(subject: String?) async throws -> [AccessLogEntry] {
        try await onPrimary { try await $0.accessLog(subject: subject) }
    }
    public func ready() async throws {
        try await onPrimary { try await $0.ready() }
    }
}

/// Which node is the primary, and one search at a time for a new one.
actor PrimaryTracker {
    private var index = 0
    private var generation = 0 { didSet { published.set(generation) } }
    private var search: Task<Int, any Error>?
    private nonisolated let published = PublishedGeneration()

    /// The current generation without waiting for the actor (read by every call in flight, every 50 ms).
    nonisolated var generationNow: Int { published.value }

    func current() -> (index: Int, generation: Int) { (index, generation) }

    private var lastProbe: (generation: Int, at: ContinuousClock.Instant, alive: Bool)?
    private var probing: Task<Bool, Never>?

    /// Whether the node of `seen` still accepts writes: false at once when the store already moved on; else one
    /// `probe` shared by every call that asks meanwhile, its answer reused for a second.
    func isAlive(generation seen: Int, probe: @escaping @Sendable () async -> Bool) async -> Bool {
        guard seen == generation else { return false }
        if let last = lastProbe, last.generation == seen, ContinuousClock.now - last.at < .seconds(1) { return last.alive }
        if let probing { return await probing.value }
        let task = Task { await probe() }
        probing = task
        let alive = await task.value
        probing = nil
        lastProbe = (seen, ContinuousClock.now, alive)
        return alive
    }

    /// After a failure seen at `seen`: the node to use now. Calls that fail together share one search; a call
    /// that failed on a node already replaced just uses the new one.
    func relocate(after seen: Int, search find: @escaping @Sendable () async throws -> Int) async throws -> Int? {
        if generation != seen { return index }
        if let search { return try await search.value }
        let task = Task { try await find() }
        search = task
        defer { search = nil }
        let found = try await task.value
        index = found
        generation += 1
        return found
    }
}

/// `PrimaryTracker`'s generation, readable from any thread.
final class PublishedGeneration: @unchecked Sendable {
    // @unchecked: `stored` is only read and written under `lock`.
    private let lock = NSLock()
    private var stored = 0
    var value: Int { lock.withLock { stored } }
    func set(_ value: Int) { lock.withLock { stored = value } }
}
