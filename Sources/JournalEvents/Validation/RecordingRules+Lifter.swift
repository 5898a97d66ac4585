/// The lifter's rules at append time (issue 8; FORMAT.md §"Rules at append time"): favourites, supersets,
/// the rest timer, templates and plans, and history edits of finished workouts.
///
/// The exercise order kept here mirrors the projections' (`Ledger`): a workout starts with the exercises of its
/// plan, template, programme session or repeated workout; logging, `exercise.added`, `exercises.reordered`,
/// `exercise.swapped` and `exercise.removed` change it; finishing keeps only exercises with a completed set or
/// a cardio entry (seed 004).
struct LifterState: Sendable {
    /// One prescribed exercise: its id and superset group, if any.
    struct Item: Sendable, Equatable {
        var exercise: String
        var superset: String?
    }
    struct LastSet: Sendable, Equatable {
        var exercise: String
        var set: Int
        var kind: String
    }
    struct Times: Sendable, Equatable {
        var start: Timestamp
        var finish: Timestamp?
    }

    /// Exercises of each open or finished workout, in display order.
    var order: [String: [String]] = [:]
    /// Superset groups of each workout: (group id, members in the order linked).
    var groups: [String: [(group: String, members: [String])]] = [:]
    /// The latest completed set of each open workout (the drop-set rule).
    var lastSet: [String: LastSet] = [:]
    var times: [String: Times] = [:]
    /// Favourites at the moment (seed 004: at most 10).
    var favourites: [String] = []
    var templates: [String: [Item]] = [:]
    var plans: [String: [Item]] = [:]
    /// Exercise ids of each session of the current programme.
    var sessions: [[Item]] = []

    static let maximumFavourites = 10

    mutating func finish(_ workout: String, completed: Set<String>) {
        // Seed 004: finishing drops incomplete sets and exercises with no completed set.
        let performed = (order[workout] ?? []).filter { exercise in
            completed.contains { $0.hasPrefix(exercise + "#") || $0 == "cardio:" + exercise }
        }
        order[workout] = performed
        groups[workout] = groups[workout]?.compactMap { entry in
            let members = entry.members.filter(performed.contains)
            return members.count >= 2 ? (entry.group, members) : nil
        }
        lastSet[workout] = nil
    }

    func performed(_ workout: String) -> [String] { order[workout] ?? [] }

    /// The group of `exercise` in `workout`, with its members in display order.
    func group(of exercise: String, in workout: String) -> (group: String, members: [String])? {
        guard let entry = groups[workout]?.first(where: { $0.members.contains(exercise) }) else { return nil }
        let order = self.order[workout] ?? []
        return (entry.group, order.filter(entry.members.contains))
    }

    /// The first group whose members would not sit next to each other in `order`.
    func brokenGroup(in workout: String, order: [String]) -> (group: String, members: [String])? {
        for entry in groups[workout] ?? [] {
            let positions = entry.members.compactMap { order.firstIndex(of: $0) }.sorted()
            guard let first = positions.first, let last = positions.last else { continue }
            if last - first + 1 != positions.count { return (entry.group, order.filter(entry.members.contains)) }
        }
        return nil
    }

    static func items(_ value: JSONValue?) -> [Item] {
        (value?.arrayValue ?? []).compactMap { element in
            guard let object = element.objectValue, let exercise = object["exercise"]?.stringValue else { return nil }
            return Item(exercise: exercise, superset: object["superset"]?.stringValue)
        }
    }

    /// `exercises.reordered`: the named exercises first in that order, the rest after in theirs (as the ledger does).
    static func reordered(_ current: [String], by named: [String]) -> [String] {
        var result: [String] = []
        for id in named where current.contains(id) && !result.contains(id) { result.append(id) }
        for id in current where !result.contains(id) { result.append(id) }
        return result
    }

    static func inserted(_ exercise: String, into current: [String], at position: Int?) -> [String] {
        guard !current.contains(exercise) else { return current }
        var result = current
        result.insert(exercise, at: min(max(0, position ?? current.count), current.count))
        return result
    }
}

