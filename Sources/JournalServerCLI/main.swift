import ArgumentParser
import Foundation
import JournalServer
import JournalSync
import Logging

/// `journal-server`: the sync and backup server (SYNC.md).
@main
struct JournalServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal-server",
        abstract: "Sync and backup server for workout journals, on PostgreSQL (see SYNC.md).",
        discussion: "Exit codes: 0 success; 1 the database or a token refused the request; 64 bad usage.",
        subcommands: [Serve.self, Migrate.self, TokenCommand.self]
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
        abstract: "Migrate the schema, then serve the sync API until SIGTERM or SIGINT (graceful shutdown).")

    @OptionGroup var database: DatabaseOption
    @Option(help: "HOST:PORT to listen on (port 0 picks a free one, printed on start).")
    var listen: String = ServerConfiguration.defaultListen
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"
    @Option(help: "Store design: batches (the real one) or naive (one JSONB row per event; the load generator's peer, SCALE.md).")
    var store: String = StoreDesign.batches.rawValue

    func run() async throws {
        guard let (host, port) = ServerConfiguration.parseListen(listen) else {
            throw ValidationError("--listen \(listen.debugDescription) is not HOST:PORT")
        }
        guard let level = Logger.Level(rawValue: logLevel) else { throw ValidationError("--log-level \(logLevel) is not a log level") }
        guard let design = StoreDesign(rawValue: store) else { throw ValidationError("--store \(store) is not batches or naive") }
        var configuration = ServerConfiguration(database: try database.url(), host: host, port: port, logLevel: level)
        configuration.store = design
        let app = try await buildApplication(configuration)
        try await app.runService()
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
