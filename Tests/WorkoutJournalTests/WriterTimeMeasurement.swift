import Foundation
import Testing
import WorkoutJournal

/// The writer's time per set tick on the two-year sample, with no observer and with three (home, history, progress),
/// printed as a ratio. A measurement, not a check of speed: it runs only with `JOURNAL_WRITER_TIME=1` and asserts
/// only that every observer saw the last write.
@Suite("The writer's time per append with observers (JOURNAL_WRITER_TIME=1)",
       .enabled(if: ProcessInfo.processInfo.environment["JOURNAL_WRITER_TIME"] == "1"))
struct WriterTimeMeasurement {
    static let sets = 20

    @Test("three observers cost the writer little per set tick: printed as a ratio to none")
    func writerTimeWithObservers() async throws {
        let clock = TestClock("2026-11-22T12:00:00.000-06:00")
        let journal = try openTwoYearSample(clock: clock)
        defer { journal.close() }
        let workout = try journal.startWorkout(name: "Measured")

        /// Milliseconds the writer spent in each `completeSet` call for `exercise`, sets 1 to `sets`.
        func tick(_ exercise: ExerciseID) throws -> [Double] {
            try (1...WriterTimeMeasurement.sets).map { set in
                clock.advance(seconds: 30)
                let start = DispatchTime.now().uptimeNanoseconds
                try journal.completeSet(workout, exercise: exercise, set: set, weight: 100, unit: .lb, reps: 5)
                return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

        let alone = try tick("barbell-bench-press") + tick("barbell-row")
        let home = journal.observe { HomeState($0) }
        let history = journal.observe { HistoryState($0).workouts.first { $0.name == "Measured" }?.setCount }
        let progress = journal.observe { ProgressState($0, range: .oneMonth) }
        var homes = home.makeAsyncIterator(), histories = history.makeAsyncIterator(), progresses = progress.makeAsyncIterator()
        _ = await homes.next(); _ = await histories.next(); _ = await progresses.next()
        let observed = try tick("barbell-back-squat") + tick("deadlift")
        try journal.finishWorkout(workout)
        // Each observer reaches the finished workout (its newest value), whatever it skipped on the way.
        var lastSets: Int?? = nil
        while let value = await histories.next() { lastSets = value; if value == 80 { break } }
        #expect(lastSets == .some(80))
        print(String(format: "writer per set tick (median of %d): %.2f ms alone, %.2f ms with three observers: ratio %.2f",
                     alone.count, median(alone), median(observed), median(observed) / median(alone)))
    }
}
