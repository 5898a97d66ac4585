import JournalFile
import JournalEvents
import JournalStore
import JournalTesting
import Testing

/// Crashes and I/O errors below the process, at every step of appending and sealing, with
/// what the disk keeps of unsynced writes modelled as SQLite's crash VFS does
/// (RELIABILITY.md §"Power loss, I/O errors, and seal crashes below the process").
@Suite("Power loss and I/O errors at every step")
struct PowerLossTests {
    /// A journal that already holds one sealed workout, then two more workouts recorded one
    /// event at a time: 10 appends and 2 seals (each `workout.finished` seals the tail).
    struct Scenario {
        static let path = "user.journal"
        static let drafts = Fixtures.workoutDrafts("w2", sets: 3, at: Fixtures.start.adding(milliseconds: 86_400_000))
            + Fixtures.workoutDrafts("w3", sets: 3, at: Fixtures.start.adding(milliseconds: 2 * 86_400_000))

        let memory = MemoryStorage()
        let scripted: ScriptedStorage
        let before: [Event]
        /// Events whose `record` returned (acknowledged).
        var acknowledged: [Event] = []
        var errors: [String] = []

        init(configure: (ScriptedStorage) -> Void) throws {
            before = try Fixtures.smallJournal(at: Scenario.path, storage: memory, workouts: 1, openSets: 0)
            scripted = ScriptedStorage(base: memory)
            configure(scripted)
            let options = EventJournal.Options()
            let journal: EventJournal
            do {
                journal = try EventJournal(path: Scenario.path, storage: scripted, device: "ph", options: options, clock: { Fixtures.start })
            } catch {
                errors.append("open: \(error)")
                return
            }
            defer { journal.close() }
            for draft in Scenario.drafts {
                do {
                    acknowledged.append(try journal.record(draft))
                } catch {
                    errors.append("\(error)")
                }
                if let sealError = journal.lastSealError { errors.append("seal: \(sealError)") }
            }
        }

        /// Reopens as the next process would and checks every guarantee; returns what failed.
        func checkRecovery(_ label: String) -> [String] {
            var problems: [String] = []
            func fail(_ message: String) { problems.append("\(label): \(message)") }
            do {
                let journal = try EventJournal(path: Scenario.path, storage: memory, device: "ph", clock: { Fixtures.start })
                journal.close()
                let report = try JournalVerifier.verify(path: Scenario.path, storage: memory)
                if !report.isClean { fail("not clean after recovery: \(report.scan.damage) \(report.badLines) \(report.seqGaps) \(report.ruleViolations)") }
                if memory.exists(JournalWriter.sealPath(Scenario.path)) { fail("the seal redo file survived recovery") }
                let events = try EventReader.events(path: Scenario.path, storage: memory)
                if Array(events.prefix(before.count)) != before { fail("events from before the scenario changed") }
                for event in acknowledged where !events.contains(event) { fail("acknowledged event seq \(event.seq) (\(event.type)) is lost") }
                for (index, event) in events.enumerated() where event.seq != index + 1 { fail("event \(index + 1) has seq \(event.seq)"); break }
                if Set(events.map(\.id)).count != events.count { fail("an id appears twice") }
                // What is there after the old events is what was sent, in the order sent (skipping refused ones).
                var remaining = Scenario.drafts[...]
                for event in events.dropFirst(before.count) {
                    guard let index = remaining.firstIndex(where: { matches(event, $0) }) else {
                        fail("event seq \(event.seq) \(EventCodec.encodeString(event)) was not sent, or is out of order")
                        break
                    }
                    remaining = remaining[(index + 1)...]
                }
            } catch {
                fail("reopening failed: \(error)")
            }
            return problems
        }

        func matches(_ event: Event, _ draft: JSONValue) -> Bool {
            let object = draft.objectValue!
            return event.type == object["type"]?.stringValue && event.string("workout") == object["workout"]?.stringValue
                && event.int("set") == object["set"]?.intValue && event.at.rfc3339 == object["at"]?.stringValue
        }
    }

    static let operations: [ScriptedStorage.Operation] = try! Scenario(configure: { _ in }).scripted.trace

