/// Every event type the journal knows, with its fields and rules. This table is the single
/// source of FORMAT.md §"Event types": `journal schema --markdown` prints it and a test checks
/// that FORMAT.md holds exactly that text.
public enum EventVocabulary {
    // MARK: Shared field kinds (FORMAT.md §"Units and ranges")

    public static let units: [String] = ["kg", "lb"]
    public static let setKinds: [String] = ["working", "warmup", "drop", "failure"]
    /// Weight limits from the seeds' loggers: 0–500 kg, 0–1100 lb.
    public static let maximumWeight: [String: Double] = ["kg": 500, "lb": 1100]
    public static let maximumReps = 100
    /// Sanity limits for sets imported from another app (`set.completed` with `source`): only values no lifter can
    /// have done are refused, so a real 103-rep set or a 600 kg leg press imports (INTERCHANGE.md §"What is skipped").
    public static let sanityWeight: [String: Double] = ["kg": 2000, "lb": 4400]
    public static let sanityReps = 10_000
    /// The largest of `maximumWeight`'s and of `sanityWeight`'s limits (the range a negative weight's message names).
    static let widestWeight = maximumWeight.values.max() ?? 1100
    static let widestSanityWeight = sanityWeight.values.max() ?? 4400
    /// The longest time (31 days) and distance an imported row may carry in `source_seconds`/`source_km`/`source_rows`.
    public static let maximumSourceSeconds = 2_678_400.0
    public static let maximumSourceKilometres = 100_000.0
    /// A cardio entry's (and a cardio prescription's) largest minutes and kilometres.
    public static let maximumCardioMinutes = 1440.0
    public static let maximumCardioKilometres = 1000.0
    public static let muscles: [String] = [
        "shoulders", "chest", "back", "abs", "triceps", "biceps", "glutes", "quads", "hamstrings", "calves",
        "forearms", "traps", "lats", "lower-back", "obliques", "adductors", "abductors", "neck",
    ]

    static let workoutRef = FieldSpec.required("workout", .reference, "the workout's id, from its `workout.started`")
    static let exerciseRef = FieldSpec.required("exercise", .slug, "catalogue id or custom exercise id")
    static let setNumber = FieldSpec.required("set", .integer(1...200), "set number within the exercise, from 1")
    static let weight = FieldKind.number(0...1100)
    static let unit = FieldKind.choice(units)
    static let reps = FieldKind.integer(0...maximumReps)
    static let rpe = FieldKind.number(6...10)
    static let note = FieldKind.text(maxBytes: 4000)
    static let name = FieldKind.text(maxBytes: 200)
    static let quantity = FieldKind.object([.required("value", .number(0...10_000)), .required("unit", .text(maxBytes: 8))])

    static let prescribedSet = FieldKind.object([
        .optional("weight", weight), .optional("unit", unit), .optional("reps", reps),
        .optional("reps_range", .text(maxBytes: 16)), .optional("kind", .choice(setKinds)),
        .optional("rpe", rpe),
    ])
    static let plannedExercise = FieldKind.object([
        .required("exercise", .slug),
        .optional("sets", .either(.integer(1...50), .array(of: prescribedSet, maxCount: 50))),
        .optional("reps", .text(maxBytes: 16)),
        .optional("rest_s", .integer(0...3600)),
        .optional("superset", .either(.reference, .null)),
        .optional("note", note),
        .optional("minutes", .number(0...maximumCardioMinutes)),
        .optional("km", .number(0...maximumCardioKilometres)),
        .optional("rpe", rpe, "the target RPE of its working sets"),
    ])
    static let programme = FieldKind.object([
        .required("split", .text(maxBytes: 64)),
        .required("days_per_week", .integer(1...7)),
        .required("weeks", .integer(1...104)),
        .required("sessions", .array(of: .object([
            .required("name", name),
            .required("exercises", .array(of: .object([
                .required("exercise", .slug), .required("sets", .integer(1...20)),
                .required("reps", .text(maxBytes: 16)), .required("rest_s", .integer(0...3600)),
                .optional("weight", weight), .optional("unit", unit), .optional("note", note),
                .optional("rpe", rpe, "the target RPE of its working sets"),
            ]), maxCount: 40)),
            .optional("focus", .text(maxBytes: 64)),
        ]), maxCount: 14)),
        .optional("session_minutes", .text(maxBytes: 16)),
        .optional("priority_muscles", .array(of: .text(maxBytes: 32), maxCount: 3)),
        .optional("goal", .text(maxBytes: 32)),
        .optional("experience", .text(maxBytes: 32)),
        .optional("rationale", .text(maxBytes: 2000)),
        .optional("template", .text(maxBytes: 64)),
    ])

    // MARK: The table

