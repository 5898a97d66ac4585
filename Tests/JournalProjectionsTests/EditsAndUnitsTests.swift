import JournalEvents
import JournalModel
import TrainingDomain
import Testing
@testable import JournalProjections

@Suite("History edits and units")
struct EditsAndUnitsTests {
    @Test("pounds mixed with kilograms convert with 1 lb = 0.45359237 kg, and the profile's unit changes the display")
    func poundsMixedWithKilograms() {
        let events = workout("u1", "Upper", start: "2026-11-20T18:00:00.000+01:00", finish: "2026-11-20T19:00:00.000+01:00",
                             [("bench", 1, 100, "kg", 5), ("bench", 2, 225, "lb", 5)])
        let kg = analysis(events, asOf: "2026-11-20T20:00:00.000+01:00")
        let summary = WorkoutSummary(
            workout: "u1", name: "Upper", startedAt: t("2026-11-20T18:00:00.000+01:00"), finishedAt: t("2026-11-20T19:00:00.000+01:00"),
            date: d("2026-11-20"), durationSeconds: 3600, exerciseCount: 1, setCount: 2, reps: 10, volumeKilograms: 1010.291, firstTime: true,
            exercises: [ExerciseSummary(exercise: "bench", name: "Bench", volumeKilograms: 1010.291, sets: [
                SetSummary(set: 1, weight: 100, unit: .kg, reps: 5), SetSummary(set: 2, weight: 102.06, unit: .kg, reps: 5),
            ])])
        #expect(HistoryState(kg).workouts == [summary])
        #expect(ExerciseHistoryState(kg, exercise: "bench").bestSet == SetValue(weight: 102.06, unit: .kg, reps: 5))

        let lb = analysis(events + [ev("profile.updated", at: "2026-11-20T19:30:00.000+01:00", ["unit": "lb"])], asOf: "2026-11-20T20:00:00.000+01:00")
        var inPounds = summary
        inPounds.exercises[0].sets = [SetSummary(set: 1, weight: 220.46, unit: .lb, reps: 5), SetSummary(set: 2, weight: 225, unit: .lb, reps: 5)]
        #expect(HistoryState(lb).workouts == [inPounds])
        let bench = ExerciseHistoryState(lb, exercise: "bench")
        #expect(bench.bestSet == SetValue(weight: 225, unit: .lb, reps: 5))
        #expect(bench.startWeight == DisplayWeight(weight: 220.46, unit: .lb))
        #expect(WeightUnit.lb.kilograms(1) == 0.45359237)
        #expect(epley(100, 1) == 100)
        #expect(Rounding.kilograms(epley(100, 3)) == 110)
    }

