import Foundation
import JournalEvents
import JournalLoad
@testable import JournalServer
import JournalSync
import JournalTesting
import Testing

/// Three journal-server processes behind HAProxy, on the Patroni cluster of `scripts/cluster` (OPERATIONS.md): the
/// servers hold no state a request depends on that another server could make wrong.
@Suite("scripts/cluster: several servers behind HAProxy are stateless", .serialized)
struct SeveralServersTests {
    @Test("one server and the PostgreSQL leader are SIGKILLed in the same run under load spread over 3 servers: 0 acknowledged events lost on any node; users written through each server in turn read the same everywhere; a revoked token is refused by every server on its next request; fleet verify runs clean on a replica during the load; stop leaves no process")
    func serverAndLeaderKilled() async throws {
        let cluster = try PatroniCluster(servers: 3)
        defer { cluster.stop() }
        let front = try #require(cluster.server)
        let servers = try cluster.servers()
        #expect(servers.count == 3)
        let database = try DatabaseURL(cluster.write)

        // Caches across servers: one user written through each server in turn, read through the others.
        let shared = try await ProbeDevices(prefix: "ss", count: 1, workouts: 4, database: database)
        let events = shared.journals[0], user = shared.users[0], token = shared.tokens[0]
        var cursors: [SyncCursor] = Array(repeating: .start, count: servers.count)
        var pushed: [String] = []
        for (round, chunk) in stride(from: 0, to: events.count, by: 4).map({ Array(events[$0..<min($0 + 4, events.count)]) }).enumerated() {
            let writer = servers[round % servers.count]
            let answer = try await SyncClient(server: writer, token: token).push(user: user, events: chunk)
            #expect(answer.acknowledged == chunk.map(\.id))
            pushed += chunk.map(\.id)
            // Each server reads what the others wrote: from its own last cursor, the new events only, in order.
            for (index, reader) in servers.enumerated() {
                var read: [String] = []
                while true {
                    let page = try await SyncClient(server: reader, token: token).pull(user: user, after: cursors[index])
                    read += page.events.map(\.id)
                    cursors[index] = page.cursor
                    if !page.more { break }
                }
                #expect(read == chunk.map(\.id), "server \(index + 1) after round \(round) (written by \(round % servers.count + 1))")
            }
        }
        #expect(pushed.count == events.count)

        // A revocation through the store takes effect on every server at its next request, each having just used
        // the token (KnownTokens remembers it for pushes; every commit checks it again).
        let (revokedUser, revokedToken) = ("sr-\(getpid())", Tokens.generate())
        try await withSyncStore(database) { store in try await store.addToken(revokedToken, user: revokedUser, role: .user) }
        let spare = Array(events.prefix(servers.count))
        for (index, server) in servers.enumerated() {
            _ = try await SyncClient(server: server, token: revokedToken).push(user: revokedUser, events: [spare[index]])
        }
        let revoked = try await withSyncStore(database) { store in try await store.revoke(token: revokedToken) }
        #expect(revoked)
        let refused = SyncClient.Failure.refused(status: 401, code: "bad_token", message: SyncFailure.unknownToken.message)
        for (index, server) in servers.enumerated() {
            let client = SyncClient(server: server, token: revokedToken)
            var pushFailure: SyncClient.Failure?, pullFailure: SyncClient.Failure?
            do { _ = try await client.push(user: revokedUser, events: [spare[(index + 1) % spare.count]]) } catch { pushFailure = error }
            do { _ = try await client.pull(user: revokedUser, after: .start) } catch { pullFailure = error }
            #expect(pushFailure == refused, "server \(index + 1), a push with the revoked token")
            #expect(pullFailure == refused, "server \(index + 1), a pull with the revoked token")
        }

        // Under load through HAProxy (each request to a server at random): SIGKILL server 2 and the leader together.
        let probes = try await ProbeDevices(prefix: "sp", count: 6, workouts: 120, database: database)
        let ledger = AckLedger(), stop = StopFlag()
        var options = LoadRun.Options(devices: 30, requestsPerDevice: 1_000_000, seconds: 20)
        options.pullPauseMilliseconds = 250
        let loadUsers = try await LoadRun.users(prefix: "sl-\(getpid())", options: options, database: database)
        let load = options
        let report = try await withThrowingTaskGroup(of: Void.self, returning: LoadRun.Report.self) { group in
            probes.run(in: &group, server: front, ledger: ledger, stop: stop)
            let running = Task { try await LoadRun.run(label: "several servers", server: front, users: loadUsers, options: load) }
            do {
                try await Task.sleep(for: .seconds(3))
                let serverKilledAt = try cluster.killServer(2)
                let (node, killedAt) = try cluster.killLeader()
                let window = try await ledger.window(after: killedAt, within: PatroniFailoverTests.recoveryBound)
                #expect(window != nil, "no push acknowledged within \(PatroniFailoverTests.recoveryBound) of the kills")
                // Server 2 back on its port (as systemd's Restart= would), while the load goes on.
                try cluster.restart()
                let leader = try cluster.leader()
                // A fleet job on HAProxy's read port, a replica, while the pushes go on to the leader: read-only
                // transactions, no migration, every journal clean.
                let replica = try DatabaseURL(cluster.read)
                #expect(try cluster.value("SELECT pg_is_in_recovery()", on: replica) == "t")
                let verify = PostgresFixture.run(PatroniCluster.serverBinary, ["fleet", "verify", "--database", cluster.read, "--json"])
                #expect(verify.status == 0, "\(verify)")
                #expect(verify.stdout.contains(#""problem_count":0,"problems":[]"#), "\(verify)")
                await ledger.note("fleet verify on a replica during the load: \(verify.stdout)")
                await ledger.note("server s2 killed at \(serverKilledAt), leader \(node) at \(killedAt); \(leader) promoted; unavailable \(window.map { "\($0) ms" } ?? "-")")
            } catch {
                stop.stop(); running.cancel()
                throw error
            }
            try await Task.sleep(for: .seconds(2))
            stop.stop()
            try await group.waitForAll()
            return try await running.value
        }
        print(report)
        #expect(report.missing == 0)
        #expect(report.unexpected == 0)
        var acknowledged = await ledger.acknowledged
        acknowledged[user] = Set(pushed)
        let checked = try await cluster.expectEveryNodeHolds(acknowledged)
        print("several servers: \(checked) probe events acknowledged through 3 servers and on all 3 nodes; journal-load \(report.acknowledgedEvents) events, 0 missing")
        for line in await ledger.notes { print("  " + line) }
        #expect(checked > pushed.count)
        // `scripts/cluster stop` leaves no process of the topology behind.
        let running = try cluster.processes()
        // etcd, 3 Patronis, 3 postmasters, HAProxy's master and worker, 3 servers.
        let expected = 12
        #expect(running.count >= expected, "\(running)")
        let stopped = PatroniCluster.run(["stop", cluster.directory])
        #expect(stopped.status == 0, "\(stopped)")
        let left = try cluster.processes()
        #expect(left.isEmpty, "\(left)")
    }
}
