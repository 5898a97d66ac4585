import Testing
@testable import JournalEvents
@testable import JournalModel

/// The lifter's rules at append time, with their messages pinned.
@Suite("The lifter's rules at append time")
struct LifterRulesTests {
    let now = Timestamp(rfc3339: "2026-11-21T18:00:00.000+01:00")!

    /// Appends `drafts` (each must be accepted), then returns what happens to `draft`: "accepted" or the message.
    func outcome(_ draft: JSONValue, after drafts: [JSONValue]) throws -> String {
        try ruleOutcome(draft, after: drafts, rules: RecordingRules(), now: now)
    }

    static func started(_ workout: String = "w1", _ extra: [(String, JSONValue)] = []) -> JSONValue {
        var object: JSONObject = ["type": "workout.started", "workout": .string(workout), "name": "Push", "session": nil]
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }
    static func set(_ exercise: String, _ number: Int, kind: String = "working", workout: String = "w1", edited: Bool? = nil) -> JSONValue {
        var object: JSONObject = ["type": "set.completed", "workout": .string(workout), "exercise": .string(exercise), "set": .int(number),
                                  "weight": 60, "unit": "kg", "reps": 8, "kind": .string(kind)]
        if let edited { object["edited"] = .bool(edited) }
        return .object(object)
    }
    static func added(_ exercise: String, position: Int? = nil) -> JSONValue {
        var object: JSONObject = ["type": "exercise.added", "workout": "w1", "exercise": .string(exercise)]
        if let position { object["position"] = .int(position) }
        return .object(object)
    }
    static func rest(_ exercise: String) -> JSONValue { ["type": "rest.started", "workout": "w1", "exercise": .string(exercise), "seconds": 90] }
    static func link(_ group: String, _ exercises: [String]) -> JSONValue {
        ["type": "superset.linked", "workout": "w1", "group": .string(group), "exercises": .array(exercises.map(JSONValue.string))]
    }
    static let finished: JSONValue = ["type": "workout.finished", "workout": "w1"]
    /// bench, fly, row, curl in that order.
    static let fourExercises: [JSONValue] = [started(), added("bench"), added("fly"), added("row"), added("curl")]

    @Test("favourites stop at 10 until one is removed")
    func favourites() throws {
        let ten: [JSONValue] = (1...10).map { ["type": "exercise.favourited", "exercise": .string("lift-\($0)")] }
        let eleventh: JSONValue = ["type": "exercise.favourited", "exercise": "lift-11"]
        #expect(try outcome(eleventh, after: ten) ==
            #"exercise.favourited: field "exercise" is "lift-11" but cannot be added: 10 exercises are already favourites (at most 10; unfavourite one first)"#)
        #expect(try outcome(["type": "exercise.favourited", "exercise": "lift-3"], after: ten) == "accepted")
        #expect(try outcome(eleventh, after: ten + [["type": "exercise.unfavourited", "exercise": "lift-3"]]) == "accepted")
        #expect(try outcome(eleventh, after: ten + [["type": "data.cleared"]]) == "accepted")
    }

    @Test("a superset links adjacent exercises of the workout, and keeps them adjacent")
    func supersetsAreAdjacent() throws {
        let four = Self.fourExercises
        #expect(try outcome(Self.link("g1", ["fly", "bench"]), after: four) == "accepted")
        #expect(try outcome(Self.link("g1", ["bench", "row"]), after: four) ==
            #"superset.linked: field "exercises" is ["bench","row"] but are not adjacent in the workout (order: bench, fly, row, curl); a superset links adjacent exercises or groups"#)
        #expect(try outcome(Self.link("g1", ["bench", "squat"]), after: four) ==
            #"superset.linked: field "exercises" is ["bench","squat"] but names "squat", which is not in workout "w1""#)
        #expect(try outcome(Self.link("g1", ["bench", "bench"]), after: four) ==
            #"superset.linked: field "exercises" is ["bench","bench"] but names an exercise twice"#)
        let linked = four + [Self.link("g1", ["bench", "fly", "row"])]
        // A group joins its neighbour; taking the middle of a group would split it.
        #expect(try outcome(Self.link("g2", ["bench", "fly", "row", "curl"]), after: linked) == "accepted")
        #expect(try outcome(Self.link("g2", ["fly", "row"]), after: linked) == "accepted")
        #expect(try outcome(Self.link("g2", ["row", "curl"]), after: four + [Self.link("g1", ["bench", "fly"]), Self.link("g3", ["row", "curl"])]) == "accepted")
        #expect(try outcome(["type": "exercises.reordered", "workout": "w1", "order": ["fly", "curl", "bench"]], after: linked) ==
            #"exercises.reordered: field "order" is ["fly","curl","bench"] but would separate superset "g1" (fly, bench, row); move a superset as one block or unlink it first"#)
        #expect(try outcome(["type": "exercises.reordered", "workout": "w1", "order": ["curl"]], after: linked) == "accepted")
        #expect(try outcome(Self.added("press", position: 1), after: linked) ==
            #"exercise.added: field "position" is 1 but would split superset "g1" (bench, fly, row); add it before or after the group"#)
        #expect(try outcome(Self.added("press", position: 3), after: linked) == "accepted")
        #expect(try outcome(["type": "superset.unlinked", "workout": "w1", "group": "g9"], after: linked) ==
            #"superset.unlinked: field "group" is "g9" but is not a superset of workout "w1""#)
        #expect(try outcome(["type": "superset.unlinked", "workout": "w1", "group": "g1"], after: linked) == "accepted")
    }

