import Testing
import JournalEvents
@testable import JournalModel

/// The reference rules at append time, with their messages pinned.
@Suite("References at append time")
struct ReferenceRulesTests {
    let now = Timestamp(rfc3339: "2026-11-21T18:00:00.000+01:00")!
    static let catalogue: Set<String> = ["barbell-bench-press", "dumbbell-fly", "barbell-back-squat"]

    /// Appends `drafts` (each must be accepted), then returns what happens to `draft`: "accepted" or the message.
    func outcome(_ draft: JSONValue, after drafts: [JSONValue], catalogue: Set<String>? = ReferenceRulesTests.catalogue,
                 oneOpenWorkout: Bool = true) throws -> String {
        try ruleOutcome(draft, after: drafts, rules: RecordingRules(catalogue: catalogue, oneOpenWorkout: oneOpenWorkout), now: now)
    }

    static func started(_ workout: String = "w1", session: JSONValue = nil, _ extra: [(String, JSONValue)] = []) -> JSONValue {
        var object: JSONObject = ["type": "workout.started", "workout": .string(workout), "name": "Push", "session": session]
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }
    static func set(_ exercise: String, reps: Int = 8, kind: String = "working", workout: String = "w1") -> JSONValue {
        ["type": "set.completed", "workout": .string(workout), "exercise": .string(exercise), "set": 1, "weight": 60, "unit": "kg",
         "reps": .int(reps), "kind": .string(kind)]
    }
    static let programme: JSONValue = ["type": "programme.generated", "ruleset": "train", "programme": [
        "split": "Full Body", "weeks": 8, "days_per_week": 2,
        "sessions": [["name": "A", "exercises": [["exercise": "barbell-bench-press", "sets": 3, "reps": "8-12", "rest_s": 90]]],
                     ["name": "B", "exercises": [["exercise": "barbell-back-squat", "sets": 3, "reps": "8-12", "rest_s": 90]]]],
    ]]

    @Test("an exercise id neither in the catalogue nor created is refused; a created one is accepted")
    func exerciseIDs() throws {
        #expect(try outcome(Self.set("barbel-bench-pres"), after: [Self.started()])
                == #"set.completed: field "exercise" is "barbel-bench-pres" but is neither a catalogue exercise nor a custom exercise of this journal (check the spelling with `journal catalog --search TEXT`, or record an exercise.created for it first)"#)
        #expect(try outcome(Self.set("my-sled-push"), after: [Self.started(), ["type": "exercise.created", "exercise": "my-sled-push", "name": "Sled push"]])
                == "accepted")
        #expect(try outcome(["type": "exercise.favourited", "exercise": "zercher-squat"], after: [])
                == #"exercise.favourited: field "exercise" is "zercher-squat" but is neither a catalogue exercise nor a custom exercise of this journal (check the spelling with `journal catalog --search TEXT`, or record an exercise.created for it first)"#)
        #expect(try outcome(["type": "template.created", "template": "t1", "name": "Legs",
                             "exercises": [["exercise": "barbell-back-squat"], ["exercise": "legg-press"]]], after: []).hasPrefix(
                    #"template.created: field "exercises[1].exercise" is "legg-press" but is neither a catalogue exercise"#))
        // Without a catalogue, ids are only checked for shape.
        #expect(try outcome(Self.set("barbel-bench-pres"), after: [Self.started()], catalogue: nil) == "accepted")
    }

    @Test("a custom exercise's muscles come from the vocabulary")
    func customMuscles() throws {
        let message = try outcome(["type": "exercise.created", "exercise": "my-row", "name": "My row", "primary_muscles": ["back", "wings"]], after: [])
        #expect(message.hasPrefix(#"exercise.created: field "primary_muscles[1]" is "wings" but must be one of "shoulders", "chest", "back""#), "\(message)")
    }

    @Test("a swap needs the exercise in the workout and another one to swap onto")
    func swaps() throws {
        let before = [Self.started(), Self.set("barbell-bench-press")]
        #expect(try outcome(["type": "exercise.swapped", "workout": "w1", "from": "barbell-bench-press", "to": "barbell-bench-press"], after: before)
                == #"exercise.swapped: field "to" is "barbell-bench-press" but is the exercise being swapped ("from"); swap onto another exercise"#)
        #expect(try outcome(["type": "exercise.swapped", "workout": "w1", "from": "dumbbell-fly", "to": "barbell-back-squat"], after: before)
                == #"exercise.swapped: field "from" is "dumbbell-fly" but is not in workout "w1" (its exercises: barbell-bench-press)"#)
        #expect(try outcome(["type": "exercise.swapped", "workout": "w1", "from": "barbell-bench-press", "to": "dumbbell-fly"], after: before) == "accepted")
    }

    @Test("submitting an exercise needs a completed set of it (seed 000/001)")
    func submitNeedsASet() throws {
        let submit: JSONValue = ["type": "exercise.submitted", "workout": "w1", "exercise": "dumbbell-fly"]
        #expect(try outcome(submit, after: [Self.started(), Self.set("barbell-bench-press"), ["type": "exercise.added", "workout": "w1", "exercise": "dumbbell-fly"]])
                == #"exercise.submitted: field "exercise" is "dumbbell-fly" but has no completed set in workout "w1" (complete at least one set before submitting it)"#)
        #expect(try outcome(submit, after: [Self.started(), Self.set("dumbbell-fly")]) == "accepted")
    }

    @Test("a session index must be one of the programme's sessions")
    func sessionIndex() throws {
        #expect(try outcome(Self.started(session: 2), after: [Self.programme])
                == #"workout.started: field "session" is 2 but is beyond the programme's 2 sessions (0…1; null for a workout outside the programme)"#)
        #expect(try outcome(Self.started(session: 1), after: [Self.programme]) == "accepted")
        #expect(try outcome(Self.started(session: 1), after: []) == "accepted")
    }

    @Test("one live workout at a time when asked; imported and logged-afterwards workouts are history")
    func oneOpenWorkout() throws {
        #expect(try outcome(Self.started("w2"), after: [Self.started("w1")])
                == #"workout.started: field "workout" is "w2" but cannot start while workout "w1" is open (one active workout at a time, as in the seed apps: finish or discard "w1" first)"#)
        #expect(try outcome(Self.started("w2", [("started_at", "2026-11-20T18:00:00.000+01:00")]), after: [Self.started("w1")]) == "accepted")
        #expect(try outcome(Self.started("w2", [("source", "strong")]), after: [Self.started("w1")]) == "accepted")
        #expect(try outcome(Self.started("w2"), after: [Self.started("w1"), ["type": "workout.discarded", "workout": "w1"]]) == "accepted")
        // Off (tools writing what several devices recorded, and verify): several may be open.
        #expect(try outcome(Self.started("w2"), after: [Self.started("w1")], oneOpenWorkout: false) == "accepted")
    }

    @Test("reps 0 on a working set is refused for new events, not re-judged by verify")
    func zeroReps() throws {
        #expect(try outcome(Self.set("barbell-bench-press", reps: 0), after: [Self.started()])
                == #"set.completed: field "reps" is 0 but must be at least 1 on a working set (seed 000: a positive whole number; log a failed attempt as kind "failure")"#)
        #expect(try outcome(Self.set("barbell-bench-press", reps: 0, kind: "failure"), after: [Self.started()]) == "accepted")
        #expect(try outcome(Self.set("barbell-bench-press", reps: 0), after: [Self.started(source: "hevy")]) == "accepted")
        // What verify runs (`check`) accepts a stored one.
        var rules = RecordingRules(catalogue: Self.catalogue)
        rules.apply(try rules.prepare(Self.started(), device: "ph", now: now).get())
        let stored = Event(seq: 2, id: "ph-2", at: now, type: "set.completed",
                           fields: ["workout": "w1", "exercise": "barbell-bench-press", "set": 1, "weight": 60, "unit": "kg", "reps": 0, "kind": "working"])
        #expect(rules.check(stored) == nil)
    }
}

