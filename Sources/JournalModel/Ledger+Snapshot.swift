import JournalEvents

extension Ledger {
    /// The version of the ledger's fold and stored state in projection snapshots (`<journal>.snapshot`).
    ///
    /// **Bump it whenever `apply(_:)` or any stored property of the ledger or its model types changes**: a snapshot
    /// of another version is never used (the journal is replayed and the snapshot rewritten), while one of the same
    /// version is trusted to be what this fold would have produced. `LedgerSnapshotTests` pins a digest of the
    /// encoded state of a fixed journal and fails, naming this constant, when the two drift apart.
    /// 2: custom exercises keep their secondary muscles and equipment; `equipment.updated` is folded (`equipment`).
    /// 3: targets set by hand (`progression.configured` `target`) and paused session timers are folded.
    /// 4: a programme keeps the seq of its `programme.generated` (`RecordedProgramme.generatedSeq`); an open
    ///    workout keeps the rows the lifter deleted (`WorkoutRecord.removedRows`).
    /// 5: a custom exercise keeps its `exercise.created` `assisted` (`CustomExercise.assisted`).
    /// 6: `equipment.updated` keeps every bar (its `default` and `exercises`), dumbbells, machines and attachments;
    ///    a prescription keeps its target RPE (`Prescription.rpe`); `data.cleared` keeps what its `keep` names;
    ///    `data.exported` is folded (`exports`).
    public static let snapshotVersion = 6

    /// An as-of time after every event (9999-12-31T23:59:59.999Z): a snapshot's ledger folds everything, and a
    /// reader sets the real T afterwards when nothing folded was later than T.
    public static let everything = Timestamp(epochMilliseconds: 253_402_300_799_999, offsetSeconds: 0)

    /// This ledger with only the workouts still open (their positions and index rebuilt): what the home page's
    /// snapshot keeps (`HomeFold`).
    public func keepingOpenWorkoutsOnly() -> Ledger {
        var slim = self
        slim.workouts = workouts.filter { $0.status == .open }
        slim.workoutIndex = Dictionary(uniqueKeysWithValues: slim.workouts.enumerated().map { ($1.id, $0) })
        slim.recentWorkout = RecentWorkout()
        return slim
    }
}

/// Completed sets are most of a ledger (26,000 in a 5-year journal), so they are coded as one flat list instead of
/// a keyed object with a nested timestamp: half the containers, a third of the snapshot's reading time.
/// **Every stored property must appear here** (`LedgerSnapshotTests` round-trips a ledger and compares it whole).
extension LoggedSet: Codable {
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        let exercise = try c.decode(String.self), set = try c.decode(Int.self), weight = try c.decode(Double.self)
        let unitText = try c.decode(String.self), reps = try c.decode(Int.self), kindText = try c.decode(String.self)
        let rpe = try c.decodeNil() ? nil : try c.decode(Double.self)
        let note = try c.decodeNil() ? nil : try c.decode(String.self)
        let milliseconds = try c.decode(Int64.self), offset = try c.decode(Int32.self)
        guard let unit = WeightUnit(rawValue: unitText), let kind = SetKind(rawValue: kindText) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "unknown unit \(unitText) or kind \(kindText)")
        }
        self.init(exercise: exercise, set: set, weight: weight, unit: unit, reps: reps, kind: kind, rpe: rpe, note: note,
                  at: Timestamp(epochMilliseconds: milliseconds, offsetSeconds: offset))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(exercise); try c.encode(set); try c.encode(weight); try c.encode(unit.rawValue); try c.encode(reps)
        try c.encode(kind.rawValue)
        if let rpe { try c.encode(rpe) } else { try c.encodeNil() }
        if let note { try c.encode(note) } else { try c.encodeNil() }
        try c.encode(at.epochMilliseconds); try c.encode(at.offsetSeconds)
    }
}