    @Test("templates and plans list each exercise once, with adjacent supersets and per-set weights within limits")
    func templateShapes() throws {
        func template(_ exercises: String) -> JSONValue {
            ["type": "template.created", "template": "t1", "name": "Upper", "exercises": try! JSONParser.parse(Array(exercises.utf8))]
        }
        #expect(try outcome(template(#"[{"exercise": "bench", "superset": "a"}, {"exercise": "fly", "superset": "a"}, {"exercise": "row"}]"#), after: []) == "accepted")
        #expect(try outcome(template(#"[{"exercise": "bench", "superset": "a"}, {"exercise": "row"}, {"exercise": "fly", "superset": "a"}]"#), after: []) ==
            #"template.created: field "exercises[2].superset" is "a" but must be next to the other exercises of superset "a" (a superset links adjacent exercises)"#)
        #expect(try outcome(template(#"[{"exercise": "bench", "superset": "a"}, {"exercise": "row"}]"#), after: []) ==
            #"template.created: field "exercises[0].superset" is "a" but is the only exercise of superset "a"; a superset links at least 2 exercises"#)
        #expect(try outcome(template(#"[{"exercise": "bench"}, {"exercise": "bench"}]"#), after: []) ==
            #"template.created: field "exercises[1].exercise" is "bench" but is already in the list at exercises[0]; list each exercise once"#)
        #expect(try outcome(template(#"[{"exercise": "bench", "sets": [{"weight": 60, "unit": "kg"}, {"weight": 600, "unit": "kg", "reps": 1}]}]"#), after: []) ==
            #"template.created: field "exercises[0].sets[1].weight" is 600 but must be at most 500 when unit is "kg""#)
        #expect(try outcome(template(#"[{"exercise": "bench", "sets": [{"weight": 60, "reps": 8}]}]"#), after: []) ==
            #"template.created: field "exercises[0].sets[0].unit" is required when weight is given"#)
    }

    @Test("templates, plans and repeated workouts must exist before a workout names them")
    func references() throws {
        let template: JSONValue = ["type": "template.created", "template": "t1", "name": "Upper", "exercises": [["exercise": "bench"]]]
        #expect(try outcome(template, after: [template]) ==
            #"template.created: field "template" is "t1" but is already a template of this journal (change it with template.updated)"#)
        #expect(try outcome(["type": "template.updated", "template": "t2", "name": "X"], after: [template]) ==
            #"template.updated: field "template" is "t2" but is not a template of this journal (create it with template.created first)"#)
        #expect(try outcome(Self.started("w1", [("template", "t1")]), after: [template]) == "accepted")
        #expect(try outcome(Self.started("w1", [("template", "t1")]), after: [template, ["type": "template.deleted", "template": "t1"]]) ==
            #"workout.started: field "template" is "t1" but is not a template of this journal (create it with template.created first)"#)
        #expect(try outcome(Self.started("w1", [("plan", "p1")]), after: []) ==
            #"workout.started: field "plan" is "p1" but is not a planned workout of this journal (record a workout.planned first)"#)
        #expect(try outcome(Self.started("w2", [("repeat_of", "w1")]), after: [Self.started(), Self.set("bench", 1)]) ==
            #"workout.started: field "repeat_of" is "w1" but is not a finished workout of this journal"#)
        #expect(try outcome(Self.started("w2", [("repeat_of", "w1")]), after: [Self.started(), Self.set("bench", 1), Self.finished]) == "accepted")
        // Deleting all data deletes the templates too.
        #expect(try outcome(Self.started("w1", [("template", "t1")]), after: [template, ["type": "data.cleared"]]) ==
            #"workout.started: field "template" is "t1" but is not a template of this journal (create it with template.created first)"#)
    }

