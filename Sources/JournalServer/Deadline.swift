import Foundation

/// A group's work against its deadline, shared by `GroupCommit` and `GroupRead`: a runner never waits on a
/// database call past the deadline, nor at all once every request of its group gave up.
enum Deadline {
    /// A push's 503 past its deadline, from its group's runner or from its own `Expiry`: the same words either way.
    static func notCommitted(within limit: Duration) -> SyncFailure {
        SyncFailure(503, "database_unavailable", "the database did not commit within \(limit); nothing was acknowledged; retry")
    }

    /// A read's 503 past its deadline.
    static func notAnswered(within limit: Duration) -> SyncFailure {
        SyncFailure(503, "database_unavailable", "the database did not answer within \(limit); retry")
    }

    /// `body`'s result, or a 503 once `limit` passed (`pastDeadline`, by default "did not commit"), or
    /// `CancellationError` as soon as `abandoned` (checked every 50 ms) is true. `body` is then cancelled but not
    /// awaited: a transaction stuck on a dead node's pool is left behind (it commits or rolls back on its own;
    /// nothing of it was acknowledged, and a retried push finds whatever it stored).
    static func result<T: Sendable>(of body: @escaping @Sendable () async throws -> T, within limit: Duration,
                                    abandonedWhen abandoned: @escaping @Sendable () -> Bool = { false },
                                    pastDeadline: SyncFailure? = nil) async -> Result<T, any Error> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
            let race = Race(continuation)
            let work = Task {
                do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
            }
            race.timer = Task {
                let clock = ContinuousClock()
                let end = clock.now + limit
                while clock.now < end {
                    try await Task.sleep(for: min(.milliseconds(50), end - clock.now))
                    if abandoned() {
                        race.finish(.failure(CancellationError()))
                        work.cancel()
                        return
                    }
                }
                // The answer first: the cancelled body must not answer in its place.
                race.finish(.failure(pastDeadline ?? notCommitted(within: limit)))
                work.cancel()
            }
        }
    }
}

/// The first of a group's work and its deadline to finish answers; the other is ignored (the timer is cancelled).
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