    @Test("the scenario runs clean when nothing fails: 10 appends, 2 seals")
    func scenarioWithoutFaults() throws {
        let scenario = try Scenario(configure: { _ in })
        #expect(scenario.errors == [])
        #expect(scenario.acknowledged.count == 10)
        #expect(scenario.checkRecovery("no fault") == [])
        // Each append is a write and an fsync; each seal writes its redo file, rewrites, and removes it.
        #expect(PowerLossTests.operations.filter { if case .sync = $0 { return true }; return false }.count == 14)
    }

    /// What the disk keeps of unsynced writes, relative to the journal's size at the crash.
    static func powerLossModes(size: Int) -> [MemoryStorage.PowerLoss] {
        [.dropUnsynced, .keepUnsynced]
            + [1, 7, 40, 120].map { .keepUnsyncedUpTo(offset: max(0, size - $0)) }
            + [3, 60].map { .garbleUnsyncedFrom(offset: max(0, size - $0), pattern: 0x5A) }
    }

    @Test("a crash at every operation, with unsynced writes dropped, kept, cut or garbled, loses no acknowledged event and recovers clean")
    func crashAtEveryOperation() throws {
        var problems: [String] = []
        var runs = 0
        for index in PowerLossTests.operations.indices {
            for keep in [0, 5] {
                for mode in 0..<8 {
                    let scenario = try Scenario { $0.crashAt = index; $0.crashingWriteKeeps = keep }
                    let size = scenario.memory.contents(of: Scenario.path)?.count ?? 0
                    let loss = PowerLossTests.powerLossModes(size: size)[mode]
                    scenario.memory.powerLoss(loss)
                    problems += scenario.checkRecovery("crash at \(PowerLossTests.operations[index]) (#\(index)), write keeps \(keep), \(loss)")
                    runs += 1
                }
            }
        }
        #expect(problems == [])
        print("power loss: \(PowerLossTests.operations.count) operations × 2 partial writes × 8 power-loss modes = \(runs) crashes recovered")
    }

    @Test("an I/O error at any operation (ENOSPC or EIO) is reported, and after a crash the journal holds every acknowledged event")
    func errorAtEveryOperation() throws {
        var problems: [String] = []
        var reported = 0
        for index in PowerLossTests.operations.indices {
            for code: Int32 in [28, 5] {
                for loss in [MemoryStorage.PowerLoss.dropUnsynced, .keepUnsynced] {
                    let scenario = try Scenario { $0.failures = [index: code] }
                    if !scenario.errors.isEmpty { reported += 1 }
                    if scenario.errors.isEmpty { problems.append("failure at #\(index) \(PowerLossTests.operations[index]) was not reported") }
                    scenario.memory.powerLoss(loss)
                    problems += scenario.checkRecovery("errno \(code) at \(PowerLossTests.operations[index]) (#\(index)), then \(loss)")
                }
            }
        }
        #expect(problems == [])
        print("I/O errors: \(PowerLossTests.operations.count) operations × 2 errnos × 2 power-loss modes, \(reported) reported")
    }

    @Test("an I/O error at any operation followed by a crash at any later operation loses no acknowledged event")
    func errorThenCrash() throws {
        var problems: [String] = []
        var runs = 0
        for index in PowerLossTests.operations.indices {
            let length = try Scenario { $0.failures = [index: 28] }.scripted.trace.count
            for crash in (index + 1)..<max(index + 1, length) {
                for loss in [MemoryStorage.PowerLoss.dropUnsynced, .keepUnsynced] {
                    let scenario = try Scenario { $0.failures = [index: 28]; $0.crashAt = crash }
                    scenario.memory.powerLoss(loss)
                    problems += scenario.checkRecovery("ENOSPC at #\(index) \(PowerLossTests.operations[index]), crash at #\(crash) \(scenario.scripted.trace[crash]), \(loss)")
                    runs += 1
                }
            }
        }
        #expect(problems == [])
        for problem in problems.prefix(10) { print(problem) }
        print("I/O error then crash: \(runs) runs")
    }
}
