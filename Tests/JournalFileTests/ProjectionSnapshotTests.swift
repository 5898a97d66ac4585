import Testing
import JournalEvents
import JournalStore
@testable import JournalFile

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
    let start = Timestamp(rfc3339: "2026-11-21T18:00:00.000+01:00")!

    /// Records `workouts` workouts; each ends with `workout.finished`, which seals the tail, so the journal has one
    /// sealed frame per workout: stable frames a snapshot can stand on.
    func record(_ storage: MemoryStorage, workouts: Range<Int>) throws {
        let options = EventJournal.Options()
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

    /// The fold from the start, and the checkpoint it offers (state and position), if any.
    func replay(_ storage: MemoryStorage, untilSeq: Int? = nil) throws -> (state: TallyState, saved: (state: TallyState, position: JournalPosition)?) {
        var saved: (state: TallyState, position: JournalPosition)?
        let state = try SnapshotReplay.replay(path: path, storage: storage, initial: TallyState(), untilSeq: untilSeq,
                                              checkpoint: (wanted: { _ in true }, write: { saved = ($0, $1) }), fold: TallyState.fold)
        return (state, saved)
    }

    @Test("the replay folds every event; the checkpoint is the fold of exactly the events before the stable position")
    func checkpointAtStablePosition() throws {
        let storage = MemoryStorage()
        try record(storage, workouts: 0..<12)
        let full = try fullFold(storage)
        let result = try replay(storage)
        #expect(result.state == full)
        let saved = try #require(result.saved)
        // The stable position is the start of the last sealed frame: the state there folded the events before it.
        var before = TallyState()
        for event in try EventReader.events(path: path, storage: storage).prefix(saved.position.linesBefore) { TallyState.fold(&before, event) }
        #expect(saved.state == before)
        #expect(saved.position.linesBefore > 0 && saved.position.linesBefore < full.events)
        // Without a checkpoint, the same state.
        let plain = try SnapshotReplay.replay(path: path, storage: storage, initial: TallyState(), fold: TallyState.fold)
        #expect(plain == full)
    }

    @Test("a checkpoint is offered only when wanted, and never for a replay stopped at --until-seq")
    func checkpointOnlyWhenWanted() throws {
        let storage = MemoryStorage()
        try record(storage, workouts: 0..<12)
        let stopped = try replay(storage, untilSeq: 20)
        #expect(stopped.state.lastSeq == 20 && stopped.state.events == 20)
        #expect(stopped.saved == nil)
        var offered = 0
        _ = try SnapshotReplay.replay(path: path, storage: storage, initial: TallyState(),
                                      checkpoint: (wanted: { _ in false }, write: { _, _ in offered += 1 }), fold: TallyState.fold)
        #expect(offered == 0)
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
