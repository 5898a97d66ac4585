import Testing
import JournalEvents
import JournalModel
@testable import TrainingDomain

@Suite("Reading the journal")
struct JournalFoldTests {
    @Test("The prescription comes from the programme session named by workout.started; edits and unticks count")
    func prescriptionFromProgramme() throws {
        var log = EventLog()
        let programme = try ProgrammeGenerator.generate(ruleset: "train", answers: [
            "primary_goal": "get_stronger", "experience": "0", "days_per_week": 2, "session_minutes": "30-45", "equipment": ["barbell"],
        ])
        #expect(programme.sessions[0].exercises[0] == PrescribedExercise(exercise: "barbell-back-squat", sets: 3, reps: "4-6", restSeconds: 180))
        var generated = JSONObject()
        for field in programme.eventFields { generated[field.key] = field.value }
        log.add("programme.generated", generated)
        log.add("workout.started", ["workout": "w1", "name": "Full Body A", "session": 0])
        for set in 1...3 {
            log.add("set.completed", ["workout": "w1", "exercise": "barbell-back-squat", "set": .int(set), "weight": 60, "unit": "kg", "reps": 6, "kind": "working"])
        }
        log.add("set.completed", ["workout": "w1", "exercise": "barbell-back-squat", "set": 4, "weight": 40, "unit": "kg", "reps": 2, "kind": "working"])
        log.add("set.uncompleted", ["workout": "w1", "exercise": "barbell-back-squat", "set": 4])
        log.add("set.completed", ["workout": "w1", "exercise": "barbell-back-squat", "set": 5, "weight": 20, "unit": "kg", "reps": 10, "kind": "warmup"])
        log.add("set.edited", ["workout": "w1", "exercise": "barbell-back-squat", "set": 2, "reps": 5])
        log.add("workout.finished", ["workout": "w1"])
        let sessions = Progression.sessions(for: "barbell-back-squat", in: log.ledger)
        #expect(sessions == [CompletedSession(workout: "w1", exercise: "barbell-back-squat", at: log.events[1].at, sets: [
            CompletedSet(weight: 60, unit: .kg, reps: 6), CompletedSet(weight: 60, unit: .kg, reps: 5), CompletedSet(weight: 60, unit: .kg, reps: 6),
        ], targetReps: 6, targetSets: 3)])
        let target = try Progression.nextTarget(exercise: "barbell-back-squat", ledger: log.ledger)
        #expect(target.weight == 60)
        #expect(target.failures == 1)
        #expect(target.explanation == """
        barbell-back-squat: next target 60 kg × 6 (rule: +2.5 kg when all sets reach the target reps; −10% after 3 consecutive failures)
          w1 on 2026-11-02: 60 kg × 6,5,6 vs 6 reps → failed; target 60 kg (failure 1 of 3)
        """)
    }

    @Test("data.cleared forgets earlier workouts; deleted workouts do not count")
    func clearedAndDeleted() {
        var log = EventLog()
        log.workout("w1", "deadlift", [(100, 5)])
        log.add("data.cleared")
        log.workout("w2", "deadlift", [(60, 5)])
        log.workout("w3", "deadlift", [(62.5, 5)])
        log.add("workout.deleted", ["workout": "w3"])
        #expect(Progression.sessions(for: "deadlift", in: log.ledger).map(\.workout) == ["w2"])
    }

    @Test("Readable renderings for the command line")
    func renderings() throws {
        let loading = try PlateCalculator.load(target: 61, barWeight: 20, plates: [PlateStock(weight: 20, count: 2)], unit: .kg)
        #expect(loading.lines == ["60 kg: bar 20 kg + per side 20", "61 kg cannot be loaded exactly with these plates: closest is 60 kg, 1 kg short"])
        #expect(JSONWriter.string(loading.jsonValue) == #"{"target":61,"bar":20,"unit":"kg","per_side":[20],"achieved":60,"difference":1,"exact":false}"#)
        let squat = try #require(ExerciseCatalogue.builtIn.exercise(id: "barbell-back-squat"))
        #expect(squat.line == "barbell-back-squat  Barbell Back Squat  quads (+calves, glutes, hamstrings, lower-back)  barbell, squat-rack  compound")
        let programme = try ProgrammeGenerator.generate(ruleset: "templates", answers: [
            "primary_goal": "get_stronger", "experience": "0", "days_per_week": 3, "equipment": ["barbell"], "weight": 60,
        ])
        #expect(programme.lines().prefix(4) == [
            "Full Body: 3 days a week for 12 weeks (rule set templates v2, template starting-strength)",
            "",
            "Day 1: Workout A",
            "  Barbell Back Squat: 3 × 5, rest 180 s, start at 30 kg",
        ])
    }
}
