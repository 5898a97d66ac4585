import JournalEvents
import JournalModel
import Testing
@testable import JournalProjections

@Suite("Ledger fold")
struct LedgerTests {
    let events: [Event] = [
        ev("workout.planned", at: "2026-11-20T10:00:00.000+01:00", ["plan": "p1", "name": "Quick", "exercises": j("""
            [{"exercise": "bench", "sets": 2, "reps": "5"}, {"exercise": "row", "sets": 1}]
            """)]),
        ev("workout.started", at: "2026-11-20T10:05:00.000+01:00", ["workout": "w1", "name": "Quick", "session": nil, "plan": "p1"]),
        ev("exercises.reordered", at: "2026-11-20T10:06:00.000+01:00", ["workout": "w1", "order": ["row", "bench"]]),
        ev("exercise.swapped", at: "2026-11-20T10:07:00.000+01:00", ["workout": "w1", "from": "bench", "to": "incline-bench", "reason": "busy"]),
        ev("set.added", at: "2026-11-20T10:08:00.000+01:00", ["workout": "w1", "exercise": "incline-bench", "set": 1, "weight": 50, "unit": "kg", "reps": 5]),
        ev("set.completed", at: "2026-11-20T10:10:00.000+01:00", ["workout": "w1", "exercise": "row", "set": 1, "weight": 70, "unit": "kg", "reps": 8, "kind": "working"]),
        ev("rest.started", at: "2026-11-20T10:10:00.000+01:00", ["workout": "w1", "exercise": "row", "seconds": 60]),
        ev("rest.adjusted", at: "2026-11-20T10:10:20.000+01:00", ["workout": "w1", "exercise": "row", "delta_s": -90]),
        ev("warmup.skipped", at: "2026-11-20T10:11:00.000+01:00", ["workout": "w1"]),
        ev("workout.noted", at: "2026-11-20T10:12:00.000+01:00", ["workout": "w1", "note": "felt good"]),
        // Unknown workouts and unknown types change nothing.
        ev("set.completed", at: "2026-11-20T10:13:00.000+01:00", ["workout": "nope", "exercise": "row", "set": 1, "weight": 70, "unit": "kg", "reps": 8, "kind": "working"]),
        ev("future.thing_happened", at: "2026-11-20T10:14:00.000+01:00", ["x": 1]),
    ]

    @Test("the fold keeps plans, order, swaps, added rows, completed sets, rest timer, warm-up card and notes")
    func wholeLedgerState() {
        let ledger = Projections.ledger(events: journal(events), asOf: t("2026-11-20T10:15:00.000+01:00"))
        let inclinePrescription = Prescription(exercise: "incline-bench", sets: 2, reps: "5")
        #expect(ledger.workouts == [WorkoutRecord(
            id: "w1", name: "Quick", plan: "p1", startedAt: t("2026-11-20T10:05:00.000+01:00"), seq: 2,
            exercises: [WorkoutExercise(exercise: "row", prescription: Prescription(exercise: "row", sets: 1)),
                        WorkoutExercise(exercise: "incline-bench", prescription: inclinePrescription)],
            sets: [LoggedSet(exercise: "row", set: 1, weight: 70, unit: .kg, reps: 8, at: t("2026-11-20T10:10:00.000+01:00"))],
            rows: [SetRow(exercise: "incline-bench", set: 1, weight: 50, unit: .kg, reps: 5)],
            notes: [Note(text: "felt good")],
            rest: RestTimer(exercise: "row", startedAt: t("2026-11-20T10:10:00.000+01:00"), seconds: 60, adjustmentSeconds: -40),
            warmup: WarmupCard(state: .skipped))])
        #expect(ledger.plans == [PlannedWorkout(id: "p1", name: "Quick", exercises: [Prescription(exercise: "bench", sets: 2, reps: "5"), Prescription(exercise: "row", sets: 1)],
                                                plannedAt: t("2026-11-20T10:00:00.000+01:00"), startedWorkout: "w1")])
        #expect(ledger.eventCount == events.count)

        let active = ActiveWorkoutState(Analysis(ledger))
        #expect(active?.rest == ActiveWorkoutState.Rest(exercise: "row", state: .finished, seconds: 20, remainingSeconds: 0, endsAt: t("2026-11-20T10:10:20.000+01:00")))
        #expect(active?.warmup == ActiveWorkoutState.Warmup(state: .skipped))
        #expect(active?.exercises.map { $0.rows.map { [$0.source.rawValue, "\($0.weight ?? -1)", "\($0.reps ?? -1)"] } } == [
            [["completed", "70.0", "8"]],
            [["entered", "50.0", "5"], ["propagated", "50.0", "5"]],
        ])
        #expect(HomeState(Analysis(ledger)).planned == [])
    }

    @Test("repeating a workout prescribes its performed sets; a programme reset ends the programme")
    func repeatAndReset() {
        let first = workout("w1", "Legs", start: "2026-11-18T18:00:00.000+01:00", finish: "2026-11-18T19:00:00.000+01:00",
                            [("squat", 2, 100, "kg", 5)], warmups: [("squat", 1, 60, "kg", 5)])
        let events = programmeEvents + first + [
            ev("workout.started", at: "2026-11-20T18:00:00.000+01:00", ["workout": "w2", "name": "Legs", "session": nil, "repeat_of": "w1"]),
            ev("programme.reset", at: "2026-11-20T18:01:00.000+01:00"),
        ]
        let a = analysis(events, asOf: "2026-11-20T18:05:00.000+01:00")
        #expect(a.ledger.workout("w2")?.exercises == [WorkoutExercise(exercise: "squat", prescription: Prescription(exercise: "squat", setConfigs: [
            PrescribedSet(weight: 60, unit: .kg, reps: 5, kind: .warmup), PrescribedSet(weight: 100, unit: .kg, reps: 5),
        ]))])
        // The working row weighs the next target: 100 kg × 5 reached the top of "5", so seed 000's +2.5 kg.
        #expect(ActiveWorkoutState(a)?.exercises.first?.rows == [
            .init(set: 1, weight: 60, unit: .kg, reps: 5, kind: .warmup, completed: false, source: .template),
            .init(set: 2, weight: 102.5, unit: .kg, reps: 5, completed: false, source: .target),
        ])
        let home = HomeState(a)
        #expect(home.programme == nil)
        #expect(home.nextWorkout == nil)
        #expect(home.week.target == nil)
        #expect(home.activeWorkout == "w2")
    }
}
