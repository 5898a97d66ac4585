import JournalEvents
import Testing
@testable import JournalProjections
import JournalModel

/// Two "Push" workouts: the first-ever session and one that beats it, plus a discarded one.
let pushWeek: [Event] = {
    let w1 = workout("w1", "Push", start: "2026-11-16T18:00:00.000+01:00", finish: "2026-11-16T18:50:00.000+01:00",
                     [("bench", 2, 60, "kg", 8), ("bench", 3, 60, "kg", 8), ("bench", 4, 60, "kg", 7), ("ohp", 1, 40, "kg", 8)],
                     warmups: [("bench", 1, 40, "kg", 10)])
    var w2 = workout("w2", "Push", start: "2026-11-18T18:00:00.000+01:00", finish: "2026-11-18T18:45:00.000+01:00",
                     [("bench", 2, 60, "kg", 9), ("bench", 3, 60, "kg", 8), ("bench", 4, 60, "kg", 6), ("ohp", 1, 40, "kg", 8), ("ohp", 2, 40, "kg", 5)],
                     warmups: [("bench", 1, 40, "kg", 10)])
    w2.insert(contentsOf: [
        // An undone set does not count.
        ev("set.completed", at: "2026-11-18T18:30:00.000+01:00", ["workout": "w2", "exercise": "bench", "set": 5, "weight": 60, "unit": "kg", "reps": 5, "kind": "working"]),
        ev("set.uncompleted", at: "2026-11-18T18:31:00.000+01:00", ["workout": "w2", "exercise": "bench", "set": 5]),
        // A later tick of the same set replaces the earlier one.
        ev("set.completed", at: "2026-11-18T18:32:00.000+01:00", ["workout": "w2", "exercise": "ohp", "set": 2, "weight": 40, "unit": "kg", "reps": 6, "kind": "working"]),
    ], at: w2.count - 1)
    let w3 = workout("w3", "Push", start: "2026-11-19T18:00:00.000+01:00", finish: "2026-11-19T18:40:00.000+01:00",
                     [("bench", 2, 100, "kg", 10)])
    // w3 is discarded instead of finished.
    return w1 + w2 + w3.dropLast() + [ev("workout.discarded", at: "2026-11-19T18:41:00.000+01:00", ["workout": "w3"])]
}()

let w1Summary = WorkoutSummary(
    workout: "w1", name: "Push", startedAt: t("2026-11-16T18:00:00.000+01:00"), finishedAt: t("2026-11-16T18:50:00.000+01:00"),
    date: d("2026-11-16"), durationSeconds: 3000, exerciseCount: 2, setCount: 4, reps: 31, volumeKilograms: 1700, firstTime: true,
    exercises: [
        ExerciseSummary(exercise: "bench", name: "Bench", volumeKilograms: 1380, sets: [
            SetSummary(set: 1, weight: 40, unit: .kg, reps: 10, kind: .warmup),
            SetSummary(set: 2, weight: 60, unit: .kg, reps: 8),
            SetSummary(set: 3, weight: 60, unit: .kg, reps: 8),
            SetSummary(set: 4, weight: 60, unit: .kg, reps: 7),
        ]),
        ExerciseSummary(exercise: "ohp", name: "Ohp", volumeKilograms: 320, sets: [SetSummary(set: 1, weight: 40, unit: .kg, reps: 8)]),
    ])

let w2Summary = WorkoutSummary(
    workout: "w2", name: "Push", startedAt: t("2026-11-18T18:00:00.000+01:00"), finishedAt: t("2026-11-18T18:45:00.000+01:00"),
    date: d("2026-11-18"), durationSeconds: 2700, exerciseCount: 2, setCount: 5, reps: 37, volumeKilograms: 1940, firstTime: false,
    previousWorkout: "w1", increasedReps: 6, increasedLoadKilograms: 240,
    exercises: [
        ExerciseSummary(exercise: "bench", name: "Bench", rosette: false, repsDelta: 0, volumeDeltaKilograms: 0, volumeKilograms: 1380, sets: [
            SetSummary(set: 1, weight: 40, unit: .kg, reps: 10, kind: .warmup),
            SetSummary(set: 2, weight: 60, unit: .kg, reps: 9, plus: 1),
            SetSummary(set: 3, weight: 60, unit: .kg, reps: 8),
            SetSummary(set: 4, weight: 60, unit: .kg, reps: 6),
        ]),
        ExerciseSummary(exercise: "ohp", name: "Ohp", rosette: true, repsDelta: 6, volumeDeltaKilograms: 240, volumeKilograms: 560, sets: [
            SetSummary(set: 1, weight: 40, unit: .kg, reps: 8),
            SetSummary(set: 2, weight: 40, unit: .kg, reps: 6),
        ]),
    ])

