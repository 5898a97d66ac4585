import Testing
import JournalEvents
import JournalStore
@testable import JournalFile
import JournalTesting

@Suite("Recording and reading a journal")
struct JournalFileTests {
    let path = "/journals/ana.journal"
    let clockStart = Timestamp(rfc3339: "2026-11-21T18:00:00.000+01:00")!

    func open(_ storage: MemoryStorage, device: String = "ph") throws(JournalError) -> EventJournal {
        var tick: Int64 = 0
        let start = clockStart
        return try EventJournal(path: path, storage: storage, device: device) {
            tick += 1000
            return start.adding(milliseconds: tick)
        }
    }

    static let workout: [JSONValue] = [
        ["type": "workout.started", "workout": "w1", "name": "Push", "session": 0],
        ["type": "set.completed", "workout": "w1", "exercise": "barbell-bench-press", "set": 1, "weight": 60, "unit": "kg", "reps": 8, "kind": "working"],
        ["type": "rest.started", "workout": "w1", "exercise": "barbell-bench-press", "seconds": 120],
        ["type": "set.completed", "workout": "w1", "exercise": "barbell-bench-press", "set": 2, "weight": 60, "unit": "kg", "reps": 7, "kind": "working"],
        ["type": "workout.finished", "workout": "w1"],
    ]

    @Test("records events, seals the workout into one frame, and reads them back")
    func recordsAndSeals() throws {
        let storage = MemoryStorage()
        let journal = try open(storage)
        for draft in Self.workout { try journal.record(draft) }
        journal.close()
        let (records, report) = try JournalReader.records(path: path, storage: storage)
        #expect(records.count == 5)
        #expect(report.frames == 1)
        #expect(report.isClean)
        let events = try EventReader.events(path: path, storage: storage)
        #expect(events.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(events.map(\.id) == ["ph-1", "ph-2", "ph-3", "ph-4", "ph-5"])
        #expect(events[4].at.rfc3339 == "2026-11-21T18:00:05.000+01:00")
        #expect(storage.paths == [path])
    }

    @Test("a seal can wait until after the acknowledgement; the events are durable before it")
    func sealAfterAcknowledgement() throws {
        let storage = MemoryStorage()
        let journal = try open(storage)
        for draft in Self.workout { try journal.record(draft, sealNow: false) }
        #expect(try JournalReader.records(path: path, storage: storage).report.frames == 5)
        journal.sealIfDue()
        #expect(try JournalReader.records(path: path, storage: storage).report.frames == 1)
        journal.sealIfDue()
        #expect(try EventReader.events(path: path, storage: storage).count == 5)
    }

    @Test("each acknowledged event is durable: one fsync per record call")
    func syncsEachAppend() throws {
        let storage = MemoryStorage()
        let journal = try open(storage)
        let before = storage.syncCount
        try journal.record(Self.workout[0])
        try journal.record(Self.workout[1])
        #expect(storage.syncCount - before == 2)
        storage.powerLoss(.dropUnsynced)
        #expect(try EventReader.events(path: path, storage: storage).count == 2)
    }