    public static let all: [EventSchema] = [
        // Account and subscription (facts only; never credentials)
        EventSchema("account.created", group: "Account", "The user created an account; its time is \"member since\".", [
            .optional("name", name), .optional("email", .text(maxBytes: 254)), .optional("method", .choice(["email", "apple", "google"])),
        ], check: checkProfile),
        EventSchema("account.logged_in", group: "Account", "The user logged in on a device.", [
            .optional("method", .choice(["email", "apple", "google", "auto"])), .optional("device_name", name),
        ]),
        EventSchema("account.logged_out", group: "Account", "The user logged out.", []),
        EventSchema("account.password_reset", group: "Account", "The user reset the password (the fact only: no code, no password).", []),
        EventSchema("account.deleted", group: "Account", "The user asked to delete the account; followed by `data.cleared`.", [
            .optional("reason", note),
        ]),
        EventSchema("subscription.started", group: "Account", "A subscription or free trial started.", [
            .required("plan", .choice(["monthly", "annual", "lifetime"])), .optional("price", .number(0...100_000)),
            .optional("currency", .text(maxBytes: 3)), .optional("trial_days", .integer(0...365)),
            .optional("next_billing_date", .date),
        ]),
        EventSchema("subscription.renewed", group: "Account", "A subscription renewed.", [
            .optional("plan", .choice(["monthly", "annual", "lifetime"])), .optional("next_billing_date", .date),
        ]),
        EventSchema("subscription.cancelled", group: "Account", "The subscription was cancelled.", [
            .optional("effective_date", .date),
        ]),
        EventSchema("profile.updated", group: "Profile", "Profile facts changed; only the keys present change.", [
            .optional("name", name), .optional("email", .text(maxBytes: 254)), .optional("unit", unit),
            .optional("birth_date", .date), .optional("gender", .choice(["male", "female", "other"])),
            .optional("height", quantity), .optional("body_weight", quantity),
        ], check: { event in
            event.fields.isEmpty ? EventRuleViolation(type: event.type, field: nil, value: nil, rule: "needs at least one field to update") : checkProfile(event)
        }),
        EventSchema("settings.changed", group: "Profile", "A setting changed (`rest_default_s`, `rest_compound_s`, `rest_isolation_s`, `unit`, `theme`, `keep_awake`, …).", [
            .required("key", .text(maxBytes: 64)), .required("value", .any, "a rest setting (`rest_…_s`): whole seconds 0–3600; `unit`: `kg`/`lb`"),
        ], check: checkSetting),
        EventSchema("data.cleared", group: "Profile", "The user deleted all data: projections ignore every earlier event but what `keep` names (the bytes stay in the file).", [
            .optional("keep", .array(of: .choice(["profile", "settings"]), maxCount: 2),
                      "`profile`: name, email, unit, birth date, gender, height, body weight, subscription; `settings`: `settings.changed`, `rest.configured`; none when absent"),
        ]),

        // Onboarding and programmes
        EventSchema("questionnaire.started", group: "Programme", "The user began the questionnaire.", [
            .optional("ruleset", .text(maxBytes: 64)),
        ]),
        EventSchema("questionnaire.answered", group: "Programme", "The user answered one question; a later answer to the same question replaces it.", [
            .required("question", .text(maxBytes: 64), "stable key: `primary_goal`, `experience`, `priority_muscles`, `equipment`, `injuries`, `days_per_week`, `session_minutes`, `motivations`, `age`, `gender`, `height`, `weight`, `birth_date`, …"),
            .required("answer", .any),
        ], check: checkAnswer),
        EventSchema("questionnaire.completed", group: "Programme", "The user finished the questionnaire.", []),
        EventSchema("programme.generated", group: "Programme", "A programme was generated from the answers by a rule set.", [
            .required("ruleset", .text(maxBytes: 64)), .optional("ruleset_version", .integer(1...Int.max)),
            .required("programme", programme),
        ]),
        EventSchema("programme.reset", group: "Programme", "The user retook the quiz: the current programme ends.", [
            .optional("reason", note),
        ]),
        EventSchema("equipment.updated", group: "Programme", "The lifter's plates, bars and equipment changed.", [
            .optional("unit", unit),
            .optional("plates", .array(of: .object([.required("weight", .number(0...100)), .required("count", .integer(0...100))]), maxCount: 30)),
            .optional("bars", .array(of: .object([
                .optional("name", name), .required("weight", .number(0...100)),
                .optional("default", .boolean, "the bar of every barbell exercise no bar lists"),
                .optional("exercises", .array(of: .slug, maxCount: 50), "the exercises loaded on this bar (an EZ bar's curls)"),
            ]), maxCount: 10)),
            .optional("dumbbells", .array(of: .number(0...maximumDumbbell), maxCount: 100), "the weight of each dumbbell pair owned"),
            .optional("machines", .array(of: .object([
                .required("name", name), .required("min_weight", .number(0...1100)), .required("max_weight", .number(0...1100)),
                .required("increment", .number(0...100), "the stack's step, more than 0"),
                .optional("exercises", .array(of: .slug, maxCount: 50), "the exercises done on it, besides those whose equipment names it"),
            ]), maxCount: 50)),
            .optional("attachments", .array(of: .text(maxBytes: 64), maxCount: 30), "cable attachments: rope, straight bar, V-bar, …"),
            .optional("equipment", .array(of: .text(maxBytes: 64), maxCount: 100)),
        ], check: checkEquipment),
        EventSchema("progression.configured", group: "Programme", "The progression rule of one exercise changed.", [
            exerciseRef, .optional("increment", .number(0...100)), .optional("unit", unit),
            .optional("trigger", .choice(["all_sets", "top_set"])), .optional("deload_percent", .number(0...50)),
            .optional("failures_before_deload", .integer(1...20)),
            .optional("target", weight, "the next target set by hand (seed 002: the lifter overrides the automatic change); in `unit`, else the lifter's unit; sessions before it no longer count"),
        ], check: checkWeight),

        // Exercise library
        EventSchema("exercise.created", group: "Exercises", "The user created a custom exercise.", [
            exerciseRef, .required("name", name),
            .optional("primary_muscles", .array(of: .choice(muscles), maxCount: 10), "muscle names of the vocabulary (`journal catalog --muscle`)"),
            .optional("secondary_muscles", .array(of: .choice(muscles), maxCount: 10)),
            .optional("equipment", .array(of: .text(maxBytes: 64), maxCount: 10)),
            .optional("mechanic", .choice(["compound", "isolation"])), .optional("category", .text(maxBytes: 32)),
            .optional("source", .text(maxBytes: 32)),
            .optional("assisted", .boolean, "true when a set's weight is the help (a counterweight or a band): less is better"),
        ]),
        EventSchema("exercise.favourited", group: "Exercises", "The user marked an exercise as a favourite (at most 10 at once).", [exerciseRef]),
        EventSchema("exercise.unfavourited", group: "Exercises", "The user removed a favourite.", [exerciseRef]),

        // Planning and templates
        EventSchema("workout.planned", group: "Templates", "The user planned a workout (ordered exercises with presets).", [
            .required("plan", .reference), .required("name", name),
            .required("exercises", .array(of: plannedExercise, maxCount: 40)), .optional("date", .date),
            .optional("repeat_of", .reference),
        ], check: checkPrescriptions),
        EventSchema("template.created", group: "Templates", "The user created a template or routine.", [
            .required("template", .reference), .required("name", name),
            .required("exercises", .array(of: plannedExercise, maxCount: 40)), .optional("note", note),
            .optional("from_workout", .reference), .optional("source", .text(maxBytes: 32)),
        ], check: checkPrescriptions),
        EventSchema("template.updated", group: "Templates", "The user edited a template; present keys replace the old ones.", [
            .required("template", .reference), .optional("name", name),
            .optional("exercises", .array(of: plannedExercise, maxCount: 40)), .optional("note", note),
        ], check: checkPrescriptions),
        EventSchema("template.deleted", group: "Templates", "The user deleted a template.", [.required("template", .reference)]),

        // Workouts
        EventSchema("workout.started", group: "Workouts", "A workout began.", [
            .required("workout", .reference, "unique in the journal"), .required("name", name),
            .required("session", .either(.integer(0...13), .null), "index into the programme's sessions, or null"),
            .optional("template", .reference), .optional("plan", .reference), .optional("repeat_of", .reference),
            .optional("started_at", .timestamp, "when it really started, for a workout logged afterwards"),
            .optional("source", .text(maxBytes: 32), "`strong`, `hevy`, … for imported workouts"),
            .optional("source_layout", .text(maxBytes: 32), "the layout of the file it was imported from when the app has several (`strong-6`: Strong 6.x; `strong-semicolon`: old Strong, semicolons and unit columns), so an export to that app writes that layout"),
        ]),
        EventSchema("workout.finished", group: "Workouts", "The user finished the workout.", [
            workoutRef, .optional("finished_at", .timestamp, "when it really finished, for a workout logged afterwards"),
        ]),
        EventSchema("workout.discarded", group: "Workouts", "The user discarded the workout; it counts nowhere.", [workoutRef]),
        EventSchema("workout.edited", group: "Workouts", "A finished workout's times or name were corrected.", [
            workoutRef, .optional("name", name), .optional("started_at", .timestamp), .optional("finished_at", .timestamp),
        ]),
        EventSchema("workout.deleted", group: "Workouts", "A finished workout was deleted from history.", [workoutRef]),
        EventSchema("workout.noted", group: "Workouts", "A note on the workout.", [workoutRef, .required("note", note)]),
        EventSchema("warmup.started", group: "Workouts", "The user began the warm-up card's timer.", [workoutRef, .optional("minutes", .number(0...60))]),
        EventSchema("warmup.completed", group: "Workouts", "The warm-up timer ran out.", [workoutRef]),
        EventSchema("warmup.skipped", group: "Workouts", "The user dismissed the warm-up card.", [workoutRef]),
        EventSchema("exercise.added", group: "Workouts", "An exercise was added to the workout.", [
            workoutRef, exerciseRef, .optional("position", .integer(0...100)), .optional("sets", .integer(0...50)),
            .optional("reps", .text(maxBytes: 16)), .optional("rest_s", .integer(0...3600)),
        ]),
        EventSchema("exercise.removed", group: "Workouts", "An exercise was removed from the workout.", [workoutRef, exerciseRef]),
        EventSchema("exercises.reordered", group: "Workouts", "The workout's exercises were put in a new order.", [
            workoutRef, .required("order", .array(of: .slug, maxCount: 100)),
        ]),
        EventSchema("exercise.swapped", group: "Workouts", "An exercise was replaced by an alternative.", [
            workoutRef, .required("from", .slug), .required("to", .slug), .optional("reason", .text(maxBytes: 200)),
        ]),
        EventSchema("exercise.noted", group: "Workouts", "A note on an exercise in the workout.", [workoutRef, exerciseRef, .required("note", note)]),
        EventSchema("exercise.submitted", group: "Workouts", "The user submitted the exercise (seed 000 \"Submit exercise\").", [workoutRef, exerciseRef]),
        EventSchema("injury.warning_answered", group: "Workouts", "The injury warning was shown and answered.", [
            workoutRef, exerciseRef, .required("muscle", .text(maxBytes: 32)), .required("choice", .choice(["continue", "go_back", "swap"])),
        ]),
        EventSchema("superset.linked", group: "Workouts", "Adjacent exercises were linked into a superset.", [
            workoutRef, .required("group", .reference), .required("exercises", .array(of: .slug, maxCount: 10)),
        ], check: { event in
            (event.array(.exercises)?.count ?? 0) >= 2 ? nil
                : EventRuleViolation(type: event.type, field: "exercises", value: event[.exercises], rule: "must name at least 2 exercises")
        }),
        EventSchema("superset.unlinked", group: "Workouts", "A superset was split back into single exercises.", [workoutRef, .required("group", .reference)]),
        EventSchema("set.added", group: "Sets", "A set row was added (prefilled values optional).", [
            workoutRef, exerciseRef, setNumber, .optional("weight", weight), .optional("unit", unit),
            .optional("reps", reps), .optional("kind", .choice(setKinds)),
        ], check: checkWeight),
        EventSchema("set.removed", group: "Sets", "A set row was deleted (a completed one stops counting).", [workoutRef, exerciseRef, setNumber]),
        EventSchema("set.completed", group: "Sets", "The user ticked a set. A later one for the same (workout, exercise, set) replaces it.", [
            workoutRef, exerciseRef, setNumber,
            // The range is checked by `checkImportableSet`, whose messages name the limit that applies (manual entry's,
            // imported sets' sanity limit, or `out_of_range`'s).
            .required("weight", .number(-1_000_000_000...1_000_000_000), "≥ 0; at most 500 kg or 1100 lb (with `source`: 2000 kg or 4400 lb)"),
            .required("unit", unit),
            .required("reps", .integer(0...1_000_000_000), "at most 100 (with `source`: 10000)"), .required("kind", .choice(setKinds)),
            .optional("rpe", rpe, "6–10 in steps of 0.5"),
            .optional("note", note), .optional("edited", .boolean, "true when correcting a finished workout"),
            .optional("source", .text(maxBytes: 32), "the app an imported set came from (`strong`, `hevy`, …): it takes the sanity limits, not manual entry's"),
            .optional("source_name", name, "the exercise's name in that app"),
            .optional("source_set", .text(maxBytes: 16), "the set's label in that app's file (Strong's `Set Order` `1`/`W`/`D`/`F`, Hevy's `set_index`)"),
            .optional("source_rpe", .number(0...100), "the file's RPE when `rpe` cannot keep it"),
            .optional("source_seconds", .number(0...maximumSourceSeconds), "the row's time, when a weighted set has one"),
            .optional("source_km", .number(0...maximumSourceKilometres), "the row's distance, when a weighted set has one"),
            .optional("source_category", .text(maxBytes: 64), "the row's category in that app's file (FitNotes' `Category`)"),
            .optional("source_negative", .boolean, "true when that app's file wrote the weight as a negative number: the help of an assisted exercise, which `weight` keeps from 0 (an export to that app writes it negative again)"),
            .optional("out_of_range", .boolean, "true on an imported set kept beyond the sanity limits at the user's insistence (`journal import --keep-out-of-range`)"),
        ], check: checkImportableSet),
        EventSchema("set.uncompleted", group: "Sets", "The user unticked a set: it no longer counts.", [workoutRef, exerciseRef, setNumber]),
        EventSchema("set.edited", group: "Sets", "A logged set's values were corrected; present keys replace the old ones.", [
            workoutRef, exerciseRef, setNumber, .optional("weight", weight), .optional("unit", unit),
            .optional("reps", reps), .optional("kind", .choice(setKinds)), .optional("rpe", rpe),
        ], check: checkWeight),
        EventSchema("set.rated", group: "Sets", "RPE recorded after the set.", [workoutRef, exerciseRef, setNumber, .required("rpe", rpe)], check: checkWeight),
        EventSchema("set.noted", group: "Sets", "A note on a set.", [workoutRef, exerciseRef, setNumber, .required("note", note)]),
        EventSchema("cardio.logged", group: "Sets", "A cardio entry: minutes and kilometres instead of sets.", [
            workoutRef, exerciseRef, .required("minutes", .number(0...maximumCardioMinutes)), .optional("km", .number(0...maximumCardioKilometres)),
            .optional("calories", .number(0...20_000)),
            .optional("source", .text(maxBytes: 32), "the app an imported entry came from"),
            .optional("source_name", name, "the exercise's name in that app"),
            .optional("source_rows", .array(of: .object([
                .optional("set", .text(maxBytes: 16)), .optional("seconds", .number(0...maximumSourceSeconds)),
                .optional("km", .number(0...maximumSourceKilometres)), .optional("note", note),
                .optional("category", .text(maxBytes: 64)), .optional("distance_unit", .text(maxBytes: 8)),
            ]), maxCount: 200), "the app's timed rows summed into this entry, in file order"),
        ]),
        EventSchema("rest.started", group: "Rest", "A rest timer started.", [workoutRef, exerciseRef, .required("seconds", .integer(0...3600))]),
        EventSchema("rest.adjusted", group: "Rest", "The running rest timer was lengthened or shortened (±30 s).", [
            workoutRef, exerciseRef, .required("delta_s", .integer(-3600...3600)),
        ], check: { event in
            guard let delta = event.int(.deltaS), delta == 0 || delta % 30 != 0 else { return nil }
            return EventRuleViolation(type: event.type, field: "delta_s", value: event[.deltaS],
                                      rule: "must be a non-zero multiple of 30 (the -30 s and +30 s buttons)")
        }),
        EventSchema("rest.skipped", group: "Rest", "The user skipped the rest.", [workoutRef, exerciseRef, .required("remaining_s", .integer(0...3600))]),
        EventSchema("rest.finished", group: "Rest", "The rest timer ran out.", [workoutRef, exerciseRef]),
        EventSchema("rest.configured", group: "Rest", "The default rest of one exercise changed (seed 002 per exercise; seed 004's picker Off, 30 s, 60 s, 90 s, 2 min, 3 min).", [
            exerciseRef, .required("seconds", .integer(0...3600), "0 turns the timer off for this exercise"),
        ]),
        // Appended after the types above, so that they keep their place in `EventType`.
        EventSchema("exercise.linked", group: "Exercises",
                    "A custom or imported exercise was filed under a catalogue exercise (`to`), or unfiled (`to` null): every view re-files its sets; the latest one per exercise counts.", [
            .required("exercise", .slug, "the custom or imported exercise's id"),
            .required("to", .either(.slug, .null), "the catalogue exercise it is, or null to undo the link"),
        ]),
        // Erasure (FORMAT.md §6 "Erasure"): written by the engine, never by `journal record`.
        EventSchema("data.erased", group: "Profile", "The user's data was erased: every event up to `through_seq` was removed from the journal, its snapshots, torn-tail files and known backups. Only the journal's first event; written by `journal erase` (`UserJournal.eraseAllData()`).", [
            .required("through_seq", .integer(1...Int.max), "the last seq erased; this event's seq is the next"),
            .required("events", .integer(0...Int.max), "how many events were erased"),
        ]),
        // Seed 003's SessionTimer start/pause; listed last so the earlier types keep their codes.
        EventSchema("workout.paused", group: "Workouts", "The user paused the session timer; paused time is not workout time.", [workoutRef]),
        EventSchema("workout.resumed", group: "Workouts", "The user resumed the paused session timer.", [workoutRef]),
        // Seed 003's exports history; listed last so the earlier types keep their codes.
        EventSchema("data.exported", group: "Profile", "The user exported data (seed 003's exports history); the export itself is not in the journal.", [
            .required("format", .text(maxBytes: 32), "`jsonl`, `json`, `strong-csv`, … (`journal export --format`)"),
            .optional("events", .integer(0...Int.max), "how many events the export held"),
            .optional("workouts", .integer(0...Int.max), "how many workouts the export held"),
            .optional("destination", .text(maxBytes: 200), "where it went: a file name, the share sheet, …"),
        ]),
    ]

