import Testing
@testable import JournalEvents
@testable import JournalModel

/// What a lifter types, as the seeds' forms validate it: names are never blank, cardio exercises take minutes and km,
/// strength exercises weight and reps, rest settings stay within the timer's range.
@Suite("Entry rules: names, cardio and strength fields, rest settings")
struct EntryRulesTests {
    let now = Timestamp(rfc3339: "2026-11-21T18:00:00.000+01:00")!
    let rules = RecordingRules(catalogue: ["barbell-bench-press", "running"], cardio: ["running"])

    func outcome(_ draft: JSONValue, after drafts: [JSONValue] = []) throws -> String {
        try ruleOutcome(draft, after: drafts, rules: rules, now: now)
    }

    static let started: JSONValue = ["type": "workout.started", "workout": "w1", "name": "Push", "session": nil]

    static func set(_ exercise: String, _ unit: String) -> JSONValue {
        ["type": "set.completed", "workout": "w1", "exercise": .string(exercise), "set": 1, "weight": 60, "unit": .string(unit), "reps": 8, "kind": "working"]
    }

    static func cardio(_ exercise: String) -> JSONValue {
        ["type": "cardio.logged", "workout": "w1", "exercise": .string(exercise), "minutes": 20, "km": 3]
    }

    @Test("a blank name is refused on every type that names something")
    func blankNames() throws {
        #expect(try outcome(["type": "workout.started", "workout": "w1", "name": "  ", "session": nil]) ==
            #"workout.started: field "name" is "  " but must not be empty (1–200 bytes of text)"#)
        #expect(try outcome(["type": "exercise.created", "exercise": "my-lift", "name": ""]) ==
            #"exercise.created: field "name" is "" but must not be empty (1–200 bytes of text)"#)
        #expect(try outcome(["type": "profile.updated", "name": ""]) ==
            #"profile.updated: field "name" is "" but must not be empty (1–200 bytes of text)"#)
        #expect(try outcome(["type": "template.created", "template": "t1", "name": "\t", "exercises": []]) ==
            #"template.created: field "name" is "\t" but must not be empty (1–200 bytes of text)"#)
        #expect(try outcome(["type": "workout.edited", "workout": "w1", "name": " "], after: [Self.started]) ==
            #"workout.edited: field "name" is " " but must not be empty (1–200 bytes of text)"#)
        #expect(try outcome(["type": "profile.updated", "name": "Sam"]) == "accepted")
    }

    @Test("strength fields on a cardio exercise and cardio fields on a strength exercise are refused, in kg and lb", arguments: ["kg", "lb"])
    func cardioAndStrengthFields(_ unit: String) throws {
        #expect(try outcome(Self.set("running", unit), after: [Self.started]) ==
            #"set.completed: field "weight" is 60 but is a strength field and running is a cardio exercise: log minutes (0–1440) and km (0–1000) with cardio.logged"#)
        #expect(try outcome(["type": "set.added", "workout": "w1", "exercise": "running", "set": 1, "reps": 5], after: [Self.started]) ==
            #"set.added: field "reps" is 5 but is a strength field and running is a cardio exercise: log minutes (0–1440) and km (0–1000) with cardio.logged"#)
        #expect(try outcome(Self.cardio("barbell-bench-press"), after: [Self.started]) ==
            #"cardio.logged: field "minutes" is 20 but is a cardio field and barbell-bench-press is a strength exercise: log weight (0–500 kg or 0–1100 lb) and reps (0–100) with set.completed"#)
        #expect(try outcome(Self.set("barbell-bench-press", unit), after: [Self.started]) == "accepted")
        #expect(try outcome(Self.cardio("running"), after: [Self.started]) == "accepted")
        // A row added to a cardio exercise without values is only a row.
        #expect(try outcome(["type": "set.added", "workout": "w1", "exercise": "running", "set": 1], after: [Self.started]) == "accepted")
    }

    @Test("a custom exercise is cardio by its category; without one it takes either")
    func customExercises() throws {
        let created: [JSONValue] = [
            ["type": "exercise.created", "exercise": "rower-intervals", "name": "Rower intervals", "category": "Cardio"],
            ["type": "exercise.created", "exercise": "cable-thing", "name": "Cable thing", "category": "Chest"],
            ["type": "exercise.created", "exercise": "mystery", "name": "Mystery"],
            Self.started,
        ]
        #expect(try outcome(Self.set("rower-intervals", "kg"), after: created) ==
            #"set.completed: field "weight" is 60 but is a strength field and rower-intervals is a cardio exercise: log minutes (0–1440) and km (0–1000) with cardio.logged"#)
        #expect(try outcome(Self.cardio("cable-thing"), after: created) ==
            #"cardio.logged: field "minutes" is 20 but is a cardio field and cable-thing is a strength exercise: log weight (0–500 kg or 0–1100 lb) and reps (0–100) with set.completed"#)
        #expect(try outcome(Self.set("mystery", "lb"), after: created) == "accepted")
        #expect(try outcome(Self.cardio("mystery"), after: created) == "accepted")
    }

    @Test("a workout imported from another app keeps what that app wrote")
    func importedWorkoutsKeepTheirValues() throws {
        let imported: JSONValue = ["type": "workout.started", "workout": "w1", "name": "Strong", "session": nil, "source": "strong"]
        let set: JSONValue = ["type": "set.completed", "workout": "w1", "exercise": "running", "set": 1, "weight": 0, "unit": "kg", "reps": 1,
                              "kind": "working", "source": "strong"]
        #expect(try outcome(set, after: [imported]) == "accepted")
    }

    @Test("rest settings are whole seconds from 0 to 3600; the unit setting is kg or lb")
    func settings() throws {
        #expect(try outcome(["type": "settings.changed", "key": "rest_default_s", "value": -5]) ==
            #"settings.changed: field "value" is -5 but must be a whole number of seconds from 0 to 3600 for "rest_default_s" (0 turns the timer off)"#)
        #expect(try outcome(["type": "settings.changed", "key": "rest_compound_s", "value": 3601]) ==
            #"settings.changed: field "value" is 3601 but must be a whole number of seconds from 0 to 3600 for "rest_compound_s" (0 turns the timer off)"#)
        #expect(try outcome(["type": "settings.changed", "key": "rest_isolation_s", "value": "90"]) ==
            #"settings.changed: field "value" is "90" but must be a whole number of seconds from 0 to 3600 for "rest_isolation_s" (0 turns the timer off)"#)
        #expect(try outcome(["type": "settings.changed", "key": "rest_default_s", "value": 120]) == "accepted")
        #expect(try outcome(["type": "settings.changed", "key": "rest_default_s", "value": 0]) == "accepted")
        #expect(try outcome(["type": "settings.changed", "key": "unit", "value": "stone"]) ==
            #"settings.changed: field "value" is "stone" but must be "kg" or "lb" for "unit""#)
        #expect(try outcome(["type": "settings.changed", "key": "theme", "value": "dark"]) == "accepted")
    }
}
