import Testing
@testable import JournalEvents
@testable import JournalModel

@Suite("Validation at append time")
struct ValidationTests {
    let now = Timestamp(rfc3339: "2026-11-21T18:00:00.000+01:00")!

    func rules(_ drafts: [JSONValue]) throws -> RecordingRules {
        var rules = RecordingRules()
        for draft in drafts {
            let event = try rules.prepare(draft, device: "ph", now: now).get()
            rules.apply(event)
        }
        return rules
    }

    func refusal(_ draft: JSONValue, after drafts: [JSONValue] = []) throws -> String {
        let rules = try rules(drafts)
        switch rules.prepare(draft, device: "ph", now: now) {
        case .success(let event): return "accepted \(EventCodec.encodeString(event))"
        case .failure(let problem): return problem.description
        }
    }

    static let started: JSONValue = ["type": "workout.started", "workout": "w1", "name": "Push", "session": 0]
    static func set(_ fields: [(String, JSONValue)]) -> JSONValue {
        var object: JSONObject = ["type": "set.completed", "workout": "w1", "exercise": "barbell-bench-press", "set": 1,
                                  "weight": 60, "unit": "kg", "reps": 8, "kind": "working"]
        for (key, value) in fields { object[key] = value }
        return .object(object)
    }

    @Test("fills seq, id, at and v when they are absent")
    func fillsEnvelope() throws {
        let rules = try rules([["type": "profile.updated", "name": "Ana"]])
        let event = try rules.prepare(Self.started, device: "ph", now: now).get()
        #expect(EventCodec.encodeString(event) ==
            #"{"v":1,"seq":2,"id":"ph-2","at":"2026-11-21T18:00:00.000+01:00","type":"workout.started","workout":"w1","name":"Push","session":0}"#)
    }

    @Test("a typed draft is completed, and refused, as its JSON value is")
    func typedDraftAsItsJSONValue() throws {
        let rules = try rules([["type": "profile.updated", "name": "Ana"]])
        let started = EventDraft(.workoutStarted, at: now, [.workout: "w1", .name: "Push", .session: 0])
        #expect(EventCodec.encodeString(try rules.prepare(started, device: "ph").get()) ==
            #"{"v":1,"seq":2,"id":"ph-2","at":"2026-11-21T18:00:00.000+01:00","type":"workout.started","workout":"w1","name":"Push","session":0}"#)
        #expect(rules.prepare(started, device: "ph") == rules.prepare(started.jsonValue, device: "ph", now: now))
        let longDevice = String(repeating: "d", count: 64)
        let tooLong = rules.prepare(started, device: longDevice)
        #expect(tooLong == rules.prepare(started.jsonValue, device: longDevice, now: now))
        #expect(tooLong.failureDescription == "field \"id\": is \"" + String(repeating: "d", count: 56) + "... but must be a non-empty string of at most 64 bytes")
        let repeated = EventDraft(.workoutNoted, at: now, [.workout: "w1", .note: .object(JSONObject([JSONField("a", 1), JSONField("a", 2)]))])
        #expect(rules.prepare(repeated, device: "ph") == rules.prepare(repeated.jsonValue, device: "ph", now: now))
        #expect(rules.prepare(repeated, device: "ph").failureDescription == #"field "note.a": appears twice in the same object"#)
    }

