import Foundation
import JournalStore
import JournalFile

/// Typed conveniences for what a lifter does, each one event built on `record(_:)` (so the same rules apply).
/// Ids the app does not give (workouts, templates, plans, superset groups) are made unique in the journal.
extension UserJournal {
    /// Records a draft of `type` with the fields that are not nil, in order (`JSONValue.draft`: types and keys are
    /// the vocabulary's, so a misspelt one does not compile).
    @discardableResult
    func send(_ type: EventType, _ fields: KeyValuePairs<PayloadKey, JSONValue?>) throws(JournalError) -> Event {
        try record(.draft(type, fields))
    }

    /// `prefix` followed by the first number that no workout, template, plan or group of the journal uses.
    func freshID(_ prefix: String, taken: (Ledger, String) -> Bool) -> String {
        let ledger = self.ledger
        let rules = self.rules
        var n = 1
        while true {
            let id = "\(prefix)\(n)"
            if !taken(ledger, id) && !rules.isUsed(workout: id) { return id }
            n += 1
        }
    }

    static func time(_ value: Timestamp?) -> JSONValue? { value.map { .string($0.rfc3339) } }
    static func number(_ value: Double?) -> JSONValue? { value.map(JSONValue.number) }
    static func int(_ value: Int?) -> JSONValue? { value.map(JSONValue.int) }
    static func text(_ value: String?) -> JSONValue? { value.map(JSONValue.string) }
    static func text(_ value: (some TypedID)?) -> JSONValue? { value.map { .string($0.rawValue) } }

    // MARK: Workouts

    /// Starts a workout: empty, from a programme `session`, a `template`, a `plan`, or repeating a finished workout.
    /// `startedAt` backdates it (a workout logged afterwards). Returns its id.
    @discardableResult
    public func startWorkout(name: String, session: Int? = nil, template: String? = nil, plan: String? = nil, repeating: WorkoutID? = nil,
                             startedAt: Timestamp? = nil, id: WorkoutID? = nil) throws(JournalError) -> WorkoutID {
        let workout = id ?? WorkoutID(freshID("w") { ledger, id in ledger.workout(id) != nil })
        try send(.workoutStarted, [.workout: .string(workout), .name: .string(name), .session: .some(session.map(JSONValue.int) ?? .null),
                                     .template: UserJournal.text(template), .plan: UserJournal.text(plan), .repeatOf: UserJournal.text(repeating),
                                     .startedAt: UserJournal.time(startedAt)])
        return workout
    }

    /// Finishes a workout (it needs at least one completed set or cardio entry). `finishedAt` for one logged afterwards.
    @discardableResult
    public func finishWorkout(_ workout: WorkoutID, finishedAt: Timestamp? = nil) throws(JournalError) -> Event {
        try send(.workoutFinished, [.workout: .string(workout), .finishedAt: UserJournal.time(finishedAt)])
    }

    /// Discards an open workout (`workout.discarded`): it leaves no history.
    @discardableResult
    public func discardWorkout(_ workout: WorkoutID) throws(JournalError) -> Event { try send(.workoutDiscarded, [.workout: .string(workout)]) }

    /// Corrects a finished workout's name, start or finish (the finish must stay after the start).
    @discardableResult
    public func editWorkout(_ workout: WorkoutID, name: String? = nil, startedAt: Timestamp? = nil, finishedAt: Timestamp? = nil) throws(JournalError) -> Event {
        try send(.workoutEdited, [.workout: .string(workout), .name: UserJournal.text(name), .startedAt: UserJournal.time(startedAt),
                                    .finishedAt: UserJournal.time(finishedAt)])
    }

    /// Deletes a finished workout from history (`workout.deleted`); an open one is discarded instead.
    @discardableResult
    public func deleteWorkout(_ workout: WorkoutID) throws(JournalError) -> Event { try send(.workoutDeleted, [.workout: .string(workout)]) }

    /// Sets the workout's note (`workout.noted`), open or finished.
    @discardableResult
    public func noteWorkout(_ workout: WorkoutID, _ note: String) throws(JournalError) -> Event {
        try send(.workoutNoted, [.workout: .string(workout), .note: .string(note)])
    }

    // MARK: Exercises in a workout

    /// Adds `exercise` (an id of the catalogue or a custom exercise) to the workout (`exercise.added`), at `position`
    /// when given (else at the end), with an optional prescription of sets, reps (`"8-10"`) and rest.
    @discardableResult
    public func addExercise(_ exercise: ExerciseID, to workout: WorkoutID, position: Int? = nil, sets: Int? = nil, reps: String? = nil,
                            restSeconds: Int? = nil) throws(JournalError) -> Event {
        try send(.exerciseAdded, [.workout: .string(workout), .exercise: .string(exercise), .position: UserJournal.int(position),
                                    .sets: UserJournal.int(sets), .reps: UserJournal.text(reps), .restS: UserJournal.int(restSeconds)])
    }