@Suite("Workout history")
struct HistoryTests {
    @Test("the first-ever session is a first time and sets no record")
    func firstEverSession() {
        let a = analysis(Array(pushWeek.prefix(7)), asOf: "2026-11-16T20:00:00.000+01:00")
        #expect(HistoryState(a) == HistoryState(total: 1, workouts: [w1Summary]))
        #expect(a.records == [])
        #expect(WorkoutDetail(a, workout: nil) == WorkoutDetail(summary: w1Summary, records: []))
    }

    @Test("a later workout of the same name gets rosettes, +N, increased reps and load; discarded and undone sets count nowhere")
    func comparesWithPreviousWorkoutOfTheSameName() {
        let a = analysis(pushWeek, asOf: "2026-11-20T12:00:00.000+01:00")
        #expect(HistoryState(a) == HistoryState(total: 2, workouts: [w2Summary, w1Summary]))
        let records = [
            PersonalRecord(kind: .bestE1RM, exercise: "bench", name: "Bench", workout: "w2", date: d("2026-11-18"), value: 78, previous: 76, weightKilograms: 60, reps: 9),
            PersonalRecord(kind: .bestSetVolume, exercise: "bench", name: "Bench", workout: "w2", date: d("2026-11-18"), value: 540, previous: 480, weightKilograms: 60, reps: 9),
            PersonalRecord(kind: .repsAtWeight, exercise: "bench", name: "Bench", workout: "w2", date: d("2026-11-18"), value: 9, previous: 8, weightKilograms: 60, reps: 9),
            PersonalRecord(kind: .bestSessionVolume, exercise: "ohp", name: "Ohp", workout: "w2", date: d("2026-11-18"), value: 560, previous: 320),
        ]
        #expect(a.records == records)
        #expect(WorkoutDetail(a, workout: "w2") == WorkoutDetail(summary: w2Summary, records: records))
    }

    @Test("events after the as-of time are ignored")
    func asOfCutsTheJournal() {
        let a = analysis(pushWeek, asOf: "2026-11-18T18:44:59.999+01:00")
        #expect(HistoryState(a) == HistoryState(total: 1, workouts: [w1Summary]))
        #expect(a.ledger.workout("w2")?.status == .open)
    }

    @Test("filters by date, exercise, text and limit, newest first")
    func filters() {
        let a = analysis(pushWeek, asOf: "2026-11-20T12:00:00.000+01:00")
        #expect(HistoryState(a, query: HistoryQuery(from: d("2026-11-17"))) == HistoryState(total: 1, workouts: [w2Summary]))
        #expect(HistoryState(a, query: HistoryQuery(to: d("2026-11-17"))) == HistoryState(total: 1, workouts: [w1Summary]))
        #expect(HistoryState(a, query: HistoryQuery(limit: 1)) == HistoryState(total: 2, workouts: [w2Summary]))
        #expect(HistoryState(a, query: HistoryQuery(exercise: "Ohp")) == HistoryState(total: 2, workouts: [w2Summary, w1Summary]))
        #expect(HistoryState(a, query: HistoryQuery(text: "pull")) == HistoryState(total: 0, workouts: []))
        #expect(CalendarMonth(a) == CalendarMonth(year: 2026, month: 11, days: [
            CalendarMonth.Day(date: d("2026-11-16"), workouts: ["w1"]), CalendarMonth.Day(date: d("2026-11-18"), workouts: ["w2"]),
        ]))
    }

    @Test("data.cleared hides everything recorded before it")
    func dataCleared() {
        let after = workout("w9", "Legs", start: "2026-11-20T08:00:00.000+01:00", finish: "2026-11-20T08:30:00.000+01:00", [("squat", 1, 100, "kg", 5)])
        let a = analysis(pushWeek + [ev("data.cleared", at: "2026-11-19T20:00:00.000+01:00")] + after, asOf: "2026-11-20T12:00:00.000+01:00")
        #expect(HistoryState(a) == HistoryState(total: 1, workouts: [WorkoutSummary(
            workout: "w9", name: "Legs", startedAt: t("2026-11-20T08:00:00.000+01:00"), finishedAt: t("2026-11-20T08:30:00.000+01:00"),
            date: d("2026-11-20"), durationSeconds: 1800, exerciseCount: 1, setCount: 1, reps: 5, volumeKilograms: 500, firstTime: true,
            exercises: [ExerciseSummary(exercise: "squat", name: "Squat", volumeKilograms: 500, sets: [SetSummary(set: 1, weight: 100, unit: .kg, reps: 5)])])]))
        #expect(a.ledger.clearedAtSeq == pushWeek.count + 1)
        #expect(a.ledger.eventCount == after.count)
        // As of before the clearing, the old history is still there.
        #expect(analysis(pushWeek + [ev("data.cleared", at: "2026-11-19T20:00:00.000+01:00")], asOf: "2026-11-19T19:00:00.000+01:00").finished.map(\.id) == ["w1", "w2"])
    }
}
