import Foundation
import HummingbirdTesting
import JournalSync
import JournalTesting
import Testing
import WorkoutJournalSync
@testable import JournalServer

/// Syncing journals that stay open and observed (SYNC.md §"Syncing an open journal", §"Live sync", §"Waiting for new
/// events"): a sync through the open journal's own writer, the live engine, and the pull that waits for a push.
@Suite("live sync: open, observed journals syncing through a real server")
struct LiveSyncTests {
    /// The scratch folders of this process's tests, kept until it exits.
    static let scratch = ScratchDirectory("live")

    /// A directory of journals with the device's wall clock (the latency is measured in real time).
    static func directory(device: String) throws -> JournalDirectory {
        let path = scratch.file("\(device)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return JournalDirectory(path: path, device: device, clock: JournalDirectory.systemClock)
    }

    @Test("a sync of a journal open in this process goes through its writer: no lock refused, its observers get the pulled state, and it records on")
    func syncAnOpenJournal() async throws {
        let (user, token) = try await PostgresFixture.freshPrincipal("open")
        try await withServer { server in
            let phones = try Self.directory(device: "ph"), watches = try Self.directory(device: "wa")
            let phone = try phones.open(user: "ana"), watch = try watches.open(user: "ana")
            defer { phone.close(); watch.close() }
            let workout = try phone.startWorkout(name: "Legs")
            try phone.completeSet(workout, exercise: "barbell-back-squat", set: 1, weight: 100, reps: 5)
            var sets = watch.observe { ActiveWorkoutState($0)?.sets ?? -1 }.makeAsyncIterator()
            #expect(await sets.next() == -1)

            let pushed = try await phones.sync(user: "ana", server: server, token: token)
            #expect(pushed.pushed == 2)
            let pulled = try await watches.sync(user: "ana", server: server, token: token)
            #expect((pulled.user, pulled.pulled, pulled.merged, pulled.events) == (user, 2, 2, 2))
            #expect(await sets.next() == 1)
            // Both stay open and record; the next syncs bring each the other's set.
            try watch.completeSet(workout, exercise: "barbell-back-squat", set: 2, weight: 100, reps: 5)
            #expect(await sets.next() == 2)
            #expect(try await watch.sync(client: SyncClient(server: server, token: token)).pushed == 1)
            #expect(try await phone.sync(client: SyncClient(server: server, token: token)).merged == 1)
            #expect(phone.active?.sets == 2)
            #expect(try phone.events().map(\.id) == watch.events().map(\.id))
        }
    }

    @Test("a set completed on the phone reaches the watch's observation within 1 s on loopback, both journals open and observed throughout")
    func phoneToWatchLatency() async throws {
        let (_, token) = try await PostgresFixture.freshPrincipal("live")
        let sets = Int(ProcessInfo.processInfo.environment["LIVE_SYNC_SETS"] ?? "") ?? 20
        try await withServer { server in
            let phone = try Self.directory(device: "ph").open(user: "ana")
            let watch = try Self.directory(device: "wa").open(user: "ana")
            defer { phone.close(); watch.close() }
            let phoneSync = phone.startSync(client: SyncClient(server: server, token: token))
            let watchSync = watch.startSync(client: SyncClient(server: server, token: token))
            defer { phoneSync.stop(); watchSync.stop() }
            var statuses = watchSync.statusUpdates().makeAsyncIterator()
            var onWatch = watch.observe { ActiveWorkoutState($0)?.sets ?? -1 }.makeAsyncIterator()
            var onPhone = phone.observe { ActiveWorkoutState($0)?.sets ?? -1 }.makeAsyncIterator()
            #expect(await onWatch.next() == -1)
            #expect(await onPhone.next() == -1)

            let workout = try phone.startWorkout(name: "Legs")
            #expect(await onWatch.next() == 0)
            var latencies: [Duration] = []
            for set in 1...sets {
                let recorded = ContinuousClock.now
                try phone.completeSet(workout, exercise: "barbell-back-squat", set: set, weight: 100, reps: 5)
                #expect(await onWatch.next() == set)
                latencies.append(recorded.duration(to: .now))
                #expect(await onPhone.next() == set)
            }
            let sorted = latencies.sorted()
            let milliseconds = { (duration: Duration) in Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3 }
            print(String(format: "live sync phone → watch: %d sets, p50 %.1f ms, max %.1f ms", sets,
                         milliseconds(sorted[sorted.count / 2]), milliseconds(sorted[sorted.count - 1])))
            #expect(sorted[sorted.count - 1] < .seconds(1))

            // The watch records too; the phone sees it the same way.
            try watch.completeSet(workout, exercise: "barbell-back-squat", set: sets + 1, weight: 100, reps: 3)
            #expect(await onPhone.next() == sets + 1)
            try await watchSync.syncNow()
            try await phoneSync.syncNow()
            #expect(try phone.events().map(\.id) == watch.events().map(\.id))
            // The watch's status went idle → syncing → idle, never offline or in error.
            watchSync.stop()
            var seen: [LiveSync.Status] = []
            while let status = await statuses.next() { seen.append(status) }
            #expect(seen.contains(.syncing))
            #expect(seen.allSatisfy { $0 == .idle || $0 == .syncing }, "\(seen)")
        }
    }

    @Test("an erasure on the phone reaches the open, observed watch: its journal is erased to the phone's marker and its views start from nothing")
    func erasureReachesAnOpenJournal() async throws {
        let (_, token) = try await PostgresFixture.freshPrincipal("live-erase")
        try await withServer { server in
            let phone = try Self.directory(device: "ph").open(user: "ana")
            let watch = try Self.directory(device: "wa").open(user: "ana")
            defer { phone.close(); watch.close() }
            let workout = try phone.startWorkout(name: "Legs")
            try phone.completeSet(workout, exercise: "barbell-back-squat", set: 1, weight: 100, reps: 5)
            try phone.finishWorkout(workout)
            let phoneSync = phone.startSync(client: SyncClient(server: server, token: token))
            let watchSync = watch.startSync(client: SyncClient(server: server, token: token))
            defer { phoneSync.stop(); watchSync.stop() }
            var total = watch.observe { HistoryState($0).total }.makeAsyncIterator()
            var value = await total.next()
            while value == 0 { value = await total.next() }
            #expect(value == 1)
            let erasure = try phone.eraseAllData()
            #expect(await total.next() == 0)
            #expect(try watch.events().map(\.id) == [erasure.marker.id])
            #expect(watchSync.status == .idle || watchSync.status == .syncing)
        }
    }

    @Test("without a server: offline with the reason, backoff 1, 2, 4, 8, 16 s, syncNow throws, and closing the journal stops the sync")
    func offlineBackoff() async throws {
        let journal = try Self.directory(device: "ph").open(user: "ana")
        defer { journal.close() }
        let waits = Recorded<Duration>()
        var options = LiveSync.Options()
        options.sleep = { duration in
            // The fifth wait lasts until the sync stops.
            if waits.append(duration) >= 5 { try await Task.sleep(for: .seconds(3_600)) }
        }
        let sync = journal.startSync(client: SyncClient(server: URL(string: "http://127.0.0.1:1")!, token: "wjt_x"), user: "ana", options: options)
        var statuses = sync.statusUpdates().makeAsyncIterator()
        var status = await statuses.next()
        while status == .idle || status == .syncing { status = await statuses.next() }
        guard case .offline(let reason)? = status else {
            Issue.record("not offline: \(String(describing: status))")
            return
        }
        #expect(reason.hasPrefix("cannot reach the server: GET http://127.0.0.1:1/v1/journals/ana/events?after=0&limit=2000: the connection was refused"))
        await #expect(throws: JournalSyncing.Problem.self) { try await sync.syncNow() }
        while waits.values.count < 5 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(waits.values.prefix(5) == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16)])
        // Closing the journal stops its sync: the status stream ends.
        journal.close()
        while await statuses.next() != nil {}
        #expect(sync.status == .offline(reason))
        #expect(SyncClient.RetryPolicy.standard.delay(attempt: 7) == .seconds(60))
        #expect(SyncClient.RetryPolicy.standard.delay(attempt: 20) == .seconds(60))
    }

    @Test("SIGTERM ends a waiting pull at once with an empty page, well within the shutdown timeout")
    func shutdownEndsWaits() async throws {
        let (user, token) = try await PostgresFixture.freshPrincipal("waiting")
        let scratch = ScratchDirectory("waiting")
        let port = try freeLoopbackPort()
        let log = scratch.file("server.log")
        let child = try Subprocess(try builtExecutable("journal-server", override: "JOURNAL_SERVER_BIN"),
                                   ["serve", "--database", try PostgresFixture.url(), "--listen", "127.0.0.1:\(port)",
                                    "--log-level", "warning", "--shutdown-timeout", "10"], errorPath: log)
        defer { child.kill() }
        try await CrashTests.waitForHealth(port: port, log: log)
        let client = SyncClient(server: URL(string: "http://127.0.0.1:\(port)")!, token: token)
        let pull = Task { try await client.pull(user: user, after: .start, waitSeconds: 25) }
        try await Task.sleep(for: .milliseconds(500))
        let started = ContinuousClock.now
        kill(child.pid, SIGTERM)
        let page = try await pull.value
        let answered = started.duration(to: .now)
        var raw: Int32 = 0
        for _ in 0..<200 where waitpid(child.pid, &raw, WNOHANG) == 0 { try await Task.sleep(for: .milliseconds(50)) }
        let exited = started.duration(to: .now)
        print("waiting pull: answered \(answered), server exited \(exited) after SIGTERM")
        #expect(page.events.isEmpty)
        #expect(page.cursor == .start)
        #expect(exited < .seconds(5), "journal-server took \(exited) to exit after SIGTERM: \(readFile(log))")
    }

    @Test("a watch is woken by a commit of its user, at once when the commit came before the wait, and not by another user's")
    func changesWakeTheirUser() async throws {
        let changes = JournalChanges()
        let early = changes.watch("ada")
        changes.committed("ada")
        #expect(await early.wait(for: .seconds(25)) == true)
        early.end()

        let other = changes.watch("bob")
        changes.committed("ada")
        #expect(await other.wait(for: .milliseconds(20)) == false)
        other.end()

        let waiting = changes.watch("ada")
        let woken = Task { await waiting.wait(for: .seconds(25)) }
        while !changes.isWaiting(waiting) { await Task.yield() }
        changes.committed("ada")
        #expect(await woken.value == true)
        waiting.end()
        #expect(changes.count == 0)
    }

    /// A live journal-server on PostgreSQL that takes the test backend's JWTs, with no clock skew allowed (so a JWT
    /// is refused as soon as its `exp` passes).
    static func withSignInServer(_ backend: AppSignInTests.Backend, _ body: @escaping @Sendable (URL) async throws -> Void) async throws {
        let scratch = ScratchDirectory("live-jwt")
        defer { scratch.remove() }
        var configuration = try PostgresFixture.configuration()
        configuration.appSignIn = AppSignInTests.settings(try AppSignInTests.jwksFile(backend, in: scratch))
        configuration.appSignIn?.leeway = .zero
        let app = try await buildApplication(configuration)
        try await app.test(.live) { client in
            try await body(URL(string: "http://127.0.0.1:\(try #require(client.port))")!)
        }
    }

    @Test("a JWT that expires while the journal live-syncs is replaced by the token provider after the server's 401: every event reaches the server and the status never shows an error")
    func expiringTokenIsRefreshed() async throws {
        let backend = try await AppSignInTests.Backend()
        let user = PostgresFixture.freshUser("live-jwt")
        let expiry = Date().timeIntervalSince1970 + 2
        let first = try await backend.sign(AppSignInTests.TestClaims(exp: expiry, sub: user))
        let renewed = try await backend.sign(AppSignInTests.TestClaims(sub: user))
        // The app's sign-in: its cached token until the server refuses it, then a new one from the backend.
        let asked = Recorded<SyncClient.TokenRequest>()
        let provider: SyncClient.TokenProvider = { request in
            asked.append(request)
            return asked.values.contains { $0.refused != nil } ? renewed : first
        }
        try await Self.withSignInServer(backend) { server in
            let phone = try Self.directory(device: "ph").open(user: "ana")
            defer { phone.close() }
            let sync = phone.startSync(client: SyncClient(server: server, tokenProvider: provider))
            defer { sync.stop() }
            var statuses = sync.statusUpdates().makeAsyncIterator()
            let workout = try phone.startWorkout(name: "Legs")
            try phone.completeSet(workout, exercise: "barbell-back-squat", set: 1, weight: 100, reps: 5)
            #expect(try await sync.syncNow().user == user)
            // The JWT expires; the device records on.
            while Date().timeIntervalSince1970 <= expiry { try await Task.sleep(for: .milliseconds(100)) }
            try phone.completeSet(workout, exercise: "barbell-back-squat", set: 2, weight: 100, reps: 5)
            try phone.finishWorkout(workout)
            let report = try await sync.syncNow()
            #expect(report.events == 4)
            let onServer = try await SyncClient(server: server, token: renewed).pull(user: user, after: .start)
            #expect(onServer.events.map(\.id) == (try phone.events().map(\.id)))
            #expect(onServer.events.count == 4)
            // Asked again only with the expired JWT, saying why the server refused it.
            let refusals = asked.values.filter { $0.refused != nil }
            #expect(!refusals.isEmpty)
            #expect(refusals.allSatisfy { $0.refused == first && $0.reason?.hasPrefix("the JWT is refused: it expired at ") == true }, "\(refusals)")
            sync.stop()
            var seen: [LiveSync.Status] = []
            while let status = await statuses.next() { seen.append(status) }
            #expect(seen.allSatisfy { $0 == .idle || $0 == .syncing }, "\(seen)")
        }
    }

    @Test("a token provider that throws puts the live sync in error with its words, syncNow throws them, and nothing is sent")
    func failingTokenProvider() async throws {
        let backend = try await AppSignInTests.Backend()
        let user = PostgresFixture.freshUser("live-jwt")
        let token = try await backend.sign(AppSignInTests.TestClaims(sub: user))
        struct SignedOut: Error, CustomStringConvertible { var description: String { "the user signed out" } }
        let signedIn = Recorded<Bool>()
        signedIn.append(true)
        let provider: SyncClient.TokenProvider = { _ in
            guard signedIn.values.last == true else { throw SignedOut() }
            return token
        }
        try await Self.withSignInServer(backend) { server in
            let phone = try Self.directory(device: "ph").open(user: "ana")
            defer { phone.close() }
            let sync = phone.startSync(client: SyncClient(server: server, tokenProvider: provider))
            defer { sync.stop() }
            let workout = try phone.startWorkout(name: "Legs")
            #expect(try await sync.syncNow().events == 1)
            signedIn.append(false)
            try phone.completeSet(workout, exercise: "barbell-back-squat", set: 1, weight: 100, reps: 5)
            let reason = "the app's token provider gave no token: the user signed out; nothing was sent; the user may need to sign in again"
            await #expect(throws: JournalSyncing.Problem.self) { try await sync.syncNow() }
            var statuses = sync.statusUpdates().makeAsyncIterator()
            var status = await statuses.next()
            while status == .idle || status == .syncing { status = await statuses.next() }
            #expect(status == .error(reason))
            let onServer = try await SyncClient(server: server, token: token).pull(user: user, after: .start)
            #expect(onServer.events.count == 1)
        }
    }

    /// The app's backend of the sync article's snippet: it signs a fresh JWT for its signed-in user on every ask.
    struct ArticleBackend: Sendable {
        let keys: AppSignInTests.Backend
        let user: String
        let asked = Recorded<Bool>()
        func journalToken(forceRefresh: Bool) async throws -> String {
            asked.append(forceRefresh)
            return try await keys.sign(AppSignInTests.TestClaims(sub: user))
        }
    }

    @Test("the sync article's code (WorkoutJournal.docc/SyncAndSignIn.md) runs as written against a server taking the app's JWTs")
    func syncArticleSnippet() async throws {
        let article = DocSnippets.repository(fromTestFile: #filePath).appendingPathComponent("Sources/WorkoutJournal/WorkoutJournal.docc/SyncAndSignIn.md").path
        let code = try DocSnippets.markedLines(in: #filePath, begins: "Sync article begins", ends: "Sync article ends", indent: 12)
        #expect(code.count == 6)
        #expect(code == (try DocSnippets.swiftBlockLines(article)))
        let backend = ArticleBackend(keys: try await AppSignInTests.Backend(), user: PostgresFixture.freshUser("article"))
        try await Self.withSignInServer(backend.keys) { serverURL in
            let journal = try Self.directory(device: "ph").open(user: "ana")
            defer { journal.close() }
            let workout = try journal.startWorkout(name: "Legs")
            try journal.completeSet(workout, exercise: "barbell-back-squat", set: 1, weight: 100, reps: 5)
            // Sync article begins
            let client = SyncClient(server: serverURL, tokenProvider: { request in
                try await backend.journalToken(forceRefresh: request.refused != nil)
            })
            let sync = journal.startSync(client: client)            // until sync.stop() or journal.close()
            let report = try await sync.syncNow()                   // pull-to-refresh: what the round pulled, merged and pushed
            if case .error(let reason) = sync.status { print("sync needs the user: \(reason)") }
            // Sync article ends
            sync.stop()
            #expect(report.user == backend.user)
            #expect(report.events == 2)
            #expect(!backend.asked.values.isEmpty && !backend.asked.values.contains(true))
        }
    }
}

/// Values appended from any task.
final class Recorded<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var stored: [Value] = []
    /// Appends `value`; returns how many there are now.
    @discardableResult
    func append(_ value: Value) -> Int { lock.withLock { stored.append(value); return stored.count } }
    var values: [Value] { lock.withLock { stored } }
}