    /// Removes `exercise` and its sets from the workout (`exercise.removed`); a finished workout keeps at least one.
    @discardableResult
    public func removeExercise(_ exercise: ExerciseID, from workout: WorkoutID) throws(JournalError) -> Event {
        try send(.exerciseRemoved, [.workout: .string(workout), .exercise: .string(exercise)])
    }

    /// Puts the workout's exercises in `order` (`exercises.reordered`); the ones it omits follow in their order. A
    /// superset's members stay together.
    @discardableResult
    public func reorderExercises(_ workout: WorkoutID, _ order: [ExerciseID]) throws(JournalError) -> Event {
        try send(.exercisesReordered, [.workout: .string(workout), .order: .array(order.map(JSONValue.string))])
    }

    /// Replaces `from` by `to` in the workout, in its place (`exercise.swapped`), with the lifter's `reason` if given.
    @discardableResult
    public func swapExercise(_ workout: WorkoutID, from: ExerciseID, to: ExerciseID, reason: String? = nil) throws(JournalError) -> Event {
        try send(.exerciseSwapped, [.workout: .string(workout), .from: .string(from), .to: .string(to), .reason: UserJournal.text(reason)])
    }

    /// Sets `exercise`'s note in the workout (`exercise.noted`).
    @discardableResult
    public func noteExercise(_ exercise: ExerciseID, in workout: WorkoutID, _ note: String) throws(JournalError) -> Event {
        try send(.exerciseNoted, [.workout: .string(workout), .exercise: .string(exercise), .note: .string(note)])
    }

    /// Marks `exercise` done in the live workout ("Submit exercise", `exercise.submitted`); it needs a completed set or
    /// cardio entry.
    @discardableResult
    public func submitExercise(_ exercise: ExerciseID, in workout: WorkoutID) throws(JournalError) -> Event {
        try send(.exerciseSubmitted, [.workout: .string(workout), .exercise: .string(exercise)])
    }

    /// Links adjacent exercises (or whole groups) into a superset; returns the group id.
    @discardableResult
    public func linkSuperset(_ exercises: [ExerciseID], in workout: WorkoutID, group: String? = nil) throws(JournalError) -> String {
        let existing = ledger.workout(workout.rawValue)?.supersets.map(\.group) ?? []
        var id = group ?? "g1"
        if group == nil { var n = 1; while existing.contains(id) { n += 1; id = "g\(n)" } }
        try send(.supersetLinked, [.workout: .string(workout), .group: .string(id), .exercises: .array(exercises.map(JSONValue.string))])
        return id
    }

    /// Ends the superset `group` of the workout (`superset.unlinked`); its exercises stay, unlinked.
    @discardableResult
    public func unlinkSuperset(_ group: String, in workout: WorkoutID) throws(JournalError) -> Event {
        try send(.supersetUnlinked, [.workout: .string(workout), .group: .string(group)])
    }

    // MARK: Sets

    /// Ticks a set. Pass `edited: true` to add or correct a set of a finished workout.
    @discardableResult
    public func completeSet(_ workout: WorkoutID, exercise: ExerciseID, set: Int, weight: Double, unit: WeightUnit = .kg, reps: Int,
                            kind: SetKind = .working, rpe: Double? = nil, edited: Bool = false) throws(JournalError) -> Event {
        try send(.setCompleted, [.workout: .string(workout), .exercise: .string(exercise), .set: .int(set), .weight: .number(weight),
                                   .unit: .string(unit.rawValue), .reps: .int(reps), .kind: .string(kind.rawValue), .rpe: UserJournal.number(rpe),
                                   .edited: edited ? .bool(true) : nil])
    }

    /// Unticks a completed set (`set.uncompleted`): it no longer counts; its values stay in the row.
    @discardableResult
    public func uncompleteSet(_ workout: WorkoutID, exercise: ExerciseID, set: Int) throws(JournalError) -> Event {
        try send(.setUncompleted, [.workout: .string(workout), .exercise: .string(exercise), .set: .int(set)])
    }

