import Foundation
import JournalTesting
import JournalServer
import Logging
import PostgresNIO

/// One throwaway PostgreSQL cluster per test process, started by the project's own `scripts/postgres`
/// (which installs Debian's postgresql when it is missing) and stopped when the process exits; or, under `scripts/test`,
/// a database of its own in the one cluster that script starts for every server suite.
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

    /// The cluster `scripts/test` starts once for every server suite (`JOURNAL_TEST_DATABASE_URL`): each test process
    /// then makes a database of its own in it, dropped when the process exits, instead of a cluster of its own.
    static let sharedCluster = ProcessInfo.processInfo.environment["JOURNAL_TEST_DATABASE_URL"]

    static func start() -> Result<String, Failure> {
        if let sharedCluster { return database(in: sharedCluster) }
        let url: String
        do { url = try startCluster(["start", directory]) } catch { return .failure(error) }
        atexit {
            _ = PostgresFixture.script(["stop", PostgresFixture.directory])
            try? FileManager.default.removeItem(atPath: PostgresFixture.directory)
        }
        return .success(url)
    }

    /// A fresh database `journal_tests_PID` in the cluster of `cluster` (a URL), dropped at exit.
    static func database(in cluster: String) -> Result<String, Failure> {
        guard let admin = try? DatabaseURL(cluster), admin.endpoints.count <= 1 else {
            return .failure(Failure(description: "JOURNAL_TEST_DATABASE_URL \(cluster.debugDescription) is not one host's postgres:// URL"))
        }
        let made = psql("CREATE DATABASE \(ownDatabase)", on: admin)
        guard made.status == 0 else {
            return .failure(Failure(description: "CREATE DATABASE \(ownDatabase) in \(cluster) failed (\(made.status)): \(made)"))
        }
        atexit {
            guard let admin = PostgresFixture.sharedCluster.flatMap({ try? DatabaseURL($0) }) else { return }
            PostgresFixture.psql("DROP DATABASE IF EXISTS \(PostgresFixture.ownDatabase) WITH (FORCE)", on: admin)
        }
        return .success("postgres://\(admin.user)@\(admin.host):\(admin.port)/\(ownDatabase)")
    }

    /// This process's database in the shared cluster.
    static var ownDatabase: String { "journal_tests_\(getpid())" }

    /// Runs one SQL statement with `psql` on the database of `admin`.
    @discardableResult
    static func psql(_ sql: String, on admin: DatabaseURL) -> Output {
        run("/usr/lib/postgresql/15/bin/psql", ["-h", admin.host, "-p", String(admin.port), "-U", admin.user, "-d", admin.database, "-XAtq", "-c", sql])
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
