import JournalEvents

/// Reference rules at append time (FORMAT.md §"Rules at append time"): the exercises, programme sessions
/// and workouts an event names must exist, and one live workout is open at a time. Like the lifter's rules they read
/// the model (`RecordingRules.ledger`): its custom exercises, programme, workouts, their exercises and completed sets.
extension RecordingRules {
    /// The first exercise id `event` names that `refused` refuses, with its field path: its `exercise`, a swap's `to`,
    /// and the `exercise` of each entry of a template's, plan's or programme session's `exercises`, in that order. The
    /// path is rendered only for the id refused (every stored event is checked: no strings built otherwise).
    static func firstExerciseReference(in event: Event, refusedBy refused: (String) -> Bool) -> (field: String, id: String)? {
        if event.knownType != .exerciseCreated, let id = event.string(.exercise), refused(id) { return ("exercise", id) }
        if event.knownType == .exerciseSwapped, let id = event.string(.to), refused(id) { return ("to", id) }
        func entries(_ list: [JSONValue]?, _ path: () -> String) -> (field: String, id: String)? {
            for (index, entry) in (list ?? []).enumerated() {
                if let id = entry.objectValue?["exercise"]?.stringValue, refused(id) { return ("\(path())[\(index)].exercise", id) }
            }
            return nil
        }
        if let found = entries(event.array(.exercises), { "exercises" }) { return found }
        if event.knownType == .programmeGenerated {
            for (index, session) in (event.object(.programme)?["sessions"]?.arrayValue ?? []).enumerated() {
                if let found = entries(session.objectValue?["exercises"]?.arrayValue, { "programme.sessions[\(index)].exercises" }) { return found }
            }
        }
        return nil
    }

    /// Whether `event` starts a workout that is history rather than a live session: imported from another app
    /// (`source`) or logged afterwards (`started_at`). Such a workout keeps what the other app or the lifter wrote (a
    /// 0-rep set) and may be recorded while a live workout is open.
    static func startsRecordedAfterwards(_ event: Event) -> Bool {
        event.knownType == .workoutStarted && (event[.source] != nil || event[.startedAt] != nil)
    }

    /// `record`: the position in `ledger.workouts` of the workout named by `event`'s `workout`.
    func checkReferences(_ event: Event, _ record: Int?) -> EventRuleViolation? {
        func refuse(_ field: String, _ value: JSONValue?, _ rule: String, code: String = EventRuleViolation.ruleViolation) -> EventRuleViolation {
            EventRuleViolation(type: event.type, field: field, value: value, rule: rule, code: code)
        }
        if let catalogue {
            let custom = ledger.customExercises  // not `self` in the closure: that would copy the rules per event
            if let (field, id) = RecordingRules.firstExerciseReference(in: event, refusedBy: { !catalogue.contains($0) && custom[$0] == nil }) {
                return refuse(field, .string(id), "is neither a catalogue exercise nor a custom exercise of this journal "
                              + "(check the spelling with `journal catalog --search TEXT`, or record an exercise.created for it first)",
                              code: EventRuleViolation.unknownExercise)
            }
        }
        switch event.knownType {
        case .workoutStarted?:
            // Without a programme the index is not checked (journals and tools that number workouts without one).
            let sessions = ledger.programme?.sessions.count ?? 0
            if let session = event.int(.session), sessions > 0, session >= sessions {
                return refuse("session", event[.session], "is beyond the programme's \(sessions) sessions (0…\(sessions - 1); null for a workout outside the programme)")
            }
        case .workoutPaused?:
            if let record, ledger.workouts[record].pausedAt != nil {
                return refuse("workout", event[.workout], "is already paused (resume it with workout.resumed)")
            }
        case .workoutResumed?:
            if let record, ledger.workouts[record].pausedAt == nil {
                return refuse("workout", event[.workout], "is not paused (pause it with workout.paused first)")
            }
        case .exerciseSubmitted?:
            // Seed 000/001: "Submit exercise" needs at least one completed set (or, for cardio, its entry).
            guard let record, let exercise = event.string(.exercise) else { return nil }
            let workout = ledger.workouts[record]
            if !workout.sets.contains(where: { $0.exercise == exercise }) && !workout.cardio.contains(where: { $0.exercise == exercise }) {
                return refuse("exercise", event[.exercise], "has no completed set in workout \"\(workout.id)\" (complete at least one set before submitting it)")
            }
        case .exerciseSwapped?:
            guard let record, let from = event.string(.from) else { return nil }
            let workout = ledger.workouts[record]
            if event.string(.to) == from { return refuse("to", event[.to], "is the exercise being swapped (\"from\"); swap onto another exercise") }
            if !workout.order.contains(from) {
                return refuse("from", event[.from], "is not in workout \"\(workout.id)\" (its exercises: \(workout.order.joined(separator: ", ")))")
            }
        default:
            break
        }
        return nil
    }

    /// Rules for new events only (`prepare`), not re-judged by `journal verify` on what is already stored: journals
    /// written before the rule existed keep them (the 2-year sample holds 0-rep working sets of simulated failures),
    /// and a journal merged from two devices may hold one open workout of each. With `oneOpenWorkout` (the app's and
    /// the CLI's writers) a live `workout.started` is refused while another live workout is open.
    func checkNewEvent(_ event: Event) -> EventRuleViolation? {
        if oneOpenWorkout, event.knownType == .workoutStarted, !RecordingRules.startsRecordedAfterwards(event),
           let open = ledger.workouts.indices.lazy
               .filter({ ledger.workouts[$0].status == .open && !recordedAfterwards.contains(ledger.workouts[$0].id) })
               .map({ ledger.workouts[$0].id }).min() {
            return EventRuleViolation(type: event.type, field: "workout", value: event[.workout],
                                      rule: "cannot start while workout \"\(open)\" is open (one active workout at a time, as in the seed apps: finish or discard \"\(open)\" first)",
                                      code: EventRuleViolation.anotherWorkoutOpen)
        }
        if let violation = checkEntry(event) { return violation }
        guard event.knownType == .setCompleted, event.string(.kind) == "working", event.int(.reps) == 0,
              !(event.string(.workout).map(recordedAfterwards.contains) ?? false) else { return nil }
        return EventRuleViolation(type: event.type, field: "reps", value: event[.reps],
                                  rule: "must be at least 1 on a working set (seed 000: a positive whole number; log a failed attempt as kind \"failure\")")
    }
}
