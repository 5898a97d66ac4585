/// The rules an event must satisfy given everything already in the journal
/// (FORMAT.md §"Rules at append time"). A pure fold: `apply` each stored event, then
/// `prepare` a new one to fill in its envelope and check it.
public struct RecordingRules: Sendable {
    public enum WorkoutStatus: Sendable, Equatable { case open, finished, discarded, deleted }

    public private(set) var lastSeq = 0
    public private(set) var lastAt: Timestamp?
    private var ids = Set<String>()
    private var counters: [String: Int] = [:]
    public private(set) var workouts: [String: WorkoutStatus] = [:]
    /// Completed sets (`exercise#set`) and cardio entries (`cardio:exercise`) per open or finished workout.
    var completed: [String: Set<String>] = [:]
    /// What the lifter's rules need beyond workout status (issue 8): exercise order, supersets, templates, …
    var lifter = LifterState()

    public init() {}

    /// Folds an event already in the journal (no checks).
    public mutating func apply(_ event: Event) {
        lastSeq = max(lastSeq, event.seq)
        if lastAt == nil || event.at > lastAt! { lastAt = event.at }
        ids.insert(event.id)
        if let id = EventID(event.id) { counters[id.device] = max(counters[id.device] ?? 0, id.counter) }
        applyLifter(event)
        guard let workout = event.string("workout") else { return }
        switch event.type {
        case "workout.started": workouts[workout] = .open
        case "workout.finished":
            workouts[workout] = .finished
            lifter.finish(workout, completed: completed[workout] ?? [])
        case "workout.discarded": workouts[workout] = .discarded; completed[workout] = nil
        case "workout.deleted": workouts[workout] = .deleted
        case "set.completed":
            if let key = setKey(event) { completed[workout, default: []].insert(key) }
        case "set.uncompleted", "set.removed":
            if let key = setKey(event) { completed[workout]?.remove(key) }
        case "cardio.logged":
            completed[workout, default: []].insert("cardio:\(event.string("exercise") ?? "")")
        default: break
        }
    }

    private func setKey(_ event: Event) -> String? {
        guard let exercise = event.string("exercise"), let set = event.int("set") else { return nil }
        return "\(exercise)#\(set)"
    }

    /// The next id counter for `device`.
    public func nextID(device: String) -> String { EventID(device: device, counter: (counters[device] ?? 0) + 1).text }

    /// Why a draft cannot be appended.
    public enum Problem: Error, Equatable, CustomStringConvertible, Sendable {
        case notAnObject(found: String)
        case envelope(EventCodec.DecodingError)
        case rule(EventRuleViolation)

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
        var keys = Set<String>()
        for field in object.fields where !keys.insert(field.key).inserted {
            return .failure(.envelope(EventCodec.DecodingError(field: field.key, reason: "appears twice in the same event")))
        }
        let type = object["type"]?.stringValue ?? ""
        if object["v"] == nil { object["v"] = .int(EventVocabulary.schema(for: type)?.version ?? 1) }
        if object["seq"] == nil { object["seq"] = .int(lastSeq + 1) }
        if object["id"] == nil { object["id"] = .string(nextID(device: device)) }
        if object["at"] == nil { object["at"] = .string(now.rfc3339) }
        // Keep the envelope first, in the canonical order.
        let envelope = ["v", "seq", "id", "at", "type"]
        object = JSONObject(envelope.compactMap { key in object[key].map { JSONField(key, $0) } }
            + object.fields.filter { !envelope.contains($0.key) })
        let event: Event
        do { event = try EventCodec.decode(.object(object)) } catch { return .failure(.envelope(error)) }
        if let violation = check(event, allowUnknownTypes: allowUnknownTypes) { return .failure(.rule(violation)) }
        return .success(event)
    }

    /// Checks a complete event against the schema and the journal so far.
    public func check(_ event: Event, allowUnknownTypes: Bool = false) -> EventRuleViolation? {
        if event.type == "data.erased" {
            // The erasure marker (FORMAT.md §6 "Erasure") starts an erased journal, its seq following the erased ones.
            guard lastSeq == 0 && ids.isEmpty else {
                return EventRuleViolation(type: event.type, field: "type", value: .string(event.type),
                                          rule: "is written only by erasure, as the first event of an erased journal (use `journal erase`)")
            }
            if let violation = SchemaValidator.validate(event, allowUnknownTypes: allowUnknownTypes) { return violation }
            return event.int("through_seq") == event.seq - 1 ? nil : EventRuleViolation(
                type: event.type, field: "through_seq", value: event.fields["through_seq"],
                rule: "must be this event's seq minus 1 (\(event.seq - 1))")
        }
        if event.seq != lastSeq + 1 {
            let rule = event.seq <= lastSeq ? "is already used (the last seq is \(lastSeq))" : "would leave a gap (the next seq is \(lastSeq + 1))"
            return EventRuleViolation(type: event.type, field: "seq", value: .int(event.seq), rule: rule)
        }
        if ids.contains(event.id) {
            return EventRuleViolation(type: event.type, field: "id", value: .string(event.id), rule: "is already used by another event in this journal")
        }
        if let violation = SchemaValidator.validate(event, allowUnknownTypes: allowUnknownTypes) { return violation }
        if let violation = checkWorkoutState(event) { return violation }
        return checkLifterRules(event)
    }

    /// Types that may also change a finished workout (history edits).
    static let historyEditTypes: Set<String> = [
        "workout.edited", "workout.deleted", "workout.noted", "set.edited", "set.removed", "set.rated", "set.noted",
        "exercise.noted", "exercise.removed", "exercise.added", "cardio.logged",
        // Seed 004's edit mode also reorders exercises and links or unlinks supersets.
        "exercises.reordered", "superset.linked", "superset.unlinked",
    ]

    func checkWorkoutState(_ event: Event) -> EventRuleViolation? {
        guard let workout = event.string("workout") else { return nil }
        let status = workouts[workout]
        if event.type == "workout.started" {
            if status != nil {
                return EventRuleViolation(type: event.type, field: "workout", value: .string(workout), rule: "is already used by an earlier workout in this journal")
            }
            return nil
        }
        guard let status else {
            return EventRuleViolation(type: event.type, field: "workout", value: .string(workout),
                                      rule: "has not been started (record a workout.started with this workout id first)")
        }
        switch status {
        case .open:
            if event.type == "workout.finished", completed[workout]?.isEmpty ?? true {
                return EventRuleViolation(type: event.type, field: "workout", value: .string(workout),
                                          rule: "has no completed set; complete at least one set or discard the workout")
            }
            return nil
        case .finished:
            if RecordingRules.historyEditTypes.contains(event.type) { return nil }
            if event.type == "set.completed" && event.bool("edited") == true { return nil }
            return EventRuleViolation(type: event.type, field: "workout", value: .string(workout),
                                      rule: "is already finished (to correct it, use set.edited, set.removed or set.completed with \"edited\": true)")
        case .discarded, .deleted:
            return EventRuleViolation(type: event.type, field: "workout", value: .string(workout),
                                      rule: "was \(status == .discarded ? "discarded" : "deleted") and cannot change")
        }
    }
}
