import JournalEvents
import JournalModel

/// What the home page keeps of a finished workout: its row under "last workouts", its day (streaks, this week) and
/// its programme session. Volume is the working sets' sum, unrounded (the page rounds it).
public struct FinishedWorkout: Equatable, Sendable, Codable {
    public var id: String
    public var name: String
    public var session: Int?
    public var day: Int
    public var durationSeconds: Int
    public var exerciseCount: Int
    public var volumeKilograms: Double
    /// Its place in `Analysis.finished`: start instant, then the seq of `workout.started`.
    public var startMilliseconds: Int64
    public var seq: Int

    /// `addsVolume`: `Ledger.addsVolume` of the ledger the workout is from (assisted exercises add no volume).
    public init(_ workout: WorkoutRecord, addsVolume: (String) -> Bool) {
        id = workout.id
        name = workout.name
        session = workout.session
        day = workout.day
        durationSeconds = workout.durationSeconds
        exerciseCount = workout.performedExercises.count
        volumeKilograms = workout.workingVolumeKilograms(countingVolumeOf: addsVolume)
        startMilliseconds = workout.startedAt.epochMilliseconds
        seq = workout.seq
    }
}

/// A finished workout is coded as one flat list (like `LoggedSet`): a 5-year journal has ~900 of them, and a keyed
/// container per workout was half of reading the home snapshot. **Every stored property must appear here**
/// (`HomeSnapshotTests` round-trips a home state and compares it whole).
extension FinishedWorkout {
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        id = try c.decode(String.self)
        name = try c.decode(String.self)
        session = try c.decodeNil() ? nil : try c.decode(Int.self)
        day = try c.decode(Int.self)
        durationSeconds = try c.decode(Int.self)
        exerciseCount = try c.decode(Int.self)
        volumeKilograms = try c.decode(Double.self)
        startMilliseconds = try c.decode(Int64.self)
        seq = try c.decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(id); try c.encode(name)
        if let session { try c.encode(session) } else { try c.encodeNil() }
        try c.encode(day); try c.encode(durationSeconds); try c.encode(exerciseCount); try c.encode(volumeKilograms)
        try c.encode(startMilliseconds); try c.encode(seq)
    }
}

extension Ledger {
    /// Workouts per week the lifter aims for: the programme's days per week, else the questionnaire's answer.
    public var weeklyTarget: Int? { programme?.daysPerWeek ?? answers["days_per_week"]?.intValue }

    /// A custom exercise's name, else the context's.
    public func exerciseName(_ id: String, context: ProjectionContext) -> String { customExercises[id]?.name ?? context.exerciseName(id) }
}

/// The home page's own projection state, small enough to read in a millisecond from a 5-year journal's
/// `<journal>.home-snapshot` (PROJECTIONS.md §"Snapshots", FORMAT.md §9): the ledger without the bodies of
/// finished, discarded and deleted workouts (their sets are most of a ledger), each finished workout's summary in
/// order, the five latest records and the bests they were measured against.
///
/// Folding on (`apply(_:)`) is the ledger's own fold on the kept part; it refuses (returns false) an event that
/// needs a dropped body — one naming a retired workout, as `workout` or `repeat_of` — and the caller answers from
/// the whole ledger then. `homeView(asOf:context:)` refuses likewise when a workout finished since sorts before
/// the last kept one (a backdated workout moves records). Whenever it answers, the answer is the full replay's.
public struct HomeFold: Equatable, Sendable, Codable {
    /// Bump with any change to the stored properties or to what `apply(_:)`/`homeView` compute.
    /// 2: an assisted exercise's best load is minus its least assistance (`SetRanking`).
    /// 3: an assisted exercise's sets add no volume to a finished workout's (`SetRanking.volumeCounts`).
    public static let snapshotVersion = 3

    /// The ledger's every part but the bodies of non-open workouts (folded as of the far future).
    public internal(set) var ledger: Ledger
    /// Ids of the workouts whose bodies were dropped (finished, discarded, deleted), in UTF-8 byte order: searched
    /// by halving, so reading the snapshot hashes none of them.
    var retired: [String]
    /// Every finished workout dropped from `ledger`, in `Analysis.finished` order.
    public internal(set) var finished: [FinishedWorkout]
    /// The records of `finished`, the five latest (unnamed), oldest first.
    var records: [PersonalRecord]
    /// The bests after `finished`, to find the records of workouts finished later.
    var finder: RecordFinder

    /// Compacts a whole ledger: its finished workouts summarised, their records found, non-open bodies dropped.
    public init(compacting full: Ledger) {
        let done = full.finishedWorkouts
        var finder = RecordFinder()
        var records: [PersonalRecord] = []
        for workout in done {
            records += finder.records(of: workout, ranking: full.ranking)
            if records.count > 64 { records.removeFirst(records.count - 5) }
        }
        self.ledger = full.keepingOpenWorkoutsOnly()
        self.retired = full.workouts.lazy.filter { $0.status != .open }.map(\.id).sorted(by: HomeFold.byteOrder)
        self.finished = done.map { FinishedWorkout($0, addsVolume: full.addsVolume) }
        self.records = Array(records.suffix(5))
        self.finder = finder
    }

    /// Folds one event; false when it needs the body of a retired workout (then this state can no longer answer,
    /// and the caller reads the whole ledger). `data.cleared` starts over, as the ledger does.
    public mutating func apply(_ event: Event) -> Bool {
        if let workout = event.string(.workout), isRetired(workout) { return false }
        // A link re-files retired workouts' sets too (their records move).
        if event.knownType == .exerciseLinked { return false }
        if let previous = event.string(.repeatOf), isRetired(previous) { return false }
        ledger.apply(event)
        // The model says when everything was cleared: then the summaries, records and retired ids go too.
        if ledger.clearedAtSeq == event.seq && ledger.eventCount == 0 {
            self = HomeFold(compacting: ledger)
        }
        return true
    }

    static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// Whether `id` is in `retired` (binary search).
    func isRetired(_ id: String) -> Bool {
        var low = 0, high = retired.count
        while low < high {
            let middle = (low + high) / 2
            if HomeFold.byteOrder(retired[middle], id) { low = middle + 1 } else { high = middle }
        }
        return low < retired.count && retired[low] == id
    }

    /// The home page as of `asOf` (every event folded must be at or before it), or nil when a workout finished
    /// since the compaction sorts before the last one kept (its records would move those after it).
    public func homeView(asOf: Timestamp, context: ProjectionContext) -> HomeState? {
        var ledger = self.ledger
        ledger.asOf = asOf
        let new = ledger.finishedWorkouts
        if let first = new.first, let last = finished.last,
           (first.startedAt.epochMilliseconds, first.seq) < (last.startMilliseconds, last.seq) { return nil }
        var finder = self.finder
        var records = self.records
        for workout in new { records += finder.records(of: workout, ranking: ledger.ranking) }
        var recent = Array(records.suffix(5).reversed())
        for index in recent.indices { recent[index].name = ledger.exerciseName(recent[index].exercise, context: context) }
        return HomeState(ledger: ledger, finished: finished + new.map { FinishedWorkout($0, addsVolume: ledger.addsVolume) }, recentRecords: recent, context: context)
    }
}
