import JournalEvents
import JournalModel
import TrainingDomain
import Testing
@testable import JournalProjections

/// Last week's Push (all ohp sets at the top of the range), then today's Push in progress.
let activeEvents: [Event] = programmeEvents
    + workout("p1", "Push", start: "2026-11-11T18:00:00.000+01:00", finish: "2026-11-11T19:00:00.000+01:00", session: 0,
              [("bench", 1, 60, "kg", 8), ("bench", 2, 60, "kg", 8), ("bench", 3, 60, "kg", 8), ("ohp", 1, 40, "kg", 12), ("ohp", 2, 40, "kg", 12), ("ohp", 3, 40, "kg", 12)])
    + [
        ev("workout.started", at: "2026-11-18T18:00:00.000+01:00", ["workout": "p2", "name": "Push", "session": 0]),
        ev("warmup.started", at: "2026-11-18T18:01:00.000+01:00", ["workout": "p2", "minutes": 5]),
        ev("exercise.added", at: "2026-11-18T18:02:00.000+01:00", ["workout": "p2", "exercise": "squat", "sets": 2, "reps": "5"]),
        ev("set.completed", at: "2026-11-18T18:10:00.000+01:00", ["workout": "p2", "exercise": "bench", "set": 1, "weight": 60, "unit": "kg", "reps": 9, "kind": "working"]),
        ev("set.completed", at: "2026-11-18T18:13:00.000+01:00", ["workout": "p2", "exercise": "bench", "set": 2, "weight": 60, "unit": "kg", "reps": 8, "kind": "working"]),
        ev("rest.started", at: "2026-11-18T18:13:30.000+01:00", ["workout": "p2", "exercise": "bench", "seconds": 120]),
        ev("rest.adjusted", at: "2026-11-18T18:14:00.000+01:00", ["workout": "p2", "exercise": "bench", "delta_s": 30]),
        ev("injury.warning_answered", at: "2026-11-18T18:14:30.000+01:00", ["workout": "p2", "exercise": "squat", "muscle": "quads", "choice": "continue"]),
    ]

@Suite("Active workout")
struct ActiveWorkoutTests {
    @Test("the active workout shows prescribed sets, prefill, the live rep counter, rest timer, warm-up, next target and injury warnings")
    func activeWorkout() {
        let view = ActiveWorkoutState(analysis(activeEvents, asOf: "2026-11-18T18:15:00.000+01:00", context: muscleContext))
        let kg = WeightUnit.kg
        let warning = "This exercise targets quads, which may affect your knees. Proceed with caution or consider swapping."
        #expect(view == ActiveWorkoutState(
            workout: "p2", name: "Push", startedAt: t("2026-11-18T18:00:00.000+01:00"), elapsedSeconds: 900,
            exercises: [
                .init(exercise: "bench", name: "Bench", prescribedSets: 3, reps: "8-12", restSeconds: 120, rows: [
                    .init(set: 1, weight: 60, unit: kg, reps: 9, completed: true, source: .completed, plus: 1),
                    .init(set: 2, weight: 60, unit: kg, reps: 8, completed: true, source: .completed),
                    .init(set: 3, weight: 60, unit: kg, reps: 8, completed: false, source: .target),
                ], completedSets: 2, completed: false, submitted: false, repCounter: 1,
                      warmup: .init(weight: 30, unit: kg, reps: 10, percent: "50-70%"), nextTarget: DisplayWeight(weight: 60, unit: kg),
                      feedback: nil, injuryWarnings: []),
                // Every ohp set reached 12 last time: the rows weigh the 42.5 kg target, as the Target line says.
                .init(exercise: "ohp", name: "Ohp", prescribedSets: 3, reps: "8-12", restSeconds: 90, rows: (1...3).map {
                    .init(set: $0, weight: 42.5, unit: kg, reps: 12, completed: false, source: .target)
                }, completedSets: 0, completed: false, submitted: false, repCounter: 0,
                      warmup: .init(weight: 20, unit: kg, reps: 10, percent: "50-70%"), nextTarget: DisplayWeight(weight: 42.5, unit: kg),
                      feedback: nil, injuryWarnings: []),
                .init(exercise: "squat", name: "Squat", prescribedSets: 2, reps: "5", restSeconds: 90, rows: (1...2).map {
                    .init(set: $0, weight: nil, unit: kg, reps: nil, completed: false, source: .none)
                }, completedSets: 0, completed: false, submitted: false, repCounter: 0, warmup: nil, nextTarget: nil, feedback: nil,
                      injuryWarnings: [.init(muscle: "quads", injury: "knees", message: warning, answer: "continue")]),
            ],
            rest: .init(exercise: "bench", state: .running, seconds: 150, remainingSeconds: 60, endsAt: t("2026-11-18T18:16:00.000+01:00")),
            warmup: .init(state: .completed), sets: 2, reps: 17, volumeKilograms: 1020, canFinish: true, previousWorkout: "p1"))
    }

    @Test("submitting an exercise gives feedback against the rep range; a skipped rest and a finished workout end the view")
    func feedbackAndEnd() {
        func feedback(_ reps: Int) -> String? {
            let events = activeEvents + [
                ev("set.completed", at: "2026-11-18T18:16:00.000+01:00", ["workout": "p2", "exercise": "bench", "set": 3, "weight": 60, "unit": "kg", "reps": .int(reps), "kind": "working"]),
                ev("exercise.submitted", at: "2026-11-18T18:17:00.000+01:00", ["workout": "p2", "exercise": "bench"]),
            ]
            return ActiveWorkoutState(analysis(events, asOf: "2026-11-18T18:20:00.000+01:00"))?.exercises[0].feedback
        }
        #expect(feedback(7) == "Keep Pushing")
        #expect(feedback(12) == "Good Session")
        let skipped = activeEvents + [ev("rest.skipped", at: "2026-11-18T18:14:40.000+01:00", ["workout": "p2", "exercise": "bench", "remaining_s": 80])]
        #expect(ActiveWorkoutState(analysis(skipped, asOf: "2026-11-18T18:20:00.000+01:00"))?.rest?.state == .skipped)
        #expect(ActiveWorkoutState(analysis(activeEvents, asOf: "2026-11-18T18:20:00.000+01:00"))?.rest?.state == .finished)
        let finished = activeEvents + [ev("workout.finished", at: "2026-11-18T18:30:00.000+01:00", ["workout": "p2"])]
        #expect(ActiveWorkoutState(analysis(finished, asOf: "2026-11-18T18:40:00.000+01:00")) == nil)
        let discarded = activeEvents + [ev("workout.discarded", at: "2026-11-18T18:30:00.000+01:00", ["workout": "p2"])]
        let a = analysis(discarded, asOf: "2026-11-18T18:40:00.000+01:00")
        #expect(ActiveWorkoutState(a) == nil)
        #expect(a.finished.map(\.id) == ["p1"])
    }
}

