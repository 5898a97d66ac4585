import JournalEvents
import JournalModel
import Testing
@testable import JournalProjections

/// Defaults per seed (DOMAIN.md §4.4): the rest an exercise gets and the week's target come from the rule set that
/// made the programme, not from one global default.
@Suite("Defaults per seed: rest and weekly target by the rule set that made the programme")
struct SeedDefaultsTests {
    /// A programme of `ruleset` at 3 days whose one session lists only the bench, then a workout of that session with
    /// a compound (squat) and an isolation exercise (curl) added without a rest, and one squat set in `unit`.
    static func events(ruleset: String?, unit: String, settings: [(String, Int)] = []) -> [Event] {
        var events = [ev("profile.updated", at: "2026-11-01T09:00:00.000+00:00", ["name": "Sam", "unit": .string(unit)])]
        if let ruleset {
            events.append(ev("programme.generated", at: "2026-11-01T10:00:00.000+00:00", ["ruleset": .string(ruleset), "programme": j("""
                {"split": "Full Body", "days_per_week": 3, "weeks": 8,
                 "sessions": [{"name": "Day 1", "exercises": [{"exercise": "barbell-bench-press", "sets": 3, "reps": "5", "rest_s": 180}]}]}
                """)]))
        }
        for (key, value) in settings {
            events.append(ev("settings.changed", at: "2026-11-01T11:00:00.000+00:00", ["key": .string(key), "value": .int(value)]))
        }
        return events + [
            ev("workout.started", at: "2026-11-02T18:00:00.000+00:00", ["workout": "w1", "name": "Day 1", "session": ruleset == nil ? .null : 0]),
            ev("exercise.added", at: "2026-11-02T18:01:00.000+00:00", ["workout": "w1", "exercise": "barbell-back-squat"]),
            ev("exercise.added", at: "2026-11-02T18:02:00.000+00:00", ["workout": "w1", "exercise": "barbell-curl"]),
            ev("set.completed", at: "2026-11-02T18:03:00.000+00:00", ["workout": "w1", "exercise": "barbell-back-squat", "set": 1, "weight": 100,
                                                                       "unit": .string(unit), "reps": 5, "kind": "working"]),
        ]
    }

    static func rests(_ events: [Event]) -> [String] {
        let view = ActiveWorkoutState(analysis(events, asOf: "2026-11-02T18:05:00.000+00:00", context: .trainingDomain))
        return view?.exercises.map { "\($0.exercise) \($0.restSeconds)" } ?? []
    }

    @Test("an exercise nothing else times rests by the programme's rule set: 2:00 for train and train-ai, 90/60 s for templates and without one",
          arguments: [("train", "kg", 120, 120), ("train-ai", "lb", 120, 120), ("templates", "kg", 90, 60), (nil, "lb", 90, 60)] as [(String?, String, Int, Int)])
    func restByRuleSet(_ ruleset: String?, _ unit: String, _ compound: Int, _ isolation: Int) {
        let bench = ruleset == nil ? [] : ["barbell-bench-press 180"]
        #expect(Self.rests(Self.events(ruleset: ruleset, unit: unit)) == bench + ["barbell-back-squat \(compound)", "barbell-curl \(isolation)"])
        // The lifter's settings still come first, and after a reset the rule set's default is gone.
        #expect(Self.rests(Self.events(ruleset: ruleset, unit: unit, settings: [("rest_default_s", 45)]))
            == bench + ["barbell-back-squat 45", "barbell-curl 45"])
        let reset = Self.events(ruleset: ruleset, unit: unit)
        let afterReset = Array(reset.prefix(ruleset == nil ? 1 : 2)) + [ev("programme.reset", at: "2026-11-01T12:00:00.000+00:00")]
            + reset.dropFirst(ruleset == nil ? 1 : 2).map { event in
                guard event.type == "workout.started" else { return event }
                return ev("workout.started", at: "2026-11-02T18:00:00.000+00:00", ["workout": "w1", "name": "Day 1", "session": .null])
            }
        #expect(Self.rests(afterReset) == ["barbell-back-squat 90", "barbell-curl 60"])
    }

    @Test("without a programme the week's target is the days_per_week answer, 1 to 7 (seed 003's counter)", arguments: [1, 7])
    func weeklyTargetWithoutProgramme(_ days: Int) {
        let events = [ev("questionnaire.answered", at: "2026-11-01T09:00:00.000+00:00", ["question": "days_per_week", "answer": .int(days)])]
            + workout("w1", "Run", start: "2026-11-02T18:00:00.000+00:00", finish: "2026-11-02T18:30:00.000+00:00", [("barbell-back-squat", 1, 100, "kg", 5)])
        let home = HomeState(analysis(events, asOf: "2026-11-03T12:00:00.000+00:00", context: .trainingDomain))
        #expect(home.week.target == days && home.week.completed == 1)
    }
}