    static let byType: [String: EventSchema] = Dictionary(uniqueKeysWithValues: all.map { ($0.type, $0) })

    public static func schema(for type: String) -> EventSchema? { byType[type] }

    /// `schema(for: type.name)` without hashing the name (every stored event is validated by `journal verify`).
    public static func schema(for type: EventType) -> EventSchema? { byKnownType[Int(type.rawValue)] }

    /// The `v` a draft without one is given (`RecordingRules.prepare`): its type's schema version, 1 for a type
    /// outside the vocabulary.
    public static func draftVersion(of type: String) -> Int { schema(for: type)?.version ?? 1 }
    public static func draftVersion(of type: EventType) -> Int { schema(for: type)?.version ?? 1 }

    /// `byType` indexed by `EventType.rawValue`.
    static let byKnownType: [EventSchema?] = {
        var table = [EventSchema?](repeating: nil, count: Int(EventType.allCases.map(\.rawValue).max() ?? 0) + 1)
        for type in EventType.allCases { table[Int(type.rawValue)] = byType[type.name] }
        return table
    }()

    /// One schema of the vocabulary held by reference, for `SchemaValidator`: reading a stored event's schema then
    /// counts one reference, where copying the `EventSchema` counted seven (its strings, arrays, set and closure).
    /// Every thread validating events counts them on the same shared objects, which is what kept two fleet workers
    /// from reaching twice one (SCALE.md §"Fleet jobs").
    final class SchemaEntry: Sendable {
        let schema: EventSchema
        /// How `SchemaValidator.admitsToFold` checks an event of this type: nothing (scalar fields, none a number), each
        /// number against its field's range by `PayloadKey` code (scalar fields only), or by walking its nested kinds.
        let foldCheck: FoldCheck
        enum FoldCheck: Sendable {
            case nothing
            case numbers([ClosedRange<Double>?])
            case nested
        }
        init(_ schema: EventSchema) {
            self.schema = schema
            if !schema.fields.allSatisfy({ $0.kind.isScalar && $0.key != nil }) {
                foldCheck = .nested
            } else if schema.fields.allSatisfy({ $0.kind.numberRange == nil }) {
                foldCheck = .nothing
            } else {
                var ranges = [ClosedRange<Double>?](repeating: nil, count: PayloadKey.tableSize)
                for field in schema.fields { ranges[Int(field.key!.rawValue)] = field.kind.numberRange }
                foldCheck = .numbers(ranges)
            }
        }
    }