    @Test("history edits change totals, comparisons and records; a deleted workout counts nowhere")
    func historyEdits() {
        let edits = [
            ev("set.edited", at: "2026-11-19T09:00:00.000+01:00", ["workout": "w1", "exercise": "bench", "set": 4, "reps": 10]),
            ev("set.removed", at: "2026-11-19T09:01:00.000+01:00", ["workout": "w2", "exercise": "ohp", "set": 2]),
            ev("workout.edited", at: "2026-11-19T09:02:00.000+01:00", ["workout": "w2", "finished_at": "2026-11-18T19:00:00.000+01:00"]),
        ]
        let a = analysis(pushWeek + edits, asOf: "2026-11-20T12:00:00.000+01:00")
        #expect(HistoryState(a).workouts.first == WorkoutSummary(
            workout: "w2", name: "Push", startedAt: t("2026-11-18T18:00:00.000+01:00"), finishedAt: t("2026-11-18T19:00:00.000+01:00"),
            date: d("2026-11-18"), durationSeconds: 3600, exerciseCount: 2, setCount: 4, reps: 31, volumeKilograms: 1700, firstTime: false,
            previousWorkout: "w1", increasedReps: 0, increasedLoadKilograms: 0,
            exercises: [
                ExerciseSummary(exercise: "bench", name: "Bench", rosette: false, repsDelta: -3, volumeDeltaKilograms: -180, volumeKilograms: 1380, sets: [
                    SetSummary(set: 1, weight: 40, unit: .kg, reps: 10, kind: .warmup), SetSummary(set: 2, weight: 60, unit: .kg, reps: 9, plus: 1),
                    SetSummary(set: 3, weight: 60, unit: .kg, reps: 8), SetSummary(set: 4, weight: 60, unit: .kg, reps: 6),
                ]),
                ExerciseSummary(exercise: "ohp", name: "Ohp", rosette: false, repsDelta: 0, volumeDeltaKilograms: 0, volumeKilograms: 320,
                                sets: [SetSummary(set: 1, weight: 40, unit: .kg, reps: 8)]),
            ],
            edited: true))
        #expect(HistoryState(a).workouts.last.map { [$0.reps, $0.edited ? 1 : 0] } == [34, 1])
        // The edited first session now holds every bench best: nothing to beat.
        #expect(a.records == [])

        // An edited tick of a finished workout replaces the set.
        let retick = ev("set.completed", at: "2026-11-19T09:03:00.000+01:00",
                        ["workout": "w2", "exercise": "bench", "set": 4, "weight": 60, "unit": "kg", "reps": 12, "kind": "working", "edited": true])
        let b = analysis(pushWeek + edits + [retick], asOf: "2026-11-20T12:00:00.000+01:00")
        #expect(b.records.map(\.kind) == [.bestE1RM, .bestSetVolume, .bestSessionVolume, .repsAtWeight])
        #expect(HistoryState(b).workouts.first?.exercises.first?.sets.last == SetSummary(set: 4, weight: 60, unit: .kg, reps: 12, plus: 2))

        // Deleting the first workout makes the second a first time.
        let c = analysis(pushWeek + [ev("workout.deleted", at: "2026-11-19T10:00:00.000+01:00", ["workout": "w1"])], asOf: "2026-11-20T12:00:00.000+01:00")
        var alone = w2Summary
        alone.firstTime = true; alone.previousWorkout = nil; alone.increasedReps = 0; alone.increasedLoadKilograms = 0
        for i in alone.exercises.indices {
            alone.exercises[i].rosette = false; alone.exercises[i].repsDelta = nil; alone.exercises[i].volumeDeltaKilograms = nil
            for s in alone.exercises[i].sets.indices { alone.exercises[i].sets[s].plus = 0 }
        }
        #expect(HistoryState(c) == HistoryState(total: 1, workouts: [alone]))
        #expect(c.records == [])
        #expect(c.streaks.lastWorkoutDate == d("2026-11-18"))
    }

    @Test("removing and swapping exercises, cardio and supersets are honoured")
    func workoutStructureEdits() {
        var events = workout("s1", "Mixed", start: "2026-11-20T18:00:00.000+01:00", finish: "2026-11-20T19:00:00.000+01:00",
                             [("bench", 1, 60, "kg", 8), ("fly", 1, 15, "kg", 12), ("curl", 1, 12, "kg", 10)])
        events.insert(contentsOf: [
            ev("superset.linked", at: "2026-11-20T18:10:00.000+01:00", ["workout": "s1", "group": "g1", "exercises": ["bench", "fly"]]),
            ev("exercise.removed", at: "2026-11-20T18:20:00.000+01:00", ["workout": "s1", "exercise": "curl"]),
            ev("cardio.logged", at: "2026-11-20T18:50:00.000+01:00", ["workout": "s1", "exercise": "running", "minutes": 20, "km": 4]),
            ev("exercise.noted", at: "2026-11-20T18:51:00.000+01:00", ["workout": "s1", "exercise": "bench", "note": "elbow flared"]),
        ], at: events.count - 1)
        let summary = HistoryState(analysis(events, asOf: "2026-11-20T20:00:00.000+01:00")).workouts[0]
        #expect(summary.exercises == [
            ExerciseSummary(exercise: "bench", name: "Bench", volumeKilograms: 480, sets: [SetSummary(set: 1, weight: 60, unit: .kg, reps: 8)], superset: "g1",
                            notes: ["elbow flared"]),
            ExerciseSummary(exercise: "fly", name: "Fly", volumeKilograms: 180, sets: [SetSummary(set: 1, weight: 15, unit: .kg, reps: 12)], superset: "g1"),
            ExerciseSummary(exercise: "running", name: "Running", volumeKilograms: 0, sets: [], cardio: CardioEntry(exercise: "running", minutes: 20, km: 4)),
        ])
        #expect([summary.exerciseCount, summary.setCount, summary.reps] == [3, 2, 20])

        // The next workout prefills the cardio fields from the last entry.
        let next = events + [
            ev("workout.started", at: "2026-11-21T18:00:00.000+01:00", ["workout": "s2", "name": "Mixed", "session": nil]),
            ev("exercise.added", at: "2026-11-21T18:01:00.000+01:00", ["workout": "s2", "exercise": "running"]),
        ]
        let active = ActiveWorkoutState(analysis(next, asOf: "2026-11-21T18:02:00.000+01:00"))
        #expect(active?.exercises.map(\.exercise) == ["running"])
        #expect(active?.exercises.first?.lastCardio == CardioEntry(exercise: "running", minutes: 20, km: 4))
        #expect(active?.exercises.first?.cardio == nil)
        #expect(active?.exercises.first?.cardioPrefill == CardioEntry(exercise: "running", minutes: 20, km: 4))
    }
}

