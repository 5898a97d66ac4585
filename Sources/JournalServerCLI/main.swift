import ArgumentParser
import Foundation
import JournalServer
import JournalServerBench
import JournalSync
import Logging

/// `journal-server`: the sync and backup server (SYNC.md).
@main
struct JournalServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal-server",
        abstract: "Sync and backup server for workout journals, on PostgreSQL (see SYNC.md).",
        discussion: "Exit codes: 0 success; 1 the database or a token refused the request; 2 a fleet job found problems; 64 bad usage.",
        subcommands: [Serve.self, Migrate.self, TokenCommand.self, FleetCommand.self]
    )
}

struct DatabaseOption: ParsableArguments {
    @Option(name: .long, help: "PostgreSQL URL (postgres://USER@HOST:PORT/DB); default $JOURNAL_DATABASE_URL.")
    var database: String?

    func url() throws -> DatabaseURL {
        guard let text = database ?? ProcessInfo.processInfo.environment["JOURNAL_DATABASE_URL"], !text.isEmpty else {
            throw ValidationError("no database: pass --database postgres://USER@HOST:PORT/DB or set JOURNAL_DATABASE_URL (scripts/postgres start DIR prints one)")
        }
        do { return try DatabaseURL(text) } catch { throw ValidationError("\(error)") }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the sync API until SIGTERM or SIGINT (graceful shutdown), migrating the schema first.",
        discussion: "The port opens after the first migration attempt. While the database does not answer, serve logs which one and why, tries again after 1, 2, 4, 8 and then every 15 s, and answers every request but /health/live and /metrics with 503 database_unavailable and Retry-After.")

    @OptionGroup var database: DatabaseOption
    @Option(name: .customLong("read-database"),
            help: "A replica (a standby of --database) the support pages (report, timeline) read journals from; pushes, pulls, tokens and the access log stay on --database.")
    var readDatabase: String?
    @Option(help: "HOST:PORT to listen on (port 0 picks a free one, printed on start).")
    var listen: String = ServerConfiguration.defaultListen
    @Option(help: "HTTPS: the server's certificate chain, a PEM file (with --tls-key). Without it the server speaks plain HTTP, on a loopback address only.")
    var tlsCertificate: String?
    @Option(help: "HTTPS: the private key of --tls-certificate, a PEM file.")
    var tlsKey: String?
    @Option(help: "Sign-in with the app's own JWTs beside the server's tokens: a JWKS file, or an https:// URL serving one, of the public keys the app's backend signs with (with --jwt-issuer and --jwt-audience).")
    var jwtJwks: String?
    @Option(help: "The iss every accepted JWT carries (with --jwt-jwks).")
    var jwtIssuer: String?
    @Option(help: "A value every accepted JWT's aud holds (with --jwt-jwks).")
    var jwtAudience: String?
    @Option(help: "The JWT claim whose string is the user id.")
    var jwtUserClaim: String = AppSignIn.defaultUserClaim
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"
    @Option(help: "Store design: batches (the real one), naive (one JSONB row per event) or memory (events in this process only, lost when it stops): the last two are the load generator's peers (SCALE.md).")
    var store: String = StoreDesign.batches.rawValue
    @Option(help: "Seconds a connection may stay idle (no request, or a request whose bytes stopped coming) before it is closed.")
    var idleTimeout: Double = 60
    @Option(help: "Seconds a request's head may take from its first byte before the connection is closed.")
    var headerTimeout: Double = 10
    @Option(help: "Seconds a request's body may take from its head before it is answered 408 and the connection closed.")
    var bodyTimeout: Double = 60
    @Option(help: "Seconds after SIGTERM or SIGINT the server waits for requests in progress before it cancels them and exits.")
    var shutdownTimeout: Double = 10

    func run() async throws {
        guard let (host, port) = ServerConfiguration.parseListen(listen) else {
            throw ValidationError("--listen \(listen.debugDescription) is not HOST:PORT")
        }
        guard let level = Logger.Level(rawValue: logLevel) else { throw ValidationError("--log-level \(logLevel) is not a log level") }
        guard let design = StoreDesign(rawValue: store) else { throw ValidationError("--store \(store) is not batches, naive or memory") }
        var configuration = ServerConfiguration(database: try database.url(), host: host, port: port, logLevel: level)
        do { configuration.readDatabase = try readDatabase.map(DatabaseURL.init) } catch { throw ValidationError("--read-database: \(error)") }
        switch (tlsCertificate, tlsKey) {
        case let (certificate?, key?): configuration.tls = ServerTLS(certificateChain: certificate, privateKey: key)
        case (nil, nil):
            guard ServerConfiguration.isLoopback(host) else {
                throw ValidationError("--listen \(listen) is not a loopback address, and plain HTTP is served on loopback only: give --tls-certificate and --tls-key, or listen on 127.0.0.1 behind a proxy that terminates TLS")
            }
        default: throw ValidationError("--tls-certificate and --tls-key go together: give both for HTTPS, or neither for plain HTTP on loopback")
        }
        switch (jwtJwks, jwtIssuer, jwtAudience) {
        case let (keys?, issuer?, audience?):
            configuration.appSignIn = AppSignIn(keys: keys, issuer: issuer, audience: audience, userClaim: jwtUserClaim)
        case (nil, nil, nil): break
        default: throw ValidationError("--jwt-jwks, --jwt-issuer and --jwt-audience go together: give all three to accept the app's JWTs, or none")
        }
        configuration.timeouts = ServerTimeouts(idle: try Self.seconds(idleTimeout, "--idle-timeout"),
                                                header: try Self.seconds(headerTimeout, "--header-timeout"),
                                                body: try Self.seconds(bodyTimeout, "--body-timeout"),
                                                shutdown: try Self.seconds(shutdownTimeout, "--shutdown-timeout"))
        let app = try await buildApplication(configuration, makeStore: design.makeStore)
        try await runUntilSignalled(app, configuration)
    }