    /// Adds a set row (seed 003 "Add set", "Duplicate": give the values to copy).
    @discardableResult
    public func addSet(_ workout: WorkoutID, exercise: ExerciseID, set: Int, weight: Double? = nil, unit: WeightUnit? = nil, reps: Int? = nil,
                       kind: SetKind? = nil) throws(JournalError) -> Event {
        try send(.setAdded, [.workout: .string(workout), .exercise: .string(exercise), .set: .int(set), .weight: UserJournal.number(weight),
                               .unit: (unit ?? (weight == nil ? nil : .kg)).map { .string($0.rawValue) }, .reps: UserJournal.int(reps),
                               .kind: kind.map { .string($0.rawValue) }])
    }

    /// Removes a set row (`set.removed`), of an open workout or, as a history edit, a completed set of a finished one.
    @discardableResult
    public func removeSet(_ workout: WorkoutID, exercise: ExerciseID, set: Int) throws(JournalError) -> Event {
        try send(.setRemoved, [.workout: .string(workout), .exercise: .string(exercise), .set: .int(set)])
    }

    /// Changes a set's values (typed into a row, or corrected in history); `kind` toggles warm-up and working.
    @discardableResult
    public func editSet(_ workout: WorkoutID, exercise: ExerciseID, set: Int, weight: Double? = nil, unit: WeightUnit? = nil, reps: Int? = nil,
                        kind: SetKind? = nil, rpe: Double? = nil) throws(JournalError) -> Event {
        try send(.setEdited, [.workout: .string(workout), .exercise: .string(exercise), .set: .int(set), .weight: UserJournal.number(weight),
                                .unit: (unit ?? (weight == nil ? nil : .kg)).map { .string($0.rawValue) }, .reps: UserJournal.int(reps),
                                .kind: kind.map { .string($0.rawValue) }, .rpe: UserJournal.number(rpe)])
    }

    /// Rates a completed set's effort (`set.rated`), RPE 6 to 10.
    @discardableResult
    public func rateSet(_ workout: WorkoutID, exercise: ExerciseID, set: Int, rpe: Double) throws(JournalError) -> Event {
        try send(.setRated, [.workout: .string(workout), .exercise: .string(exercise), .set: .int(set), .rpe: .number(rpe)])
    }

    /// Sets a set's note (`set.noted`).
    @discardableResult
    public func noteSet(_ workout: WorkoutID, exercise: ExerciseID, set: Int, _ note: String) throws(JournalError) -> Event {
        try send(.setNoted, [.workout: .string(workout), .exercise: .string(exercise), .set: .int(set), .note: .string(note)])
    }

    /// Logs a cardio entry of `exercise` in the workout (`cardio.logged`): its minutes, and distance and calories when
    /// known.
    @discardableResult
    public func logCardio(_ workout: WorkoutID, exercise: ExerciseID, minutes: Double, km: Double? = nil, calories: Double? = nil) throws(JournalError) -> Event {
        try send(.cardioLogged, [.workout: .string(workout), .exercise: .string(exercise), .minutes: .number(minutes),
                                   .km: UserJournal.number(km), .calories: UserJournal.number(calories)])
    }

    // MARK: Rest timer

    /// Starts the rest timer after a set of `exercise`; without `seconds`, the exercise's default rest
    /// (its own setting, the prescription, the settings, else 90 s compound / 60 s isolation). Records nothing and
    /// returns nil when that default is Off (0).
    @discardableResult
    public func startRest(_ workout: WorkoutID, exercise: ExerciseID, seconds: Int? = nil) throws(JournalError) -> Event? {
        let seconds = seconds ?? read { analysis in
            ActiveWorkoutState.defaultRest(exercise.rawValue, prescription: analysis.ledger.workout(workout.rawValue)?.prescription(of: exercise.rawValue),
                                           analysis)
        }
        guard seconds > 0 else { return nil }
        return try send(.restStarted, [.workout: .string(workout), .exercise: .string(exercise), .seconds: .int(seconds)])
    }

    /// −30 s or +30 s (any non-zero multiple of 30).
    @discardableResult
    public func adjustRest(_ workout: WorkoutID, exercise: ExerciseID, by seconds: Int) throws(JournalError) -> Event {
        try send(.restAdjusted, [.workout: .string(workout), .exercise: .string(exercise), .deltaS: .int(seconds)])
    }

    /// Skips the running rest timer with `remaining` seconds left (`rest.skipped`).
    @discardableResult
    public func skipRest(_ workout: WorkoutID, exercise: ExerciseID, remaining: Int) throws(JournalError) -> Event {
        try send(.restSkipped, [.workout: .string(workout), .exercise: .string(exercise), .remainingS: .int(remaining)])
    }

    /// Sets an exercise's default rest (seed 004: Off = 0, 30, 60, 90, 120, 180).
    @discardableResult
    public func configureRest(_ exercise: ExerciseID, seconds: Int) throws(JournalError) -> Event {
        try send(.restConfigured, [.exercise: .string(exercise), .seconds: .int(seconds)])
    }

