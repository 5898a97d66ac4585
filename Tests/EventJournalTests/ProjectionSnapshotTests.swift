import Testing
import JournalEvents
import JournalStore
@testable import EventJournal

/// A small fold with a Codable state, standing in for the projections' ledger.
struct TallyState: Codable, Equatable, Sendable {
    var events = 0
    var lastSeq = 0
    var workingSets = 0
    var volume = 0.0
    var types: [String: Int] = [:]

    static func fold(_ state: inout TallyState, _ event: Event) {
        state.events += 1
        state.lastSeq = event.seq
        state.types[event.type, default: 0] += 1
        if event.type == "set.completed", event.string("kind") == "working", let weight = event.double("weight"), let reps = event.int("reps") {
            state.workingSets += 1
            state.volume += weight * Double(reps)
        }
    }
}

@Suite("Projection snapshots")
struct ProjectionSnapshotTests {
    let path = "/journals/ana.journal"
    var snapshotPath: String { path + ".snapshot" }
    let start = Timestamp(rfc3339: "2026-11-21T18:00:00.000+01:00")!

    /// Records `workouts` workouts; a small seal target makes one sealed frame per workout or two,
    /// so the journal has stable frames a snapshot can stand on.
    func record(_ storage: MemoryStorage, workouts: Range<Int>) throws {
        var options = EventJournal.Options()
        options.store.sealTargetBytes = 900
        var tick: Int64 = Int64(workouts.lowerBound) * 10_000_000
        let begin = start
        let journal = try EventJournal(path: path, storage: storage, device: "ph", options: options) {
            tick += 1000
            return begin.adding(milliseconds: tick)
        }
        for index in workouts {
            let id = JSONValue.string("w\(index)")
            var batch: [JSONValue] = [["type": "workout.started", "workout": id, "name": "Push", "session": 0]]
            for set in 1...4 {
                batch.append(["type": "set.completed", "workout": id, "exercise": "barbell-bench-press", "set": .int(set),
                              "weight": .number(60 + Double(index)), "unit": "kg", "reps": 8, "kind": "working"])
            }
            batch.append(["type": "workout.finished", "workout": id])
            try journal.record(batch: batch)
        }
        journal.close()
    }

    func fullFold(_ storage: MemoryStorage) throws -> TallyState {
        var state = TallyState()
        for event in try EventReader.events(path: path, storage: storage) { TallyState.fold(&state, event) }
        return state
    }

    func replay(_ storage: MemoryStorage, version: Int = 1) throws -> (state: TallyState, outcome: SnapshotReplay.Outcome) {
        let result = try SnapshotReplay.replay(path: path, storage: storage, stateVersion: version, initial: TallyState(), fold: TallyState.fold)
        return (result.state, result.outcome)
    }

    func corrupt(_ storage: MemoryStorage, _ change: (inout [UInt8]) -> Void) throws {
        let file = try storage.open(snapshotPath, create: false)
        var bytes = try file.readAll()
        change(&bytes)
        try file.truncate(to: 0)
        try file.write(bytes, at: 0)
        file.close()
    }

    @Test("the first replay has no snapshot, writes one, and the next resumes from it with the same state")
    func resumesFromSnapshot() throws {
        let storage = MemoryStorage()
        try record(storage, workouts: 0..<12)
        let full = try fullFold(storage)
        let first = try replay(storage)
        #expect(first.outcome == .fullReplay(because: "no snapshot"))
        #expect(first.state == full)
        #expect(storage.exists(snapshotPath))
        let second = try replay(storage)
        #expect(second.state == full)
        guard case .resumed(let replayed) = second.outcome else { Issue.record("did not resume: \(second.outcome)"); return }
        #expect(replayed > 0 && replayed < full.events)
    }

    @Test("events appended after the snapshot are folded on top of it")
    func foldsNewEventsOnTop() throws {
        let storage = MemoryStorage()
        try record(storage, workouts: 0..<12)
        _ = try replay(storage)
        try record(storage, workouts: 12..<15)
        let full = try fullFold(storage)
        let again = try replay(storage)
        #expect(again.state == full)
        guard case .resumed(let replayed) = again.outcome else { Issue.record("did not resume: \(again.outcome)"); return }
        #expect(replayed < full.events)
    }

