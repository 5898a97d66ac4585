import JournalEvents

/// The lifter's rules at append time (FORMAT.md §"Rules at append time"): favourites, supersets,
/// the rest timer, templates and plans, and history edits of finished workouts.
///
/// They read the model (`RecordingRules.ledger`): a workout's exercise order, superset groups, completed sets and
/// times are the `WorkoutRecord` every view shows, and the order an `exercise.added` or `exercises.reordered` would
/// leave is the one fold's answer on that workout alone (`orderAfter(_:in:)`), not a copy of its logic.
extension WorkoutRecord {
    /// Exercise ids in display order.
    var order: [String] { exercises.map(\.exercise) }

    /// Whether set `set` of `exercise` is completed.
    func hasCompleted(_ exercise: String, set: Int) -> Bool { sets.contains { $0.set == set && $0.exercise == exercise } }

    /// The group of `exercise`, with its members in display order.
    func group(of exercise: String) -> (group: String, members: [String])? {
        guard let entry = supersets.first(where: { $0.exercises.contains(exercise) }) else { return nil }
        return (entry.group, order.filter(entry.exercises.contains))
    }

    /// The first of `groups` whose members would not sit next to each other in `order`.
    static func brokenGroup(_ groups: [SupersetGroup], order: [String]) -> (group: String, members: [String])? {
        for entry in groups {
            let positions = entry.exercises.compactMap { order.firstIndex(of: $0) }.sorted()
            guard let first = positions.first, let last = positions.last else { continue }
            if last - first + 1 != positions.count { return (entry.group, order.filter(entry.exercises.contains)) }
        }
        return nil
    }

    /// The latest completed set still completed (the drop-set rule): the one ticked last.
    var lastCompletedSet: LoggedSet? {
        sets.indices.max { (sets[$0].at.epochMilliseconds, $0) < (sets[$1].at.epochMilliseconds, $1) }.map { sets[$0] }
    }
}

extension RecordingRules {
    /// The exercise order `event` would leave in `workout`: the one fold applied to that workout alone.
    func orderAfter(_ event: Event, in workout: WorkoutRecord) -> [String] { workoutAfter(event, in: workout).order }

    /// `workout` as `event` would leave it: the one fold applied to that workout alone.
    func workoutAfter(_ event: Event, in workout: WorkoutRecord) -> WorkoutRecord {
        var scratch = Ledger(asOf: Ledger.everything)
        scratch.workouts = [workout]
        scratch.workoutIndex = [workout.id: 0]
        scratch.apply(event)
        return scratch.workouts[0]
    }