extension RecordingRules {
    /// Folds the lifter's state; runs before the workout status changes.
    mutating func applyLifter(_ event: Event) {
        switch event.type {
        case "data.cleared":
            lifter.favourites = []
            lifter.templates = [:]
            lifter.plans = [:]
            lifter.sessions = []
            return
        case "exercise.favourited":
            if let id = event.string("exercise"), !lifter.favourites.contains(id) { lifter.favourites.append(id) }
            return
        case "exercise.unfavourited":
            lifter.favourites.removeAll { $0 == event.string("exercise") }
            return
        case "template.created":
            if let id = event.string("template") { lifter.templates[id] = LifterState.items(event["exercises"]) }
            return
        case "template.updated":
            if let id = event.string("template"), event["exercises"] != nil, lifter.templates[id] != nil {
                lifter.templates[id] = LifterState.items(event["exercises"])
            }
            return
        case "template.deleted":
            if let id = event.string("template") { lifter.templates[id] = nil }
            return
        case "workout.planned":
            guard let id = event.string("plan") else { return }
            var items = LifterState.items(event["exercises"])
            if items.isEmpty, let previous = event.string("repeat_of"), workouts[previous] == .finished {
                // "Repeat last workout" with nothing listed copies that workout (as the projections do).
                items = lifter.performed(previous).map { exercise in
                    LifterState.Item(exercise: exercise, superset: lifter.groups[previous]?.first { $0.members.contains(exercise) }?.group)
                }
            }
            lifter.plans[id] = items
            return
        case "programme.generated":
            lifter.sessions = (event.object("programme")?["sessions"]?.arrayValue ?? []).map { LifterState.items($0.objectValue?["exercises"]) }
            return
        case "programme.reset":
            lifter.sessions = []
            return
        default:
            break
        }
        guard let workout = event.string("workout") else { return }
        if event.type == "workout.started" {
            guard workouts[workout] == nil else { return }
            var items: [LifterState.Item] = []
            if let plan = event.string("plan"), let planned = lifter.plans[plan] {
                items = planned
            } else if let template = event.string("template"), let saved = lifter.templates[template] {
                items = saved
            } else if let session = event.int("session"), lifter.sessions.indices.contains(session) {
                items = lifter.sessions[session]
            } else if let previous = event.string("repeat_of"), workouts[previous] == .finished {
                items = lifter.performed(previous).map { LifterState.Item(exercise: $0) }
            }
            var order: [String] = []
            var groups: [(group: String, members: [String])] = []
            for item in items where !order.contains(item.exercise) {
                order.append(item.exercise)
                guard let group = item.superset else { continue }
                if let index = groups.firstIndex(where: { $0.group == group }) { groups[index].members.append(item.exercise) }
                else { groups.append((group, [item.exercise])) }
            }
            lifter.order[workout] = order
            lifter.groups[workout] = groups.filter { $0.members.count >= 2 }
            let start = event.string("started_at").flatMap(Timestamp.init(rfc3339:)) ?? event.at
            lifter.times[workout] = LifterState.Times(start: start)
            return
        }
        guard let status = workouts[workout], status == .open || status == .finished else { return }
        let exercise = event.string("exercise")
        switch event.type {
        case "set.completed", "set.added", "cardio.logged", "set.edited":
            guard let exercise else { return }
            if event.type == "set.edited" && status == .finished { return }
            lifter.order[workout] = LifterState.inserted(exercise, into: lifter.order[workout] ?? [], at: nil)
            if event.type == "set.completed", let set = event.int("set") {
                lifter.lastSet[workout] = LifterState.LastSet(exercise: exercise, set: set, kind: event.string("kind") ?? "working")
            }
        case "set.uncompleted", "set.removed":
            if let last = lifter.lastSet[workout], last.exercise == exercise, last.set == event.int("set") { lifter.lastSet[workout] = nil }
        case "exercise.added":
            guard let exercise else { return }
            lifter.order[workout] = LifterState.inserted(exercise, into: lifter.order[workout] ?? [], at: event.int("position"))
        case "exercise.removed":
            guard let exercise else { return }
            lifter.order[workout]?.removeAll { $0 == exercise }
            lifter.groups[workout] = lifter.groups[workout]?.compactMap { entry in
                let members = entry.members.filter { $0 != exercise }
                return members.count >= 2 ? (entry.group, members) : nil
            }
            completed[workout] = completed[workout]?.filter { !($0.hasPrefix(exercise + "#") || $0 == "cardio:" + exercise) }
            if lifter.lastSet[workout]?.exercise == exercise { lifter.lastSet[workout] = nil }
        case "exercises.reordered":
            let named = event.array("order")?.compactMap(\.stringValue) ?? []
            lifter.order[workout] = LifterState.reordered(lifter.order[workout] ?? [], by: named)
        case "exercise.swapped":
            guard let from = event.string("from"), let to = event.string("to"),
                  let index = lifter.order[workout]?.firstIndex(of: from), !(lifter.order[workout]?.contains(to) ?? false) else { return }
            lifter.order[workout]?[index] = to
            lifter.groups[workout] = lifter.groups[workout]?.map { ($0.group, $0.members.map { $0 == from ? to : $0 }) }
            if let keys = completed[workout] {
                completed[workout] = Set(keys.map { key in
                    if key.hasPrefix(from + "#") { return to + key.dropFirst(from.count) }
                    return key == "cardio:" + from ? "cardio:" + to : key
                })
            }
            if lifter.lastSet[workout]?.exercise == from { lifter.lastSet[workout]?.exercise = to }
        case "superset.linked":
            guard let group = event.string("group") else { return }
            let members = event.array("exercises")?.compactMap(\.stringValue) ?? []
            var groups = (lifter.groups[workout] ?? []).map { ($0.group, $0.members.filter { !members.contains($0) }) }
            groups.removeAll { $0.1.count < 2 || $0.0 == group }
            groups.append((group, members))
            lifter.groups[workout] = groups.map { (group: $0.0, members: $0.1) }
        case "superset.unlinked":
            lifter.groups[workout]?.removeAll { $0.group == event.string("group") }
        case "workout.finished":
            lifter.times[workout]?.finish = event.string("finished_at").flatMap(Timestamp.init(rfc3339:)) ?? event.at
        case "workout.edited":
            if let start = event.string("started_at").flatMap(Timestamp.init(rfc3339:)) { lifter.times[workout]?.start = start }
            if let finish = event.string("finished_at").flatMap(Timestamp.init(rfc3339:)), status == .finished {
                lifter.times[workout]?.finish = finish
            }
        default:
            break
        }
    }

