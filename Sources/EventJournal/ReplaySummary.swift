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

    /// Sets of workouts still open, by workout, keyed by exercise#set (a later completion replaces).
    var openSets: [String: [SetKey: (kg: Double, reps: Int, warmup: Bool)]] = [:]

    /// An exercise's set within a workout (a struct, not a concatenated string: no allocation per set).
    struct SetKey: Hashable {
        var exercise: String
        var set: Int
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
        case .dataCleared:
            let kept = (events, unknownEvents, lastSeq, firstActivity, lastActivity)
            self = ReplaySummary()
            (events, unknownEvents, lastSeq, firstActivity, lastActivity) = kept
        case .workoutStarted:
            // Room for a whole workout's sets at once (no rehashing as they arrive).
            if let workout = event.string(.workout) { openSets[workout] = Dictionary(minimumCapacity: 48) }
        case .setCompleted:
            guard let workout = event.string(.workout), let open = openSets.index(forKey: workout),
                  let exercise = event.string(.exercise), let set = event.int(.set),
                  let weight = event.double(.weight), let reps = event.int(.reps) else { return }
            let kg = event.string(.unit) == "lb" ? weight * ReplaySummary.kilogramsPerPound : weight
            // Through the index found above: the workout's id is hashed once.
            openSets.values[open][SetKey(exercise: exercise, set: set)] = (kg, reps, event.string(.kind) == "warmup")
        case .setUncompleted, .setRemoved:
            guard let workout = event.string(.workout), let exercise = event.string(.exercise), let set = event.int(.set) else { return }
            openSets[workout]?[SetKey(exercise: exercise, set: set)] = nil
        case .workoutFinished:
            guard let workout = event.string(.workout), let sets = openSets.removeValue(forKey: workout) else { return }
            workoutsFinished += 1
            var added = (working: 0, warmup: 0, volumeKg: 0.0)
            for set in sets.values {
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
            if let workout = event.string(.workout), openSets.removeValue(forKey: workout) != nil { workoutsDiscarded += 1 }
        default:
            if event.knownType == nil { unknownEvents += 1 }
        }
    }
}
