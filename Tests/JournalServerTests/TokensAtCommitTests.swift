import Foundation
import JournalEvents
import JournalSync
@testable import JournalServer
import JournalServerBench
import Logging
import PostgresNIO
import Testing

/// Tokens checked at commit (SCALE.md §"Tokens checked at commit"): a push may be authorized on a principal the
/// server remembered from an earlier look-up of its token, because its commit checks the token again before it
/// writes. These tests revoke a remembered token behind the server's back (another server, or `journal-server token
/// revoke`) and push with it.
@Suite("Tokens checked at commit: a push made with a remembered token revoked since stores nothing", .serialized)
struct TokensAtCommitTests {
    /// The events stored for `user`, by id in position order.
    static func storedIDs(_ url: DatabaseURL, user: String) async throws -> [String] {
        try await FleetTests.rows(url, user: user).flatMap { row in
            try StoredBatch.lines(ofBlock: row.block).map { try EventCodec.decode($0).id }
        }
    }

    @Test("a user the server knows and one it never wrote: both pushes refused 401, nothing stored, the tokens forgotten; a live push beside a dead one is stored")
    func revokedElsewhere() async throws {
        let url = try await FleetTests.freshDatabase("tokens")
        let events = try FleetIngest.simulatedEvents(index: 0, seed: 1, weeks: 1)
        try #require(events.count >= 6)
        try await withFleetClient(url, migrate: true) { client, logger in
            let server = PostgresSyncStore(client: client, logger: logger)
            // Another server on the same database (or `journal-server token revoke`): this server hears nothing of it.
            let elsewhere = PostgresSyncStore(client: client, logger: logger)
            for user in ["known", "new", "late", "live"] { try await server.addToken("wjt_\(user)", user: user, role: .user) }

            // "known" pushes once with its token: the server now knows the user and remembers the token.
            #expect(try await server.authenticateForPush(token: "wjt_known") == Principal(user: "known", role: .user))
            #expect(try await server.push(user: "known", events: Array(events[0..<2]), token: "wjt_known").stored == 2)
            #expect(try await server.authenticateForPush(token: "wjt_new") == Principal(user: "new", role: .user))
            #expect(server.knownTokens.count == 2)
            #expect(try await elsewhere.revoke(token: "wjt_known"))
            #expect(try await elsewhere.revoke(token: "wjt_new"))
            // Remembered, so still answered without a look-up; a read looks it up and finds it revoked.
            #expect(try await server.authenticateForPush(token: "wjt_known") == Principal(user: "known", role: .user))
            #expect(try await server.authenticate(token: "wjt_known") == nil)

            // The known user's group (one statement) and the new user's (under the locks) both refuse.
            await #expect(throws: SyncFailure.unknownToken) {
                try await server.push(user: "known", events: Array(events[2..<4]), token: "wjt_known")
            }
            await #expect(throws: SyncFailure.unknownToken) {
                try await server.push(user: "new", events: Array(events[0..<2]), token: "wjt_new")
            }
            #expect(server.knownTokens.count == 0)
            #expect(try await server.authenticateForPush(token: "wjt_known") == nil)

            // A push with a dead token and one with a live token at once (in one group or two): one refused, one stored.
            #expect(try await server.authenticateForPush(token: "wjt_late") == Principal(user: "late", role: .user))
            #expect(try await elsewhere.revoke(token: "wjt_late"))
            #expect(try await server.authenticateForPush(token: "wjt_live") == Principal(user: "live", role: .user))
            @Sendable func pushed(_ user: String) async -> Result<PushOutcome, any Error> {
                do { return .success(try await server.push(user: user, events: Array(events[0..<3]), token: "wjt_\(user)")) }
                catch { return .failure(error) }
            }
            async let late = pushed("late")
            async let live = pushed("live")
            let (lateOutcome, liveOutcome) = await (late, live)
            #expect(throws: SyncFailure.unknownToken) { try lateOutcome.get() }
            #expect(try liveOutcome.get().stored == 3)
            // A push without a token to check (the store's own callers: fleet jobs, tests) is not checked.
            #expect(try await server.push(user: "late", events: Array(events[0..<1])).stored == 1)
        }
        #expect(try await Self.storedIDs(url, user: "known") == events[0..<2].map(\.id))
        #expect(try await Self.storedIDs(url, user: "new") == [])
        #expect(try await Self.storedIDs(url, user: "live") == events[0..<3].map(\.id))
        #expect(try await Self.storedIDs(url, user: "late") == events[0..<1].map(\.id))
    }

    @Test("journal_check_tokens names the first push whose token is unknown or revoked, and passes empty tokens")
    func checkTokensMessage() async throws {
        let url = try await FleetTests.freshDatabase("tokens_sql")
        try await withFleetClient(url, migrate: true) { client, logger in
            let store = PostgresSyncStore(client: client, logger: logger)
            try await store.addToken("wjt_a", user: "a", role: .user)
            try await store.addToken("wjt_b", user: "b", role: .user)
            #expect(try await store.revoke(token: "wjt_b"))
            func reason(_ tokens: [String]) async throws -> String {
                do {
                    try await client.withConnection { try await $0.run(Statements.CheckTokens(tokens: tokens), logger: logger) }
                    return "live"
                } catch let error as PSQLError {
                    return "\(error.serverInfo?[.sqlState] ?? "") \(error.serverInfo?[.message] ?? "")"
                }
            }
            #expect(try await reason(["wjt_a", "", "wjt_a"]) == "live")
            #expect(try await reason([]) == "live")
            #expect(try await reason(["wjt_a", "", "wjt_b", "wjt_unknown"]) == "\(PostgresSyncStore.deadTokenState) the token of push 3 of the group is unknown or revoked")
            #expect(try await reason(["wjt_unknown"]) == "\(PostgresSyncStore.deadTokenState) the token of push 1 of the group is unknown or revoked")
        }
    }

    @Test("the naive peer checks the token in its push's transaction the same way")
    func naivePeer() async throws {
        let url = try await FleetTests.freshDatabase("tokens_naive")
        let events = try FleetIngest.simulatedEvents(index: 0, seed: 2, weeks: 1)
        try await withFleetClient(url, migrate: true) { client, logger in
            let naive = NaiveSyncStore(client: client, logger: logger)
            try await naive.migrate()
            try await naive.addToken("wjt_naive", user: "naive", role: .user)
            #expect(try await naive.authenticateForPush(token: "wjt_naive") == Principal(user: "naive", role: .user))
            #expect(try await naive.push(user: "naive", events: Array(events[0..<2]), token: "wjt_naive").stored == 2)
            #expect(try await PostgresSyncStore(client: client, logger: logger).revoke(token: "wjt_naive"))
            await #expect(throws: SyncFailure.unknownToken) {
                try await naive.push(user: "naive", events: Array(events[2..<4]), token: "wjt_naive")
            }
            #expect(naive.inner.knownTokens.count == 0)
            let page = try await naive.pull(user: "naive", after: .start, limit: 100)
            #expect(try page.lines.map { try EventCodec.decode($0).id } == events[0..<2].map(\.id))
        }
    }
}