    // MARK: Templates and plans

    /// Creates a template or routine; returns its id.
    @discardableResult
    public func createTemplate(name: String, exercises: [Prescription], note: String? = nil, fromWorkout: String? = nil,
                               source: String? = nil, id: String? = nil) throws(JournalError) -> String {
        let template = id ?? freshTemplateID()
        try send(.templateCreated, [.template: .string(template), .name: .string(name), .exercises: Prescription.eventValue(exercises),
                                      .note: UserJournal.text(note), .fromWorkout: UserJournal.text(fromWorkout), .source: UserJournal.text(source)])
        return template
    }

    /// Creates a template from exercises given as `template.created` holds them (a routine document's, checked by the
    /// recording rules as they are, so a refusal names the document's own field); returns its id.
    @discardableResult
    public func createTemplate(name: String, exercises: [JSONValue], note: JSONValue? = nil, source: String? = nil,
                               id: String? = nil) throws(JournalError) -> String {
        let template = id ?? freshTemplateID()
        try send(.templateCreated, [.template: .string(template), .name: .string(name), .exercises: .array(exercises),
                                      .note: note, .source: UserJournal.text(source)])
        return template
    }

    /// Seed 004 "Save as Template": the finished workout's exercises with their exact sets and supersets.
    @discardableResult
    public func saveAsTemplate(_ workout: WorkoutID, name: String, id: String? = nil) throws(JournalError) -> String {
        let exercises = ledger.workout(workout.rawValue)?.repeatPrescriptions ?? []
        return try createTemplate(name: name, exercises: exercises, fromWorkout: workout.rawValue, id: id)
    }

    /// The first of `t1`, `t2`, … that no template (nor workout, plan or group) of the journal uses.
    func freshTemplateID() -> String { freshID("t") { ledger, id in ledger.templates.contains { $0.id == id } } }

    /// Changes a template's name, exercises or note (`template.updated`); what is nil stays.
    @discardableResult
    public func updateTemplate(_ template: String, name: String? = nil, exercises: [Prescription]? = nil, note: String? = nil) throws(JournalError) -> Event {
        try send(.templateUpdated, [.template: .string(template), .name: UserJournal.text(name),
                                      .exercises: exercises.map(Prescription.eventValue), .note: UserJournal.text(note)])
    }

    /// Deletes a template (`template.deleted`).
    @discardableResult
    public func deleteTemplate(_ template: String) throws(JournalError) -> Event { try send(.templateDeleted, [.template: .string(template)]) }

    /// Plans a workout (seed 003 WorkoutPlanner); returns the plan id, to start with `startWorkout(name:plan:)`.
    @discardableResult
    public func planWorkout(name: String, exercises: [Prescription], date: LocalDate? = nil, repeating: String? = nil,
                            id: String? = nil) throws(JournalError) -> String {
        let plan = id ?? freshID("p") { ledger, id in ledger.plans.contains { $0.id == id } }
        try send(.workoutPlanned, [.plan: .string(plan), .name: .string(name), .exercises: Prescription.eventValue(exercises),
                                     .date: UserJournal.date(date), .repeatOf: UserJournal.text(repeating)])
        return plan
    }

    /// Home's "Repeat last workout": the latest finished workout's exercises and sets as a new plan; nil with none.
    @discardableResult
    public func planRepeatOfLastWorkout() throws(JournalError) -> String? {
        guard let last = analysis().finished.last else { return nil }
        return try planWorkout(name: last.name, exercises: last.repeatPrescriptions, repeating: last.id)
    }

    // MARK: Profile and settings

    /// Updates the profile (`profile.updated`): name, email, display unit, and body weight in `bodyWeightUnit`; what is
    /// nil stays.
    @discardableResult
    public func updateProfile(name: String? = nil, email: String? = nil, unit: WeightUnit? = nil, bodyWeight: Double? = nil,
                              bodyWeightUnit: WeightUnit = .kg) throws(JournalError) -> Event {
        try send(.profileUpdated, [.name: UserJournal.text(name), .email: UserJournal.text(email), .unit: unit.map { .string($0.rawValue) },
                                     .bodyWeight: bodyWeight.map { .object(["value": .number($0), "unit": .string(bodyWeightUnit.rawValue)]) }])
    }

    /// Sets the setting `key` to `value` (`settings.changed`): `rest_default_s`, `unit`, `theme`, … (FORMAT.md §10 for
    /// the rest settings' range).
    @discardableResult
    public func changeSetting(_ key: String, to value: JSONValue) throws(JournalError) -> Event {
        try send(.settingsChanged, [.key: .string(key), .value: value])
    }

