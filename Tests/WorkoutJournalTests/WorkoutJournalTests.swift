import Foundation
import JournalModel
import Testing
import WorkoutJournal
import JournalFile

/// A clock the test moves by hand; a countdown's sleep returns when `advance` reaches its deadline.
// @unchecked Sendable: `time`, `sleepers` and `nextSleeper` are only read or written while holding `lock`.
final class TestClock: CountdownClock, @unchecked Sendable {
    private let lock = NSLock()
    private var time: Timestamp
    private var sleepers: [Int: (deadline: Int64, wake: CheckedContinuation<Void, any Error>)] = [:]
    private var nextSleeper = 0
    init(_ text: String) { time = Timestamp(rfc3339: text)! }
    var now: Timestamp { lock.withLock { time } }
    func advance(seconds: Int) {
        let due = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            time = time.adding(milliseconds: Int64(seconds) * 1000)
            let due = sleepers.filter { $0.value.deadline <= time.epochMilliseconds }
            for id in due.keys { sleepers[id] = nil }
            return due.values.map(\.wake)
        }
        for wake in due { wake.resume() }
    }

    func sleep(until deadline: Timestamp) async throws {
        let id = lock.withLock { () -> Int in nextSleeper += 1; return nextSleeper }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (wake: CheckedContinuation<Void, any Error>) in
                let now = lock.withLock { () -> Bool in
                    if Task.isCancelled || deadline.epochMilliseconds <= time.epochMilliseconds { return true }
                    sleepers[id] = (deadline.epochMilliseconds, wake)
                    return false
                }
                if now { wake.resume() }
            }
        } onCancel: {
            lock.withLock { sleepers.removeValue(forKey: id) }?.wake.resume(throwing: CancellationError())
        }
    }
}

/// A copy of SampleJournals/upper-lower-2y-lb.journal (two years of a lifter in pounds), opened with `clock`.
func openTwoYearSample(clock: TestClock) throws -> UserJournal {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    let dir = try temporaryDirectory()
    try FileManager.default.copyItem(atPath: root + "/SampleJournals/upper-lower-2y-lb.journal", toPath: dir + "/dana.journal")
    return try JournalDirectory(path: dir, device: "ph", clock: { clock.now }).open(user: "dana")
}

