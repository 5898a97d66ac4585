import JournalEvents

/// The rules an event must satisfy given everything already in the journal
/// (FORMAT.md §"Rules at append time"). A pure fold: `apply` each stored event, then
/// `prepare` a new one to fill in its envelope and check it.
///
/// What the rules check against is the model: `ledger`, the one fold (`Ledger`, as of the far future), so a rule
/// sees a workout, its sets, exercise order, supersets, times, the templates, plans and favourites exactly as every
/// view does. The rules keep only facts about the stream itself: the last seq and time, the ids used, each
/// device's id counter and every workout id ever started (an id is never reused, `data.cleared` or not).
public struct RecordingRules: Sendable {
    public enum WorkoutStatus: Sendable, Equatable { case open, finished, discarded, deleted }

    public private(set) var lastSeq = 0
    public private(set) var lastAt: Timestamp?
    /// The ids used and each device's highest id counter.
    private var ids = UsedEventIDs()
    /// Every workout id ever started, including those `data.cleared` removed from the model.
    private var startedWorkouts = Set<String>()
    /// Workouts that are history rather than live sessions (`startsRecordedAfterwards`: imported or logged afterwards).
    private(set) var recordedAfterwards = Set<String>()
    /// The model the rules check against.
    public private(set) var ledger = Ledger(asOf: Ledger.everything)
    /// Catalogue exercise ids; nil: exercise ids are not checked against a catalogue.
    public let catalogue: Set<String>?
    /// Refuse a live `workout.started` while another live workout is open (seed apps: one active workout).
    public let oneOpenWorkout: Bool
    /// Catalogue exercise ids logged as minutes and km (`cardio.logged`), never as sets: the other catalogue ids are
    /// strength exercises (`checkEntry`). Empty: no exercise is known to be either.
    public let cardio: Set<String>
    /// The `category` of each custom exercise's latest `exercise.created` (`cardio` makes it a cardio exercise).
    private(set) var customCategories: [String: String] = [:]

    /// `catalogue`: the exercise ids every journal may name (TrainingDomain's catalogue); custom ones come from
    /// `exercise.created`. Without it, exercise ids are only checked for shape. `oneOpenWorkout`: see
    /// `checkNewEvent`; off for tools that write what several devices recorded. `cardio`: the catalogue's cardio
    /// exercise ids (TrainingDomain's), for the rule that keeps sets and cardio entries on their own kind of exercise.
    public init(catalogue: Set<String>? = nil, oneOpenWorkout: Bool = false, cardio: Set<String> = []) {
        self.catalogue = catalogue
        self.oneOpenWorkout = oneOpenWorkout
        self.cardio = cardio
    }

    /// Folds an event already in the journal (no checks).
    public mutating func apply(_ event: Event) {
        _ = ids.insert(event.id)
        fold(event)
    }

    /// `journal verify`'s step over each stored event, in file order: whether its id is already used, and when it is
    /// not, the first rule it breaks given the events before it (`check`'s, seq aside: the verifier reports seq gaps
    /// itself); then it is folded (`apply`). The id is looked up once for both.
    public mutating func verifyStored(_ event: Event) -> (reusedID: Bool, violation: EventRuleViolation?) {
        let fresh = ids.insert(event.id)
        let violation = fresh ? checkContent(event, allowUnknownTypes: true) : nil
        fold(event)
        return (!fresh, violation)
    }

    /// `apply` without recording the id (and its device's counter).
    private mutating func fold(_ event: Event) {
        lastSeq = max(lastSeq, event.seq)
        if lastAt == nil || event.at > lastAt! { lastAt = event.at }
        let started = ledger.workouts.count
        ledger.apply(event)
        if event.knownType == .exerciseCreated, let id = event.string(.exercise) {
            customCategories[id] = event.string(.category)?.trimmed.lowercased()
        }
        if ledger.workouts.count == started + 1, let workout = ledger.workouts.last {
            startedWorkouts.insert(workout.id)
            if RecordingRules.startsRecordedAfterwards(event) { recordedAfterwards.insert(workout.id) }
        }
    }

    /// Whether a `workout.started` ever used `workout` as its id (`data.cleared` or not).
    public func isUsed(workout: String) -> Bool { startedWorkouts.contains(workout) }

    /// The status of `workout` in the model; nil when it was never started or `data.cleared` removed it.
    public func status(of workout: String) -> WorkoutStatus? {
        switch ledger.workout(workout)?.status {
        case .open?: return .open
        case .finished?: return .finished
        case .discarded?: return .discarded
        case .deleted?: return .deleted
        case nil: return nil
        }
    }

    /// The next id counter for `device`.
    public func nextID(device: String) -> String {
        EventID(device: device, counter: ids.highestCounter(of: device) + 1).text
    }

