import Foundation
import JournalTesting
import JournalServer
import Logging
import PostgresNIO

/// One throwaway PostgreSQL cluster per test process, started by the project's own `scripts/postgres`
/// (which installs Debian's postgresql when it is missing) and stopped when the process exits.
/// Tests make a fresh database user id per case instead of a fresh cluster.
enum PostgresFixture {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = packageRoot.appendingPathComponent("scripts/postgres").path

    /// The cluster's URL, or why there is none (printed by the tests that skip).
    static let cluster: Result<String, Failure> = start()

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The cluster's directory: one per test process.
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-server-tests-\(getpid())").path

    static func start() -> Result<String, Failure> {
        let dir = directory
        let (status, output) = run(script, ["start", dir])
        guard status == 0, let url = output.split(separator: "\n").last.map(String.init), url.hasPrefix("postgres://") else {
            return .failure(Failure(description: "scripts/postgres start failed (\(status)): \(output)"))
        }
        atexit {
            _ = PostgresFixture.run(PostgresFixture.script, ["stop", PostgresFixture.directory])
            try? FileManager.default.removeItem(atPath: PostgresFixture.directory)
        }
        return .success(url)
    }

    /// The cluster's URL; records an issue and returns nil when PostgreSQL cannot be had here.
    static func url() throws -> String {
        switch cluster {
        case .success(let url): return url
        case .failure(let failure):
            if ProcessInfo.processInfo.environment["CI"] != nil { throw failure }
            print("journal-server tests skipped: \(failure)")
            throw failure
        }
    }

    static func restart() {
        _ = run(script, ["stop", directory])
        _ = run(script, ["start", directory])
    }

    /// Runs a program to completion (posix_spawn and waitpid: Foundation's Process can hang in tests).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) -> (Int32, String) {
        do {
            let result = try Subprocess.run(executable, arguments, scratch: FileManager.default.temporaryDirectory.path)
            return (result.status, result.stdout + result.stderr)
        } catch {
            return (-1, "\(error)")
        }
    }

    static func configuration() throws -> ServerConfiguration {
        ServerConfiguration(database: try DatabaseURL(try url()), host: "127.0.0.1", port: 0, logLevel: .error)
    }

    /// A fresh user id for one test case.
    static func freshUser(_ prefix: String = "u") -> String {
        "\(prefix)-\(getpid())-\(UInt32.random(in: 0 ... .max))"
    }

    /// A token for `user` made through the store (what `journal-server token create` does).
    /// A fresh user (`freshUser(prefix)`) and a token of `role` for it.
    static func freshPrincipal(_ prefix: String, role: Role = .user) async throws -> (user: String, token: String) {
        let user = freshUser(prefix)
        return (user, try await token(user: user, role: role))
    }

    static func token(user: String, role: Role = .user) async throws -> String {
        let token = Tokens.generate()
        try await withSyncStore(try DatabaseURL(try url())) { store in try await store.addToken(token, user: user, role: role) }
        return token
    }

    /// Runs SQL with a short-lived client (for checks that nothing was stored).
    static func scalar(_ query: PostgresQuery) async throws -> Int64 {
        let client = PostgresClient(configuration: try DatabaseURL(try url()).clientConfiguration)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            var value: Int64 = 0
            for try await v in try await client.query(query).decode(Int64.self) { value = v }
            return value
        }
    }
}