    @Test("a corrupt snapshot — any byte flipped, or cut short — falls back to a full replay and is rewritten")
    func corruptSnapshotFallsBack() throws {
        let storage = MemoryStorage()
        try record(storage, workouts: 0..<12)
        let full = try fullFold(storage)
        _ = try replay(storage)
        let size = try storage.openForReading(snapshotPath).readAll().count
        for position in stride(from: 0, to: size, by: max(1, size / 40)) + [size - 1] {
            try corrupt(storage) { $0[position] ^= 0x20 }
            let result = try replay(storage)
            #expect(result.state == full, "byte \(position)")
            guard case .fullReplay(let reason) = result.outcome else { Issue.record("trusted a corrupt snapshot (byte \(position))"); continue }
            #expect(reason.hasPrefix("corrupt snapshot"), "byte \(position): \(reason)")
            // Rewritten: the next replay resumes.
            guard case .resumed = try replay(storage).outcome else { Issue.record("snapshot not rewritten after byte \(position)"); continue }
        }
        try corrupt(storage) { $0.removeLast(9) }
        let cut = try replay(storage)
        #expect(cut.state == full)
        #expect(cut.outcome == .fullReplay(because: "corrupt snapshot (declared state length \(size - 56) does not fit \(size - 9) bytes)"))
    }

    @Test("a snapshot of another state version is not used")
    func versionChangeRebuilds() throws {
        let storage = MemoryStorage()
        try record(storage, workouts: 0..<12)
        let full = try fullFold(storage)
        _ = try replay(storage, version: 1)
        let upgraded = try replay(storage, version: 2)
        #expect(upgraded.state == full)
        #expect(upgraded.outcome == .fullReplay(because: "snapshot of state version 1, expected 2"))
        guard case .resumed = try replay(storage, version: 2).outcome else { Issue.record("version 2 snapshot not written"); return }
        #expect(try replay(storage, version: 1).outcome == .fullReplay(because: "snapshot of state version 2, expected 1"))
    }

    @Test("a journal whose bytes before the snapshot changed makes it stale")
    func changedJournalIsStale() throws {
        let storage = MemoryStorage()
        try record(storage, workouts: 0..<12)
        _ = try replay(storage)
        // Another life in the same file: same length of history, different bytes.
        try storage.remove(path)
        try record(storage, workouts: 100..<112)
        let full = try fullFold(storage)
        let result = try replay(storage)
        #expect(result.state == full)
        #expect(result.outcome == .fullReplay(because: "the journal's bytes before the snapshot's position changed"))
    }

    @Test("a snapshot round-trips through its bytes, and the stable hash is the same in pieces of 8")
    func encodesAndDecodes() throws {
        let snapshot = ProjectionSnapshot(stateVersion: 3, position: JournalPosition(offset: 4096, linesBefore: 77, prefixHash: 0xDEAD_BEEF),
                                          state: TallyState(events: 5, lastSeq: 5, workingSets: 2, volume: 960, types: ["set.completed": 2]))
        let bytes = try snapshot.encoded()
        #expect(Array(bytes.prefix(8)) == [0x4A, 0x53, 0x4E, 0x41, 0x50, 0x00, 0x00, 0x02])
        let decoded = try ProjectionSnapshot<TallyState>.decode(bytes, stateVersion: 3).get()
        #expect(decoded.position == snapshot.position)
        #expect(decoded.state == snapshot.state)
        let data: [UInt8] = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var pieces = StableHash()
        data.withUnsafeBytes { raw in
            pieces.update(UnsafeRawBufferPointer(rebasing: raw[0..<512]))
            pieces.update(UnsafeRawBufferPointer(rebasing: raw[512...]))
        }
        #expect(pieces.value == StableHash.of(data))
        #expect(StableHash.of(data) != StableHash.of(Array(data.dropLast())))
    }
}