    @Test("a refused event leaves the file byte for byte unchanged")
    func refusalChangesNothing() throws {
        let storage = MemoryStorage()
        let journal = try open(storage)
        try journal.record(Self.workout[0])
        let before = storage.contents(of: path)
        #expect(throws: JournalError.self) {
            try journal.record(["type": "set.completed", "workout": "w1", "exercise": "barbell-bench-press", "set": 1,
                                "weight": 900, "unit": "kg", "reps": 8, "kind": "working"])
        }
        #expect(storage.contents(of: path) == before)
        do {
            try journal.record(batch: [Self.workout[1], ["type": "workout.finished", "workout": "nope"]], firstInputLine: 3)
            Issue.record("accepted a bad batch")
        } catch {
            #expect(error.description == #"/journals/ana.journal: input line 4 was refused: workout.finished: field "workout" is "nope" but has not been started (record a workout.started with this workout id first); nothing was written"#)
        }
        #expect(storage.contents(of: path) == before)
    }

    @Test("reopening continues seq and the device counter, and keeps validating")
    func reopenContinues() throws {
        let storage = MemoryStorage()
        var journal = try open(storage)
        for draft in Self.workout.prefix(2) { try journal.record(draft) }
        journal.close()
        journal = try open(storage, device: "watch")
        let event = try journal.record(Self.workout[3])
        #expect(event.seq == 3)
        #expect(event.id == "watch-1")
        #expect(throws: JournalError.self) { try journal.record(Self.workout[0]) }
    }

    @Test("a second writer gets a clear error")
    func secondWriterRefused() throws {
        let storage = MemoryStorage()
        let first = try open(storage)
        defer { first.close() }
        do {
            _ = try open(storage)
            Issue.record("second writer opened")
        } catch {
            #expect(error.description == "/journals/ana.journal: another process is writing to this journal (it holds the writer lock); wait for it to finish and try again")
            #expect(error.exitCode == 3)
        }
    }

    @Test("a torn tail is repaired on the next open without losing an acknowledged event")
    func tornTailRepaired() throws {
        let storage = MemoryStorage()
        let journal = try open(storage)
        for draft in Self.workout.prefix(3) { try journal.record(draft) }
        journal.close()
        let bytes = storage.contents(of: path)!
        // The writer died halfway through writing one more frame, where appends go: over the
        // padding after the data (FORMAT.md §"Appending").
        let dataEnd = try JournalReader.read(path: path, storage: storage) { _, _ in }.validEnd
        #expect(dataEnd < bytes.count)
        let good = Array(bytes.prefix(dataEnd))
        let frame = Layout.block(Zstd().compressFrame(Array(#"{"v":1,"seq":4,"id":"ph-4","at":"2026-11-21T18:00:09.000+01:00","type":"workout.discarded","workout":"w1"}"#.utf8) + [10], level: 3), version: .v2)
        let torn = Corrupt.overwriting(bytes, at: dataEnd, with: Array(frame.prefix(frame.count / 2)))
        storage.setContents(of: path, to: torn)
        let verify = try JournalVerifier.verify(path: path, storage: storage)
        #expect(verify.scan.tornTail?.offset == good.count)
        #expect(verify.scan.tornTail?.length == bytes.count - good.count)
        #expect(!verify.isClean)
        let reopened = try open(storage)
        #expect(reopened.recovery.tornTail?.offset == good.count)
        #expect(reopened.recovery.quarantinePath == "\(path).torn-\(good.count)")
        #expect(storage.contents(of: "\(path).torn-\(good.count)") == Array(torn[good.count...]))
        #expect(storage.contents(of: path) == good)
        #expect(try reopened.record(Self.workout[3]).seq == 4)
        reopened.close()
        #expect(try JournalVerifier.verify(path: path, storage: storage).isClean)
    }

    @Test("damage in the middle refuses appends and names the byte offset")
    func middleDamageRefused() throws {
        let storage = MemoryStorage()
        var journal = try open(storage)
        for draft in Self.workout { try journal.record(draft) }
        try journal.record(["type": "profile.updated", "name": "Ana"])
        journal.close()
        var bytes = storage.contents(of: path)!
        bytes[20] ^= 0x01
        storage.setContents(of: path, to: bytes)
        do {
            journal = try open(storage)
            Issue.record("opened a damaged journal")
        } catch {
            // The first frame starts after the 16-byte header.
            #expect(error.description.hasPrefix("/journals/ana.journal: damaged at byte 16: "))
            #expect(error.description.hasSuffix("; nothing was written. Run `journal verify /journals/ana.journal` for details and `journal salvage /journals/ana.journal -o NEW` to recover every intact event"))
        }
        #expect(storage.contents(of: path) == bytes)
        let verify = try JournalVerifier.verify(path: path, storage: storage)
        #expect(verify.scan.corruption.map(\.offset) == [16])
        #expect(verify.events == 1)
    }

    @Test("verify counts unknown types without calling the journal unclean")
    func verifyCountsUnknownTypes() throws {
        let storage = MemoryStorage()
        var options = EventJournal.Options()
        options.allowUnknownTypes = true
        let journal = try EventJournal(path: path, storage: storage, device: "ph", options: options) { clockStart }
        try journal.record(["type": "yoga.flowed", "minutes": 20])
        try journal.record(["type": "profile.updated", "name": "Ana"])
        journal.close()
        let verify = try JournalVerifier.verify(path: path, storage: storage)
        #expect(verify.unknownTypes == ["yoga.flowed": 1])
        #expect(verify.isClean)
    }

    @Test("the replay summary folds finished workouts only, in kilograms")
    func replaySummary() throws {
        let at = clockStart
        let events: [Event] = [
            Event(seq: 1, id: "a-1", at: at, type: "workout.started", fields: ["workout": "w1", "name": "Push", "session": 0]),
            Event(seq: 2, id: "a-2", at: at, type: "set.completed", fields: ["workout": "w1", "exercise": "x", "set": 1, "weight": 100, "unit": "lb", "reps": 10, "kind": "working"]),
            Event(seq: 3, id: "a-3", at: at, type: "set.completed", fields: ["workout": "w1", "exercise": "x", "set": 2, "weight": 20, "unit": "kg", "reps": 10, "kind": "warmup"]),
            Event(seq: 4, id: "a-4", at: at, type: "workout.finished", fields: ["workout": "w1"]),
            Event(seq: 5, id: "a-5", at: at, type: "workout.started", fields: ["workout": "w2", "name": "Pull", "session": 1]),
            Event(seq: 6, id: "a-6", at: at, type: "set.completed", fields: ["workout": "w2", "exercise": "x", "set": 1, "weight": 50, "unit": "kg", "reps": 5, "kind": "working"]),
            Event(seq: 7, id: "a-7", at: at, type: "workout.discarded", fields: ["workout": "w2"]),
        ]
        // Counted, and described by the model folded from the same events.
        let summary = ReplaySummary(events: events)
        #expect(summary.events == 7 && summary.lastSeq == 7 && summary.unknownEvents == 0)
        #expect(summary.workoutsFinished == 1)
        #expect(summary.workoutsDiscarded == 1)
        #expect(summary.workingSets == 1)
        #expect(summary.warmupSets == 1)
        #expect(abs(summary.volumeKg - 453.59237) < 1e-9)
    }

    @Test("the replay summary agrees with history: an edit after the finish counts, data.cleared forgets every workout (FORMAT.md §16)")
    func replaySummaryFollowsHistory() throws {
        let at = clockStart
        let finished: [Event] = [
            Event(seq: 1, id: "a-1", at: at, type: "workout.started", fields: ["workout": "w1", "name": "Push", "session": 0]),
            Event(seq: 2, id: "a-2", at: at, type: "set.completed", fields: ["workout": "w1", "exercise": "x", "set": 1, "weight": 100, "unit": "kg", "reps": 5, "kind": "working"]),
            Event(seq: 3, id: "a-3", at: at, type: "workout.finished", fields: ["workout": "w1"]),
            Event(seq: 4, id: "a-4", at: at, type: "set.edited", fields: ["workout": "w1", "exercise": "x", "set": 1, "reps": 8]),
        ]
        let edited = ReplaySummary(events: finished)
        #expect(edited.workoutsFinished == 1 && edited.workingSets == 1 && edited.volumeKg == 800)
        let cleared = ReplaySummary(events: finished + [
            Event(seq: 5, id: "a-5", at: at, type: "workout.started", fields: ["workout": "w2", "name": "Pull", "session": 1]),
            Event(seq: 6, id: "a-6", at: at, type: "set.completed", fields: ["workout": "w2", "exercise": "x", "set": 1, "weight": 50, "unit": "kg", "reps": 5, "kind": "working"]),
            Event(seq: 7, id: "a-7", at: at, type: "data.cleared", fields: [:]),
            Event(seq: 8, id: "a-8", at: at, type: "workout.finished", fields: ["workout": "w2"]),
        ])
        // The open w2 is forgotten with the finished w1: its finish after the clear names no workout.
        #expect(cleared.workoutsFinished == 0 && cleared.workingSets == 0 && cleared.volumeKg == 0)
        #expect(cleared.events == 8 && cleared.lastSeq == 8)
    }
}