extension ReferenceRulesTests {
    static func started(source: String) -> JSONValue { started("w1", [("source", .string(source))]) }
}

@Suite("Profile facts at append time")
struct ProfileRulesTests {
    func message(_ draft: JSONValue) -> String {
        switch RecordingRules().prepare(draft, device: "ph", now: Timestamp(rfc3339: "2026-11-21T18:00:00.000+01:00")!) {
        case .success: return "accepted"
        case .failure(let problem): return problem.description
        }
    }

    @Test("an email must look like one; height and body weight name cm/in and kg/lb")
    func profile() {
        #expect(message(["type": "profile.updated", "email": "sam@example.com", "height": ["value": 180, "unit": "cm"], "body_weight": ["value": 176, "unit": "lb"]]) == "accepted")
        #expect(message(["type": "profile.updated", "email": "sam at example"])
                == #"profile.updated: field "email" is "sam at example" but is not an email address (name@domain.tld)"#)
        #expect(message(["type": "account.created", "email": "sam@localhost"])
                == #"account.created: field "email" is "sam@localhost" but is not an email address (name@domain.tld)"#)
        #expect(message(["type": "profile.updated", "height": ["value": 6, "unit": "ft"]])
                == #"profile.updated: field "height.unit" is "ft" but must be one of "cm", "in""#)
        #expect(message(["type": "profile.updated", "body_weight": ["value": 12, "unit": "stone"]])
                == #"profile.updated: field "body_weight.unit" is "stone" but must be one of "kg", "lb""#)
    }
}

@Suite("Pausing at append time")
struct PauseRulesTests {
    @Test("a workout pauses only when running and resumes only when paused")
    func pauseRules() throws {
        let now = Timestamp(rfc3339: "2026-11-21T18:00:00.000+01:00")!
        let started: JSONValue = ["type": "workout.started", "workout": "w1", "name": "Push", "session": nil]
        let pause: JSONValue = ["type": "workout.paused", "workout": "w1"]
        let resume: JSONValue = ["type": "workout.resumed", "workout": "w1"]
        #expect(try ruleOutcome(pause, after: [started], rules: RecordingRules(), now: now) == "accepted")
        #expect(try ruleOutcome(pause, after: [started, pause], rules: RecordingRules(), now: now)
                == #"workout.paused: field "workout" is "w1" but is already paused (resume it with workout.resumed)"#)
        #expect(try ruleOutcome(resume, after: [started], rules: RecordingRules(), now: now)
                == #"workout.resumed: field "workout" is "w1" but is not paused (pause it with workout.paused first)"#)
        #expect(try ruleOutcome(resume, after: [started, pause], rules: RecordingRules(), now: now) == "accepted")
    }
}
