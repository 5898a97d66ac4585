import JournalFile
import Foundation
import JournalEvents
import JournalProjections
import JournalServer
import JournalSimulator
import JournalStore
import JournalSync
import JournalTesting
import Testing

/// SYNC.md §"Convergence": any interleaving of offline sessions and syncs, on any number of devices, ends —
/// once every device has synced twice in a row — with the same events (byte for byte, seq included) and
/// byte-identical projections on every device and in the server's copy (restored).
@Suite("Sync convergence: random interleavings of offline edits and syncs on 2–4 devices")
struct ConvergenceTests {
    static let cases = Int(ProcessInfo.processInfo.environment["SYNC_PROPERTY_CASES"] ?? "") ?? 200

    @Test("every device and the server end with identical events and projections (200 cases)")
    func convergence() async throws {
        let token = try await PostgresFixture.token(user: "conv-support", role: .support)
        try await withServer { server in
            for seed in 1...UInt64(Self.cases) {
                try await Self.runCase(seed: seed, server: server, supportToken: token)
            }
        }
    }

    static func runCase(seed: UInt64, server: URL, supportToken: String) async throws {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        let user = PostgresFixture.freshUser("conv\(seed)")
        let token = try await PostgresFixture.token(user: user)
        let client = SyncClient(server: server, token: token)
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
        let restore = try await JournalSyncing.restore(to: restored, client: SyncClient(server: server, token: supportToken), user: user)
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
    }
}
