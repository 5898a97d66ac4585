import JournalFile
import Foundation
import JournalEvents
import JournalProjections
import JournalServer
import JournalSimulator
import JournalStore
import JournalSync
import JournalTesting
import Synchronization
import Testing
import JournalModel

/// SYNC.md §"Convergence": any interleaving of offline sessions and syncs, on any number of devices, ends —
/// once every device has synced twice in a row — with the same events (byte for byte, seq included) and
/// byte-identical projections on every device and in the server's copy (restored). The devices talk to three servers
/// on one database, each request to one drawn at random (as HAProxy's `balance random` spreads them,
/// OPERATIONS.md §"Several servers"): each server has its own caches of users, tokens and open batches.
@Suite("Sync convergence: random interleavings of offline edits and syncs on 2–4 devices, over 3 servers")
struct ConvergenceTests {
    static let cases = Int(ProcessInfo.processInfo.environment["SYNC_PROPERTY_CASES"] ?? "") ?? 200

    @Test("every device and the server end with identical events and projections (200 cases), each request to one of 3 servers at random")
    func convergence() async throws {
        let token = try await PostgresFixture.token(user: "conv-support", role: .support)
        try await withServer { first in
            try await withServer { second in
                try await withServer { third in
                    for seed in 1...UInt64(Self.cases) {
                        try await Self.runCase(seed: seed, servers: [first, second, third], supportToken: token)
                    }
                }
            }
        }
    }

    /// Sends each request to one of `servers` drawn at random: the request's own URL with another server's host and port.
    final class SpreadTransport: SyncTransport {
        let servers: [URL]
        let inner: any SyncTransport
        let random: Mutex<SplitMix64>
        /// How many requests each server got.
        let counts: Mutex<[Int]>

        init(servers: [URL], seed: UInt64, inner: any SyncTransport = HTTPClientTransport()) {
            self.servers = servers
            self.inner = inner
            random = Mutex(SplitMix64(seed: seed))
            counts = Mutex([Int](repeating: 0, count: servers.count))
        }

        func spread(_ request: SyncClient.HTTPRequest) -> SyncClient.HTTPRequest {
            let index = random.withLock { $0.int(0...(servers.count - 1)) }
            counts.withLock { $0[index] += 1 }
            var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
            components.host = servers[index].host
            components.port = servers[index].port
            var spread = request
            spread.url = components.url!
            return spread
        }

        func exchange(_ request: SyncClient.HTTPRequest) async throws -> (status: Int, body: Data) { try await inner.exchange(spread(request)) }
        func answer(_ request: SyncClient.HTTPRequest) async throws -> SyncClient.Answer { try await inner.answer(spread(request)) }
    }

    static func runCase(seed: UInt64, servers: [URL], supportToken: String) async throws {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        let user = PostgresFixture.freshUser("conv\(seed)")
        let token = try await PostgresFixture.token(user: user)
        let spread = SpreadTransport(servers: servers, seed: seed)
        let client = SyncClient(server: servers[0], token: token, transport: spread)
        let scratch = ScratchDirectory("conv")
        let deviceCount = random.int(2...4)
        let devices = (0..<deviceCount).map { "d\($0)" }
        let paths = devices.map { scratch.file("\($0).journal") }
        let base = Fixtures.start
        var workoutsMade = 0
        let steps = random.int(3...9)
        var trace: [String] = []
        for _ in 0..<steps {
            let index = random.int(0...(deviceCount - 1))
            if random.chance(0.55) {
                // An offline session: a new workout, sometimes also a correction of a workout this device has.
                let journal = try EventJournal(path: paths[index], device: devices[index], clock: { base })
                defer { journal.close() }
                let at = base.adding(milliseconds: Int64(random.int(0...(6 * 86_400))) * 1000)
                let workout = "\(devices[index])w\(workoutsMade)"
                workoutsMade += 1
                try journal.record(batch: Fixtures.workoutDrafts(workout, sets: random.int(1...3), at: at, finished: random.chance(0.85)))
                let finished = journal.rules.ledger.workouts.filter { $0.status == .finished }.map(\.id).sorted()
                if !finished.isEmpty, random.chance(0.5) {
                    let target = finished[random.int(0...(finished.count - 1))]
                    let editAt = base.adding(milliseconds: Int64(random.int(0...(7 * 86_400))) * 1000)
                    try journal.record(.object(["type": "set.edited", "at": .string(editAt.rfc3339), "workout": .string(target),
                                                "exercise": "barbell-bench-press", "set": 1,
                                                "weight": .number(Double(random.int(40...100))), "unit": "kg"]))
                    trace.append("\(devices[index]) records \(workout) and edits \(target)")
                } else {
                    trace.append("\(devices[index]) records \(workout)")
                }
            } else {
                _ = try await JournalSyncing.sync(paths[index], client: client)
                trace.append("\(devices[index]) syncs")
            }
        }
        // Everyone syncs twice: the first round brings every event to the server, the second to every device.
        for _ in 0..<2 {
            for path in paths { _ = try await JournalSyncing.sync(path, client: client) }
        }
        let restored = scratch.file("restored.journal")
        let restore = try await JournalSyncing.restore(to: restored, client: SyncClient(server: servers[0], token: supportToken, transport: SpreadTransport(servers: servers, seed: ~seed)), user: user)
        let reference = try EventReader.events(path: paths[0])
        #expect(restore.events == reference.count, "seed \(seed): \(trace)")
        let asOf = base.adding(milliseconds: 30 * 86_400_000)
        let projection = Projections.all(events: reference, asOf: asOf).jsonString
        for path in paths.dropFirst() + [restored] {
            let events = try EventReader.events(path: path)
            #expect(events == reference, "seed \(seed): \(path) differs from \(paths[0]) after \(trace)")
            #expect(Projections.all(events: events, asOf: asOf).jsonString == projection, "seed \(seed): projections differ")
        }
        // The union of every recorded event, nothing lost.
        #expect(Set(reference.map(\.id)).count == reference.count)
        // Every case crosses servers: at least two of the three served its devices.
        #expect(spread.counts.withLock { $0.filter { $0 > 0 }.count } >= 2, "seed \(seed)")
    }
}