func t(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "workout-journal-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite("The app facade")
struct WorkoutJournalTests {
    let clock = TestClock("2026-11-20T18:00:00.000+01:00")

    func directory() throws -> JournalDirectory {
        let clock = self.clock
        return JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { clock.now })
    }

    @Test("typed actions record with the CLI's rules, and reads are values folded incrementally")
    func recordAndRead() throws {
        let journals = try directory()
        let journal = try journals.open(user: "ana")
        defer { journal.close() }
        try journal.updateProfile(name: "Ana", unit: .kg)
        let workout = try journal.startWorkout(name: "Push")
        #expect(workout == "w1")
        try journal.addExercise("barbell-bench-press", to: workout, sets: 2, reps: "8-12")
        clock.advance(seconds: 120)
        try journal.completeSet(workout, exercise: "barbell-bench-press", set: 1, weight: 60, reps: 10)
        try journal.startRest(workout, exercise: "barbell-bench-press")
        #expect(journal.active?.rest == ActiveWorkoutState.Rest(exercise: "barbell-bench-press", state: .running, seconds: 90, remainingSeconds: 90,
                                                              endsAt: t("2026-11-20T18:03:30.000+01:00")))
        // Refused: the same message as `journal record`, and nothing changes.
        let before = journal.ledger
        #expect {
            try journal.completeSet(workout, exercise: "barbell-bench-press", set: 2, weight: 650, reps: 8)
        } throws: { error in
            (error as? JournalError)?.description.hasSuffix(
                #"the event was refused: set.completed: field "weight" is 650 but must be at most 500 when unit is "kg"; nothing was written"#) == true
        }
        #expect(journal.ledger == before)
        // Rest Off for an exercise: no timer.
        try journal.configureRest("dumbbell-fly", seconds: 0)
        #expect(try journal.startRest(workout, exercise: "dumbbell-fly") == nil)
        clock.advance(seconds: 300)
        try journal.finishWorkout(workout)
        #expect(journal.active == nil)
        let history = journal.history()
        #expect(history.workouts.map { [$0.workout, $0.name, "\($0.durationSeconds)", "\($0.exerciseCount)", "\($0.reps)", "\($0.volumeKilograms)"] } ==
                [["w1", "Push", "420", "1", "10", "600.0"]])
        #expect(journal.home.name == "Ana")

        // What was folded incrementally is what a replay of the file gives.
        let replayed = Ledger(events: try EventReader.events(path: journal.path), asOf: Timestamp(epochMilliseconds: 253_402_300_799_999, offsetSeconds: 0))
        #expect(journal.ledger == replayed)
        #expect(journal.ledger.eventCount == 7)

        // A second writer is refused while the first is open; reopening folds the file again.
        #expect(throws: JournalError.self) { try journals.open(user: "ana") }
        journal.close()
        let reopened = try journals.open(user: "ana")
        defer { reopened.close() }
        #expect(reopened.history() == history)
        #expect(try reopened.startWorkout(name: "Pull") == "w2")
    }

    @Test("opening the two-year sample folds the same ledger as a replay, then keeps folding appends")
    func openSample() throws {
        let clock = TestClock("2026-11-22T12:00:00.000-06:00")
        let journal = try openTwoYearSample(clock: clock)
        defer { journal.close() }
        let everything = Timestamp(epochMilliseconds: 253_402_300_799_999, offsetSeconds: 0)
        let events = try EventReader.events(path: journal.path)
        #expect(journal.ledger == Ledger(events: events, asOf: everything))
        let workout = try journal.startWorkout(name: "Upper A", repeating: journal.analysis().finished.last.map { WorkoutID($0.id) })
        #expect(journal.active?.workout == workout.rawValue)
        #expect(journal.ledger == Ledger(events: try EventReader.events(path: journal.path), asOf: everything))
        #expect(journal.home == HomeState(Projections.analysis(events: try EventReader.events(path: journal.path), asOf: clock.now,
                                                              context: .trainingDomain)))
    }

    @Test("observing a projection yields its value now and after every append that changes it")
    func observation() async throws {
        let journal = try directory().open(user: "sam")
        defer { journal.close() }
        let stream = journal.observe { analysis in ActiveWorkoutState(analysis).map { "\($0.name): \($0.sets) sets, \($0.reps) reps" } ?? "idle" }
        var values = stream.makeAsyncIterator()
        #expect(await values.next() == "idle")
        let workout = try journal.startWorkout(name: "Legs")
        #expect(await values.next() == "Legs: 0 sets, 0 reps")
        try journal.noteWorkout(workout, "slept badly")   // changes nothing observed: no value
        try journal.completeSet(workout, exercise: "barbell-back-squat", set: 1, weight: 100, reps: 5)
        #expect(await values.next() == "Legs: 1 sets, 5 reps")
        try journal.finishWorkout(workout)
        #expect(await values.next() == "idle")

        let history = journal.observe { HistoryState($0).total }
        var totals = history.makeAsyncIterator()
        #expect(await totals.next() == 1)
        try journal.deleteWorkout(workout)
        #expect(await totals.next() == 0)
        // Closing the journal ends every observation.
        journal.close()
        #expect(await totals.next() == nil)
        #expect(await values.next() == nil)
    }

    @Test("templates round trip: save a workout as a template, start from it, plan a repeat, edit history")
    func templatesAndEdits() throws {
        let journal = try directory().open(user: "kim")
        defer { journal.close() }
        let first = try journal.startWorkout(name: "Upper")
        try journal.addExercise("barbell-bench-press", to: first)
        try journal.addExercise("dumbbell-fly", to: first)
        try journal.addExercise("barbell-row", to: first)
        #expect(try journal.linkSuperset(["barbell-bench-press", "dumbbell-fly"], in: first) == "g1")
        try journal.completeSet(first, exercise: "barbell-bench-press", set: 1, weight: 40, reps: 12, kind: .warmup)
        try journal.completeSet(first, exercise: "barbell-bench-press", set: 2, weight: 70, reps: 8)
        try journal.completeSet(first, exercise: "dumbbell-fly", set: 1, weight: 14, reps: 12)
        clock.advance(seconds: 3600)
        try journal.finishWorkout(first)
        // Finishing dropped the row with no completed set.
        #expect(journal.ledger.workout(first.rawValue)?.exercises.map(\.exercise) == ["barbell-bench-press", "dumbbell-fly"])

        let template = try journal.saveAsTemplate(first, name: "Upper A")
        #expect(template == "t1")
        clock.advance(seconds: 86_400)
        let second = try journal.startWorkout(name: "Upper A", template: template)
        #expect(journal.templates.templates.first?.lastUsedAt == clock.now)
        // The warm-up comes back as saved; the working rows weigh each exercise's next target, as its Target line.
        #expect(journal.active?.exercises.map { $0.rows.map { "\($0.kind.rawValue) \($0.weight ?? 0)×\($0.reps ?? 0)" } } ==
                [["warmup 40.0×12", "working 72.5×8"], ["working 17.5×12"]])
        #expect(journal.active?.exercises.map { $0.nextTarget?.weight } == [72.5, 17.5])
        #expect(journal.active?.exercises.map(\.superset) == ["g1", "g1"])
        try journal.discardWorkout(second)

        let plan = try journal.planRepeatOfLastWorkout()
        #expect(plan == "p1")
        #expect(journal.home.planned == ["Upper"])

        // History edits: a typo in the reps, the real times.
        try journal.editSet(first, exercise: "barbell-bench-press", set: 2, reps: 10)
        try journal.editWorkout(first, startedAt: t("2026-11-20T17:30:00.000+01:00"), finishedAt: t("2026-11-20T18:45:00.000+01:00"))
        let edited = journal.history().workouts[0]
        #expect([edited.reps, edited.durationSeconds] as [Int] == [22, 4500])
        #expect(edited.edited)
        #expect(throws: JournalError.self) {
            try journal.editWorkout(first, finishedAt: t("2026-11-20T17:00:00.000+01:00"))
        }
    }
}

