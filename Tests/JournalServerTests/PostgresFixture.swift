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
        let url: String
        do { url = try startCluster(["start", directory]) } catch { return .failure(error) }
        atexit {
            _ = PostgresFixture.script(["stop", PostgresFixture.directory])
            try? FileManager.default.removeItem(atPath: PostgresFixture.directory)
        }
        return .success(url)
    }

    /// Runs `scripts/postgres` with `arguments` (`start DIR`, `start-replicated DIR`) and returns the cluster's URL: the
    /// last line of its standard output, as the script documents. Standard error (notes, PostgreSQL's warnings) is only
    /// quoted in the failure.
    static func startCluster(_ arguments: [String]) throws(Failure) -> String {
        let result = script(arguments)
        guard result.status == 0, let url = result.lastLine, url.hasPrefix("postgres://") else {
            throw Failure(description: "scripts/postgres \(arguments.joined(separator: " ")) failed (\(result.status)): \(result)")
        }
        return url
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
        script(["stop", directory])
        script(["start", directory])
    }

    /// What one run of a program printed, its two streams apart.
    struct Output: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The last line of standard output (where `scripts/postgres` prints its URL).
        var lastLine: String? { stdout.split(separator: "\n").last.map(String.init) }
        var description: String { "stdout: \(stdout.debugDescription), stderr: \(stderr.debugDescription)" }
    }

    /// Runs `scripts/postgres` with `arguments` to completion.
    @discardableResult
    static func script(_ arguments: [String]) -> Output { run(script, arguments) }

    /// Runs a program to completion (posix_spawn and waitpid: Foundation's Process can hang in tests).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) -> Output {
        do {
            let result = try Subprocess.run(executable, arguments, scratch: FileManager.default.temporaryDirectory.path)
            return Output(status: result.status, stdout: result.stdout, stderr: result.stderr)
        } catch {
            return Output(status: -1, stdout: "", stderr: "\(error)")
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