    /// The lifter's rules; `checkWorkoutState` has already accepted the workout's status.
    func checkLifterRules(_ event: Event, _ record: Int?) -> EventRuleViolation? {
        func refuse(_ field: String?, _ rule: String) -> EventRuleViolation {
            EventRuleViolation(type: event.type, field: field, value: field.flatMap { event[$0] }, rule: rule)
        }
        func list(_ names: [String]) -> String { names.joined(separator: ", ") }
        func isTemplate(_ id: String) -> Bool { ledger.templates.contains { $0.id == id } }
        switch event.knownType {
        case .exerciseFavourited?:
            guard let id = event.string(.exercise), !ledger.favourites.contains(id),
                  ledger.favourites.count >= Ledger.maximumFavourites else { return nil }
            return refuse("exercise", "cannot be added: \(Ledger.maximumFavourites) exercises are already favourites (at most \(Ledger.maximumFavourites); unfavourite one first)")
        case .templateCreated?:
            guard let id = event.string(.template), isTemplate(id) else { return nil }
            return refuse("template", "is already a template of this journal (change it with template.updated)")
        case .templateUpdated?, .templateDeleted?:
            guard let id = event.string(.template), !isTemplate(id) else { return nil }
            return refuse("template", "is not a template of this journal (create it with template.created first)")
        default:
            break
        }
        guard let workout = event.string(.workout) else { return nil }
        if event.knownType == .workoutStarted {
            if let template = event.string(.template), !isTemplate(template) {
                return refuse("template", "is not a template of this journal (create it with template.created first)")
            }
            if let plan = event.string(.plan), !ledger.plans.contains(where: { $0.id == plan }) {
                return refuse("plan", "is not a planned workout of this journal (record a workout.planned first)")
            }
            if let previous = event.string(.repeatOf), ledger.workout(previous)?.status != .finished {
                return refuse("repeat_of", "is not a finished workout of this journal")
            }
            return nil
        }
        guard let position = record else { return nil }
        let status = ledger.workouts[position].status
        let exercise = event.string(.exercise)
        switch event.knownType {
        case .workoutDeleted?:
            if status == .open { return refuse("workout", "is not finished (an open workout is discarded with workout.discarded)") }
        case .workoutEdited?:
            if event[.finishedAt] != nil && status != .finished {
                return refuse("finished_at", "cannot be set: workout \"\(workout)\" is not finished yet")
            }
            let start = event.string(.startedAt).flatMap(Timestamp.init(rfc3339:)) ?? ledger.workouts[position].startedAt
            let finish = event.string(.finishedAt).flatMap(Timestamp.init(rfc3339:)) ?? ledger.workouts[position].finishedAt
            if let finish, finish.epochMilliseconds < start.epochMilliseconds {
                if event[.finishedAt] != nil { return refuse("finished_at", "must not be before the start (\(start.rfc3339))") }
                return refuse("started_at", "must not be after the finish (\(finish.rfc3339))")
            }
        case .workoutFinished?:
            // A workout logged afterwards cannot end before it started.
            guard let finish = event.string(.finishedAt).flatMap(Timestamp.init(rfc3339:)),
                  finish.epochMilliseconds < ledger.workouts[position].startedAt.epochMilliseconds else { return nil }
            return refuse("finished_at", "must not be before the start (\(ledger.workouts[position].startedAt.rfc3339))")
        case .setRated?:
            guard let exercise, let set = event.int(.set) else { return nil }
            if !ledger.workouts[position].hasCompleted(exercise, set: set) {
                return refuse("set", "is not a completed set of \(exercise) in workout \"\(workout)\" (RPE is recorded after completing a set)")
            }
        case .setEdited?, .setNoted?, .setRemoved?:
            // A unit-only edit keeps the number: it must be within the limit of the new unit (800 lb is not 800 kg).
            if event.knownType == .setEdited, event[.weight] == nil, let unit = event.string(.unit), let exercise, let set = event.int(.set),
               let logged = ledger.workouts[position].sets.first(where: { $0.exercise == exercise && $0.set == set }),
               let maximum = EventVocabulary.maximumWeight[unit], logged.weight > maximum {
                return refuse("unit", "would make set \(set) of \(exercise) \(formatNumber(logged.weight)) \(unit), above the \(formatNumber(maximum)) \(unit) limit "
                              + "(0–\(formatNumber(maximum)) \(unit)); give the weight in \(unit) with the unit")
            }
            guard status == .finished, let exercise, let set = event.int(.set) else { return nil }
            if !ledger.workouts[position].hasCompleted(exercise, set: set) {
                return refuse("set", "is not a completed set of \(exercise) in finished workout \"\(workout)\" (finishing dropped the incomplete sets)")
            }
            if event.knownType == .setRemoved, !workoutAfter(event, in: ledger.workouts[position]).hasPerformance {
                return refuse("set", WorkoutRecord.emptiedByEdit(workout))
            }
        case .exerciseNoted?, .exerciseRemoved?:
            guard status == .finished, let exercise else { return nil }
            if !ledger.workouts[position].order.contains(exercise) {
                return refuse("exercise", "is not in finished workout \"\(workout)\" (finishing dropped exercises with no completed set)")
            }
            if event.knownType == .exerciseRemoved, !workoutAfter(event, in: ledger.workouts[position]).hasPerformance {
                return refuse("exercise", WorkoutRecord.emptiedByEdit(workout))
            }
        case .exerciseAdded?:
            guard exercise != nil else { return nil }
            let record = ledger.workouts[position]
            if let broken = WorkoutRecord.brokenGroup(record.supersets, order: orderAfter(event, in: record)) {
                return refuse(event[.position] != nil ? "position" : "exercise",
                              "would split superset \"\(broken.group)\" (\(list(broken.members))); add it before or after the group")
            }
        case .exercisesReordered?:
            let record = ledger.workouts[position]
            if let broken = WorkoutRecord.brokenGroup(record.supersets, order: orderAfter(event, in: record)) {
                return refuse("order", "would separate superset \"\(broken.group)\" (\(list(broken.members))); move a superset as one block or unlink it first")
            }
        case .supersetLinked?:
            let record = ledger.workouts[position]
            let order = record.order
            let members = event.array(.exercises)?.compactMap(\.stringValue) ?? []
            if Set(members).count != members.count { return refuse("exercises", "names an exercise twice") }
            if let missing = members.first(where: { !order.contains($0) }) {
                return refuse("exercises", "names \"\(missing)\", which is not in workout \"\(workout)\"")
            }
            let positions = members.compactMap { order.firstIndex(of: $0) }.sorted()
            if let first = positions.first, let last = positions.last, last - first + 1 != positions.count {
                return refuse("exercises", "are not adjacent in the workout (order: \(list(order))); a superset links adjacent exercises or groups")
            }
            // Linking part of a group would leave its other members on both sides of the new one.
            let others = record.supersets.map { SupersetGroup(group: $0.group, exercises: $0.exercises.filter { !members.contains($0) }) }
                .filter { $0.exercises.count >= 2 }
            if let broken = WorkoutRecord.brokenGroup(others, order: order) {
                return refuse("exercises", "would split superset \"\(broken.group)\" (\(list(broken.members))); link whole groups")
            }
        case .supersetUnlinked?:
            if !ledger.workouts[position].supersets.contains(where: { $0.group == event.string(.group) }) {
                return refuse("group", "is not a superset of workout \"\(workout)\"")
            }
        case .restStarted?:
            guard status == .open, let exercise else { return nil }
            if let last = ledger.workouts[position].lastCompletedSet, last.kind == .drop {
                return refuse("exercise", "cannot start a rest: the last completed set (set \(last.set) of \(last.exercise)) is a drop set, and drop sets do not start the rest timer")
            }
            if let group = ledger.workouts[position].group(of: exercise), group.members.last != exercise {
                return refuse("exercise", "is not the last exercise of superset \"\(group.group)\" (\(list(group.members))); in a superset the rest timer starts after the last one")
            }
        default:
            break
        }
        return nil
    }
}