    static func seconds(_ value: Double, _ flag: String) throws -> Duration {
        guard value > 0, value <= 86_400 else { throw ValidationError("\(flag) \(value) is not a number of seconds from 0 (excluded) to 86400") }
        return .milliseconds(Int64(value * 1_000))
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply the schema's pending migrations and exit.")
    @OptionGroup var database: DatabaseOption
    func run() async throws {
        try await withSyncStore(try database.url()) { _ in }
        print("migrated")
    }
}

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "token", abstract: "Create or revoke access tokens.",
                                                    subcommands: [Create.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token for USER and print it once (the server stores only its hash).")
        @OptionGroup var database: DatabaseOption
        @Option(help: "The user the token belongs to (a user token reads and writes only this user's journal).")
        var user: String
        @Option(help: "user (read and write its own journal) or support (read any journal, every read logged).")
        var role: String = "user"

        func run() async throws {
            guard SyncProtocol.isValidUser(user) else {
                throw ValidationError("--user \(user.debugDescription) is not a valid user id (1 to \(SyncProtocol.maximumUserLength) of A-Z a-z 0-9 . _ @ -)")
            }
            guard let role = Role(rawValue: role) else { throw ValidationError("--role \(role) is not user or support") }
            let token = Tokens.generate()
            let user = self.user
            try await withSyncStore(try database.url()) { store in try await store.addToken(token, user: user, role: role) }
            print(token)
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke one token (--token) or every token of a user (--user).")
        @OptionGroup var database: DatabaseOption
        @Option(help: "The token to revoke.") var token: String?
        @Option(help: "Revoke every token of this user.") var user: String?

        func run() async throws {
            let (token, user) = (self.token, self.user)
            guard (token == nil) != (user == nil) else { throw ValidationError("pass exactly one of --token or --user") }
            let revoked = try await withSyncStore(try database.url()) { store in
                if let token { return try await store.revoke(token: token) ? 1 : 0 }
                return try await store.revokeAll(user: user!)
            }
            print("revoked \(revoked) token\(revoked == 1 ? "" : "s")")
            if revoked == 0 { throw ExitCode(1) }
        }
    }
}


/// `journal-server fleet …` (SCALE.md §"Fleet jobs").
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Jobs over every user's journal: verify, replay, export; and the bulk load of simulated users (ingest) and the tables' size.",
        subcommands: [Verify.self, Replay.self, Export.self, Ingest.self, Size.self]
    )

    struct JobOptions: ParsableArguments {
        @OptionGroup var database: DatabaseOption
        @Option(name: .customLong("read-database"),
                help: "Read the journals from this replica (a standby of --database) instead of --database; the report gives its lag when the job started.")
        var readDatabase: String?
        @Option(help: "Worker threads for the journals' CPU work (decompress, decode, verify or fold).")
        var jobs: Int = 1
        @Flag(help: "Print the report as JSON.") var json = false

        func validate() throws {
            guard (1...256).contains(jobs) else { throw ValidationError("--jobs \(jobs) is not between 1 and 256") }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "`journal verify` on every user's journal, and the server's own row checks (positions 1…head, no gaps).",
            discussion: "Exits 2 when any user's journal is not clean; the report names each user and the reason.")
        @OptionGroup var options: JobOptions
        func run() async throws { try await runFleetJob(.verify, options) }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "`journal replay`'s summary (the model's fold) of every user's journal; prints the totals.",
            discussion: "Exits 2 when a user's journal cannot be read whole.")
        @OptionGroup var options: JobOptions
        func run() async throws { try await runFleetJob(.replay, options) }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every user's journal to DIR/USER.journal, in the journal's own format (`journal verify` reads it).",
            discussion: "Exits 2 when a file cannot be written or a user's rows break the server's checks.")
        @OptionGroup var options: JobOptions
        @Option(help: "The directory to write into (made when missing).") var out: String
        func run() async throws { try await runFleetJob(.export(directory: out), options) }
    }

    struct Ingest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load simulated users through COPY, stored as pushes of their events would store them.",
            discussion: "User ids are PREFIX-0000000 …; an id that exists already refuses the whole load of its 1000 users.")
        @OptionGroup var database: DatabaseOption
        @Option(help: "How many users.") var users: Int
        @Option(help: "Weeks each user records (the simulator's).") var weeks: Int = 1
        @Option(help: "Seed: user I is simulated with seed + I.") var seed: UInt64 = 1
        @Option(help: "User id prefix.") var prefix: String = "sim"
        @Option(help: "Worker threads simulating and encoding.") var jobs: Int = 1

        func validate() throws {
            guard (1...10_000_000).contains(users) else { throw ValidationError("--users \(users) is not between 1 and 10000000") }
            guard (1...520).contains(weeks) else { throw ValidationError("--weeks \(weeks) is not between 1 and 520") }
            guard (1...256).contains(jobs) else { throw ValidationError("--jobs \(jobs) is not between 1 and 256") }
            guard !prefix.isEmpty, prefix.count <= 32, prefix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._@-".contains($0)) }) else {
                throw ValidationError("--prefix \(prefix.debugDescription) is not 1 to 32 of A-Z a-z 0-9 . _ @ -")
            }
        }

        func run() async throws {
            let (users, weeks, seed, prefix, jobs) = (self.users, self.weeks, self.seed, self.prefix, self.jobs)
            let bar = ProgressLine("ingest")
            let report = try await withFleetClient(try database.url(), migrate: true) { client, logger in
                try await FleetIngest.run(client: client, logger: logger, users: users, seed: seed, weeks: weeks, prefix: prefix,
                                          jobs: jobs, progress: { bar.update($0) })
            }
            bar.finish()
            print("ingested \(report.users) users, \(report.events) events, \(report.batches) batches in \(String(format: "%.1f", report.seconds)) s (\(String(format: "%.0f", Double(report.users) / max(report.seconds, 0.001))) users/s)")
        }
    }

    struct Size: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bytes at rest of the server's journal tables (heap, TOAST, indexes) per user and per event.")
        @OptionGroup var database: DatabaseOption
        func run() async throws {
            let size = try await withFleetClient(try database.url(), migrate: false) { client, logger in
                try await AtRestSize.measure(client: client, logger: logger)
            }
            print(size.text, terminator: "")
        }
    }
}

