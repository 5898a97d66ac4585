import Testing
import JournalEvents
import JournalStore
@testable import JournalFile

/// `journal record --batch`'s rule (FORMAT.md §5 "Batches") through the library, with the time given by hand.
@Suite("Recording in batches")
struct BatchRecorderTests {
    let path = "/journals/ana.journal"
    let start = Timestamp(rfc3339: "2026-11-21T18:00:00.000+01:00")!

    func open(_ storage: MemoryStorage) throws(JournalError) -> EventJournal {
        let start = self.start
        return try EventJournal(path: path, storage: storage, device: "ph") { start }
    }

    static func set(_ number: Int, reps: Int = 8) -> JSONValue {
        ["type": "set.completed", "workout": "w1", "exercise": "barbell-bench-press", "set": .int(number), "weight": 60, "unit": "kg",
         "reps": .int(reps), "kind": "working"]
    }

    static let started: JSONValue = ["type": "workout.started", "workout": "w1", "name": "Push", "session": 0]

    @Test("a batch is recorded when it holds the policy's lines, and the rest at the end of the input, in sealed frames")
    func byLines() throws {
        let storage = MemoryStorage()
        let recorder = BatchRecorder(journal: try open(storage), policy: .init(lines: 3, milliseconds: 1000))
        var acknowledged: [[Int]] = []
        let drafts = [Self.started] + (1...6).map { Self.set($0) }
        for (index, draft) in drafts.enumerated() {
            acknowledged.append(try recorder.add(draft, line: index + 1, now: 0).map(\.seq))
        }
        acknowledged.append(try recorder.flush().map(\.seq))
        #expect(acknowledged == [[], [], [1, 2, 3], [], [], [4, 5, 6], [], [7]])
        recorder.journal.close()
        let (records, report) = try JournalReader.records(path: path, storage: storage)
        #expect(records.count == 7)
        #expect(report.frames == 3)
        #expect(report.tailRun.count == 1)
        #expect(report.isClean)
    }

    @Test("a batch waits at most the policy's milliseconds from its first event")
    func byTime() throws {
        let recorder = BatchRecorder(journal: try open(MemoryStorage()), policy: .init(lines: 100, milliseconds: 1000))
        #expect(recorder.millisecondsUntilDue(now: 0) == nil)
        #expect(try recorder.add(Self.started, line: 1, now: 5000).isEmpty)
        #expect(try recorder.add(Self.set(1), line: 2, now: 5600).isEmpty)
        #expect(recorder.millisecondsUntilDue(now: 5700) == 300)
        #expect(try recorder.flushIfDue(now: 5999).isEmpty)
        #expect(try recorder.flushIfDue(now: 6000).map(\.seq) == [1, 2])
        #expect(recorder.pendingCount == 0)
        #expect(recorder.millisecondsUntilDue(now: 6000) == nil)
    }

    @Test("a line that breaks a rule refuses its whole batch: nothing of it is written, the batches before it stay")
    func refusal() throws {
        let storage = MemoryStorage()
        let recorder = BatchRecorder(journal: try open(storage), policy: .init(lines: 3, milliseconds: 1000))
        for (index, draft) in [Self.started, Self.set(1), Self.set(2)].enumerated() {
            _ = try recorder.add(draft, line: index + 1, now: 0)
        }
        let before = storage.contents(of: path)
        // Line 6 is blank in the input: the refused line is named by its own number, not by its place in the batch.
        _ = try recorder.add(Self.set(3), line: 4, now: 0)
        _ = try recorder.add(Self.set(4), line: 5, now: 0)
        #expect(throws: BatchRecorder.Refusal(path: path, line: 7,
                                              reason: #"was refused: set.completed: field "reps" is 101 but must be between 0 and 100"#, batch: 4...7)) {
            _ = try recorder.add(Self.set(5, reps: 101), line: 7, now: 0)
        }
        #expect(storage.contents(of: path) == before)
        #expect(recorder.journal.eventCount == 3)
        let refusal = BatchRecorder.Refusal(path: path, line: 7, reason: #"was refused: set.completed: field "reps" is 101 but must be between 0 and 100"#, batch: 4...7)
        #expect(refusal.description == #"/journals/ana.journal: input line 7 was refused: set.completed: field "reps" is 101 but must be between 0 and 100; nothing of its batch (input lines 4–7) was written, every seq printed before it is durable"#)
    }

    @Test("every event is checked against the events before it in its batch")
    func rulesWithinBatch() throws {
        let storage = MemoryStorage()
        let recorder = BatchRecorder(journal: try open(storage), policy: .init(lines: 10, milliseconds: 1000))
        _ = try recorder.add(Self.started, line: 1, now: 0)
        _ = try recorder.add(Self.started, line: 2, now: 0)
        #expect(throws: BatchRecorder.Refusal.self) { _ = try recorder.flush() }
        #expect(storage.contents(of: path) == Layout.header)
    }

    @Test("a line that is not JSON drops the pending batch and names its lines")
    func notJSON() throws {
        let recorder = BatchRecorder(journal: try open(MemoryStorage()), policy: .init(lines: 10, milliseconds: 1000))
        _ = try recorder.add(Self.started, line: 2, now: 0)
        let refusal = recorder.refuse(line: 3, reason: "is not JSON: invalid JSON at byte 1 of the line: expected a value, found \"x\"")
        #expect(refusal.batch == 2...3)
        #expect(recorder.pendingCount == 0)
        #expect(try recorder.flush().isEmpty)
        #expect(BatchRecorder.Refusal(path: "j", line: 1, reason: "is not JSON: x", batch: 1...1).description
            == "j: input line 1 is not JSON: x; nothing of its batch (input line 1) was written, every seq printed before it is durable")
    }
}
