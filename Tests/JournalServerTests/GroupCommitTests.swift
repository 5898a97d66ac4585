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
}