    /// `byKnownType`, each schema held by reference. The entries live as long as the process (they are never
    /// released), so a reader borrows one without counting a reference at all (`_withUnsafeGuaranteedRef`).
    static let entriesByKnownType: [Unmanaged<SchemaEntry>?] = byKnownType.map { $0.map { Unmanaged.passRetained(SchemaEntry($0)) } }

    public static func isKnown(_ type: String) -> Bool {
        // The decoder's table of vocabulary strings answers without hashing the whole string
        // (it is on every replay's path); anything it does not hold is looked up as before.
        var bytes = type
        let inTable = bytes.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, utf8.count <= KnownStrings.longestKept else { return false }
            return KnownStrings.shared.typeNameIndex(base, utf8.count) != nil
        }
        return inTable || byType.index(forKey: type) != nil
    }

    /// `segment(.segment)+` with segments of `a-z`, `0-9` and `_`.
    public static func isWellFormedTypeName(_ type: String) -> Bool {
        // One pass over the bytes in place (every decoded draft's type is checked): no split into substrings.
        var type = type
        return type.withUTF8 { bytes in
            guard bytes.count <= 64 else { return false }
            var segments = 1, length = 0
            for byte in bytes {
                if byte == UInt8(ascii: ".") {
                    guard length > 0 else { return false }
                    segments += 1
                    length = 0
                } else if (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == 95 {
                    length += 1
                } else {
                    return false
                }
            }
            return segments >= 2 && length > 0
        }
    }

    /// `[a-z0-9]+(-[a-z0-9]+)*`, at most 64 bytes. One pass over the bytes (every exercise id of every event is checked).
    public static func isSlug(_ text: String) -> Bool {
        // The bytes read in place (`withUTF8` copies only a string that is not UTF-8 already): the schema checks
        // call this for every exercise id of every event, and walking the `UTF8View` cost twice as much.
        var text = text
        return text.withUTF8 { isSlug(utf8: $0) }
    }

    private static func isSlug(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !utf8.isEmpty, utf8.count <= 64 else { return false }
        var previous = UInt8(ascii: "-")  // a dash first is refused like a dash after a dash
        for byte in utf8 {
            if byte == 45 {
                if previous == 45 { return false }
            } else if !((byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57)) {
                return false
            }
            previous = byte
        }
        return previous != 45
    }

    // MARK: Rules beyond shapes

    /// The heaviest dumbbell `equipment.updated` takes (in its unit).
    public static let maximumDumbbell = 200.0

    /// A machine's stack: `min_weight` ≤ `max_weight` and an `increment` above 0.
    @Sendable static func checkEquipment(_ event: Event) -> EventRuleViolation? {
        for (index, machine) in (event.array(.machines) ?? []).enumerated() {
            guard let object = machine.objectValue else { continue }
            let low = object["min_weight"]?.doubleValue ?? 0, high = object["max_weight"]?.doubleValue ?? 0
            if low > high {
                return EventRuleViolation(type: event.type, field: "machines[\(index)].max_weight", value: object["max_weight"],
                                          rule: "must be at least min_weight (\(formatNumber(low)))")
            }
            if (object["increment"]?.doubleValue ?? 0) <= 0 {
                return EventRuleViolation(type: event.type, field: "machines[\(index)].increment", value: object["increment"],
                                          rule: "must be more than 0 (the stack's step)")
            }
        }
        return nil
    }

    @Sendable static func checkWeight(_ event: Event) -> EventRuleViolation? { checkWeight(event, limits: maximumWeight, limitName: nil) }

    /// RPE in steps of 0.5, `unit` with every weight, and the weight within `limits` for its unit.
    static func checkWeight(_ event: Event, limits: [String: Double], limitName: String?) -> EventRuleViolation? {
        if let rpe = event.double(.rpe), (rpe * 2).rounded() != rpe * 2 {
            return EventRuleViolation(type: event.type, field: "rpe", value: event[.rpe], rule: "must be between 6 and 10 in steps of 0.5")
        }
        guard let weight = event.double(.weight) else { return nil }
        guard let unit = event.string(.unit) else {
            return EventRuleViolation(type: event.type, field: "unit", value: nil, rule: "is required when weight is given")
        }
        let maximum = limits[unit] ?? limits["kg"] ?? 500
        if weight > maximum {
            return EventRuleViolation(type: event.type, field: "weight", value: event[.weight],
                                      rule: "must be at most \(formatNumber(maximum)) when unit is \"\(unit)\"" + (limitName.map { " (\($0))" } ?? ""))
        }
        return nil
    }

    /// `set.completed`: RPE steps, and the manual-entry limits (500 kg, 1100 lb, 100 reps) unless the set was imported
    /// (`source`), which takes the sanity limits (2000 kg, 4400 lb, 10000 reps) instead, or none with `out_of_range`.
    @Sendable static func checkImportableSet(_ event: Event) -> EventRuleViolation? {
        let imported = event[.source] != nil
        if let weight = event.double(.weight), weight < 0 {
            let limit = imported ? (event[.outOfRange] == .bool(true) ? 1_000_000_000 : widestSanityWeight) : widestWeight
            return EventRuleViolation(type: event.type, field: "weight", value: event[.weight], rule: "must be between 0 and \(formatNumber(limit))")
        }
        if imported && event[.outOfRange] == .bool(true) {
            return checkWeight(event, limits: ["kg": 1_000_000_000, "lb": 1_000_000_000], limitName: nil)
        }
        if imported, let reps = event.int(.reps), reps > sanityReps {
            return EventRuleViolation(type: event.type, field: "reps", value: event[.reps],
                                      rule: "must be at most \(sanityReps), the sanity limit of imported sets (or set `out_of_range`)")
        }
        if !imported {
            // The messages of manual entry's ranges, as when they were the fields' own.
            if let reps = event.int(.reps), reps > maximumReps {
                return EventRuleViolation(type: event.type, field: "reps", value: event[.reps], rule: "must be between 0 and \(maximumReps)")
            }
            if let weight = event.double(.weight), weight > widestWeight {
                return EventRuleViolation(type: event.type, field: "weight", value: event[.weight], rule: "must be between 0 and \(formatNumber(widestWeight))")
            }
        }
        return imported ? checkWeight(event, limits: sanityWeight, limitName: "the sanity limit of imported sets") : checkWeight(event)
    }

    /// Templates, routines and plans: each exercise once, per-set weights within the unit's limit, and the
    /// members of a superset next to each other (seed 004: a superset links adjacent exercises).
    @Sendable static func checkPrescriptions(_ event: Event) -> EventRuleViolation? {
        guard let exercises = event.array(.exercises) else { return nil }
        func fail(_ field: String, _ value: JSONValue?, _ rule: String) -> EventRuleViolation {
            EventRuleViolation(type: event.type, field: field, value: value, rule: rule)
        }
        var seen: [String: Int] = [:]
        var groups: [String: [Int]] = [:]
        for (index, element) in exercises.enumerated() {
            guard let object = element.objectValue else { continue }
            if let id = object["exercise"]?.stringValue {
                if let first = seen[id] {
                    return fail("exercises[\(index)].exercise", object["exercise"], "is already in the list at exercises[\(first)]; list each exercise once")
                }
                seen[id] = index
            }
            for (number, set) in (object["sets"]?.arrayValue ?? []).enumerated() {
                guard let config = set.objectValue, let weight = config["weight"]?.doubleValue else { continue }
                let path = "exercises[\(index)].sets[\(number)]"
                guard let unit = config["unit"]?.stringValue else { return fail("\(path).unit", nil, "is required when weight is given") }
                let maximum = maximumWeight[unit] ?? 500
                if weight > maximum {
                    return fail("\(path).weight", config["weight"], "must be at most \(formatNumber(maximum)) when unit is \"\(unit)\"")
                }
            }
            if let group = object["superset"]?.stringValue {
                if let last = groups[group]?.last, last != index - 1 {
                    return fail("exercises[\(index)].superset", object["superset"],
                                "must be next to the other exercises of superset \"\(group)\" (a superset links adjacent exercises)")
                }
                groups[group, default: []].append(index)
            }
        }
        if let (group, members) = groups.sorted(by: { $0.key < $1.key }).first(where: { $0.value.count < 2 }) {
            return fail("exercises[\(members[0])].superset", .string(group), "is the only exercise of superset \"\(group)\"; a superset links at least 2 exercises")
        }
        return nil
    }

    /// The rest settings (`rest_default_s`, `rest_compound_s`, `rest_isolation_s`) are whole seconds within the rest
    /// timer's range (0–3600, 0 being off; seed 004's picker runs Off to 3 min, seed 000's default is 2:00); `unit`
    /// is `kg` or `lb`.
    @Sendable static func checkSetting(_ event: Event) -> EventRuleViolation? {
        guard let key = event.string(.key), let value = event[.value] else { return nil }
        if key.hasPrefix("rest_"), key.hasSuffix("_s") {
            guard let seconds = value.intValue, (0...3600).contains(seconds) else {
                return EventRuleViolation(type: event.type, field: "value", value: value,
                                          rule: "must be a whole number of seconds from 0 to 3600 for \"\(key)\" (0 turns the timer off)")
            }
        }
        if key == "unit", !units.contains(value.stringValue ?? "") {
            return EventRuleViolation(type: event.type, field: "value", value: value, rule: "must be \"kg\" or \"lb\" for \"unit\"")
        }
        return nil
    }

    /// Profile facts: an `email` looks like one (`name@domain.tld`, no spaces); a `height` is in `cm` or
    /// `in`, a `body_weight` in `kg` or `lb`.
    @Sendable static func checkProfile(_ event: Event) -> EventRuleViolation? {
        if let email = event.string(.email) {
            let parts = email.split(separator: "@", omittingEmptySubsequences: false)
            let valid = parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
                && !email.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" })
            if !valid { return EventRuleViolation(type: event.type, field: "email", value: event[.email], rule: "is not an email address (name@domain.tld)") }
        }
        for (field, units) in [("height", ["cm", "in"]), ("body_weight", units)] {
            guard let unit = event.object(field)?["unit"]?.stringValue, !units.contains(unit) else { continue }
            return EventRuleViolation(type: event.type, field: "\(field).unit", value: .string(unit),
                                      rule: "must be one of " + units.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        return nil
    }

    /// The questionnaire's own limits (seed 000 and 001); per-rule-set answers are checked by the domain.
    @Sendable static func checkAnswer(_ event: Event) -> EventRuleViolation? {
        guard let question = event.string(.question), let answer = event[.answer] else { return nil }
        func fail(_ rule: String) -> EventRuleViolation {
            EventRuleViolation(type: event.type, field: "answer", value: answer, rule: rule + " (question \"\(question)\")")
        }
        switch question {
        case "priority_muscles":
            guard let list = answer.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else { return fail("must be an array of muscle names") }
            return list.count <= 3 ? nil : fail("must name at most 3 muscle groups")
        case "injuries", "equipment", "motivations":
            guard let list = answer.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else { return fail("must be an array of strings") }
            return nil
        case "days_per_week":
            // The widest weekly target of any seed (seed 003's counter: 1–7); a rule set refuses what its own range
            // does not take when it makes a programme (DOMAIN.md §3).
            guard let n = answer.intValue else { return fail("must be an integer") }
            return (1...7).contains(n) ? nil : fail("must be between 1 and 7")
        case "age":
            guard let n = answer.intValue else { return fail("must be an integer") }
            return (16...100).contains(n) ? nil : fail("must be between 16 and 100")
        default:
            return nil
        }
    }
}
