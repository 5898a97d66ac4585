import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// Everything `buildApplication` needs, from the command line or the environment.
public struct ServerConfiguration: Sendable {
    public var database: DatabaseURL
    /// A replica the support pages read from (`serve --read-database`); nil: they read `database`.
    public var readDatabase: DatabaseURL?
    public var host: String
    public var port: Int
    public var logLevel: Logger.Level
    /// How long a request waits for PostgreSQL before it is refused with 503.
    public var databaseDeadline: Duration
    /// How long the server waits for a client (`ServerTimeouts`: `serve --idle-timeout`, `--header-timeout`,
    /// `--body-timeout`, `--shutdown-timeout`).
    public var timeouts = ServerTimeouts()
    /// The budgets of requests in progress (SCALE.md §"Back-pressure").
    var admission = Admission()
    /// HTTPS: the server's certificate chain and private key, PEM files (`serve --tls-certificate --tls-key`); nil
    /// serves plain HTTP, which `serve` allows only on a loopback address (OPERATIONS.md §"TLS").
    public var tls: ServerTLS?
    /// Sign-in with the app's own JWTs beside the server's tokens (`serve --jwt-jwks …`); nil: the server's tokens
    /// only (SYNC.md §"Signing in with the app's own auth").
    public var appSignIn: AppSignIn?

    public static let defaultListen = "127.0.0.1:8080"

    public init(database: DatabaseURL, host: String = "127.0.0.1", port: Int = 8080, logLevel: Logger.Level = .info,
                databaseDeadline: Duration = .seconds(10)) {
        self.database = database
        self.host = host
        self.port = port
        self.logLevel = logLevel
        self.databaseDeadline = databaseDeadline
    }

    /// Whether `host` is this machine's loopback (127.0.0.0/8, ::1, localhost): the only addresses `serve` speaks
    /// plain HTTP on.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// `HOST:PORT` (`[::1]:8080` for IPv6); port 0 picks a free one.
    public static func parseListen(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        return (host, port)
    }
}

/// The server's certificate for HTTPS.
public struct ServerTLS: Sendable {
    /// PEM: the server's certificate first, then any intermediate certificates.
    public var certificateChain: String
    /// PEM: the certificate's private key.
    public var privateKey: String
    public init(certificateChain: String, privateKey: String) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }

    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// Swift-nio-ssl's server configuration from the two files; a file that does not read says which and why.
    func configuration() throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate], key: NIOSSLPrivateKey
        do { chain = try NIOSSLCertificate.fromPEMFile(certificateChain) } catch {
            throw Problem(description: "--tls-certificate \(certificateChain) is not a readable PEM certificate chain (\(error))")
        }
        do { key = try NIOSSLPrivateKey(file: privateKey, format: .pem) } catch {
            throw Problem(description: "--tls-key \(privateKey) is not a readable PEM private key (\(error))")
        }
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    }
}

/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-full&sslrootcert=FILE]`.
public struct DatabaseURL: Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    /// libpq's `sslmode`: `disable`; `prefer` and `require` encrypt without checking the certificate; `verify-full`
    /// checks that a trusted authority signed it for the host (OPERATIONS.md §"TLS").
    public var tls: String
    /// `sslrootcert`: a PEM file of the authorities `verify-full` trusts; nil: the system's.
    public var rootCertificates: String?
    /// Every host, in order: one, or several for a primary and its standbys (`makeSyncStore`, SCALE.md §"The server").
    public var endpoints: [DatabaseEndpoint] = []

    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    public init(_ given: String) throws {
        guard let split = DatabaseURL.splitHosts(given) else {
            throw Problem(description: "database URL \(given.debugDescription): every host of a multi-host URL must be HOST:PORT (postgres://USER@H1:P1,H2:P2/DB)")
        }
        let (text, hosts) = split
        guard let url = URLComponents(string: text), url.scheme == "postgres" || url.scheme == "postgresql" else {
            throw Problem(description: "database URL \(text.debugDescription) is not postgres://USER@HOST:PORT/DATABASE (scripts/postgres start DIR prints one)")
        }
        guard let host = url.host, !host.isEmpty else { throw Problem(description: "database URL \(text.debugDescription) names no host") }
        self.host = host
        port = url.port ?? 5432
        user = url.user ?? "postgres"
        password = url.password
        let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        database = path.isEmpty ? user : path
        tls = url.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "disable"
        guard ["disable", "prefer", "require", "verify-full"].contains(tls) else {
            throw Problem(description: "database URL: sslmode=\(tls) is not one of disable, prefer, require, verify-full")
        }
        rootCertificates = url.queryItems?.first(where: { $0.name == "sslrootcert" })?.value
        if let file = rootCertificates, tls != "verify-full" {
            throw Problem(description: "database URL: sslrootcert=\(file) is read only with sslmode=verify-full, not sslmode=\(tls)")
        }
        endpoints = hosts.isEmpty ? [DatabaseEndpoint(host: host, port: port)] : hosts
    }

    /// Without the password.
    public var description: String { "postgres://\(user)@\(endpoints.map(\.description).joined(separator: ","))/\(database)" }

    /// What `sslmode` asks of a connection: nil for `disable`; else the TLS configuration, and whether a server
    /// without TLS is refused (`require`, `verify-full`) or spoken to in plaintext (`prefer`).
    var tlsSettings: (configuration: TLSConfiguration, required: Bool)? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case "verify-full":
            configuration.certificateVerification = .fullVerification
            if let rootCertificates { configuration.trustRoots = .file(rootCertificates) }
            return (configuration, true)
        case "require", "prefer":
            configuration.certificateVerification = .none
            return (configuration, tls == "require")
        default: return nil
        }
    }

    public var clientConfiguration: PostgresClient.Configuration {
        let mode: PostgresClient.Configuration.TLS = switch tlsSettings {
        case let (tls, true)?: .require(tls)
        case let (tls, false)?: .prefer(tls)
        case nil: .disable
        }
        var configuration = PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: mode)
        configuration.options.connectTimeout = .seconds(5)
        // The per-user tables are hash-partitioned (Migrations.partitions). PostgreSQL 15 costs a generic plan of a
        // statement on them as if it scanned every partition, so its plan cache chose a custom plan, planned
        // again, on every run of every prepared statement and of every statement in the group functions: an
        // eighth of the machine's CPU at 1,000 devices (SCALE.md §"Plans made once"). A generic plan prunes to
        // the one partition at run time.
        configuration.options.additionalStartupParameters = [("plan_cache_mode", "force_generic_plan")]
        return configuration
    }

    /// A client that only reads: every transaction is READ ONLY (`default_transaction_read_only`), so a read job
    /// takes no write lock on whichever node it reaches, and a write by mistake is refused by PostgreSQL itself.
    public var readOnlyClientConfiguration: PostgresClient.Configuration {
        var configuration = clientConfiguration
        configuration.options.additionalStartupParameters.append(("default_transaction_read_only", "on"))
        return configuration
    }
}
