import JournalEvents

/// The summary in a projection snapshot (`<journal>.snapshot`): every stored property, the open workouts' sets and
/// what each finished workout added included, so that resuming from it and folding the rest equals a full fold.
extension ReplaySummary: Codable {
    /// Bump whenever `apply(_:)` or the stored properties change (snapshots of another version are rebuilt).
    /// 2: an open workout's sets are a list in completion order (`fold`'s `OpenSet` array), no longer sorted.
    public static let snapshotVersion = 2

    enum CodingKeys: String, CodingKey {
        case events, unknownEvents, workoutsFinished, workoutsDiscarded, workingSets, warmupSets, volumeKg
        case firstActivity, lastActivity, lastSeq, openSets, finished
    }

    struct CodedSet: Codable { var exercise: String; var set: Int; var kg: Double; var reps: Int; var warmup: Bool }
    struct Added: Codable { var working: Int; var warmup: Int; var volumeKg: Double }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        events = try c.decode(Int.self, forKey: .events)
        unknownEvents = try c.decode(Int.self, forKey: .unknownEvents)
        workoutsFinished = try c.decode(Int.self, forKey: .workoutsFinished)
        workoutsDiscarded = try c.decode(Int.self, forKey: .workoutsDiscarded)
        workingSets = try c.decode(Int.self, forKey: .workingSets)
        warmupSets = try c.decode(Int.self, forKey: .warmupSets)
        volumeKg = try c.decode(Double.self, forKey: .volumeKg)
        firstActivity = try c.decodeIfPresent(Timestamp.self, forKey: .firstActivity)
        lastActivity = try c.decodeIfPresent(Timestamp.self, forKey: .lastActivity)
        lastSeq = try c.decode(Int.self, forKey: .lastSeq)
        // In the order they were completed, as `apply(_:)` left them (the volume is summed in that order).
        // `recentOpen` stays nil: it is a cache of an index into `openSets`, found again on the next set event.
        openSets = try c.decode([String: [CodedSet]].self, forKey: .openSets).mapValues { sets in
            sets.map { OpenSet(exercise: $0.exercise, set: $0.set, kg: $0.kg, reps: $0.reps, warmup: $0.warmup) }
        }
        finished = try c.decode([String: Added].self, forKey: .finished).mapValues { (working: $0.working, warmup: $0.warmup, volumeKg: $0.volumeKg) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(events, forKey: .events)
        try c.encode(unknownEvents, forKey: .unknownEvents)
        try c.encode(workoutsFinished, forKey: .workoutsFinished)
        try c.encode(workoutsDiscarded, forKey: .workoutsDiscarded)
        try c.encode(workingSets, forKey: .workingSets)
        try c.encode(warmupSets, forKey: .warmupSets)
        try c.encode(volumeKg, forKey: .volumeKg)
        try c.encodeIfPresent(firstActivity, forKey: .firstActivity)
        try c.encodeIfPresent(lastActivity, forKey: .lastActivity)
        try c.encode(lastSeq, forKey: .lastSeq)
        // Sets in the order they were completed (the list `apply(_:)` keeps, and sums the volume over).
        try c.encode(openSets.mapValues { sets in
            sets.map { CodedSet(exercise: $0.exercise, set: $0.set, kg: $0.kg, reps: $0.reps, warmup: $0.warmup) }
        }, forKey: .openSets)
        try c.encode(finished.mapValues { Added(working: $0.working, warmup: $0.warmup, volumeKg: $0.volumeKg) }, forKey: .finished)
    }
}