@Suite("Backdated and renamed workouts")
struct BackdatedTests {
    @Test("a workout logged afterwards takes its place by start time, and a rename changes its previous workout")
    func backdatedAndRenamed() {
        let late = [
            ev("workout.started", at: "2026-11-20T09:00:00.000+01:00",
               ["workout": "old", "name": "Push", "session": nil, "started_at": "2026-11-15T18:00:00.000+01:00"]),
            ev("set.completed", at: "2026-11-20T09:01:00.000+01:00",
               ["workout": "old", "exercise": "bench", "set": 2, "weight": 60, "unit": "kg", "reps": 5, "kind": "working"]),
            ev("workout.finished", at: "2026-11-20T09:02:00.000+01:00", ["workout": "old", "finished_at": "2026-11-15T19:00:00.000+01:00"]),
        ]
        let a = analysis(pushWeek + late, asOf: "2026-11-20T12:00:00.000+01:00")
        #expect(a.finished.map(\.id) == ["old", "w1", "w2"])
        let history = HistoryState(a).workouts
        #expect(history.map(\.workout) == ["w2", "w1", "old"])
        #expect(history.map(\.firstTime) == [false, false, true])
        #expect(history[1].previousWorkout == "old")
        #expect(history[1].increasedReps == 18)
        #expect(history[2].date == d("2026-11-15"))
        #expect(history[2].durationSeconds == 3600)
        // w1's bench baseline moved to the backdated session: w1 now sets bench records.
        #expect(a.records.filter { $0.workout == "w1" }.map(\.kind) == [.bestE1RM, .bestSetVolume, .bestSessionVolume, .repsAtWeight])
        // As of before it was logged, it does not exist.
        #expect(analysis(pushWeek + late, asOf: "2026-11-19T12:00:00.000+01:00").finished.map(\.id) == ["w1", "w2"])

        let renamed = analysis(pushWeek + [ev("workout.edited", at: "2026-11-20T10:00:00.000+01:00", ["workout": "w2", "name": "Push Day"])],
                               asOf: "2026-11-20T12:00:00.000+01:00")
        #expect(HistoryState(renamed).workouts.map { [$0.name, $0.firstTime ? "first" : "again"] } == [["Push Day", "first"], ["Push", "first"]])
    }
}