    @Test("drop sets do not start the rest timer; in a superset it starts after the last exercise")
    func restTimer() throws {
        let bench = [Self.started(), Self.set("bench", 1), Self.set("bench", 2, kind: "drop")]
        #expect(try outcome(Self.rest("bench"), after: bench) ==
            #"rest.started: field "exercise" is "bench" but cannot start a rest: the last completed set (set 2 of bench) is a drop set, and drop sets do not start the rest timer"#)
        #expect(try outcome(Self.rest("bench"), after: bench + [Self.set("bench", 3)]) == "accepted")
        let superset = Self.fourExercises + [Self.link("g1", ["bench", "fly"]), Self.set("bench", 1)]
        #expect(try outcome(Self.rest("bench"), after: superset) ==
            #"rest.started: field "exercise" is "bench" but is not the last exercise of superset "g1" (bench, fly); in a superset the rest timer starts after the last one"#)
        #expect(try outcome(Self.rest("fly"), after: superset + [Self.set("fly", 1)]) == "accepted")
        #expect(try outcome(["type": "rest.adjusted", "workout": "w1", "exercise": "bench", "delta_s": 45], after: bench) ==
            #"rest.adjusted: field "delta_s" is 45 but must be a non-zero multiple of 30 (the -30 s and +30 s buttons)"#)
        #expect(try outcome(["type": "rest.adjusted", "workout": "w1", "exercise": "bench", "delta_s": -60], after: bench) == "accepted")
    }

    @Test("a template's supersets come with the workout started from it")
    func templateSupersetsCarryOver() throws {
        let template: JSONValue = ["type": "template.created", "template": "t1", "name": "Upper", "exercises": [
            ["exercise": "bench", "superset": "a"], ["exercise": "fly", "superset": "a"], ["exercise": "row"],
        ]]
        let events = [template, Self.started("w1", [("template", "t1")]), Self.set("bench", 1)]
        #expect(try outcome(Self.rest("bench"), after: events) ==
            #"rest.started: field "exercise" is "bench" but is not the last exercise of superset "a" (bench, fly); in a superset the rest timer starts after the last one"#)
        #expect(try outcome(["type": "exercises.reordered", "workout": "w1", "order": ["bench", "row", "fly"]], after: events) ==
            #"exercises.reordered: field "order" is ["bench","row","fly"] but would separate superset "a" (bench, fly); move a superset as one block or unlink it first"#)
    }

