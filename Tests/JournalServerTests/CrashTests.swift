import JournalFile
import JournalLoad
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JournalEvents
import JournalServer
import JournalSimulator
import JournalStore
import JournalSync
import JournalTesting
import Testing
#if canImport(Glibc)
import Glibc
import HummingbirdTesting
#endif

/// RELIABILITY under the server (SYNC.md §"Guarantees"): an acknowledged event survives SIGKILL of the
/// server and a restart of PostgreSQL, and the next sync completes.
@Suite("Sync under failures: SIGKILL of the server mid-push, PostgreSQL restarting mid-sync")
struct CrashTests {
    /// Trials of SIGKILL mid-push: 100 with SYNC_CRASH_TRIALS=100 (SYNC.md); CI runs a bounded number.
    static let trials = Int(ProcessInfo.processInfo.environment["SYNC_CRASH_TRIALS"] ?? "") ?? 12

    final class Acknowledged: @unchecked Sendable {
        private let lock = NSLock()
        private var ids = Set<String>()
        func add(_ new: [String]) { lock.withLock { ids.formUnion(new) } }
        var all: Set<String> { lock.withLock { ids } }
    }

    /// Starts the real `journal-server serve` and waits until it answers /health.
    static func startServer(database: String, port: Int, log: String) async throws -> Subprocess {
        let binary = try builtExecutable("journal-server", override: "JOURNAL_SERVER_BIN")
        let child = try Subprocess(binary, ["serve", "--database", database, "--listen", "127.0.0.1:\(port)", "--log-level", "warning"], errorPath: log)
        try await waitForHealth(port: port, log: log)
        return child
    }

