import JournalEvents

/// The headline numbers `journal replay` prints before the projections: a pure fold.
public struct ReplaySummary: Equatable, Sendable {
    public var events = 0
    public var unknownEvents = 0
    public var workoutsFinished = 0
    public var workoutsDiscarded = 0
    public var workingSets = 0
    public var warmupSets = 0
    public var volumeKg = 0.0
    public var firstActivity: Timestamp?
    public var lastActivity: Timestamp?
    public var lastSeq = 0

    /// Sets of workouts still open, by workout, one per exercise and set number (a later completion replaces).
    var openSets: [String: [OpenSet]] = [:]
    /// The workout the last set event named and where it is in `openSets`, so its sets skip hashing the id.
    /// Forgotten whenever a workout is added to or removed from `openSets` (which moves indices).
    var recentOpen: (workout: String, index: Dictionary<String, [OpenSet]>.Index)?

    /// One completed set of an open workout. A workout's few dozen sets are searched in a line (set number
    /// first), which is cheaper than hashing the exercise id.
    struct OpenSet {
        var exercise: String
        var set: Int
        var kg: Double
        var reps: Int
        var warmup: Bool
    }
    /// What each finished workout added, so a later `workout.deleted` can take it back.
    var finished: [String: (working: Int, warmup: Int, volumeKg: Double)] = [:]

    public init() {}

    public static func == (lhs: ReplaySummary, rhs: ReplaySummary) -> Bool {
        lhs.events == rhs.events && lhs.unknownEvents == rhs.unknownEvents && lhs.workoutsFinished == rhs.workoutsFinished
            && lhs.workoutsDiscarded == rhs.workoutsDiscarded && lhs.workingSets == rhs.workingSets
            && lhs.warmupSets == rhs.warmupSets && abs(lhs.volumeKg - rhs.volumeKg) < 1e-9
            && lhs.firstActivity == rhs.firstActivity && lhs.lastActivity == rhs.lastActivity && lhs.lastSeq == rhs.lastSeq
    }

    public static let kilogramsPerPound = 0.45359237

    public mutating func apply(_ event: Event) {
        events += 1
        lastSeq = event.seq
        if firstActivity == nil { firstActivity = event.at }
        if lastActivity.map({ event.at > $0 }) ?? true { lastActivity = event.at }
        // `knownType` is nil exactly for the types outside the vocabulary (`EventVocabulary.isKnown`).
        switch event.knownType {
        case .dataCleared, .dataErased:
            let kept = (events, unknownEvents, lastSeq, firstActivity, lastActivity)
            self = ReplaySummary()
            (events, unknownEvents, lastSeq, firstActivity, lastActivity) = kept
        case .workoutStarted:
            guard let workout = event.string(.workout) else { return }
            var sets: [OpenSet] = []
            sets.reserveCapacity(48)
            openSets[workout] = sets
            recentOpen = nil
        case .setCompleted:
            guard let workout = event.string(.workout), let open = openSetsIndex(workout),
                  let exercise = event.string(.exercise), let set = event.int(.set),
                  let weight = event.double(.weight), let reps = event.int(.reps) else { return }
            let kg = event.string(.unit) == "lb" ? weight * ReplaySummary.kilogramsPerPound : weight
            let entry = OpenSet(exercise: exercise, set: set, kg: kg, reps: reps, warmup: event.string(.kind) == "warmup")
            if let index = openSets.values[open].firstIndex(where: { $0.set == set && $0.exercise == exercise }) {
                openSets.values[open][index] = entry
            } else {
                openSets.values[open].append(entry)
            }
        case .setUncompleted, .setRemoved:
            guard let workout = event.string(.workout), let exercise = event.string(.exercise), let set = event.int(.set),
                  let open = openSetsIndex(workout) else { return }
            openSets.values[open].removeAll { $0.set == set && $0.exercise == exercise }
        case .workoutFinished:
            guard let workout = event.string(.workout), let sets = openSets.removeValue(forKey: workout) else { return }
            recentOpen = nil
            workoutsFinished += 1
            var added = (working: 0, warmup: 0, volumeKg: 0.0)
            for set in sets {
                if set.warmup { added.warmup += 1 } else { added.working += 1; added.volumeKg += set.kg * Double(set.reps) }
            }
            warmupSets += added.warmup
            workingSets += added.working
            volumeKg += added.volumeKg
            finished[workout] = added
        case .workoutDeleted:
            guard let workout = event.string(.workout), let added = finished.removeValue(forKey: workout) else { return }
            workoutsFinished -= 1
            warmupSets -= added.warmup
            workingSets -= added.working
            volumeKg -= added.volumeKg
        case .workoutDiscarded:
            if let workout = event.string(.workout), openSets.removeValue(forKey: workout) != nil {
                recentOpen = nil
                workoutsDiscarded += 1
            }
        default:
            if event.knownType == nil { unknownEvents += 1 }
        }
    }

    /// `openSets.index(forKey: workout)`, without hashing when `workout` is the one the last set event named.
    @inline(__always)
    mutating func openSetsIndex(_ workout: String) -> Dictionary<String, [OpenSet]>.Index? {
        if let recentOpen, recentOpen.workout == workout { return recentOpen.index }
        guard let index = openSets.index(forKey: workout) else { return nil }
        recentOpen = (workout, index)
        return index
    }
}
