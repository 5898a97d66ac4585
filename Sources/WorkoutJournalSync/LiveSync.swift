import Foundation

/// A journal's sync running in the background while it is open (SYNC.md §"Live sync"): it pushes what this device
/// records soon after each append, pulls what other devices push as soon as the server has it (a pull that waits,
/// §"Waiting for new events"), and tries again with backoff while the server cannot be reached. Every round is
/// `JournalSyncing.sync` of the open journal, so merged events reach every observation of it.
///
///     let sync = journal.startSync(client: SyncClient(server: url, tokenProvider: { request in
///         try await backend.journalToken(forceRefresh: request.refused != nil)
///     }))
///     for await status in sync.statusUpdates() { model.syncStatus = status }
///
/// With a `SyncClient.TokenProvider`, a short-lived JWT that expires while the sync runs is replaced after the
/// server's 401 without a round failing; a provider that throws puts the status in `error` with its words
/// (SYNC.md §"Token providers").
///
/// Made by `UserJournal.startSync`; stops on `stop()` or when the journal is closed.
public final class LiveSync: @unchecked Sendable {
    // @unchecked: every stored `var` is read and written only while holding `lock`; the rest is immutable.

    /// Where the sync is, for the app to show.
    public enum Status: Equatable, Sendable {
        /// In step with the server as of the last round (or not started yet).
        case idle
        /// A round (pull, merge, push) is in progress.
        case syncing
        /// The server cannot be reached, or answered that it cannot serve now (429, 5xx): the reason, as
        /// `SyncClient.Failure` words it. The sync tries again by itself with backoff.
        case offline(String)
        /// The server refused (a revoked token, a conflicting id, …), the app's token provider threw
        /// (`SyncClient.Failure.tokenProvider`), or the journal could not be merged: the reason. The sync tries again
        /// with backoff; what it names usually needs the app or the user.
        case error(String)
    }

    /// How a live sync waits and backs off; the defaults suit an app.
    public struct Options: Sendable {
        /// How long a pull waits on the server for another device's push (1 to `SyncProtocol.maximumPullWaitSeconds`).
        public var waitSeconds = SyncProtocol.maximumPullWaitSeconds
        /// The waits between tries while rounds or pulls fail (`RetryPolicy.delay(attempt:)`: 1, 2, 4 … 60 s).
        public var backoff = SyncClient.RetryPolicy.standard
        /// How a wait is waited: `Task.sleep` unless a test passes its own.
        public var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
        /// The defaults: 25 s waits, `RetryPolicy.standard` backoff, `Task.sleep`.
        public init() {}
    }

    /// What a round came to.
    typealias RoundOutcome = Result<JournalSyncing.SyncReport, JournalSyncing.Problem>
    /// A caller waiting for the next round's outcome.
    typealias RoundWaiter = CheckedContinuation<RoundOutcome, Never>

    let journal: UserJournal
    let client: SyncClient
    let options: Options
    private let lock = NSLock()
    private var user: String?
    private var cursor: SyncCursor?
    private var current = Status.idle
    private var watchers: [Int: AsyncStream<Status>.Continuation] = [:]
    private var nextWatcher = 0
    /// The callers waiting for the next round's outcome (`syncNow`, the pull loop).
    private var waiting: [RoundWaiter] = []
    private var stopped = false
    private var tasks: [Task<Void, Never>] = []
    /// Asks the round loop for one more round; rounds asked for while one runs make one more.
    private let kicks: AsyncStream<Void>.Continuation
    private let kicked: AsyncStream<Void>

    init(journal: UserJournal, client: SyncClient, user: String?, options: Options) {
        self.journal = journal
        self.client = client
        self.user = user
        self.options = options
        (kicked, kicks) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func start() {
        let appended = journal.appendedEvents()
        let rounds = Task { await self.runRounds() }
        let pulls = Task { await self.runPulls() }
        let pushes = Task {
            for await _ in appended { self.kicks.yield() }
            // The journal was closed.
            self.stop()
        }
        lock.withLock { tasks = [rounds, pulls, pushes] }
    }

    /// The status now.
    public var status: Status { lock.withLock { current } }

    /// The status now, then each change; ends when the sync stops.
    public func statusUpdates() -> AsyncStream<Status> {
        let (stream, continuation) = AsyncStream.makeStream(of: Status.self)
        lock.withLock {
            continuation.yield(current)
            if stopped {
                continuation.finish()
                return
            }
            let id = nextWatcher
            nextWatcher += 1
            watchers[id] = continuation
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                _ = self.lock.withLock { self.watchers.removeValue(forKey: id) }
            }
        }
        return stream
    }

