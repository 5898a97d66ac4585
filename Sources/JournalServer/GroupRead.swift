import Foundation
import Logging

/// Group reads (SCALE.md §"Group reads"): concurrent look-ups of one kind — token principals, pulls — wait in one
/// queue, and a runner answers every queued one with one query (`unnest … CROSS JOIN LATERAL`) instead of one each. At
/// most `runners` queries run at once, so while one runs the next group fills; a look-up that finds a runner free
/// is sent at once, alone, so a quiet server adds no wait. The same bound and deadline as `GroupCommit`: the queue
/// is bounded by the server's admission bound, a group by `maximumKeys`, each read is answered 503 `deadline` after it
/// queued (`Expiry`), and a runner stops waiting on its query once every read of its group is answered, so a dead
/// node's pool cannot hold it.
final class GroupRead<Key: Sendable, Value: Sendable>: @unchecked Sendable {
    // @unchecked: `queue` and `running` are read and written under `lock`; the rest is immutable.
    /// Answers a group's keys, one value per key in the same order. A thrown error is every key's answer.
    typealias Fetch = @Sendable ([Key]) async throws -> [Value]

    let runners: Int
    let maximumKeys: Int
    let deadline: Duration
    /// Answers a read 503 once `deadline` passed since it queued, whether it still waits or its group runs.
    let expiry: Expiry
    let fetch: Fetch
    private let lock = NSLock()
    private var queue: [(key: Key, waiter: Waiter<Value>)] = []
    private var running = 0

    init(runners: Int = 2, maximumKeys: Int = 512, deadline: Duration = .seconds(10), fetch: @escaping Fetch) {
        self.runners = runners
        self.maximumKeys = maximumKeys
        self.deadline = deadline
        expiry = Expiry(limit: deadline, failure: Deadline.notAnswered(within: deadline))
        self.fetch = fetch
    }

    /// The value for `key`, read with whatever else is queued. Past `deadline` after it queued it throws 503;
    /// cancelled, it returns at once with `CancellationError`.
    func read(_ key: Key) async throws -> Value {
        let waiter = Waiter<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                guard waiter.wait(continuation) else { return }
                let start: Bool = lock.withLock {
                    queue.append((key, waiter))
                    guard running < runners else { return false }
                    running += 1
                    return true
                }
                expiry.watch(waiter)
                if start { Task { await self.drain() } }
            }
        } onCancel: {
            waiter.resume(.failure(CancellationError()))
        }
    }

    /// One runner: groups until the queue is empty, then it stops (the next read starts one).
    private func drain() async {
        while let group = nextGroup() {
            let keys = group.map(\.key), fetch = self.fetch
            switch await Deadline.result(of: { try await fetch(keys) },
                                         abandonedWhen: { group.allSatisfy(\.waiter.isAnswered) }) {
            case .success(let values) where values.count == group.count:
                for (entry, value) in zip(group, values) { entry.waiter.resume(.success(value)) }
            case .success(let values):
                let error = GroupReadMismatch(keys: group.count, values: values.count)
                for entry in group { entry.waiter.resume(.failure(error)) }
            case .failure(let error):
                for entry in group { entry.waiter.resume(.failure(error)) }
            }
        }
    }

    /// The queued reads still waited for, at most `maximumKeys`; nil (and this runner stops) when there is none.
    private func nextGroup() -> [(key: Key, waiter: Waiter<Value>)]? {
        lock.withLock {
            queue.removeAll { $0.waiter.isAnswered }
            guard !queue.isEmpty else {
                running -= 1
                return nil
            }
            let count = min(queue.count, maximumKeys)
            let group = Array(queue.prefix(count))
            queue.removeFirst(count)
            return group
        }
    }
}

/// A group read's query answered a different number of values than it was given keys (a bug in its SQL).
struct GroupReadMismatch: Error, CustomStringConvertible {
    var keys: Int
    var values: Int
    var description: String { "a group read of \(keys) keys answered \(values) values" }
}
