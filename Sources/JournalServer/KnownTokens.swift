import Foundation

/// The principals of the tokens this server has looked up (SCALE.md §"Tokens checked at commit"), so that a push
/// need not wait for a look-up of its token before it queues for its group commit. Only pushes use them
/// (`PostgresSyncStore.authenticateForPush`), and only because their commit checks each token again before it writes
/// (`journal_check_tokens`): a token revoked since is refused then and forgotten here. Every other request (pulls,
/// pages, the access log) looks its token up afresh, so a revocation takes effect on them at once.
///
/// A token's user and role never change (the only change is its revocation), so a remembered principal is either
/// right or revoked. Bounded by `capacity`; past it, arbitrary tokens are forgotten.
package final class KnownTokens: @unchecked Sendable {
    // @unchecked: every field is read and written under `lock`.
    private let lock = NSLock()
    private var principals: [String: Principal] = [:]
    let capacity: Int

    /// 100,000 tokens, about 20 MB.
    init(capacity: Int = 100_000) { self.capacity = capacity }

    subscript(token: String) -> Principal? { lock.withLock { principals[token] } }

    func keep(_ principal: Principal, of token: String) {
        lock.withLock {
            while principals.count >= capacity, principals[token] == nil {
                principals.remove(at: principals.startIndex)
            }
            principals[token] = principal
        }
    }

    package func forget(_ tokens: some Sequence<String>) {
        lock.withLock { for token in tokens { principals[token] = nil } }
    }

    /// Every token of `user`: they were revoked together.
    func forget(user: String) {
        lock.withLock { principals = principals.filter { $0.value.user != user } }
    }

    var count: Int { lock.withLock { principals.count } }
}
