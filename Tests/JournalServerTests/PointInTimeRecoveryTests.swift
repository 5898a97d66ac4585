import Foundation
import JournalEvents
@testable import JournalServer
import JournalSync
import JournalTesting
import Testing

/// pgBackRest on the Patroni cluster of `scripts/cluster` (OPERATIONS.md §"Backups and point-in-time recovery").
@Suite("scripts/cluster: pgBackRest backups and point-in-time recovery", .serialized)
struct PointInTimeRecoveryTests {
    @Test("a full and an incremental backup, WAL archived; an operator deletes a user's rows by mistake; the cluster restored to the moment before holds every event acknowledged up to it, on every node, nothing after it, and fleet verify finds every journal clean")
    func restoresBeforeTheMistake() async throws {
        let cluster = try PatroniCluster(servers: 1)
        defer { cluster.stop() }
        let server = try #require(cluster.server)
        let database = try DatabaseURL(cluster.write)
        let devices = try await ProbeDevices(prefix: "pitr", count: 4, workouts: 6, database: database)
        // A fifth user, who first pushes after the moment.
        let newcomer = try await ProbeDevices(prefix: "pitn", count: 1, workouts: 1, database: database)
        let ledger = AckLedger()
        // Each user's events in thirds: the first before the full backup, the second before the incremental one, the
        // last after it (only in the archived WAL).
        func pushThird(_ third: Int) async throws {
            for (index, user) in devices.users.enumerated() {
                let events = devices.journals[index], size = (events.count + 2) / 3
                let chunk = Array(events[min(events.count, third * size)..<min(events.count, (third + 1) * size)])
                let answer = try await SyncClient(server: server, token: devices.tokens[index]).push(user: user, events: chunk)
                #expect(answer.acknowledged == chunk.map(\.id))
                await ledger.record(user: user, ids: answer.acknowledged, startedAt: 0, answeredAt: 0)
            }
        }
        try await pushThird(0)
        let full = PatroniCluster.run(["backup", cluster.directory, "full"])
        #expect(full.status == 0, "\(full)")
        #expect(full.stdout.contains(" type=full"), "\(full)")
        try await pushThird(1)
        let incremental = PatroniCluster.run(["backup", cluster.directory, "incr"])
        #expect(incremental.status == 0, "\(incremental)")
        #expect(incremental.stdout.contains(" type=incr"), "\(incremental)")
        try await pushThird(2)
        let acknowledged = await ledger.acknowledged
        let eventCount = devices.journals.map(\.count).reduce(0, +)
        let acknowledgedCount = acknowledged.values.map(\.count).reduce(0, +)
        #expect(acknowledgedCount == eventCount)

        // The moment to return to, then the mistake a second later, and one event acknowledged after it (which the
        // restore must not bring back: it is after the moment).
        let leader = try #require(try cluster.nodes()[try cluster.leader()])
        let moment = try cluster.value("SELECT clock_timestamp()", on: leader)
        try await Task.sleep(for: .seconds(1))
        let victim = devices.users[0]
        _ = try cluster.value("BEGIN; DELETE FROM journal_batches WHERE user_id = '\(victim)'; DELETE FROM journal_users WHERE user_id = '\(victim)'; COMMIT", on: leader)
        let gone = try await SyncClient(server: server, token: devices.tokens[0]).pull(user: victim, after: .start)
        #expect(gone.events.isEmpty)
        let late = newcomer.journals[0][0]
        let lateAnswer = try await SyncClient(server: server, token: newcomer.tokens[0]).push(user: newcomer.users[0], events: [late])
        #expect(lateAnswer.acknowledged == [late.id])
        _ = try cluster.value("SELECT pg_switch_wal()", on: leader)

        let restore = PatroniCluster.run(["restore", cluster.directory, "--target", moment])
        #expect(restore.status == 0, "\(restore)")
        print("point-in-time recovery: \(restore.stdout.trimmingCharacters(in: .whitespacesAndNewlines))")

        // Every event acknowledged up to the moment, the victim's too, on every node; the late one on none.
        let checked = try await cluster.expectEveryNodeHolds(acknowledged)
        #expect(checked == eventCount)
        for (name, url) in try cluster.nodes() {
            let journals = try await cluster.journals(on: url, users: devices.users + newcomer.users)
            let newcomerEvents = journals[newcomer.users[0]] ?? []
            #expect(newcomerEvents.isEmpty, "node \(name) holds the event acknowledged after the moment")
            let victimEvents = journals[victim]?.count ?? 0
            #expect(victimEvents == devices.journals[0].count, "node \(name): the victim's journal")
        }
        // fleet verify, the real binary, on the restored leader: every user's journal clean.
        let verify = PostgresFixture.run(PatroniCluster.serverBinary, ["fleet", "verify", "--database", cluster.write, "--json"])
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout.contains(#""problem_count":0,"problems":[]"#), "\(verify)")
        #expect(verify.stdout.contains(#""users":4,"#), "\(verify)")
        print("point-in-time recovery: \(checked) events acknowledged before the moment restored on 3 nodes; fleet verify: \(verify.stdout)")
    }
}
