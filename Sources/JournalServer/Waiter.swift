import Foundation

/// One request's answer in a group (a push in `GroupCommit`, a read in `GroupRead`), given once: by the group's
/// runner, or by the request's cancellation (its deadline passed), whichever comes first.
final class Waiter<Value: Sendable>: @unchecked Sendable {
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
}
