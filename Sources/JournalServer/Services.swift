import Hummingbird
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import ServiceLifecycle
import UnixSignals

/// The PostgreSQL client as a lifecycle service: it runs until the service group shuts down (`PostgresClient.run`
/// ends on a graceful shutdown itself). `running` opens once the client runs.
struct PostgresClientService: Service {
    let client: PostgresClient
    let running = Latch()
    func run() async throws {
        await withDiscardingTaskGroup { group in
            // An immediate task runs `client.run()` here, up to its first suspension; the client counts as running
            // from its first line, so a lease after `running` opens is never early.
            group.addImmediateTask { await client.run() }
            running.open()
        }
    }
}

/// Runs `body` while `clients` run, and stops them after it. Each client's `run()` starts as an immediate task, which
/// runs up to its first suspension, by when the client counts as running: a lease in `body` is never early, which
/// postgres-nio would report ("`PostgresClient.run()` hasn't been called yet"). The server's clients are services
/// instead (`PostgresClientService`).
public func withRunning<T: Sendable>(_ clients: [PostgresClient], _ body: () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for client in clients { group.addImmediateTask { await client.run() } }
        defer { group.cancelAll() }
        return try await body()
    }
}

/// `FailoverSyncStore.watchPrimary` as a lifecycle service, until the service group shuts down.
struct PrimaryWatchService: Service {
    let store: FailoverSyncStore
    func run() async throws {
        await cancelWhenGracefulShutdown { await store.watchPrimary() }
    }
}

/// Opens once; every `wait` before returns then, every one after at once.
final class Latch: Sendable {
    private let state = NIOLockedValueBox<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLockedValue { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLockedValue { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }
}

/// Runs `app` until SIGTERM or SIGINT, then shuts it down gracefully: the server stops accepting connections and
/// answers the requests in progress; those still in progress after `timeouts.shutdown` are cancelled (their
/// connections closed). So the process exits within `timeouts.shutdown` and the cancellation's few milliseconds of a
/// signal, whatever its clients do (SYNC.md §"Timeouts").
public func runUntilSignalled(_ app: some ApplicationProtocol, _ configuration: ServerConfiguration) async throws {
    var logger = Logger(label: "journal-server", factory: ServerLogHandler.init)
    logger.logLevel = configuration.logLevel
    var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    group.maximumGracefulShutdownDuration = configuration.timeouts.shutdown
    try await ServiceGroup(configuration: group).run()
}