    /// Returns once the server on `port` answers /health with ok; throws with its log after 15 s.
    static func waitForHealth(port: Int, log: String) async throws {
        let health = URL(string: "http://127.0.0.1:\(port)/health")!
        for _ in 0..<300 {
            if let (data, _) = try? await URLSession.shared.data(from: health), data == Data("ok\n".utf8) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw SubprocessError.notFound("journal-server did not answer /health on port \(port) within 15 s: \(readFile(log))")
    }

    @Test("SIGKILL of journal-server in the middle of pushes loses no acknowledged event; the next sync completes")
    func sigkillMidPush() async throws {
        let database = try PostgresFixture.url()
        let user = PostgresFixture.freshUser("crash")
        let token = try await PostgresFixture.token(user: user)
        let scratch = ScratchDirectory("crash")
        let device = scratch.file("device.journal")
        let events = try Fixtures.simulatedJournal(at: device, storage: PosixStorage(), weeks: 8, device: "ph")
        let port = try freePort()
        let server = URL(string: "http://127.0.0.1:\(port)")!
        let client = SyncClient(server: server, token: token)
        let acknowledged = Acknowledged()
        var random = SplitMix64(seed: 18)
        var killedMidPush = 0
        for _ in 0..<Self.trials {
            let child = try await Self.startServer(database: database, port: port, log: scratch.file("server.log"))
            let start = random.int(0...(events.count - 1))
            let slice = Array(events[start...]) + Array(events[..<start])
            let pusher = Task {
                var offset = 0
                while offset < slice.count {
                    let batch = Array(slice[offset..<min(offset + 40, slice.count)])
                    let answer = try await client.push(user: user, events: batch)
                    acknowledged.add(answer.acknowledged)
                    offset += batch.count
                }
            }
            try await Task.sleep(for: .milliseconds(random.int(5...250)))
            child.kill()
            _ = child.wait()
            if case .failure = await pusher.result { killedMidPush += 1 }
        }
        #expect(killedMidPush > 0, "no trial killed the server during a push")
        print("sigkill: \(Self.trials) trials, \(killedMidPush) killed mid-push, \(acknowledged.all.count) distinct events acknowledged")
        let child = try await Self.startServer(database: database, port: port, log: scratch.file("server.log"))
        defer { child.kill(); _ = child.wait() }
        var stored = Set<String>()
        var cursor = SyncCursor.start
        while true {
            let page = try await client.pull(user: user, after: cursor)
            stored.formUnion(page.events.map(\.id))
            cursor = page.cursor
            if !page.more { break }
        }
        let lost = acknowledged.all.subtracting(stored)
        #expect(lost.isEmpty, "acknowledged but not stored: \(lost.sorted().prefix(10))")
        // The server's positions have no gaps and no event twice.
        #expect(cursor.position == Int64(stored.count))
        // The next sync completes and the server then has every event of the device.
        let report = try await JournalSyncing.sync(device, client: client)
        #expect(report.events == events.count)
        let restored = scratch.file("restored.journal")
        let restore = try await JournalSyncing.restore(to: restored, client: client)
        #expect(restore.events == events.count)
        #expect(try EventReader.events(path: restored) == EventReader.events(path: device))
        // Each of the server's starts migrated after its PostgreSQL client was running (`PostgresClientService`): no
        // start logged postgres-nio's warning of a lease before `run()`, which every start but a lucky one did before.
        let log = readFile(scratch.file("server.log"))
        #expect(!log.contains("hasn't been called yet"), "\(log.split(separator: "\n").prefix(3))")
    }

    @Test("journal-server's one-shot commands lease a connection only once their client runs: no postgres-nio warning")
    func oneShotCommandsStartTheirClientFirst() throws {
        let binary = try builtExecutable("journal-server", override: "JOURNAL_SERVER_BIN")
        let database = try PostgresFixture.url()
        let user = PostgresFixture.freshUser("cli")
        // `withRunning` starts each client's `run()` before the command's first lease; before it, about every
        // other `token create` logged "`PostgresClient.run()` hasn't been called yet" (5 runs: 3 did).
        for _ in 0..<5 {
            let created = try Subprocess.run(binary, ["token", "create", "--database", database, "--user", user],
                                             scratch: FileManager.default.temporaryDirectory.path)
            #expect(created.status == 0)
            #expect(created.stdout.hasPrefix("wjt_") && created.stdout.utf8.count == 69 && created.stdout.hasSuffix("\n"), "one token line: \(created.stdout)")
            #expect(!created.stderr.contains("hasn't been called yet"), "\(created.stderr)")
        }
        let revoked = try Subprocess.run(binary, ["token", "revoke", "--database", database, "--user", user],
                                         scratch: FileManager.default.temporaryDirectory.path)
        #expect(revoked.status == 0)
        #expect(revoked.stdout == "revoked 5 tokens\n")
        #expect(!revoked.stderr.contains("hasn't been called yet"), "\(revoked.stderr)")
    }

    /// Status, Retry-After and body of a GET, or nil when nothing answers.
    static func get(_ url: URL, token: String? = nil) async -> (status: Int, retryAfter: String?, body: String)? {
        var request = URLRequest(url: url)
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        guard let (data, response) = try? await URLSession.shared.data(for: request), let http = response as? HTTPURLResponse else { return nil }
        return (http.statusCode, http.value(forHTTPHeaderField: "Retry-After"), String(decoding: data, as: UTF8.self))
    }

    @Test("serve with its database down listens, answers 503 naming the database while it retries, and serves once PostgreSQL is up")
    func serveBeforeItsDatabase() async throws {
        let cluster = try PrivateCluster(name: "late")
        defer { cluster.stop() }
        cluster.stopServer()
        let database = try DatabaseURL(cluster.url).description
        let host = try DatabaseURL(cluster.url).endpoints[0].description
        let binary = try builtExecutable("journal-server", override: "JOURNAL_SERVER_BIN")
        let scratch = ScratchDirectory("late")
        let log = scratch.file("server.log")
        let port = try freePort()
        let server = URL(string: "http://127.0.0.1:\(port)")!
        let child = try Subprocess(binary, ["serve", "--database", cluster.url, "--listen", "127.0.0.1:\(port)"], errorPath: log)
        defer { child.kill(); _ = child.wait() }
        // The port opens after the first attempt fails (its deadline is 10 s).
        var live: (status: Int, retryAfter: String?, body: String)?
        for _ in 0..<300 where live == nil {
            live = await Self.get(server.appendingPathComponent("health/live"))
            if live == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(live?.status == 200 && live?.body == "ok\n", "\(readFile(log))")
        let unavailable = #"{"error":{"code":"database_unavailable","message":"the server has not reached \#(database) yet (\#(host) refused the connection); it keeps trying; retry after the Retry-After delay"}}"#
        for path in ["health/ready", "health", "v1/whoami", "v1/journals/late/events"] {
            let answer = await Self.get(server.appendingPathComponent(path), token: "wjt_0000")
            #expect(answer?.status == 503, "\(path): \(String(describing: answer))")
            #expect(answer?.retryAfter == "1", "\(path)")
            #expect(answer?.body == unavailable, "\(path): \(answer?.body ?? "")")
        }
        #expect(readFile(log).contains("error journal-server: [JournalServer] cannot migrate the schema on \(database): \(host) refused the connection; trying again in 1 s; until then every request but /health/live is answered 503\n"), "\(readFile(log))")
        // PostgreSQL comes up: the next attempt (at most 15 s later) migrates, and the same process serves.
        cluster.startServer()
        var ready: (status: Int, retryAfter: String?, body: String)?
        for _ in 0..<400 {
            ready = await Self.get(server.appendingPathComponent("health/ready"))
            if ready?.status == 200 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(ready?.status == 200 && ready?.body == "ok\n", "\(String(describing: ready)) \(readFile(log))")
        let created = try Subprocess.run(binary, ["token", "create", "--database", cluster.url, "--user", "late"],
                                         scratch: FileManager.default.temporaryDirectory.path)
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let whoami = await Self.get(server.appendingPathComponent("v1/whoami"), token: token)
        #expect(whoami?.status == 200 && whoami?.body == #"{"role":"user","user":"late"}"#, "\(String(describing: whoami))")
    }

    @Test("a PostgreSQL restart during syncs: the syncs that fail are retried; nothing acknowledged is lost")
    func postgresRestartDuringSyncs() async throws {
        // A cluster of its own: restarting the shared one would fail other suites' requests.
        let cluster = try PrivateCluster(name: "restart")
        defer { cluster.stop() }
        let user = PostgresFixture.freshUser("restart")
        let token = Tokens.generate()
        try await withSyncStore(try DatabaseURL(cluster.url)) { store in try await store.addToken(token, user: user, role: .user) }
        let scratch = ScratchDirectory("pgrestart")
        let phone = scratch.file("phone.journal"), watch = scratch.file("watch.journal")
        var configuration = try PostgresFixture.configuration()
        configuration.database = try DatabaseURL(cluster.url)
        configuration.databaseDeadline = .seconds(2)
        let app = try await buildApplication(configuration)
        try await app.test(.live) { testClient in
            let server = URL(string: "http://127.0.0.1:\(try #require(testClient.port))")!
            let client = SyncClient(server: server, token: token)
            var failures = 0
            for round in 0..<6 {
                for (path, device) in [(phone, "ph"), (watch, "wa")] {
                    let journal = try EventJournal(path: path, device: device, clock: { Fixtures.start })
                    try journal.record(batch: Fixtures.workoutDrafts("\(device)\(round)", sets: 2,
                                                                     at: Fixtures.start.adding(milliseconds: Int64(round) * 86_400_000)))
                    journal.close()
                }
                if round == 2 || round == 4 {
                    // PostgreSQL goes down between syncs of the two devices and comes back on the same port.
                    _ = try await JournalSyncing.sync(phone, client: client)
                    cluster.stopServer()
                    do {
                        _ = try await JournalSyncing.sync(watch, client: client)
                        Issue.record("a sync succeeded while PostgreSQL was down")
                    } catch let problem as JournalSyncing.Problem {
                        guard case .server(let failure) = problem, failure.isTransient else {
                            Issue.record("expected a transient failure, got \(problem)"); continue
                        }
                        #expect(failure.description.contains("503 database_unavailable"))
                        failures += 1
                    }
                    cluster.startServer()
                }
                // Retried until PostgreSQL answers again.
                for path in [phone, watch] {
                    var attempts = 0
                    while true {
                        do { _ = try await JournalSyncing.sync(path, client: client); break } catch {
                            attempts += 1
                            if attempts > 100 { throw error }
                            try await Task.sleep(for: .milliseconds(100))
                        }
                    }
                }
            }
            #expect(failures == 2)
            _ = try await JournalSyncing.sync(phone, client: client)
            #expect(try EventReader.events(path: phone) == EventReader.events(path: watch))
            #expect(try EventReader.events(path: phone).count == 6 * 2 * 4)
        }
    }
}

/// A PostgreSQL cluster of one test's own (scripts/postgres in a fresh directory).
final class PrivateCluster: @unchecked Sendable {
    let directory: String
    let url: String

    init(name: String) throws {
        _ = try PostgresFixture.url()   // skip (throw) where PostgreSQL cannot be had
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-server-\(name)-\(getpid())").path
        url = try PostgresFixture.startCluster(["start", directory])
    }

    func stopServer() { PostgresFixture.script(["stop", directory]) }
    func startServer() { PostgresFixture.script(["start", directory]) }

    func stop() {
        stopServer()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