@Suite("Active workout without a comparison")
struct ActiveWithoutComparisonTests {
    @Test("the rep counter stays 0 for an exercise the previous workout of the same name did not have")
    func noComparison() {
        let events = workout("a", "Pull", start: "2026-11-16T18:00:00.000+01:00", finish: "2026-11-16T19:00:00.000+01:00", [("row", 1, 60, "kg", 8)])
            + [ev("workout.started", at: "2026-11-18T18:00:00.000+01:00", ["workout": "b", "name": "Pull", "session": nil]),
               ev("set.completed", at: "2026-11-18T18:05:00.000+01:00", ["workout": "b", "exercise": "pull-up", "set": 1, "weight": 0, "unit": "kg", "reps": 10, "kind": "working"])]
        let view = ActiveWorkoutState(analysis(events, asOf: "2026-11-18T18:06:00.000+01:00"))
        #expect(view?.previousWorkout == "a")
        #expect(view?.exercises.map(\.repCounter) == [0])
        #expect(view?.exercises.first?.rows == [.init(set: 1, weight: 0, unit: .kg, reps: 10, completed: true, source: .completed)])
    }
}

@Suite("Active workout rows")
struct ActiveRowsTests {
    @Test("a value entered in a row carries to the later incomplete rows of the same kind")
    func enteredValuesPropagate() {
        let events = workout("a", "Arms", start: "2026-11-16T18:00:00.000+01:00", finish: "2026-11-16T19:00:00.000+01:00",
                             [("curl", 1, 12, "kg", 10), ("curl", 2, 12, "kg", 10), ("curl", 3, 12, "kg", 9), ("curl", 4, 12, "kg", 8)])
            + [ev("workout.started", at: "2026-11-18T18:00:00.000+01:00", ["workout": "b", "name": "Arms", "session": nil]),
               ev("exercise.added", at: "2026-11-18T18:01:00.000+01:00", ["workout": "b", "exercise": "curl", "sets": 4, "reps": "8-12"]),
               ev("set.completed", at: "2026-11-18T18:05:00.000+01:00", ["workout": "b", "exercise": "curl", "set": 1, "weight": 12, "unit": "kg", "reps": 11, "kind": "working"]),
               ev("set.edited", at: "2026-11-18T18:06:00.000+01:00", ["workout": "b", "exercise": "curl", "set": 2, "weight": 14, "unit": "kg", "reps": 8])]
        let rows = ActiveWorkoutState(analysis(events, asOf: "2026-11-18T18:07:00.000+01:00"))?.exercises.first?.rows
        #expect(rows == [
            .init(set: 1, weight: 12, unit: .kg, reps: 11, completed: true, source: .completed, plus: 1),
            .init(set: 2, weight: 14, unit: .kg, reps: 8, completed: false, source: .entered),
            .init(set: 3, weight: 14, unit: .kg, reps: 8, completed: false, source: .propagated),
            .init(set: 4, weight: 14, unit: .kg, reps: 8, completed: false, source: .propagated),
        ])
    }
}
