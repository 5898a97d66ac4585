import Foundation
import ServiceLifecycle

/// The pushes this server commits, announced to the pulls that wait for them (SYNC.md §"Waiting for new events"):
/// a pull with `wait` that finds nothing after its cursor watches its user here before it reads, and is woken when a
/// push of that user commits in this process, or at the end of its wait. Pushes committed by another server are not
/// seen here: a pull waiting on this one ends at its timeout at the latest, and its next pull finds them.
///
/// Only users with a waiting pull are kept, so what it holds is bounded by the pulls in progress.
final class JournalChanges: @unchecked Sendable {
    // @unchecked: `watched` and `next` are read and written only while holding `lock`.
    private let lock = NSLock()
    /// For each user with a watch: each watch's id and, once it was woken or ended, nothing more to wait for.
    private var watched: [String: [Int: Watch.State]] = [:]
    private var next = 0

    /// Starts watching `user`: a push of that user committed from now on wakes `Watch.wait`.
    func watch(_ user: String) -> Watch {
        lock.withLock {
            next += 1
            watched[user, default: [:]][next] = .watching
            return Watch(changes: self, user: user, id: next)
        }
    }

    /// A push of `user` committed: wakes every watch of that user.
    func committed(_ user: String) {
        let waiting: [CheckedContinuation<Bool, Never>] = lock.withLock {
            guard var watches = watched[user] else { return [] }
            var waiting: [CheckedContinuation<Bool, Never>] = []
            for (id, state) in watches {
                if case .waiting(let continuation) = state { waiting.append(continuation) }
                watches[id] = .committed
            }
            watched[user] = watches
            return waiting
        }
        for continuation in waiting { continuation.resume(returning: true) }
    }

    /// How many watches are in progress (for tests).
    var count: Int { lock.withLock { watched.values.reduce(0) { $0 + $1.count } } }

    /// Whether `watch` is waiting (for tests).
    func isWaiting(_ watch: Watch) -> Bool {
        lock.withLock {
            if case .waiting? = watched[watch.user]?[watch.id] { return true }
            return false
        }
    }

    /// One pull's watch of a user.
    struct Watch: Sendable {
        enum State {
            case watching
            case waiting(CheckedContinuation<Bool, Never>)
            case committed
            case ended
        }
        let changes: JournalChanges
        let user: String
        let id: Int

        /// True as soon as a push of the user committed since `watch` (at once if one already has); false when
        /// `duration` passed first, or the task was cancelled, or the server began to shut down.
        func wait(for duration: Duration) async -> Bool {
            let timer = Task {
                try? await Task.sleep(for: duration)
                changes.settle(self, committed: false)
            }
            defer { timer.cancel() }
            return await withTaskCancellationOrGracefulShutdownHandler {
                await withCheckedContinuation { continuation in
                    let settled: Bool? = changes.lock.withLock {
                        switch changes.watched[user]?[id] {
                        case .watching?:
                            changes.watched[user]?[id] = .waiting(continuation)
                            return nil
                        case .committed?: return true
                        default: return false
                        }
                    }
                    if let settled { continuation.resume(returning: settled) }
                }
            } onCancelOrGracefulShutdown: {
                changes.settle(self, committed: false)
            }
        }

        /// Stops watching (the pull is answered).
        func end() {
            changes.lock.withLock {
                changes.watched[user]?[id] = nil
                if changes.watched[user]?.isEmpty == true { changes.watched[user] = nil }
            }
        }
    }

    /// Ends `watch`'s wait, if it is waiting, with `committed`.
    private func settle(_ watch: Watch, committed: Bool) {
        let continuation: CheckedContinuation<Bool, Never>? = lock.withLock {
            switch watched[watch.user]?[watch.id] {
            case .waiting(let continuation)?:
                watched[watch.user]?[watch.id] = .ended
                return continuation
            case .watching?:
                watched[watch.user]?[watch.id] = .ended
                return nil
            default: return nil
            }
        }
        continuation?.resume(returning: committed)
    }
}
