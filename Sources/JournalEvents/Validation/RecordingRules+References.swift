/// Reference rules at append time (issue 16; FORMAT.md §"Rules at append time"): the exercises, programme sessions
/// and workouts an event names must exist, and one live workout is open at a time.
struct ReferenceState: Sendable {
    /// Ids created by `exercise.created` (kept across `data.cleared`: old events still name them).
    var customExercises = Set<String>()
    /// Workouts imported from another app or logged afterwards (`source` or `started_at` on `workout.started`): they
    /// keep what the other app or the lifter wrote (a 0-rep set) and may be recorded while a live workout is open.
    var recordedAfterwards = Set<String>()
    /// Open workouts whose session timer is paused (`workout.paused` until `workout.resumed` or the end).
    var paused = Set<String>()
}

extension RecordingRules {
    mutating func applyReferences(_ event: Event) {
        switch event.type {
        case "exercise.created":
            if let id = event.string("exercise") { references.customExercises.insert(id) }
        case "workout.started":
            if let id = event.string("workout"), event["source"] != nil || event["started_at"] != nil {
                references.recordedAfterwards.insert(id)
            }
        case "workout.paused":
            if let id = event.string("workout") { references.paused.insert(id) }
        case "workout.resumed", "workout.finished", "workout.discarded":
            if let id = event.string("workout") { references.paused.remove(id) }
        default:
            break
        }
    }

    /// Where an event names exercises: its `exercise`, a swap's `to`, and the `exercise` of each entry of a
    /// template's, plan's or programme session's `exercises`, as (field path, id).
    static func exerciseReferences(_ event: Event) -> [(field: String, id: String)] {
        var found: [(String, String)] = []
        if event.type != "exercise.created", let id = event.string("exercise") { found.append(("exercise", id)) }
        if event.type == "exercise.swapped", let id = event.string("to") { found.append(("to", id)) }
        func entries(_ list: [JSONValue]?, _ path: String) {
            for (index, entry) in (list ?? []).enumerated() {
                if let id = entry.objectValue?["exercise"]?.stringValue { found.append(("\(path)[\(index)].exercise", id)) }
            }
        }
        entries(event.array("exercises"), "exercises")
        if event.type == "programme.generated" {
            for (index, session) in (event.object("programme")?["sessions"]?.arrayValue ?? []).enumerated() {
                entries(session.objectValue?["exercises"]?.arrayValue, "programme.sessions[\(index)].exercises")
            }
        }
        return found
    }

    func checkReferences(_ event: Event) -> EventRuleViolation? {
        func refuse(_ field: String, _ value: JSONValue?, _ rule: String) -> EventRuleViolation {
            EventRuleViolation(type: event.type, field: field, value: value, rule: rule)
        }
        if let catalogue {
            for (field, id) in RecordingRules.exerciseReferences(event) where !catalogue.contains(id) && !references.customExercises.contains(id) {
                return refuse(field, .string(id), "is neither a catalogue exercise nor a custom exercise of this journal "
                              + "(check the spelling with `journal catalog --search TEXT`, or record an exercise.created for it first)")
            }
        }
        let workout = event.string("workout")
        switch event.type {
        case "workout.started":
            // Without a programme the index is not checked (journals and tools that number workouts without one).
            if let session = event.int("session"), !lifter.sessions.isEmpty, session >= lifter.sessions.count {
                return refuse("session", event["session"], "is beyond the programme's \(lifter.sessions.count) sessions (0…\(lifter.sessions.count - 1); null for a workout outside the programme)")
            }
        case "workout.paused":
            if let workout, references.paused.contains(workout) {
                return refuse("workout", event["workout"], "is already paused (resume it with workout.resumed)")
            }
        case "workout.resumed":
            if let workout, !references.paused.contains(workout) {
                return refuse("workout", event["workout"], "is not paused (pause it with workout.paused first)")
            }
        case "exercise.submitted":
            // Seed 000/001: "Submit exercise" needs at least one completed set (or, for cardio, its entry).
            guard let workout, let exercise = event.string("exercise") else { return nil }
            let done = completed[workout] ?? []
            if !done.contains(where: { $0.hasPrefix(exercise + "#") }) && !done.contains("cardio:" + exercise) {
                return refuse("exercise", event["exercise"], "has no completed set in workout \"\(workout)\" (complete at least one set before submitting it)")
            }
        case "exercise.swapped":
            guard let workout, let from = event.string("from") else { return nil }
            if event.string("to") == from { return refuse("to", event["to"], "is the exercise being swapped (\"from\"); swap onto another exercise") }
            if !(lifter.order[workout] ?? []).contains(from) {
                return refuse("from", event["from"], "is not in workout \"\(workout)\" (its exercises: \((lifter.order[workout] ?? []).joined(separator: ", ")))")
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
        if event.type == "workout.started", oneOpenWorkout, event["source"] == nil, event["started_at"] == nil,
           let open = workouts.filter({ $0.value == .open && !references.recordedAfterwards.contains($0.key) }).keys.sorted().first {
            return EventRuleViolation(type: event.type, field: "workout", value: event["workout"],
                                      rule: "cannot start while workout \"\(open)\" is open (one active workout at a time, as in the seed apps: finish or discard \"\(open)\" first)")
        }
        guard event.type == "set.completed", event.string("kind") == "working", event.int("reps") == 0,
              !(event.string("workout").map(references.recordedAfterwards.contains) ?? false) else { return nil }
        return EventRuleViolation(type: event.type, field: "reps", value: event["reps"],
                                  rule: "must be at least 1 on a working set (seed 000: a positive whole number; log a failed attempt as kind \"failure\")")
    }
}
