import Foundation
import Observation
import Testing
import WorkoutJournal

/// What a SwiftUI app binds to: screen states as streams and `@Observable` models, writes off the main actor, times
/// as `Date`, and the rest countdown driven by an injected clock.
@Suite("SwiftUI-ready: observable screens, async writes, dates, the rest countdown", .timeLimit(.minutes(1)))
struct SwiftUIReadyTests {
    let clock = TestClock("2026-11-20T18:00:00.000+01:00")

    func open(_ user: String = "ana") throws -> UserJournal {
        let clock = self.clock
        return try JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { clock.now }).open(user: user)
    }

    /// Waits (on the main actor, through Observation) until `model.value` satisfies `holds`.
    @MainActor
    func until<Value>(_ model: ScreenModel<Value>, _ holds: (Value) -> Bool) async {
        while true {
            let (changed, signal) = AsyncStream.makeStream(of: Void.self)
            withObservationTracking { _ = model.value } onChange: { signal.yield() }
            if holds(model.value) { return }
            var iterator = changed.makeAsyncIterator()
            await iterator.next()
        }
    }

    @Test("a screen's model follows the journal on the main actor: the logger, the home screen, an exercise's page")
    @MainActor
    func screenModels() async throws {
        let journal = try open()
        defer { journal.close() }
        let logger = ScreenModel(journal, .activeWorkout)
        let home = ScreenModel(journal, .home)
        let bench = ScreenModel(journal, .exercise("Bench Press"))
        #expect(logger.value == nil)
        #expect(home.value.lastWorkouts.isEmpty)
        #expect(bench.value.sessions.count == 0)

        let workout = try await journal.write { try $0.startWorkout(name: "Push") }
        await until(logger) { $0 != nil }
        #expect(logger.value.map { "\($0.workout) \($0.name): \($0.sets) sets" } == "w1 Push: 0 sets")
        try await journal.write { try $0.completeSet(workout, exercise: "barbell-bench-press", set: 1, weight: 60, reps: 10) }
        await until(logger) { $0?.sets == 1 }
        #expect(logger.value.map { "\($0.sets) sets, \($0.reps) reps" } == "1 sets, 10 reps")
        clock.advance(seconds: 3600)
        try await journal.write { try $0.finishWorkout(workout) }
        await until(home) { !$0.lastWorkouts.isEmpty }
        await until(bench) { !$0.sessions.isEmpty }
        await until(logger) { $0 == nil }
        #expect(home.value.lastWorkouts.map { "\($0.name) \($0.date)" } == ["Push 2026-11-20"])
        #expect(home.value.activeWorkout == nil)
        #expect(bench.value.sessions.map { "\($0.date) \($0.topSet.weight)×\($0.topSet.reps)" } == ["2026-11-20 60.0×10"])
        let templates = ScreenModel(journal, .templates)
        try await journal.write { try $0.saveAsTemplate(workout, name: "Push A") }
        await until(templates) { !$0.templates.isEmpty }
        #expect(templates.value.templates.map { "\($0.template) \($0.name): \($0.exercises.map(\.exercise))" } == [#"t1 Push A: ["barbell-bench-press"]"#])
        // A stopped model keeps its last value.
        bench.stop()
        try journal.deleteWorkout(workout)
        #expect(journal.exercise("Bench Press").sessions.count == 0)
        #expect(bench.value.sessions.count == 1)
    }

    @Test("updates(of:) streams the history screen after each write; a projection may read the journal, off its lock")
    func screenStreams() async throws {
        let journal = try open()
        defer { journal.close() }
        var totals = journal.updates(of: .history()).map(\.total).makeAsyncIterator()
        #expect(await totals.next() == 0)
        let workout = try journal.startWorkout(name: "Legs")
        try journal.completeSet(workout, exercise: "barbell-back-squat", set: 1, weight: 100, reps: 5)
        try journal.finishWorkout(workout)
        #expect(await totals.next() == 1)

        // The projection runs outside the writer's lock, so it may call back into the journal.
        var names = journal.observe { _ in journal.ledger.workouts.map(\.name) }.makeAsyncIterator()
        #expect(await names.next() == ["Legs"])
        try journal.startWorkout(name: "Push")
        #expect(await names.next() == ["Legs", "Push"])

        // A stream made on a closed journal gives the last state's value and ends.
        journal.close()
        var closed = journal.updates(of: .history()).map(\.total).makeAsyncIterator()
        #expect(await closed.next() == 1)
        #expect(await closed.next() == nil)
    }

    @Test("async writes run off the caller's thread, in the order they were asked for, and throw the refusal")
    @MainActor
    func asyncWrites() async throws {
        let journal = try open()
        defer { journal.close() }
        let workout = try await journal.write { journal in
            #expect(!Thread.isMainThread)
            return try journal.startWorkout(name: "Push")
        }
        // Ten writes asked for one after another (`Task.immediate` runs each up to its enqueued write at once), while
        // the first holds the queue: none is awaited before the next is asked for, and they append in that order.
        let busy = DispatchSemaphore(value: 0)
        let writes = (1...10).map { set in
            Task.immediate {
                try await journal.write { journal in
                    if set == 1 { busy.wait() }
                    return try journal.completeSet(workout, exercise: "barbell-bench-press", set: set, weight: 60, reps: set)
                }
            }
        }
        busy.signal()
        for write in writes { _ = try await write.value }
        let events = try journal.events()
        #expect(events.compactMap { $0.type == "set.completed" ? $0.fields["set"]?.intValue : nil } == Array(1...10))
        #expect(events.map(\.seq) == Array(1...11))
        await #expect(throws: JournalError.self) {
            try await journal.write { try $0.completeSet(workout, exercise: "barbell-bench-press", set: 11, weight: 650, reps: 8) }
        }
        #expect(try journal.events().count == 11)
    }

    @Test("times convert to Date with their offsets, and back")
    func dates() throws {
        let evening = t("2026-11-20T18:30:05.250+01:00")
        #expect(evening.date == Date(timeIntervalSince1970: 1_795_195_805.25))
        #expect(evening.timeZone.secondsFromGMT() == 3600)
        // The same instant recorded in New York: the same Date, another time zone.
        #expect(t("2026-11-20T12:30:05.250-05:00").date == Date(timeIntervalSince1970: 1_795_195_805.25))
        #expect(t("2026-11-20T12:30:05.250-05:00").timeZone.secondsFromGMT() == -18_000)
        #expect(Timestamp(date: Date(timeIntervalSince1970: 1_795_195_805.2509), timeZone: TimeZone(secondsFromGMT: -18_000)!)
                == t("2026-11-20T12:30:05.250-05:00"))
        #expect(LocalDate(year: 2026, month: 11, day: 20).startDate(in: TimeZone(secondsFromGMT: 3600)!)
                == Date(timeIntervalSince1970: 1_795_129_200))

        let journal = try open()
        defer { journal.close() }
        let workout = try journal.startWorkout(name: "Push")
        try journal.completeSet(workout, exercise: "barbell-bench-press", set: 1, weight: 60, reps: 10)
        try journal.startRest(workout, exercise: "barbell-bench-press", seconds: 90)
        #expect(journal.active?.startedAtDate == Date(timeIntervalSince1970: 1_795_194_000))
        #expect(journal.active?.rest?.endsAtDate == Date(timeIntervalSince1970: 1_795_194_090))
        clock.advance(seconds: 2700)
        try journal.finishWorkout(workout)
        let summary = try #require(journal.history().workouts.first)
        #expect([summary.startedAtDate, summary.finishedAtDate] == [Date(timeIntervalSince1970: 1_795_194_000), Date(timeIntervalSince1970: 1_795_196_700)])
        let template = try journal.saveAsTemplate(workout, name: "Push A")
        let item = try #require(journal.templates.templates.first { $0.template == template })
        #expect(item.createdAtDate == Date(timeIntervalSince1970: 1_795_196_700))
        #expect(item.lastUsedAtDate == nil)
    }

    /// A journal whose workout `w1` rests after a set of bench press (`seconds`, else the exercise's default).
    func resting(seconds: Int? = nil) throws -> (UserJournal, WorkoutID) {
        let journal = try open()
        let workout = try journal.startWorkout(name: "Push")
        try journal.completeSet(workout, exercise: "barbell-bench-press", set: 1, weight: 60, reps: 10)
        try journal.startRest(workout, exercise: "barbell-bench-press", seconds: seconds)
        return (journal, workout)
    }

    @Test("the rest countdown ticks each second of the injected clock and ends at 0")
    func restCountdownToZero() async throws {
        let (journal, workout) = try resting(seconds: 3)
        defer { journal.close() }
        var ticks = journal.restCountdown(clock: clock).makeAsyncIterator()
        #expect(await ticks.next().map { "\($0.state) \($0.remainingSeconds)/\($0.seconds)" } == "running 3/3")
        clock.advance(seconds: 1)
        #expect(await ticks.next()?.remainingSeconds == 2)
        clock.advance(seconds: 1)
        #expect(await ticks.next()?.remainingSeconds == 1)
        clock.advance(seconds: 1)
        #expect(await ticks.next().map { "\($0.state) \($0.remainingSeconds)" } == "finished 0")
        #expect(await ticks.next() == nil)
        // A rest recorded as finished: the countdown shows it and ends.
        try journal.finishRest(workout, exercise: "barbell-bench-press")
        var none = journal.restCountdown(clock: clock).makeAsyncIterator()
        #expect(await none.next().map { "\($0.state) \($0.remainingSeconds)" } == "finished 0")
        #expect(await none.next() == nil)
        // No workout open: it ends at once.
        try journal.finishWorkout(workout)
        var closed = journal.restCountdown(clock: clock).makeAsyncIterator()
        #expect(await closed.next() == nil)
    }

    @Test("the rest countdown follows an adjustment at once and ends when the rest is skipped")
    func restCountdownAdjustedAndSkipped() async throws {
        let (journal, workout) = try resting()   // 90 s: a compound
        defer { journal.close() }
        var ticks = journal.restCountdown(clock: clock).makeAsyncIterator()
        #expect(await ticks.next()?.remainingSeconds == 90)
        clock.advance(seconds: 1)
        #expect(await ticks.next()?.remainingSeconds == 89)
        try journal.adjustRest(workout, exercise: "barbell-bench-press", by: -30)
        #expect(await ticks.next().map { "\($0.state) \($0.remainingSeconds)/\($0.seconds)" } == "running 59/60")
        clock.advance(seconds: 1)
        #expect(await ticks.next()?.remainingSeconds == 58)
        try journal.skipRest(workout, exercise: "barbell-bench-press", remaining: 58)
        #expect(await ticks.next().map { "\($0.state) \($0.remainingSeconds)" } == "skipped 58")
        #expect(await ticks.next() == nil)
    }

    @Test("the countdown's arithmetic: seconds left rounded up, and when the next one shows")
    func countdownArithmetic() {
        let ends = t("2026-11-20T18:01:30.000+01:00")
        typealias Rest = ActiveWorkoutState.Rest
        #expect(Rest.remainingSeconds(until: ends, asOf: t("2026-11-20T18:00:00.000+01:00")) == 90)
        #expect(Rest.remainingSeconds(until: ends, asOf: t("2026-11-20T18:00:00.001+01:00")) == 90)
        #expect(Rest.remainingSeconds(until: ends, asOf: t("2026-11-20T18:00:01.000+01:00")) == 89)
        #expect(Rest.remainingSeconds(until: ends, asOf: t("2026-11-20T18:01:31.000+01:00")) == 0)
        #expect(Rest.nextTick(until: ends, asOf: t("2026-11-20T18:00:00.500+01:00")) == t("2026-11-20T18:00:01.000+01:00"))
        #expect(Rest.nextTick(until: ends, asOf: t("2026-11-20T18:01:29.000+01:00")) == t("2026-11-20T18:01:30.000+01:00"))
        #expect(Rest.nextTick(until: ends, asOf: ends) == nil)
    }
}
