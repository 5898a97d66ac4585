import Foundation
import JournalEvents
import JournalFile
import JournalLoad
@testable import JournalServer
import JournalStore
import JournalSync
import JournalTesting
import Logging
import Testing

/// Devices that push one event per request, retrying each until it is acknowledged, recording in `ledger` what was
/// acknowledged and when each push started and was answered (the unavailability windows are measured from it).
struct ProbeDevices {
    let users: [String]
    let tokens: [String]
    let journals: [[Event]]

    /// `count` users of one device each, with `workouts` workouts of events to push, and their tokens made on `database`.
    init(prefix: String, count: Int, workouts: Int, database: DatabaseURL) async throws {
        users = (0..<count).map { "\(prefix)\($0)-\(getpid())" }
        tokens = try await Self.tokens(for: users, database: database)
        let scratch = ScratchDirectory(prefix)
        journals = try users.indices.map {
            try Fixtures.smallJournal(at: scratch.file("d\($0).journal"), storage: PosixStorage(), device: "d\($0)",
                                      workouts: workouts, setsPerWorkout: 2, openSets: 0)
        }
    }

    /// A token of role user for each of `users`, made on `database` through one store.
    static func tokens(for users: [String], database: DatabaseURL) async throws -> [String] {
        let tokens = users.map { _ in Tokens.generate() }
        try await withSyncStore(database) { store in
            for (user, token) in zip(users, tokens) { try await store.addToken(token, user: user, role: .user) }
        }
        return tokens
    }

    /// One task per device in `group`, pushing to `server` until `stop` or the events run out.
    func run(in group: inout ThrowingTaskGroup<Void, any Error>, server: URL, ledger: AckLedger, stop: StopFlag) {
        for (index, user) in users.enumerated() {
            let events = journals[index], sync = SyncClient(server: server, token: tokens[index])
            group.addTask {
                for event in events where !stop.isStopped {
                    // Retry until acknowledged: the same event again, which the server stores at most once.
                    while true {
                        let started = epochMilliseconds()
                        do {
                            let answer = try await sync.push(user: user, events: [event])
                            await ledger.record(user: user, ids: answer.acknowledged, startedAt: started, answeredAt: epochMilliseconds())
                            break
                        } catch let failure as SyncClient.Failure where failure.isTransient {
                            await ledger.retried()
                            try await Task.sleep(for: .milliseconds(50))
                        }
                    }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
        }
    }
}

@Suite("scripts/cluster: Patroni fails over on its own under load, with nothing acknowledged lost", .serialized)
struct PatroniFailoverTests {
    /// 3 in CI; `PATRONI_FAILOVER_COUNT=20` for the longer run of OPERATIONS.md §"Failover, measured".
    static let failovers = Int(ProcessInfo.processInfo.environment["PATRONI_FAILOVER_COUNT"] ?? "") ?? 3
    /// journal-load's devices beside the probes: 60 in CI, `PATRONI_FAILOVER_DEVICES=300` for hundreds.
    static let devices = Int(ProcessInfo.processInfo.environment["PATRONI_FAILOVER_DEVICES"] ?? "") ?? 60
    /// How long after a kill the service may stay unavailable before the test fails.
    static let recoveryBound: Duration = .seconds(30)

    @Test("the leader's postmaster is SIGKILLed again and again under journal-load; Patroni promotes the synchronous standby with no command from the test; every acknowledged event is on the new leader and on every replica")
    func failoversUnderLoad() async throws {
        let cluster = try PatroniCluster(servers: 1)
        defer { cluster.stop() }
        let server = try #require(cluster.server)
        let database = try DatabaseURL(cluster.write)
        let probes = try await ProbeDevices(prefix: "pf", count: 4, workouts: 40 * max(3, Self.failovers), database: database)
        var options = LoadRun.Options(devices: Self.devices, requestsPerDevice: 1_000_000, seconds: Double(6 + 10 * Self.failovers))
        options.pullPauseMilliseconds = 250
        let loadUsers = try await LoadRun.users(prefix: "pl-\(getpid())", options: options, database: database)
        let ledger = AckLedger(), stop = StopFlag(), users = loadUsers, load = options
        var windows: [Int64] = []
        let report = try await withThrowingTaskGroup(of: Void.self, returning: LoadRun.Report.self) { group in
            probes.run(in: &group, server: server, ledger: ledger, stop: stop)
            let running = Task { try await LoadRun.run(label: "patroni", server: server, users: users, options: load) }
            do {
                try await Task.sleep(for: .seconds(2))
                for round in 1...Self.failovers {
                    try cluster.waitHealthy()
                    let before = await ledger.pushes.count
                    let (node, killedAt) = try cluster.killLeader()
                    let window = try await ledger.window(after: killedAt, within: Self.recoveryBound)
                    #expect(window != nil, "failover \(round): no push acknowledged within \(Self.recoveryBound) of the kill")
                    let leader = try cluster.leader()
                    #expect(leader != node, "failover \(round): \(node) is still the leader")
                    windows += window.map { [$0] } ?? []
                    let promoted = cluster.patroniLogged("promoted self to leader", since: killedAt)
                    let synchronous = cluster.patroniLogged("Synchronous standby status assigned", since: killedAt)
                    await ledger.note("failover \(round): killed \(node), \(leader) promoted after \(promoted.map { "\($0) ms" } ?? "-"), Patroni named a synchronous standby after \(synchronous.map { "\($0) ms" } ?? "-"), unavailable \(window.map { "\($0) ms" } ?? "-"), \(await ledger.pushes.count - before) probe pushes acknowledged meanwhile")
                }
            } catch {
                stop.stop(); running.cancel()
                throw error
            }
            stop.stop()
            try await group.waitForAll()
            return try await running.value
        }
        print(report)
        #expect(report.missing == 0)
        #expect(report.unexpected == 0)
        #expect(report.acknowledgedEvents > 0)
        // The probes' acknowledged events on every node, each node read alone; journal-load's users the same on
        // every node as on the leader, which holds every one of their acknowledged events (report.missing).
        let acknowledged = await ledger.acknowledged
        let checked = try await cluster.expectEveryNodeHolds(acknowledged)
        let loadIds = try await cluster.journals(on: try cluster.nodes()[try cluster.leader()]!, users: loadUsers.map(\.id))
        for (name, url) in try cluster.nodes() {
            let copy = try await cluster.journals(on: url, users: loadUsers.map(\.id))
            #expect(copy == loadIds, "node \(name) differs from the leader for journal-load's users")
        }
        print("patroni failovers: \(Self.failovers), unavailable \(percentileSummary(windows)); \(checked) probe events acknowledged and on all 3 nodes; journal-load \(report.acknowledgedEvents) events, \(loadIds.values.map(\.count).reduce(0, +)) on every node; \(await ledger.retries) probe retries")
        for line in await ledger.notes { print("  " + line) }
        #expect(checked > 0)
    }
}
