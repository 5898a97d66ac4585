import Foundation

/// What this server last committed for each user (SCALE.md §"Known users"): the state a group transaction would
/// read under the user's row lock (`PostgresSyncStore.UserState`: head, epoch, erasure, batches with the ids and
/// blocks of the open ones), kept after a commit that succeeded so that the user's next push need not read it again.
///
/// A state is only ever a guess: a group that uses it writes with `journal_write_known_group`, which first checks
/// each user's head and epoch in the database and rolls the whole group back if one differs (another server wrote,
/// an erasure, a failover to a node that holds something else). Every change to a user's batches moves its head
/// (an append, with or without a compaction) or its epoch (an erasure), so equal head and epoch mean equal batches.
///
/// A group takes its users' states out (`take`) and puts the new ones back only once it committed (`keep`): a
/// group that fails, is abandoned at its deadline or whose commit is unknown leaves its users unknown, and their next
/// push reads them under the lock. Bounded by `byteBudget`; past it, arbitrary users are forgotten.
final class KnownUsers: @unchecked Sendable {
    // @unchecked: every field is read and written under `lock`.
    private let lock = NSLock()
    private var states: [String: PostgresSyncStore.UserState] = [:]
    private var bytes = 0
    let byteBudget: Int

    /// 64 MiB: a user with a few open batches costs a few KB, so tens of thousands of users.
    init(byteBudget: Int = 64 << 20) { self.byteBudget = byteBudget }

    /// The known states of `users`, removed from what is known.
    func take(_ users: [String]) -> [String: PostgresSyncStore.UserState] {
        lock.withLock {
            var taken: [String: PostgresSyncStore.UserState] = [:]
            for user in users {
                if let state = states.removeValue(forKey: user) {
                    bytes -= state.bytes
                    taken[user] = state
                }
            }
            return taken
        }
    }

    /// Keeps the states a group committed.
    func keep(_ committed: [String: PostgresSyncStore.UserState]) {
        lock.withLock {
            for (user, state) in committed where state.bytes <= byteBudget {
                if let old = states.updateValue(state, forKey: user) { bytes -= old.bytes }
                bytes += state.bytes
            }
            while bytes > byteBudget, let forgotten = states.first?.value {
                states.remove(at: states.startIndex)
                bytes -= forgotten.bytes
            }
        }
    }

    var count: Int { lock.withLock { states.count } }
}