@Suite("The README example")
struct ReadmeExampleTests {
    @Test("the facade example in the report runs as written")
    func example() async throws {
        let appSupport = try temporaryDirectory()
        // --- begin example ---
        let journals = JournalDirectory(path: appSupport, device: "ph", clock: JournalDirectory.systemClock)
        let journal = try journals.open(user: "ana")

        // A screen observes a projection: the value now, then after every append that changes it.
        let updates = journal.observe { analysis in ActiveWorkoutState(analysis).map { "\($0.name): \($0.sets) sets, \($0.reps) reps" } }
        var screen = updates.makeAsyncIterator()          // SwiftUI: `for await` in a .task { }

        let workout = try journal.startWorkout(name: "Push")
        try journal.addExercise("barbell-bench-press", to: workout, sets: 3, reps: "8-12")
        try journal.completeSet(workout, exercise: "barbell-bench-press", set: 1, weight: 60, reps: 10)
        try journal.startRest(workout, exercise: "barbell-bench-press")          // 90 s: a compound (seed 002)
        do {
            try journal.completeSet(workout, exercise: "barbell-bench-press", set: 2, weight: 650, reps: 8)
        } catch {
            print(error)   // …: set.completed: field "weight" is 650 but must be at most 500 when unit is "kg"; nothing was written
        }
        try journal.finishWorkout(workout)
        try journal.editSet(workout, exercise: "barbell-bench-press", set: 1, reps: 11)   // a typo fixed in history

        let summary = journal.history().workouts[0]       // a value: WorkoutSummary
        let template = try journal.saveAsTemplate(workout, name: "Push A")
        journal.close()
        // --- end example ---
        // The stream keeps only the newest value for a reader that lags: no workout in progress; closing ends it.
        #expect(await screen.next() == .some(nil))
        #expect(await screen.next() == nil)
        #expect([summary.reps, summary.setCount] as [Int] == [11, 1])
        #expect(summary.edited)
        #expect(template == "t1")
    }
}