    /// Marks `exercise` a favourite (`exercise.favourited`).
    @discardableResult
    public func favourite(_ exercise: ExerciseID) throws(JournalError) -> Event { try send(.exerciseFavourited, [.exercise: .string(exercise)]) }

    /// Takes `exercise` out of the favourites (`exercise.unfavourited`).
    @discardableResult
    public func unfavourite(_ exercise: ExerciseID) throws(JournalError) -> Event { try send(.exerciseUnfavourited, [.exercise: .string(exercise)]) }

    /// The events onboarding records for `answers` under `ruleset` (DOMAIN.md): `questionnaire.answered` for every
    /// answer, `questionnaire.completed`, then `programme.generated`, after a `programme.reset` when the journal at
    /// `path` already has answers or a programme. Reads that journal when it exists and creates nothing (a dry run
    /// prints these; recording them with `record(batch:)` is all or nothing). Throws `ProgrammeError` for an answer
    /// the rule set refuses.
    public static func onboardingDrafts(journal path: String, ruleset: String, answers: [String: JSONValue],
                                        on date: LocalDate) throws -> [JSONValue] {
        let existing = PosixStorage().exists(path) ? Ledger(events: try EventReader.events(path: path), asOf: Ledger.everything) : nil
        return try Onboarding.drafts(ruleset: ruleset, answers: answers, asOf: date, existing: existing)
    }

    /// `onboardingDrafts` for answers given as typed values (`Questionnaire.AnswerSheet`, built from the rule set's
    /// `Questionnaire.form(ruleset:)`): the same events as the same answers written by hand.
    public static func onboardingDrafts(journal path: String, ruleset: String, answers: Questionnaire.AnswerSheet,
                                        on date: LocalDate) throws -> [JSONValue] {
        try onboardingDrafts(journal: path, ruleset: ruleset, answers: answers.values, on: date)
    }

    /// "Retake quiz": ends the programme; record the new answers (and programme) afterwards.
    @discardableResult
    public func retakeQuiz(reason: String? = nil) throws(JournalError) -> Event { try send(.programmeReset, [.reason: UserJournal.text(reason)]) }

    /// The user exported data (seed 003's exports history, the profile's `exports`): the format, how much it held and
    /// where it went. The export's bytes come from `Exporters` (JournalInterchange); this records the fact.
    @discardableResult
    public func recordExport(format: String, events: Int? = nil, workouts: Int? = nil, destination: String? = nil) throws(JournalError) -> Event {
        try send(.dataExported, [.format: .string(format), .events: UserJournal.int(events), .workouts: UserJournal.int(workouts),
                                 .destination: UserJournal.text(destination)])
    }

    /// "Clear All Data" (DOMAIN.md §11): every projection and every export starts again from nothing but what
    /// `keeping` names (seed 004 keeps its Settings profile: `[.profile]`), and the bytes stay in the file; for
    /// "Delete account" use `eraseAllData()`, which removes them.
    @discardableResult
    public func clearAllData(keeping: Set<Ledger.ClearKeep> = []) throws(JournalError) -> Event {
        let keep = Ledger.ClearKeep.allCases.filter(keeping.contains).map { JSONValue.string($0.rawValue) }
        return try send(.dataCleared, [.keep: keep.isEmpty ? nil : .array(keep)])
    }

    /// "Delete account" (DOMAIN.md §11), or a clear whose bytes must go too: erases every event physically (FORMAT.md §6 "Erasure"):
    /// the journal then holds only the marker `data.erased`, and no snapshot, torn-tail file or recorded backup keeps
    /// a byte of what was erased. Recording goes on; every view starts from nothing.
    ///
    /// `adopting`: the marker of an erasure made on another device, which a sync pulled (SYNC.md §"Account erasure";
    /// `EventJournal.eraseAllData(adopting:)`); it is not this device's event, so `appendedEvents()` does not see it.
    @discardableResult
    public func eraseAllData(adopting marker: Event? = nil) throws(JournalError) -> EventJournal.Erasure {
        lock.lock()
        defer { lock.unlock() }
        try checkOpenLocked()
        let erasure = try journal.eraseAllData(adopting: marker)
        folded = Ledger(asOf: folded.asOf)
        folded.apply(erasure.marker)
        lastEventAt = erasure.marker.at
        notifyLocked(appended: marker == nil ? [erasure.marker] : [])
        return erasure
    }
}

extension JSONValue {
    /// The id as a JSON string, as the events hold it.
    static func string(_ id: some TypedID) -> JSONValue { .string(id.rawValue) }
}