    /// Why a draft cannot be appended.
    public enum Problem: Error, Equatable, CustomStringConvertible, Sendable {
        case notAnObject(found: String)
        case envelope(EventCodec.DecodingError)
        case rule(EventRuleViolation)

        /// A stable code (README.md §"Error codes"): the rule's own (`record.unknown_exercise`, …) or the envelope's.
        public var code: String {
            switch self {
            case .notAnObject: return "record.not_an_object"
            case .envelope: return "record.bad_envelope"
            case .rule(let violation): return violation.code
            }
        }

        public var description: String {
            switch self {
            case .notAnObject(let kind): return "an event must be a JSON object, found \(kind)"
            case .envelope(let error): return error.description
            case .rule(let violation): return violation.description
            }
        }
    }

    /// Fills the envelope keys that are absent (`v` from the schema, `seq`, `id` from `device`,
    /// `at` from `now`) and checks every rule. Nothing changes: call `apply` once the event is durable.
    public func prepare(_ draft: JSONValue, device: String, now: Timestamp, allowUnknownTypes: Bool = false) -> Result<Event, Problem> {
        guard case .object(var object) = draft else { return .failure(.notAnObject(found: draft.kindName)) }
        // Rebuilding the envelope below would silently drop a repeated key: refuse it here.
        if let repeated = object.firstRepeatedKeyIndex {
            return .failure(.envelope(EventCodec.DecodingError(field: object.fields[repeated].key, reason: "appears twice in the same event")))
        }
        // The envelope keys the draft has, found in one pass (each is there at most once, checked above), the absent
        // ones filled in, then the envelope first in the canonical order and the payload after it in its own.
        var v: JSONValue?, seq: JSONValue?, id: JSONValue?, at: JSONValue?, type: JSONValue?
        var fields: [JSONField] = []
        fields.reserveCapacity(object.count + 5)
        fields.append(contentsOf: repeatElement(JSONField("", .null), count: 5))
        for field in object.fields {
            switch field.key.utf8.count {
            case 1 where field.key == "v": v = field.value
            case 2 where field.key == "id": id = field.value
            case 2 where field.key == "at": at = field.value
            case 3 where field.key == "seq": seq = field.value
            case 4 where field.key == "type": type = field.value
            default: fields.append(field)
            }
        }
        fields[0] = JSONField("v", v ?? .int(EventVocabulary.draftVersion(of: type?.stringValue ?? "")))
        fields[1] = JSONField("seq", seq ?? .int(lastSeq + 1))
        fields[2] = JSONField("id", id ?? .string(nextID(device: device)))
        fields[3] = JSONField("at", at ?? .string(now.rfc3339))
        if let type { fields[4] = JSONField("type", type) } else { fields.remove(at: 4) }
        object = JSONObject(fields)
        let event: Event
        do { event = try EventCodec.decode(.object(object)) } catch { return .failure(.envelope(error)) }
        return prepare(complete: event, allowUnknownTypes: allowUnknownTypes)
    }

    /// `prepare` of a typed draft: its envelope completed as that of `draft.jsonValue` would be (the type's version,
    /// the next seq, the device's next id), with no JSON object to rebuild and decode; the same event and answer.
    public func prepare(_ draft: EventDraft, device: String, allowUnknownTypes: Bool = false) -> Result<Event, Problem> {
        let event: Event
        do { event = try draft.event(v: EventVocabulary.draftVersion(of: draft.type), seq: lastSeq + 1, id: nextID(device: device)) }
        catch { return .failure(.envelope(error)) }
        return prepare(complete: event, allowUnknownTypes: allowUnknownTypes)
    }

    /// `prepare` of a draft that holds its whole envelope, decoded already (`EventCodec.decode` of its line): such a
    /// draft has nothing to fill in, so this is the event and the answer `prepare` gives for the line's JSON value.
    public func prepare(complete event: Event, allowUnknownTypes: Bool = false) -> Result<Event, Problem> {
        if let violation = check(event, allowUnknownTypes: allowUnknownTypes) ?? checkNewEvent(event) { return .failure(.rule(violation)) }
        return .success(event)
    }

    /// Checks a complete event against the schema and the journal so far.
    public func check(_ event: Event, allowUnknownTypes: Bool = false) -> EventRuleViolation? {
        if event.knownType == .dataErased { return checkErasureMarker(event, allowUnknownTypes: allowUnknownTypes) }
        if event.seq != lastSeq + 1 {
            let rule = event.seq <= lastSeq ? "is already used (the last seq is \(lastSeq))" : "would leave a gap (the next seq is \(lastSeq + 1))"
            return EventRuleViolation(type: event.type, field: "seq", value: .int(event.seq), rule: rule, code: EventRuleViolation.seqConflict)
        }
        if ids.contains(event.id) {
            return EventRuleViolation(type: event.type, field: "id", value: .string(event.id), rule: "is already used by another event in this journal", code: EventRuleViolation.duplicateID)
        }
        return checkContent(event, allowUnknownTypes: allowUnknownTypes)
    }

