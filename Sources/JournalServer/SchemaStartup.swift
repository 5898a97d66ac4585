#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Whether the schema is migrated, and why not yet (SYNC.md §"Health"). `serve` listens whether or not its database
/// answers at start: until the migration has run, every request but `/health/live` and `/metrics` is answered
/// `503 database_unavailable` with `Retry-After`, naming the database and the last reason, while `SchemaService`
/// tries again.
final class SchemaGate: Sendable {
    private let state: NIOLockedValueBox<(migrated: Bool, reason: String)>
    /// Opens after the first attempt, whatever it came to: the server starts listening then.
    let firstAttempt = Latch()

    init(migrated: Bool = false) {
        state = NIOLockedValueBox((migrated, "the schema is being migrated"))
        if migrated { firstAttempt.open() }
    }

    /// A gate for routes whose store needs no migration (tests, the memory store's peers).
    static var open: SchemaGate { SchemaGate(migrated: true) }

    var migrated: Bool { state.withLockedValue { $0.migrated } }
    var reason: String { state.withLockedValue { $0.reason } }

    func succeeded() { state.withLockedValue { $0 = (true, "") } }
    func failed(_ reason: String) { state.withLockedValue { $0.reason = reason } }
}

/// Migrates the schema once the PostgreSQL clients run: at once, then after 1, 2, 4 and 8 s and every 15 s after,
/// each attempt bounded by `deadline`, until it succeeds or the server shuts down. Each failure is logged as an error
/// naming the database (its hosts, without the password) and the reason.
struct SchemaService: Service {
    let store: any SyncStore
    let gate: SchemaGate
    let clients: [PostgresClientService]
    let database: String
    let endpoints: [DatabaseEndpoint]
    let deadline: Duration
    let logger: Logger

    static let delays: [Int] = [1, 2, 4, 8, 15]

    func run() async throws {
        for client in clients { await client.running.wait() }
        var attempt = 0
        while true {
            let outcome = await Deadline.result(of: { [store] in try await store.migrate() }, within: deadline)
            switch outcome {
            case .success:
                gate.succeeded()
                gate.firstAttempt.open()
                logger.info("schema migrated on \(database)")
                // A service that returns would stop the server: wait for the shutdown instead.
                try? await gracefulShutdown()
                return
            case .failure(let error):
                let delay = Self.delays[min(attempt, Self.delays.count - 1)]
                // The pool reports an unreachable host as a wait that ran out: a connection of our own names it.
                let reason = await Self.unreachable(endpoints) ?? databaseReason(error)
                gate.failed(reason)
                gate.firstAttempt.open()
                logger.error("cannot migrate the schema on \(database): \(reason); trying again in \(delay) s; until then every request but /health/live is answered 503")
                attempt += 1
                do {
                    try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(delay)) }
                } catch {
                    return
                }
            }
        }
    }
}

extension SchemaService {
    /// Why no host of `endpoints` accepts a TCP connection within 2 s, host by host ("127.0.0.1:5432 refused the
    /// connection"), or nil when one does (then the database's own answer is the reason).
    static func unreachable(_ endpoints: [DatabaseEndpoint]) async -> String? {
        var reasons: [String] = []
        for endpoint in endpoints {
            do {
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.seconds(2))
                    .connect(host: endpoint.host, port: endpoint.port).get()
                try? await channel.close()
                return nil
            } catch {
                reasons.append("\(endpoint) \(connectFailure(error))")
            }
        }
        return reasons.joined(separator: "; ")
    }

    /// A failed connect in a few words: the system's reason ("refused the connection"), or the timeout.
    static func connectFailure(_ error: any Error) -> String {
        let single = (error as? NIOConnectionError)?.connectionErrors.first?.error ?? error
        if let io = single as? IOError {
            return io.errnoCode == ECONNREFUSED ? "refused the connection" : "cannot be reached: \(String(cString: strerror(io.errnoCode)))"
        }
        if case ChannelError.connectTimeout = single { return "did not answer within 2 s" }
        if let resolution = error as? NIOConnectionError, resolution.dnsAAAAError != nil || resolution.dnsAError != nil,
           resolution.connectionErrors.isEmpty {
            return "is not a host name that resolves"
        }
        return "cannot be reached: \(single)"
    }
}

/// Answers `503 database_unavailable` with `Retry-After` while the schema is not migrated, to every route but
/// `/health/live` (the process answers) and `/metrics`.
struct SchemaGateMiddleware<Context: RequestContext>: RouterMiddleware {
    let gate: SchemaGate
    let database: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if !gate.migrated, request.uri.path != "/health/live", request.uri.path != "/metrics" {
            throw SyncFailure(503, "database_unavailable", "the server has not reached \(database) yet (\(gate.reason)); it keeps trying; retry after the Retry-After delay")
        }
        return try await next(request, context)
    }
}
