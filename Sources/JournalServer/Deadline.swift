import Foundation

/// Request deadlines, shared by `GroupCommit` and `GroupRead`: each request's is kept by its queue's `Expiry`, and a
/// runner stops waiting on a database call as soon as every request of its group has been answered.
enum Deadline {
    /// A push's 503 past its deadline (`GroupCommit`'s `Expiry`).
    static func notCommitted(within limit: Duration) -> SyncFailure {
        SyncFailure(503, "database_unavailable", "the database did not commit within \(limit); nothing was acknowledged; retry")
    }

    /// A read's 503 past its deadline (`GroupRead`'s `Expiry`).
    static func notAnswered(within limit: Duration) -> SyncFailure {
        SyncFailure(503, "database_unavailable", "the database did not answer within \(limit); retry")
    }

    /// `body`'s result, or `CancellationError` as soon as `abandoned` (checked every 50 ms) is true: every request of
    /// the group was answered without it (each by its `Expiry` at its deadline, or cancelled). `body` is then
    /// cancelled but not awaited: a transaction stuck on a dead node's pool is left behind (it commits or rolls back
    /// on its own; nothing of it was acknowledged, and a retried push finds whatever it stored). Every request of a
    /// group queued before the group started, so a runner waits at most its requests' deadline and 50 ms more.
    static func result<T: Sendable>(of body: @escaping @Sendable () async throws -> T,
                                    abandonedWhen abandoned: @escaping @Sendable () -> Bool) async -> Result<T, any Error> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
            let race = Race(continuation)
            let work = Task {
                do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
            }
            race.timer = Task {
                while true {
                    try await Task.sleep(for: .milliseconds(50))
                    if abandoned() {
                        // The answer first: the cancelled body must not answer in its place.
                        race.finish(.failure(CancellationError()))
                        work.cancel()
                        return
                    }
                }
            }
        }
    }
}

extension Deadline {
    /// `body`'s result, or `TimedOut` after `limit` (`body` is cancelled and not awaited).
    static func result<T: Sendable>(of body: @escaping @Sendable () async throws -> T, within limit: Duration) async -> Result<T, any Error> {
        let end = ContinuousClock.now + limit
        let outcome = await result(of: body, abandonedWhen: { ContinuousClock.now >= end })
        if case .failure(let error) = outcome, error is CancellationError { return .failure(TimedOut(limit: limit)) }
        return outcome
    }

    struct TimedOut: DatabaseUnavailable {
        var limit: Duration
        var description: String { "no answer within \(limit)" }
    }
}

/// The first of a group's work and its abandonment to finish answers; the other is ignored (the timer is cancelled).
final class Race<T: Sendable>: @unchecked Sendable {
    // @unchecked: every field is read and written under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result<T, any Error>, Never>?
    private var timerTask: Task<Void, any Error>?
    private var finished = false

    init(_ continuation: CheckedContinuation<Result<T, any Error>, Never>) { self.continuation = continuation }

    var timer: Task<Void, any Error>? {
        get { lock.withLock { timerTask } }
        set {
            let cancel: Bool = lock.withLock { timerTask = newValue; return finished }
            if cancel { newValue?.cancel() }
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, timer): (CheckedContinuation<Result<T, any Error>, Never>?, Task<Void, any Error>?) = lock.withLock {
            guard !finished else { return (nil, nil) }
            finished = true
            defer { self.continuation = nil }
            return (self.continuation, timerTask)
        }
        timer?.cancel()
        continuation?.resume(returning: result)
    }
}
