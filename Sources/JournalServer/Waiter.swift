import Foundation

/// One request's answer in a group (a push in `GroupCommit`, a read in `GroupRead`), given once: by the group's
/// runner, by its request's deadline (`Expiry`), or by the request's cancellation, whichever comes first.
final class Waiter<Value: Sendable>: Expiring, @unchecked Sendable {
    // @unchecked: every field is read and written under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var answered = false

    /// Keeps the continuation; false (and it is resumed with `CancellationError`) when the request was cancelled
    /// before it queued.
    func wait(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let cancelled: Bool = lock.withLock {
            if answered { return true }
            self.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    var isAnswered: Bool { lock.withLock { answered } }

    func resume(_ result: Result<Value, any Error>) {
        let continuation: CheckedContinuation<Value, any Error>? = lock.withLock {
            guard !answered else { return nil }
            answered = true
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(with: result)
    }

    func expire(_ failure: SyncFailure) { resume(.failure(failure)) }
}

/// A request waiting in a group's queue or in a running group, as `Expiry` sees it.
protocol Expiring: AnyObject, Sendable {
    var isAnswered: Bool { get }
    func expire(_ failure: SyncFailure)
}

/// Each request's deadline (SCALE.md §"Group commit"): a request still unanswered `limit` after it queued is
/// answered `failure` (a 503) and leaves its group. One sweeping task per queue, waking every 50 ms while anything
/// waits, does it for every request; a task and a timer per request had cost about a fifth of the server's CPU
/// at 1,000 devices.
final class Expiry: @unchecked Sendable {
    // @unchecked: `waiting` and `sweeping` are read and written under `lock`; the rest is immutable.
    let limit: Duration
    let failure: SyncFailure
    private let lock = NSLock()
    /// In the order they queued, so also in the order of their deadlines.
    private var waiting: [(request: any Expiring, end: ContinuousClock.Instant)] = []
    private var sweeping = false

    init(limit: Duration, failure: SyncFailure) {
        self.limit = limit
        self.failure = failure
    }

    /// Answers `request` with `failure` once `limit` passed, unless something answered it first.
    func watch(_ request: any Expiring) {
        let end = ContinuousClock.now + limit
        let start: Bool = lock.withLock {
            waiting.append((request, end))
            if sweeping { return false }
            sweeping = true
            return true
        }
        if start { Task { await sweep() } }
    }

    /// Every 50 ms: forgets the answered requests and answers the expired ones; stops when none waits.
    private func sweep() async {
        while true {
            try? await Task.sleep(for: .milliseconds(50))
            let now = ContinuousClock.now
            let (expired, done): ([any Expiring], Bool) = lock.withLock {
                var expired: [any Expiring] = []
                waiting.removeAll { entry in
                    if entry.request.isAnswered { return true }
                    guard entry.end <= now else { return false }
                    expired.append(entry.request)
                    return true
                }
                if waiting.isEmpty { sweeping = false }
                return (expired, waiting.isEmpty)
            }
            for request in expired { request.expire(failure) }
            if done { return }
        }
    }
}
