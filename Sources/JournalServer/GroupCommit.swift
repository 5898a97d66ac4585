import Foundation
import JournalEvents
import Logging

/// Group commit (SCALE.md §"Group commit"): concurrent pushes of different users wait in one queue, and a
/// committer takes every queued push it can into one transaction, commits it (one WAL flush for all of them) and
/// only then answers each push. At most `committers` transactions run at once, so while one waits for its
/// COMMIT the next group fills. A user is in at most one running group, so a group never waits on another's
/// row lock, and two pushes of one user are committed one after the other, in arrival order.
///
/// The queue is bounded by the server's admission (`Admission`: past a standing queue of a second, 64 MiB of bodies
/// or 4,096 requests, 429 with Retry-After), and a group by `maximumEvents`.
final class GroupCommit: @unchecked Sendable {
    struct Push: Sendable {
        let user: String
        let events: [Event]
        /// The bearer token the push was made with, which its commit checks is still live (`journal_check_tokens`,
        /// migration 10); "" for none to check.
        let token: String
        let waiter: Waiter<PushOutcome>
    }

    /// Runs one group in one transaction: each push's outcome or refusal, in the group's order. A thrown error
    /// (the database failed, or the transaction did not commit) is every push's answer.
    typealias Commit = @Sendable ([Push]) async throws -> [Result<PushOutcome, SyncFailure>]

    let committers: Int
    let maximumEvents: Int
    /// How long a push waits, from when it queues, before its `Expiry` answers it 503; a committer gives its group's
    /// transaction up once every push of the group is answered, and goes on with the next group. Without it a
    /// committer whose node died would wait for the dead node's pool forever, and once every committer did, no push
    /// of this node would ever be committed again, even after the node came back (a failed-over node that is
    /// promoted again).
    let commitDeadline: Duration
    /// Answers a push 503 once `commitDeadline` passed since it queued, whether it still waits or its group runs.
    let expiry: Expiry
    let logger: Logger
    private let lock = NSLock()
    private var queue: [Push] = []
    private var running = 0
    private var busy: Set<String> = []

    /// `committers`: 4, so that at a few devices a push seldom waits for a free committer (with 2, a 10-device run's
    /// push p50 was 24 ms against 14 ms), while at 1,000 devices the groups stay large (SCALE.md §"Group commit").
    init(committers: Int = 4, maximumEvents: Int = 4_000, commitDeadline: Duration = .seconds(10),
         logger: Logger = Logger(label: "journal.group-commit")) {
        self.committers = committers
        self.maximumEvents = maximumEvents
        self.commitDeadline = commitDeadline
        expiry = Expiry(limit: commitDeadline, failure: Deadline.notCommitted(within: commitDeadline))
        self.logger = logger
    }

    /// Queues a push and returns once the transaction holding it committed (or failed). Past `commitDeadline`
    /// after it queued it returns 503, and when the calling task is cancelled it returns at once with
    /// `CancellationError`; either way the push may still be committed later, unacknowledged, which a retry then
    /// finds stored.
    func push(user: String, events: [Event], token: String = "", commit: @escaping Commit) async throws -> PushOutcome {
        let waiter = Waiter<PushOutcome>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PushOutcome, any Error>) in
                guard waiter.wait(continuation) else { return }
                let start: Bool = lock.withLock {
                    queue.append(Push(user: user, events: events, token: token, waiter: waiter))
                    guard running < committers else { return false }
                    running += 1
                    return true
                }
                expiry.watch(waiter)
                if start { Task { await self.drain(commit) } }
            }
        } onCancel: {
            waiter.resume(.failure(CancellationError()))
        }
    }

    /// One committer: groups until the queue holds nothing it may take, then it stops (the next push starts one).
    /// `commit` is the closure of the push that started it, used for every group: a store passes the same one for
    /// every push (`PostgresSyncStore.commitGroup`).
    private func drain(_ commit: @escaping Commit) async {
        while let group = nextGroup() {
            // A group whose every push has been answered (each request's deadline passed: its node is gone) is
            // abandoned at once, so that this committer is free for the pushes that come after a failover.
            switch await Deadline.result(of: { try await commit(group) },
                                         abandonedWhen: { group.allSatisfy(\.waiter.isAnswered) }) {
            case .success(let outcomes):
                for (push, outcome) in zip(group, outcomes) { push.waiter.resume(outcome.mapError { $0 }) }
            case .failure(let error):
                if error is CancellationError {
                    logger.warning("group commit: a group of \(group.count) pushes abandoned, every request gave up waiting")
                } else {
                    logger.warning("group commit: a group of \(group.count) pushes failed: \(error)")
                }
                for push in group { push.waiter.resume(.failure(error)) }
            }
            // After a deadline the transaction may still be running; the user's row lock orders it before any
            // later push of the same user.
            lock.withLock { busy.subtract(group.map(\.user)) }
        }
    }

    /// Takes the queued pushes of users in no running group, one per user, in arrival order, up to
    /// `maximumEvents` (at least one push); nil (and this committer stops) when there is none.
    private func nextGroup() -> [Push]? {
        lock.withLock {
            var group: [Push] = [], rest: [Push] = []
            var users = Set<String>(), events = 0
            for push in queue {
                if push.waiter.isAnswered { continue }   // its request gave up (deadline): not stored
                if busy.contains(push.user) || users.contains(push.user)
                    || (!group.isEmpty && events + push.events.count > maximumEvents) {
                    rest.append(push)
                } else {
                    group.append(push)
                    users.insert(push.user)
                    events += push.events.count
                }
            }
            queue = rest
            guard !group.isEmpty else {
                running -= 1
                return nil
            }
            busy.formUnion(users)
            return group
        }
    }
}
