import Foundation
import JournalSync
import Testing
@testable import JournalServer

@Suite("Group commit: a committer never stays stuck on a dead node")
struct GroupCommitTests {
    static let outcome = PushOutcome(acknowledged: ["ph-1"], stored: 1, cursor: SyncCursor(epoch: 1, position: 1))
    /// One store's commit (a committer uses the closure of the push that started it for every group): a group
    /// holding user "stuck" hangs as a transaction on a dead node's pool does; any other commits.
    static let commit: GroupCommit.Commit = { group in
        if group.contains(where: { $0.user == "stuck" }) { try await Task.sleep(for: .seconds(3600)) }
        return group.map { _ in .success(outcome) }
    }

    @Test("a group whose every push gave up is abandoned, and the next push is committed", .timeLimit(.minutes(1)))
    func abandonedGroup() async throws {
        // One committer, whose first group hangs as a transaction on a dead node's pool does.
        let groups = GroupCommit(committers: 1, commitDeadline: .seconds(3600))
        let stuck = Task { try await groups.push(user: "stuck", events: [], commit: Self.commit) }
        try await Task.sleep(for: .milliseconds(200))
        stuck.cancel()   // the request's deadline
        await #expect(throws: CancellationError.self) { try await stuck.value }
        let next = try await groups.push(user: "b", events: [], commit: Self.commit)
        #expect(next == Self.outcome)
    }

    @Test("a commit past the deadline answers 503 and frees the committer", .timeLimit(.minutes(1)))
    func deadline() async throws {
        let groups = GroupCommit(committers: 1, commitDeadline: .milliseconds(300))
        do {
            _ = try await groups.push(user: "stuck", events: [], commit: Self.commit)
            Issue.record("a hung commit was acknowledged")
        } catch let failure as SyncFailure {
            #expect(failure.description == "503 database_unavailable: the database did not commit within 0.3 seconds; nothing was acknowledged; retry")
        }
        let next = try await groups.push(user: "b", events: [], commit: Self.commit)
        #expect(next == Self.outcome)
    }

    /// A request as `Expiry` sees it, recording what answered it.
    final class Request: Expiring, @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [String] = []
        private var done: CheckedContinuation<Void, Never>?
        var isAnswered: Bool { lock.withLock { !answers.isEmpty } }
        var answered: [String] { lock.withLock { answers } }
        func answer(_ text: String) {
            let done: CheckedContinuation<Void, Never>? = lock.withLock {
                answers.append(text)
                defer { self.done = nil }
                return self.done
            }
            done?.resume()
        }
        func expire(_ failure: SyncFailure) { answer(failure.description) }
        func answeredOnce() async {
            await withCheckedContinuation { continuation in
                let now: Bool = lock.withLock {
                    if !answers.isEmpty { return true }
                    done = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    @Test("a request still unanswered at its deadline is answered 503 once; an answered one is left alone", .timeLimit(.minutes(1)))
    func expiry() async throws {
        let expiry = Expiry(limit: .milliseconds(200), failure: Deadline.notCommitted(within: .milliseconds(200)))
        let answered = Request(), late = Request(), later = Request()
        expiry.watch(answered)
        expiry.watch(late)
        answered.answer("committed")
        await late.answeredOnce()
        #expect(late.answered == ["503 database_unavailable: the database did not commit within 0.2 seconds; nothing was acknowledged; retry"])
        #expect(answered.answered == ["committed"])
        // The sweeper stopped when nothing waited; a later request starts it again.
        expiry.watch(later)
        await later.answeredOnce()
        #expect(later.answered == ["503 database_unavailable: the database did not commit within 0.2 seconds; nothing was acknowledged; retry"])
        #expect(late.answered.count == 1)
    }
}