    /// The lifter's rules; `checkWorkoutState` has already accepted the workout's status.
    func checkLifterRules(_ event: Event) -> EventRuleViolation? {
        func refuse(_ field: String?, _ rule: String) -> EventRuleViolation {
            EventRuleViolation(type: event.type, field: field, value: field.flatMap { event[$0] }, rule: rule)
        }
        func list(_ names: [String]) -> String { names.joined(separator: ", ") }
        switch event.type {
        case "exercise.favourited":
            guard let id = event.string("exercise"), !lifter.favourites.contains(id),
                  lifter.favourites.count >= LifterState.maximumFavourites else { return nil }
            return refuse("exercise", "cannot be added: \(LifterState.maximumFavourites) exercises are already favourites (at most \(LifterState.maximumFavourites); unfavourite one first)")
        case "template.created":
            guard let id = event.string("template"), lifter.templates[id] != nil else { return nil }
            return refuse("template", "is already a template of this journal (change it with template.updated)")
        case "template.updated", "template.deleted":
            guard let id = event.string("template"), lifter.templates[id] == nil else { return nil }
            return refuse("template", "is not a template of this journal (create it with template.created first)")
        default:
            break
        }
        guard let workout = event.string("workout") else { return nil }
        let status = workouts[workout]
        let exercise = event.string("exercise")
        let order = lifter.order[workout] ?? []
        switch event.type {
        case "workout.started":
            if let template = event.string("template"), lifter.templates[template] == nil {
                return refuse("template", "is not a template of this journal (create it with template.created first)")
            }
            if let plan = event.string("plan"), lifter.plans[plan] == nil {
                return refuse("plan", "is not a planned workout of this journal (record a workout.planned first)")
            }
            if let previous = event.string("repeat_of"), workouts[previous] != .finished {
                return refuse("repeat_of", "is not a finished workout of this journal")
            }
        case "workout.deleted":
            if status == .open { return refuse("workout", "is not finished (an open workout is discarded with workout.discarded)") }
        case "workout.edited":
            guard let times = lifter.times[workout] else { return nil }
            if event["finished_at"] != nil && status != .finished {
                return refuse("finished_at", "cannot be set: workout \"\(workout)\" is not finished yet")
            }
            let start = event.string("started_at").flatMap(Timestamp.init(rfc3339:)) ?? times.start
            let finish = event.string("finished_at").flatMap(Timestamp.init(rfc3339:)) ?? times.finish
            if let finish, finish.epochMilliseconds < start.epochMilliseconds {
                if event["finished_at"] != nil { return refuse("finished_at", "must not be before the start (\(start.rfc3339))") }
                return refuse("started_at", "must not be after the finish (\(finish.rfc3339))")
            }
        case "workout.finished":
            // A workout logged afterwards cannot end before it started.
            guard let times = lifter.times[workout], let finish = event.string("finished_at").flatMap(Timestamp.init(rfc3339:)),
                  finish.epochMilliseconds < times.start.epochMilliseconds else { return nil }
            return refuse("finished_at", "must not be before the start (\(times.start.rfc3339))")
        case "set.rated":
            guard let exercise, let set = event.int("set") else { return nil }
            if !(completed[workout]?.contains("\(exercise)#\(set)") ?? false) {
                return refuse("set", "is not a completed set of \(exercise) in workout \"\(workout)\" (RPE is recorded after completing a set)")
            }
        case "set.edited", "set.noted", "set.removed":
            guard status == .finished, let exercise, let set = event.int("set") else { return nil }
            if !(completed[workout]?.contains("\(exercise)#\(set)") ?? false) {
                return refuse("set", "is not a completed set of \(exercise) in finished workout \"\(workout)\" (finishing dropped the incomplete sets)")
            }
        case "exercise.noted", "exercise.removed":
            guard status == .finished, let exercise, !order.contains(exercise) else { return nil }
            return refuse("exercise", "is not in finished workout \"\(workout)\" (finishing dropped exercises with no completed set)")
        case "exercise.added":
            guard let exercise else { return nil }
            let next = LifterState.inserted(exercise, into: order, at: event.int("position"))
            if let broken = lifter.brokenGroup(in: workout, order: next) {
                return refuse(event["position"] != nil ? "position" : "exercise",
                              "would split superset \"\(broken.group)\" (\(list(broken.members))); add it before or after the group")
            }
        case "exercises.reordered":
            let next = LifterState.reordered(order, by: event.array("order")?.compactMap(\.stringValue) ?? [])
            if let broken = lifter.brokenGroup(in: workout, order: next) {
                return refuse("order", "would separate superset \"\(broken.group)\" (\(list(broken.members))); move a superset as one block or unlink it first")
            }
        case "superset.linked":
            let members = event.array("exercises")?.compactMap(\.stringValue) ?? []
            if Set(members).count != members.count { return refuse("exercises", "names an exercise twice") }
            if let missing = members.first(where: { !order.contains($0) }) {
                return refuse("exercises", "names \"\(missing)\", which is not in workout \"\(workout)\"")
            }
            let positions = members.compactMap { order.firstIndex(of: $0) }.sorted()
            if let first = positions.first, let last = positions.last, last - first + 1 != positions.count {
                return refuse("exercises", "are not adjacent in the workout (order: \(list(order))); a superset links adjacent exercises or groups")
            }
            // Linking part of a group would leave its other members on both sides of the new one.
            var groups = lifter.groups
            groups[workout] = (groups[workout] ?? []).map { ($0.group, $0.members.filter { !members.contains($0) }) }.filter { $0.1.count >= 2 }
                .map { (group: $0.0, members: $0.1) }
            if let broken = LifterState(order: lifter.order, groups: groups).brokenGroup(in: workout, order: order) {
                return refuse("exercises", "would split superset \"\(broken.group)\" (\(list(broken.members))); link whole groups")
            }
        case "superset.unlinked":
            if !(lifter.groups[workout] ?? []).contains(where: { $0.group == event.string("group") }) {
                return refuse("group", "is not a superset of workout \"\(workout)\"")
            }
        case "rest.started":
            guard status == .open, let exercise else { return nil }
            if let last = lifter.lastSet[workout], last.kind == "drop" {
                return refuse("exercise", "cannot start a rest: the last completed set (set \(last.set) of \(last.exercise)) is a drop set, and drop sets do not start the rest timer")
            }
            if let group = lifter.group(of: exercise, in: workout), group.members.last != exercise {
                return refuse("exercise", "is not the last exercise of superset \"\(group.group)\" (\(list(group.members))); in a superset the rest timer starts after the last one")
            }
        default:
            break
        }
        return nil
    }
}
