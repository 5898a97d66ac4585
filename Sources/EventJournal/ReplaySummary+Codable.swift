import JournalEvents

/// The summary in a projection snapshot (`<journal>.snapshot`): every stored property, the open workouts' sets and
/// what each finished workout added included, so that resuming from it and folding the rest equals a full fold.
extension ReplaySummary: Codable {
    /// Bump whenever `apply(_:)` or the stored properties change (snapshots of another version are rebuilt).
    public static let snapshotVersion = 1

    enum CodingKeys: String, CodingKey {
        case events, unknownEvents, workoutsFinished, workoutsDiscarded, workingSets, warmupSets, volumeKg
        case firstActivity, lastActivity, lastSeq, openSets, finished
    }

    struct OpenSet: Codable { var exercise: String; var set: Int; var kg: Double; var reps: Int; var warmup: Bool }
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
        openSets = try c.decode([String: [OpenSet]].self, forKey: .openSets).mapValues { sets in
            Dictionary(sets.map { (SetKey(exercise: $0.exercise, set: $0.set), (kg: $0.kg, reps: $0.reps, warmup: $0.warmup)) },
                       uniquingKeysWith: { _, last in last })
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
        // Sets in (exercise, set) order, so the same summary always encodes to the same bytes.
        try c.encode(openSets.mapValues { sets in
            sets.map { OpenSet(exercise: $0.key.exercise, set: $0.key.set, kg: $0.value.kg, reps: $0.value.reps, warmup: $0.value.warmup) }
                .sorted { ($0.exercise, $0.set) < ($1.exercise, $1.set) }
        }, forKey: .openSets)
        try c.encode(finished.mapValues { Added(working: $0.working, warmup: $0.warmup, volumeKg: $0.volumeKg) }, forKey: .finished)
    }
}