func runFleetJob(_ job: FleetJob, _ options: FleetCommand.JobOptions) async throws {
    let jobs = options.jobs
    let bar = ProgressLine("fleet \(job.name)")
    let url = try options.database.url()
    let read: DatabaseURL?
    do { read = try options.readDatabase.map(DatabaseURL.init) } catch { throw ValidationError("--read-database: \(error)") }
    // A database that cannot be reached is named at once, not after the pool's attempts run out.
    for target in [url] + (read.map { [$0] } ?? []) {
        if let reason = await databaseUnreachable(target) { throw FleetFailure(description: "fleet \(job.name) cannot reach \(target): \(reason)") }
    }
    let report: FleetReport
    do {
        report = try await withFleetReader(url, read: read) { client, logger, lag in
            var report = try await FleetRunner(client: client, logger: logger).run(job, jobs: jobs, progress: { bar.update($0) })
            report.readFrom = lag
            return report
        }
    } catch let failure as FleetFailure {
        bar.finish()
        throw failure
    } catch {
        bar.finish()
        throw FleetFailure(description: "fleet \(job.name) on \(url) failed: \(databaseReason(error)) (is it the server's database? `journal-server migrate --database URL` makes its tables)")
    }
    bar.finish()
    print(options.json ? report.json : report.text, terminator: options.json ? "\n" : "")
    if report.problemCount > 0 { throw ExitCode(2) }
}

/// A one-line progress bar on stderr, only when stderr is a terminal.
final class ProgressLine: @unchecked Sendable {
    let label: String
    let enabled = isatty(2) == 1
    private let lock = NSLock()
    private var shown = false

    init(_ label: String) { self.label = label }

    func update(_ progress: FleetProgress) {
        guard enabled else { return }
        let fraction = progress.total > 0 ? Double(progress.done) / Double(progress.total) : 1
        let width = 30
        let filled = min(width, Int(fraction * Double(width)))
        let rate = progress.seconds > 0 ? Double(progress.done) / progress.seconds : 0
        let line = "\r\(label) [\(String(repeating: "#", count: filled))\(String(repeating: " ", count: width - filled))] \(progress.done)/\(progress.total) users, \(String(format: "%.0f", rate)) users/s "
        lock.lock()
        shown = true
        FileHandle.standardError.write(Data(line.utf8))
        lock.unlock()
    }

    func finish() {
        lock.lock()
        if shown { FileHandle.standardError.write(Data("\n".utf8)) }
        lock.unlock()
    }
}