    /// One round now (pull-to-refresh): returns what it did, or throws why it failed (the status says so too).
    @discardableResult
    public func syncNow() async throws(JournalSyncing.Problem) -> JournalSyncing.SyncReport {
        try await nextRound().get()
    }

    /// Stops syncing: no round or pull starts afterwards, and `statusUpdates` streams end. A round in progress is
    /// cancelled (what it merged or pushed stays; the next sync completes it).
    public func stop() {
        let (tasks, watchers, waiting): ([Task<Void, Never>], [AsyncStream<Status>.Continuation], [RoundWaiter]) = lock.withLock {
            guard !stopped else { return ([], [], []) }
            stopped = true
            defer { self.tasks = []; self.watchers = [:]; self.waiting = [] }
            return (self.tasks, Array(self.watchers.values), self.waiting)
        }
        kicks.finish()
        for task in tasks { task.cancel() }
        for watcher in watchers { watcher.finish() }
        for continuation in waiting { continuation.resume(returning: stoppedOutcome) }
    }

    /// What a caller waiting for a round gets once the sync has stopped.
    private var stoppedOutcome: RoundOutcome { .failure(.journal("the live sync of \(journal.path) was stopped; start it again with startSync")) }

    // MARK: The loops

    /// The outcome of the next round (one is asked for).
    func nextRound() async -> RoundOutcome {
        await withCheckedContinuation { continuation in
            let stopped = lock.withLock {
                if !self.stopped { waiting.append(continuation) }
                return self.stopped
            }
            if stopped { continuation.resume(returning: stoppedOutcome) }
            kicks.yield()
        }
    }

    /// One round per kick: `JournalSyncing.sync` of the open journal, then the callers waiting for it are answered.
    private func runRounds() async {
        for await _ in kicked {
            let (user, waiting) = lock.withLock { () -> (String?, [RoundWaiter]) in
                defer { self.waiting = [] }
                return (self.user, self.waiting)
            }
            set(.syncing)
            let result: RoundOutcome
            do {
                let report = try await JournalSyncing.sync(journal, client: client, user: user)
                lock.withLock {
                    self.user = report.user
                    cursor = SyncCursor(report.cursor)
                }
                set(.idle)
                result = .success(report)
            } catch {
                set(Self.status(of: error))
                result = .failure(error)
            }
            for continuation in waiting { continuation.resume(returning: result) }
        }
    }

    /// Waits on the server for what other devices push, and asks for a round when something came (or a round is due
    /// after a failure); backs off while pulls or rounds fail.
    private func runPulls() async {
        var roundDue = true
        var failures = 0
        while !Task.isCancelled {
            if roundDue {
                if case .failure = await nextRound() {
                    failures += 1
                    if (try? await options.sleep(options.backoff.delay(attempt: failures))) == nil { return }
                    continue
                }
                roundDue = false
                failures = 0
            }
            guard let position = lock.withLock({ () -> (String, SyncCursor)? in
                guard let user = self.user, let cursor = self.cursor else { return nil }
                return (user, cursor)
            }) else {
                roundDue = true
                continue
            }
            let (user, cursor) = position
            do {
                let page = try await client.pull(user: user, after: cursor, limit: 1, waitSeconds: options.waitSeconds)
                roundDue = !page.events.isEmpty || page.cursor != cursor
                failures = 0
            } catch .refused(410, "unknown_cursor", _) {
                // The account was erased on another device since: the round starts again from 0 and erases here.
                roundDue = true
            } catch {
                if Task.isCancelled { return }
                set(Self.status(of: .server(error)))
                failures += 1
                roundDue = true
                if (try? await options.sleep(options.backoff.delay(attempt: failures))) == nil { return }
            }
        }
    }

    private func set(_ status: Status) {
        let watchers: [AsyncStream<Status>.Continuation] = lock.withLock {
            guard current != status, !stopped else { return [] }
            current = status
            return Array(self.watchers.values)
        }
        for watcher in watchers { watcher.yield(status) }
    }

    /// `offline` for what passes by itself (the server unreachable, overloaded or without its database), `error`
    /// for the rest.
    static func status(of problem: JournalSyncing.Problem) -> Status {
        if case .server(let failure) = problem, failure.isTransient { return .offline(failure.description) }
        return .error(problem.description)
    }
}

extension UserJournal {
    /// Starts syncing this journal in the background with the server `client` talks to, as `user` (the token's own
    /// when nil), until `stop()` or `close()` (SYNC.md §"Live sync"). Every observation keeps running and sees what
    /// other devices record as soon as it is merged.
    public func startSync(client: SyncClient, user: String? = nil, options: LiveSync.Options = LiveSync.Options()) -> LiveSync {
        let sync = LiveSync(journal: self, client: client, user: user, options: options)
        sync.start()
        return sync
    }
}