    /// `check` after its seq and id rules: the schema, the workout's state, the lifter's and the reference rules.
    func checkContent(_ event: Event, allowUnknownTypes: Bool) -> EventRuleViolation? {
        if event.knownType == .dataErased { return checkErasureMarker(event, allowUnknownTypes: allowUnknownTypes) }
        if let violation = SchemaValidator.validate(event, allowUnknownTypes: allowUnknownTypes) { return violation }
        // Where the workout the event names is in the model, looked up once for the three (nil: none named, or not in
        // the model); they read it in place (`ledger.workouts[record]`), not through a copy.
        let record = event.string(.workout).flatMap { ledger.position(ofWorkout: $0) }
        if let violation = checkWorkoutState(event, record) { return violation }
        if let violation = checkLifterRules(event, record) { return violation }
        return checkReferences(event, record)
    }

    /// The erasure marker (FORMAT.md §6 "Erasure") starts an erased journal, its seq following the erased ones: only
    /// as the first event (nothing folded yet), with `through_seq` its seq minus 1.
    func checkErasureMarker(_ event: Event, allowUnknownTypes: Bool) -> EventRuleViolation? {
        guard lastSeq == 0 else {
            return EventRuleViolation(type: event.type, field: "type", value: .string(event.type),
                                      rule: "is written only by erasure, as the first event of an erased journal (use `journal erase`)")
        }
        if let violation = SchemaValidator.validate(event, allowUnknownTypes: allowUnknownTypes) { return violation }
        return event.int(.throughSeq) == event.seq - 1 ? nil : EventRuleViolation(
            type: event.type, field: "through_seq", value: event[.throughSeq],
            rule: "must be this event's seq minus 1 (\(event.seq - 1))")
    }

    /// Types that may also change a finished workout (history edits).
    public static let historyEditTypes: Set<EventType> = [
        .workoutEdited, .workoutDeleted, .workoutNoted, .setEdited, .setRemoved, .setRated, .setNoted,
        .exerciseNoted, .exerciseRemoved, .exerciseAdded, .cardioLogged,
        // Seed 004's edit mode also reorders exercises and links or unlinks supersets.
        .exercisesReordered, .supersetLinked, .supersetUnlinked,
    ]

    /// `record`: the position in `ledger.workouts` of the workout named by `event`'s `workout`.
    func checkWorkoutState(_ event: Event, _ record: Int?) -> EventRuleViolation? {
        guard let workout = event.string(.workout) else { return nil }
        if event.knownType == .workoutStarted {
            if startedWorkouts.contains(workout) {
                return EventRuleViolation(type: event.type, field: "workout", value: .string(workout), rule: "is already used by an earlier workout in this journal", code: EventRuleViolation.workoutExists)
            }
            return nil
        }
        guard let record else {
            if startedWorkouts.contains(workout), let cleared = ledger.clearedAtSeq {
                return EventRuleViolation(type: event.type, field: "workout", value: .string(workout),
                                          rule: "was removed by data.cleared (seq \(cleared)) and cannot change", code: EventRuleViolation.workoutClosed)
            }
            return EventRuleViolation(type: event.type, field: "workout", value: .string(workout),
                                      rule: "has not been started (record a workout.started with this workout id first)", code: EventRuleViolation.unknownWorkout)
        }
        switch ledger.workouts[record].status {
        case .open:
            if event.knownType == .workoutFinished, !ledger.workouts[record].hasPerformance {
                return EventRuleViolation(type: event.type, field: "workout", value: .string(workout),
                                          rule: "has no completed set; complete at least one set or discard the workout", code: EventRuleViolation.noCompletedSet)
            }
            return nil
        case .finished:
            if let type = event.knownType, RecordingRules.historyEditTypes.contains(type) { return nil }
            if event.knownType == .setCompleted && event.bool(.edited) == true { return nil }
            return EventRuleViolation(type: event.type, field: "workout", value: .string(workout),
                                      rule: "is already finished (to correct it, use set.edited, set.removed or set.completed with \"edited\": true)", code: EventRuleViolation.workoutClosed)
        case .discarded, .deleted:
            return EventRuleViolation(type: event.type, field: "workout", value: .string(workout),
                                      rule: "was \(ledger.workouts[record].status == .discarded ? "discarded" : "deleted") and cannot change", code: EventRuleViolation.workoutClosed)
        }
    }
}