    @Test("pins the messages of the seeds' limits", arguments: [
        (set([("weight", 650)]), #"set.completed: field "weight" is 650 but must be at most 500 when unit is "kg""#),
        (set([("weight", 1200), ("unit", "lb")]), #"set.completed: field "weight" is 1200 but must be between 0 and 1100"#),
        (set([("weight", -5)]), #"set.completed: field "weight" is -5 but must be between 0 and 1100"#),
        (set([("reps", 101)]), #"set.completed: field "reps" is 101 but must be between 0 and 100"#),
        (set([("reps", 8.5)]), #"set.completed: field "reps" is 8.5 but must be an integer"#),
        (set([("rpe", 8.25)]), #"set.completed: field "rpe" is 8.25 but must be between 6 and 10 in steps of 0.5"#),
        (set([("rpe", 5)]), #"set.completed: field "rpe" is 5 but must be between 6 and 10"#),
        (set([("kind", "normal")]), #"set.completed: field "kind" is "normal" but must be one of "working", "warmup", "drop", "failure""#),
        (set([("unit", "stone")]), #"set.completed: field "unit" is "stone" but must be one of "kg", "lb""#),
        (set([("wieght", 60)]), #"set.completed: field "wieght" is not a field of set.completed v1 (fields: workout, exercise, set, weight, unit, reps, kind, rpe, note, edited, source, source_name, source_set, source_rpe, source_seconds, source_km, source_category, source_negative, out_of_range)"#),
        (set([("exercise", "Bench Press")]), #"set.completed: field "exercise" is "Bench Press" but must be a kebab-case id such as "barbell-bench-press""#),
    ])
    func setLimits(draft: JSONValue, message: String) throws {
        #expect(try refusal(draft, after: [Self.started]) == message)
    }

    @Test("pins the questionnaire's limits", arguments: [(JSONValue, String)]([
        (JSONValue.object(["type": "questionnaire.answered", "question": "priority_muscles", "answer": ["chest", "back", "abs", "quads"]]),
         #"questionnaire.answered: field "answer" is ["chest","back","abs","quads"] but must name at most 3 muscle groups (question "priority_muscles")"#),
        (JSONValue.object(["type": "questionnaire.answered", "question": "days_per_week", "answer": 8]),
         #"questionnaire.answered: field "answer" is 8 but must be between 1 and 7 (question "days_per_week")"#),
        (JSONValue.object(["type": "questionnaire.answered", "question": "days_per_week", "answer": 0]),
         #"questionnaire.answered: field "answer" is 0 but must be between 1 and 7 (question "days_per_week")"#),
        (JSONValue.object(["type": "questionnaire.answered", "question": "age", "answer": 15]),
         #"questionnaire.answered: field "answer" is 15 but must be between 16 and 100 (question "age")"#),
    ]))
    func questionnaireLimits(draft: JSONValue, message: String) throws {
        #expect(try refusal(draft) == message)
    }

    @Test("a set needs a started, unfinished workout")
    func setNeedsOpenWorkout() throws {
        #expect(try refusal(Self.set([])) ==
            #"set.completed: field "workout" is "w1" but has not been started (record a workout.started with this workout id first)"#)
        let finished: [JSONValue] = [Self.started, Self.set([]), ["type": "workout.finished", "workout": "w1"]]
        #expect(try refusal(Self.set([("set", 2)]), after: finished) ==
            #"set.completed: field "workout" is "w1" but is already finished (to correct it, use set.edited, set.removed or set.completed with "edited": true)"#)
        #expect(try refusal(Self.set([("set", 2), ("edited", true)]), after: finished).hasPrefix("accepted"))
        let discarded: [JSONValue] = [Self.started, ["type": "workout.discarded", "workout": "w1"]]
        #expect(try refusal(Self.set([]), after: discarded) == #"set.completed: field "workout" is "w1" but was discarded and cannot change"#)
        #expect(try refusal(Self.started, after: discarded) == #"workout.started: field "workout" is "w1" but is already used by an earlier workout in this journal"#)
    }

    @Test("a workout finishes only with a completed set")
    func finishNeedsASet() throws {
        let undone: JSONValue = ["type": "set.uncompleted", "workout": "w1", "exercise": "barbell-bench-press", "set": 1]
        #expect(try refusal(["type": "workout.finished", "workout": "w1"], after: [Self.started, Self.set([]), undone]) ==
            #"workout.finished: field "workout" is "w1" but has no completed set; complete at least one set or discard the workout"#)
    }

    @Test("a history edit may not leave a finished workout without a completed set, in kilograms or pounds", arguments: ["kg", "lb"])
    func editsKeepAFinishedWorkoutWhole(_ unit: String) throws {
        let free: JSONValue = ["type": "workout.started", "workout": "w1", "name": "Push", "session": .null]
        let bench = Self.set([("unit", .string(unit))])
        let finished: [JSONValue] = [free, bench, ["type": "workout.finished", "workout": "w1"]]
        let message = #"field "set" is 1 but would leave finished workout "w1" with no completed set or cardio entry (a workout cannot be finished without one); delete the workout instead (workout.deleted)"#
        #expect(try refusal(["type": "set.removed", "workout": "w1", "exercise": "barbell-bench-press", "set": 1], after: finished) ==
            "set.removed: " + message)
        #expect(try refusal(["type": "exercise.removed", "workout": "w1", "exercise": "barbell-bench-press"], after: finished) ==
            #"exercise.removed: field "exercise" is "barbell-bench-press" but would leave finished workout "w1" with no completed set or cardio entry (a workout cannot be finished without one); delete the workout instead (workout.deleted)"#)
        // With a second set, or a cardio entry left, the same removals are history edits like any other.
        let twoSets = [free, bench, Self.set([("set", 2), ("unit", .string(unit))]), ["type": "workout.finished", "workout": "w1"]]
        #expect(try refusal(["type": "set.removed", "workout": "w1", "exercise": "barbell-bench-press", "set": 1], after: twoSets).hasPrefix("accepted "))
        let withCardio = [free, bench, ["type": "cardio.logged", "workout": "w1", "exercise": "treadmill-run", "minutes": 20],
                          ["type": "workout.finished", "workout": "w1"]] as [JSONValue]
        #expect(try refusal(["type": "exercise.removed", "workout": "w1", "exercise": "barbell-bench-press"], after: withCardio).hasPrefix("accepted "))
        #expect(try refusal(["type": "workout.deleted", "workout": "w1"], after: finished).hasPrefix("accepted "))
    }

    @Test("seq and id are never reused")
    func seqAndIDUnique() throws {
        let first: [JSONValue] = [["type": "profile.updated", "name": "Ana"]]
        #expect(try refusal(["type": "profile.updated", "name": "B", "seq": 1], after: first) ==
            #"profile.updated: field "seq" is 1 but is already used (the last seq is 1)"#)
        #expect(try refusal(["type": "profile.updated", "name": "B", "seq": 5], after: first) ==
            #"profile.updated: field "seq" is 5 but would leave a gap (the next seq is 2)"#)
        #expect(try refusal(["type": "profile.updated", "name": "B", "id": "ph-1"], after: first) ==
            #"profile.updated: field "id" is "ph-1" but is already used by another event in this journal"#)
    }

    @Test("never stores a password, token or secret")
    func refusesCredentials() throws {
        #expect(try refusal(["type": "account.created", "name": "Ana", "password": "hunter22"]) ==
            #"account.created: field "password" looks like a credential; the journal never stores passwords, tokens or secrets"#)
        #expect(try refusal(["type": "settings.changed", "key": "sync", "value": ["auth_token": "x"]]) ==
            #"settings.changed: field "value.auth_token" looks like a credential; the journal never stores passwords, tokens or secrets"#)
    }

    @Test("credential-like keys are found in any ASCII case, and ordinary keys are not", arguments: [
        ("Password", true), ("user_PASSWD", true), ("refreshToken", true), ("clientSecret", true), ("credentials", true),
        ("tokens_left", true), ("passage", false), ("weight", false), ("note", false), ("tok", false), ("secre", false),
    ])
    func credentialKeys(key: String, expected: Bool) {
        #expect(SchemaValidator.looksLikeCredential(key) == expected)
    }

    @Test("unknown types are refused unless allowed, and then kept")
    func unknownTypes() throws {
        #expect(try refusal(["type": "yoga.flowed", "minutes": 10]) ==
            #"yoga.flowed: field "type" is "yoga.flowed" but is not a known event type (see FORMAT.md §"Event types"; `journal schema` lists them)"#)
        let rules = RecordingRules()
        let event = try rules.prepare(["type": "yoga.flowed", "minutes": 10], device: "ph", now: now, allowUnknownTypes: true).get()
        #expect(event.type == "yoga.flowed")
    }

    @Test("event ids are a device tag and a base-36 counter")
    func eventIDs() {
        #expect(EventID("ph-1z") == EventID(device: "ph", counter: 71))
        #expect(EventID(device: "watch_2", counter: 36).text == "watch_2-10")
        #expect(EventID("ph-01") == nil)
        #expect(EventID("nodash") == nil)
        #expect(EventID.isValidDeviceTag("ph") && !EventID.isValidDeviceTag("Phone") && !EventID.isValidDeviceTag("a-b"))
        // The ASCII path (bytes) and the Character path (anything else) give the same answers.
        #expect(EventID("a-b-10") == EventID(device: "a-b", counter: 36))
        #expect(EventID("ph-0") == EventID(device: "ph", counter: 0))
        #expect(EventID("ph-1y2p0ij32e8e7") == EventID(device: "ph", counter: Int.max))
        #expect(EventID("ph-1y2p0ij32e8e8") == nil)  // Int.max + 1
        #expect(EventID("-5") == nil)
        #expect(EventID("ph-") == nil)
        #expect(EventID("ph-1Z") == nil)
        #expect(EventID("ph-+1") == nil)
        #expect(EventID("ph\r\n-1z") == EventID(device: "ph\r\n", counter: 71))
        #expect(EventID("téléphone-1z") == EventID(device: "téléphone", counter: 71))
        #expect(EventID("ph-1é") == nil)
    }

    @Test("a device's id counter is read without a String only when the id is that device's")
    func counterOfDevice() {
        #expect(EventID.counter(of: "ph-1z", device: "ph") == 71)
        #expect(EventID.counter(of: "ph-0", device: "ph") == 0)
        #expect(EventID.counter(of: "ph-1y2p0ij32e8e7", device: "ph") == Int.max)
        #expect(EventID.counter(of: "ph-1y2p0ij32e8e8", device: "ph") == nil)
        #expect(EventID.counter(of: "phone-1z", device: "ph") == nil)
        #expect(EventID.counter(of: "ph-x-1", device: "ph") == nil)  // device "ph-x"
        #expect(EventID.counter(of: "ph-01", device: "ph") == nil)
        #expect(EventID.counter(of: "ph-", device: "ph") == nil)
        #expect(EventID.counter(of: "ph-1é", device: "ph") == nil)
        #expect(EventID.counter(of: "wa-1z", device: "ph") == nil)
    }

    @Test("each device's next id follows its own highest counter, whichever device wrote last")
    func countersAcrossDevices() throws {
        var rules = RecordingRules()
        let ids = ["ph-1", "ph-2", "watch-9", "ph-3", "téléphone-4", "ph-x-1", "watch-a", "ph-1z", "watch-2"]
        for (index, id) in ids.enumerated() {
            let draft: JSONValue = ["type": "profile.updated", "name": "Ana", "id": .string(id)]
            rules.apply(try rules.prepare(draft, device: "ph", now: now).get())
            #expect(rules.lastSeq == index + 1)
        }
        #expect(rules.nextID(device: "ph") == "ph-20")
        #expect(rules.nextID(device: "watch") == "watch-b")
        #expect(rules.nextID(device: "téléphone") == "téléphone-5")
        #expect(rules.nextID(device: "ph-x") == "ph-x-2")
        #expect(rules.nextID(device: "ipad") == "ipad-1")
    }

    @Test("a refused nested value is named by its whole path", arguments: [
        (#"{"type":"template.created","template":"t1","name":"A","exercises":[{"exercise":"barbell-bench-press"},{"exercise":"barbell-squat","sets":[{"reps":5},{"reps":"x"}]}]}"#,
         #"template.created: field "exercises[1].sets" is [{"reps":5},{"reps":"x"}] but must be int 1–50 or [{`weight`? number 0–1100, `unit`? `kg`/`lb`, `reps`? int 0–100, `reps_range`? string (≤ 16 bytes), `kind`? `working`/`warmup`/`drop`/`failure`, `rpe`? number 6–10}] (≤ 50)"#),
        (#"{"type":"template.created","template":"t1","name":"A","exercises":[{"exercise":"barbell-bench-press","bogus":1}]}"#,
         #"template.created: field "exercises[0].bogus" is not a known key (keys: exercise, sets, reps, rest_s, superset, note, minutes, km, rpe)"#),
        (#"{"type":"template.created","template":"t1","name":"A","exercises":[{"exercise":"Bad_Id"}]}"#,
         #"template.created: field "exercises[0].exercise" is "Bad_Id" but must be a kebab-case id such as "barbell-bench-press""#),
        (#"{"type":"template.created","template":"t1","name":"A","exercises":[{"exercise":"barbell-bench-press"},{"exercise":"no-such-lift"}]}"#,
         #"template.created: field "exercises[1].exercise" is "no-such-lift" but is neither a catalogue exercise nor a custom exercise of this journal (check the spelling with `journal catalog --search TEXT`, or record an exercise.created for it first)"#),
        (#"{"type":"profile.updated","prefs":{"api_token":"x"}}"#,
         #"profile.updated: field "prefs.api_token" looks like a credential; the journal never stores passwords, tokens or secrets"#),
    ])
    func nestedPaths(line: String, expected: String) throws {
        let rules = RecordingRules(catalogue: ["barbell-bench-press", "barbell-squat"])
        switch rules.prepare(try JSONParser.parse(line), device: "ph", now: now) {
        case .success(let event): Issue.record("accepted \(EventCodec.encodeString(event))")
        case .failure(let problem): #expect(problem.description == expected)
        }
    }

    @Test("exercise ids are kebab-case slugs of at most 64 bytes")
    func slugs() {
        for slug in ["barbell-bench-press", "a", "3-4-sit-up", String(repeating: "a", count: 64)] {
            #expect(EventVocabulary.isSlug(slug), "\(slug)")
        }
        for text in ["", "-a", "a-", "a--b", "-", "Bench", "bench_press", "bench press", "bench-é", String(repeating: "a", count: 65)] {
            #expect(!EventVocabulary.isSlug(text), "\(text)")
        }
    }
}

extension Result where Failure: CustomStringConvertible {
    /// The refusal's message, or nil when the draft was accepted.
    var failureDescription: String? {
        if case .failure(let problem) = self { return problem.description }
        return nil
    }
}
