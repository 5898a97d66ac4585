#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
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
    /// The database's URL, whose hosts and TLS settings a failed attempt is diagnosed with.
    let url: DatabaseURL
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
                let because = await databaseReason(error, reaching: url, logger: logger)
                gate.failed(because)
                gate.firstAttempt.open()
                logger.error("cannot migrate the schema on \(database): \(because); trying again in \(delay) s; until then every request but /health/live is answered 503")
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

    /// Why no host of `url` completes a PostgreSQL start-up with `url`'s own TLS settings (a connection of our own,
    /// outside the pool, which reports a failed handshake only as attempts that ran out), host by host; nil when one
    /// does (then the database's own answer is the reason).
    static func refusedConnection(_ url: DatabaseURL, logger: Logger) async -> String? {
        let tls: PostgresConnection.Configuration.TLS
        do {
            tls = switch url.tlsSettings {
            case let (settings, true)?: .require(try NIOSSLContext(configuration: settings))
            case let (settings, false)?: .prefer(try NIOSSLContext(configuration: settings))
            case nil: .disable
            }
        } catch {
            guard let file = url.rootCertificates else {
                return "the TLS settings of sslmode=\(url.tls) do not load (\(error)); check this machine's certificate authorities, or use sslrootcert=FILE"
            }
            return "sslrootcert=\(file) does not load as PEM certificates (\(error)); give the file of the authority that signed PostgreSQL's certificate"
        }
        var reasons: [String] = []
        for endpoint in url.endpoints {
            var configuration = PostgresConnection.Configuration(host: endpoint.host, port: endpoint.port, username: url.user,
                                                                 password: url.password, database: url.database, tls: tls)
            configuration.options.connectTimeout = .seconds(2)
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                try? await connection.close()
                return nil
            } catch {
                reasons.append("\(endpoint) \(handshakeFailure(error, url: url))")
            }
        }
        return reasons.joined(separator: "; ")
    }

    /// A failed start-up in a few words: the TLS handshake's refusal with what to check, or the database's answer.
    static func handshakeFailure(_ error: any Error, url: DatabaseURL) -> String {
        let underlying = (error as? PSQLError)?.underlying ?? error
        if underlying is NIOSSLError || underlying is BoringSSLError {
            // BoringSSL's reason, e.g. CERTIFICATE_VERIFY_FAILED, without the source location around it.
            let detail = "\(underlying)"
            let reason = detail.range(of: "OPENSSL_internal:").map { String(detail[$0.upperBound...].prefix { $0.isLetter || $0 == "_" }) } ?? detail
            let trusted = url.rootCertificates.map { "the authority in sslrootcert=\($0)" } ?? "this machine's authorities"
            return "refused the TLS handshake: its certificate is not signed by \(trusted) for this host name (\(reason)); give sslrootcert the authority that signed PostgreSQL's certificate, or connect by the name the certificate names"
        }
        if let psql = error as? PSQLError, psql.code == .sslUnsupported {
            return "does not speak TLS, and sslmode=\(url.tls) requires it; turn ssl on in PostgreSQL, or use sslmode=prefer"
        }
        return databaseReason(error)
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