    @Test("finishing drops incomplete sets and empty exercises, so history edits name only what was completed")
    func historyEditsOfFinishedWorkouts() throws {
        let done = Self.fourExercises + [Self.set("bench", 1), Self.set("bench", 2), Self.set("fly", 1),
                                         ["type": "set.uncompleted", "workout": "w1", "exercise": "bench", "set": 2], Self.finished]
        #expect(try outcome(["type": "set.edited", "workout": "w1", "exercise": "bench", "set": 1, "reps": 10], after: done) == "accepted")
        #expect(try outcome(["type": "set.edited", "workout": "w1", "exercise": "bench", "set": 2, "reps": 10], after: done) ==
            #"set.edited: field "set" is 2 but is not a completed set of bench in finished workout "w1" (finishing dropped the incomplete sets)"#)
        #expect(try outcome(["type": "set.noted", "workout": "w1", "exercise": "row", "set": 1, "note": "x"], after: done) ==
            #"set.noted: field "set" is 1 but is not a completed set of row in finished workout "w1" (finishing dropped the incomplete sets)"#)
        #expect(try outcome(["type": "exercise.noted", "workout": "w1", "exercise": "curl", "note": "x"], after: done) ==
            #"exercise.noted: field "exercise" is "curl" but is not in finished workout "w1" (finishing dropped exercises with no completed set)"#)
        // Adding a set while editing history, then editing it.
        #expect(try outcome(["type": "set.edited", "workout": "w1", "exercise": "row", "set": 1, "reps": 9],
                            after: done + [Self.set("row", 1, edited: true)]) == "accepted")
        // Reordering and linking supersets are history edits too (seed 004 edit mode); a dropped exercise cannot be linked.
        #expect(try outcome(["type": "exercises.reordered", "workout": "w1", "order": ["fly", "bench"]], after: done) == "accepted")
        #expect(try outcome(Self.link("g1", ["bench", "row"]), after: done) ==
            #"superset.linked: field "exercises" is ["bench","row"] but names "row", which is not in workout "w1""#)
        #expect(try outcome(Self.link("g1", ["bench", "fly"]), after: done) == "accepted")
    }

    @Test("RPE comes after completing a set")
    func rpeAfterCompletion() throws {
        let rated: JSONValue = ["type": "set.rated", "workout": "w1", "exercise": "bench", "set": 1, "rpe": 8.5]
        #expect(try outcome(rated, after: [Self.started()]) ==
            #"set.rated: field "set" is 1 but is not a completed set of bench in workout "w1" (RPE is recorded after completing a set)"#)
        #expect(try outcome(rated, after: [Self.started(), Self.set("bench", 1)]) == "accepted")
    }

    @Test("a workout never finishes before it starts, also after an edit; an open workout is discarded, not deleted")
    func workoutTimes() throws {
        let done: [JSONValue] = [
            Self.started("w1", [("started_at", "2026-11-20T18:00:00.000+01:00")]), Self.set("bench", 1),
            ["type": "workout.finished", "workout": "w1", "finished_at": "2026-11-20T19:00:00.000+01:00"],
        ]
        #expect(try outcome(["type": "workout.edited", "workout": "w1", "finished_at": "2026-11-20T17:30:00.000+01:00"], after: done) ==
            #"workout.edited: field "finished_at" is "2026-11-20T17:30:00.000+01:00" but must not be before the start (2026-11-20T18:00:00.000+01:00)"#)
        #expect(try outcome(["type": "workout.edited", "workout": "w1", "started_at": "2026-11-20T19:30:00.000+01:00"], after: done) ==
            #"workout.edited: field "started_at" is "2026-11-20T19:30:00.000+01:00" but must not be after the finish (2026-11-20T19:00:00.000+01:00)"#)
        #expect(try outcome(["type": "workout.finished", "workout": "w1", "finished_at": "2026-11-20T17:59:00.000+01:00"], after: Array(done.prefix(2))) ==
            #"workout.finished: field "finished_at" is "2026-11-20T17:59:00.000+01:00" but must not be before the start (2026-11-20T18:00:00.000+01:00)"#)
        #expect(try outcome(["type": "workout.edited", "workout": "w1", "started_at": "2026-11-20T17:00:00.000+01:00",
                             "finished_at": "2026-11-20T17:45:00.000+01:00"], after: done) == "accepted")
        #expect(try outcome(["type": "workout.edited", "workout": "w1", "finished_at": "2026-11-20T19:00:00.000+01:00"], after: [Self.started()]) ==
            #"workout.edited: field "finished_at" is "2026-11-20T19:00:00.000+01:00" but cannot be set: workout "w1" is not finished yet"#)
        #expect(try outcome(["type": "workout.deleted", "workout": "w1"], after: [Self.started()]) ==
            #"workout.deleted: field "workout" is "w1" but is not finished (an open workout is discarded with workout.discarded)"#)
    }

    @Test("an edit that changes only a set's unit is checked against the new unit's limit", arguments: [("lb", "kg", 800.0, 500.0), ("kg", "lb", 450.0, 1100.0)])
    func unitOnlyEdit(_ from: String, _ to: String, _ weight: Double, _ limit: Double) throws {
        let done: [JSONValue] = [Self.started(),
                                 ["type": "set.completed", "workout": "w1", "exercise": "bench", "set": 1, "weight": .number(weight), "unit": .string(from),
                                  "reps": 1, "kind": "working"],
                                 Self.finished]
        let edit: JSONValue = ["type": "set.edited", "workout": "w1", "exercise": "bench", "set": 1, "unit": .string(to)]
        if weight > limit {
            #expect(try outcome(edit, after: done) ==
                #"set.edited: field "unit" is "kg" but would make set 1 of bench 800 kg, above the 500 kg limit (0–500 kg); give the weight in kg with the unit"#)
        } else {
            #expect(try outcome(edit, after: done) == "accepted")
        }
        // With the weight given in the new unit, the edit is the weight's own check.
        let both: JSONValue = ["type": "set.edited", "workout": "w1", "exercise": "bench", "set": 1, "unit": .string(to),
                               "weight": .number(Units.loadable(weight, from: WeightUnit(from)!, to: WeightUnit(to)!))]
        #expect(try outcome(both, after: done) == "accepted")
    }
}

/// Appends `drafts` to `rules` (each must be accepted), then returns what happens to `draft`: "accepted" or the message.
func ruleOutcome(_ draft: JSONValue, after drafts: [JSONValue], rules: RecordingRules, now: Timestamp) throws -> String {
    var rules = rules
    for draft in drafts {
        let event = try rules.prepare(draft, device: "ph", now: now).get()
        rules.apply(event)
    }
    switch rules.prepare(draft, device: "ph", now: now) {
    case .success: return "accepted"
    case .failure(let problem): return problem.description
    }
}