/// Seed 004's exercise detail: the How-to (equipment, setup, steps, cues) comes with the history, or without one.
@Suite("Exercise detail: how to do it")
struct ExerciseHowToTests {
    @Test("the exercise view carries the catalogue's equipment and instructions, for a kg and a lb lifter, with or without history",
          arguments: ["kg", "lb"])
    func howTo(_ unit: String) throws {
        let fresh = [ev("profile.updated", at: "2026-11-01T09:00:00.000+00:00", ["unit": .string(unit)])]
        let trained = fresh + workout("w1", "Legs", start: "2026-11-02T18:00:00.000+00:00", finish: "2026-11-02T18:30:00.000+00:00",
                                      [("barbell-back-squat", 1, 100, unit, 5)])
        for events in [fresh, trained] {
            let view = ExerciseHistoryState(analysis(events, asOf: "2026-11-03T00:00:00.000+00:00", context: .trainingDomain), exercise: "barbell-back-squat")
            let how = try #require(view.howTo)
            #expect(how.equipment == ["barbell", "squat-rack"])
            #expect(how.setup == "Set the bar at shoulder height, step under it and stand with the bar across your upper back, feet shoulder width apart, toes slightly out.")
            #expect(how.steps == ["Walk it out of the rack in two or three steps.",
                                  "Sit down and back until your thighs are at least level with the floor.",
                                  "Drive up through your whole foot to stand."])
            #expect(how.cues == ["Brace your stomach before each rep.", "Knees track over your toes.", "Keep your chest up and back flat."])
        }
        // Each session carries its workout's duration (seed 003's exercise history): 30 minutes.
        #expect(ExerciseHistoryState(analysis(trained, asOf: "2026-11-03T00:00:00.000+00:00"), exercise: "barbell-back-squat").sessions.map(\.durationSeconds) == [1800])
        // The catalogue-free context knows no instructions.
        #expect(ExerciseHistoryState(analysis(trained, asOf: "2026-11-03T00:00:00.000+00:00"), exercise: "barbell-back-squat").howTo == nil)
    }
}

/// Seed 004's exercise picker pins the recently used exercises.
@Suite("The picker's recently used exercises")
struct RecentExercisesTests {
    @Test("latest workout first, in its exercise order, each once, at most the limit; a deleted workout counts nowhere", arguments: ["kg", "lb"])
    func recent(_ unit: String) {
        let events = workout("w1", "Legs", start: "2026-11-02T18:00:00.000+00:00", finish: "2026-11-02T18:45:00.000+00:00",
                             [("squat", 1, 100, unit, 5), ("leg-press", 1, 150, unit, 10)])
            + workout("w2", "Push", start: "2026-11-04T18:00:00.000+00:00", finish: "2026-11-04T18:45:00.000+00:00",
                      [("bench", 1, 60, unit, 5), ("squat", 1, 100, unit, 5)])
            + workout("w3", "Arms", start: "2026-11-05T18:00:00.000+00:00", finish: "2026-11-05T18:45:00.000+00:00", [("curl", 1, 20, unit, 10)])
            + [ev("workout.deleted", at: "2026-11-06T09:00:00.000+00:00", ["workout": "w3"])]
        let ledger = Ledger(events: journal(events), asOf: t("2026-11-07T00:00:00.000+00:00"))
        #expect(ledger.recentExercises() == ["bench", "squat", "leg-press"])
        #expect(ledger.recentExercises(limit: 2) == ["bench", "squat"])
    }
}
