import Foundation

extension UserJournal {
    /// Runs `body` with this journal on the journal's own serial queue and returns its result: the durable append
    /// (fsync) of every call in it happens there, never on the caller's actor, so a SwiftUI view on the main actor
    /// awaits the disk instead of waiting for it.
    ///
    /// Writes run one at a time in the order they were asked for, and through the same lock as the synchronous calls,
    /// so the journal keeps one writer: the call stays on the caller's actor (`isolation`) until it has put `body`
    /// on the queue, which is FIFO. A refusal is thrown to the caller as the synchronous call throws it, and changes
    /// nothing.
    ///
    ///     let workout = try await journal.write { try $0.startWorkout(name: "Push") }
    ///     try await journal.write { try $0.completeSet(workout, exercise: "barbell-bench-press", set: 1, weight: 60, reps: 10) }
    @discardableResult
    public func write<Value: Sendable, Failure: Error>(isolation: isolated (any Actor)? = #isolation,
                                                       _ body: @escaping @Sendable (UserJournal) throws(Failure) -> Value) async throws(Failure) -> Value {
        let result = await withCheckedContinuation(isolation: isolation) { (done: CheckedContinuation<Result<Value, Failure>, Never>) in
            writeQueue.async { done.resume(returning: Result { () throws(Failure) -> Value in try body(self) }) }
        }
        return try result.get()
    }
}
