import JournalEvents
import JournalModel
import TrainingDomain

/// A set's weight and reps in the display unit: "80 kg • 8 reps".
public struct SetValue: Equatable, Hashable, Sendable {
    public var weight: Double
    public var unit: WeightUnit
    public var reps: Int
    public init(weight: Double, unit: WeightUnit, reps: Int) { self.weight = weight; self.unit = unit; self.reps = reps }
    init(_ set: LoggedSet, _ unit: WeightUnit) {
        self.init(weight: DisplayWeight(kilograms: set.kilograms, in: unit).weight, unit: unit, reps: set.reps)
    }
}

public struct ChartPoint: Equatable, Hashable, Sendable {
    public var date: LocalDate
    /// The workout behind the point (nil for weekly sums).
    public var workout: String?
    public var value: Double
    public init(date: LocalDate, workout: String? = nil, value: Double) { self.date = date; self.workout = workout; self.value = value }
}

/// One exercise's history (seed 000 §16, seed 003 ExerciseProgressDetail, seed 004 strength chart).
public struct ExerciseHistoryState: Equatable, Sendable {
    public struct Session: Equatable, Sendable {
        public var workout: String
        public var workoutName: String
        public var date: LocalDate
        public var volumeKilograms: Double
        /// The heaviest working set (more reps, then the lower set number, break ties); on an assisted exercise the
        /// set with the least help (`SetRanking.isTop`).
        public var topSet: SetValue
        /// 0 on an assisted exercise (no estimate).
        public var e1rmKilograms: Double
        /// The top set's weight: on an assisted exercise its assistance.
        public var maxWeightKilograms: Double
        /// Working reps.
        public var reps: Int
        /// Progress over the previous session of this exercise.
        public var rosette: Bool
        public var sets: [SetSummary]
        /// The workout's duration, paused time left out (`WorkoutRecord.durationSeconds`, as the history shows it).
        public var durationSeconds: Int
        public init(workout: String, workoutName: String, date: LocalDate, volumeKilograms: Double, topSet: SetValue, e1rmKilograms: Double,
                    maxWeightKilograms: Double, reps: Int, rosette: Bool, sets: [SetSummary], durationSeconds: Int = 0) {
            self.workout = workout; self.workoutName = workoutName; self.date = date; self.volumeKilograms = volumeKilograms
            self.topSet = topSet; self.e1rmKilograms = e1rmKilograms; self.maxWeightKilograms = maxWeightKilograms
            self.reps = reps; self.rosette = rosette; self.sets = sets; self.durationSeconds = durationSeconds
        }
    }
    /// All-time bests, the first session included.
    public struct Bests: Equatable, Sendable {
        public struct RepsAtWeight: Equatable, Sendable {
            public var weightKilograms: Double
            public var reps: Int
            public init(weightKilograms: Double, reps: Int) { self.weightKilograms = weightKilograms; self.reps = reps }
        }
        /// On an assisted exercise the least assistance (`SetRanking`), and `e1rmKilograms` 0.
        public var heaviestWeightKilograms: Double
        public var e1rmKilograms: Double
        public var setVolumeKilograms: Double
        public var sessionVolumeKilograms: Double
        /// Heaviest first.
        public var repsAtWeight: [RepsAtWeight]
        public init(heaviestWeightKilograms: Double, e1rmKilograms: Double, setVolumeKilograms: Double, sessionVolumeKilograms: Double, repsAtWeight: [RepsAtWeight]) {
            self.heaviestWeightKilograms = heaviestWeightKilograms; self.e1rmKilograms = e1rmKilograms
            self.setVolumeKilograms = setVolumeKilograms; self.sessionVolumeKilograms = sessionVolumeKilograms; self.repsAtWeight = repsAtWeight
        }
    }
    public struct Charts: Equatable, Sendable {
        /// Oldest first, one point per session.
        public var volume: [ChartPoint]
        /// Empty on an assisted exercise.
        public var e1rm: [ChartPoint]
        /// The top set's weight per session: on an assisted exercise its assistance (lower is better).
        public var maxWeight: [ChartPoint]
        /// Working volume per local week (Monday's date).
        public var weeklyVolume: [ChartPoint]
        public init(volume: [ChartPoint], e1rm: [ChartPoint], maxWeight: [ChartPoint], weeklyVolume: [ChartPoint]) {
            self.volume = volume; self.e1rm = e1rm; self.maxWeight = maxWeight; self.weeklyVolume = weeklyVolume
        }
    }

    public static let emptyMessage = "No history yet. Complete your first set!"

    public var exercise: String
    public var name: String
    /// Highest weight × reps of any working set, ties to the earliest; on an assisted exercise the set with the least
    /// help, then the most reps (`SetRanking.isBest`).
    public var bestSet: SetValue?
    /// An assisted exercise: its weights are help, less is better (`SetRanking`, DOMAIN.md §"Assisted exercises").
    public var assisted = false
    /// The weight of the first working set ever.
    public var startWeight: DisplayWeight?
    /// Newest first.
    public var sessions: [Session]
    /// Records achieved (never in the first session), newest first.
    public var records: [PersonalRecord]
    public var bests: Bests?
    public var charts: Charts
    /// The exercise's cardio entries (minutes, km, pace), bests and charts; nil when it has none.
    public var cardio: CardioHistory?
    /// Its equipment and instructions (seed 004's How-to), with or without history; nil for an exercise without them.
    public var howTo: ExerciseHowTo?

    public init(exercise: String, name: String, bestSet: SetValue?, startWeight: DisplayWeight?, sessions: [Session], records: [PersonalRecord],
                bests: Bests?, charts: Charts, cardio: CardioHistory? = nil) {
        self.exercise = exercise; self.name = name; self.bestSet = bestSet; self.startWeight = startWeight; self.sessions = sessions
        self.records = records; self.bests = bests; self.charts = charts; self.cardio = cardio
    }

    /// No strength session and no cardio entry.
    public var isEmpty: Bool { sessions.isEmpty && cardio == nil }

    /// A placeholder for the bests before the first set.
    static let noSet = LoggedSet(exercise: "", set: 0, weight: 0, unit: .kg, reps: 0, at: Timestamp(epochMilliseconds: 0, offsetSeconds: 0))

    public init(_ analysis: Analysis, exercise: String) {
        let unit = analysis.unit
        var sessions: [Session] = []
        let rank = analysis.ledger.ranking(of: exercise)
        // The best, first and heaviest sets so far (valid once `hasBest`, `hasHeaviest`): plain locals compared in place, not optionals
        // unwrapped (and so copied, retaining their strings) for every set.
        var hasBest = false, hasHeaviest = false, best = ExerciseHistoryState.noSet, first = ExerciseHistoryState.noSet, heaviest = ExerciseHistoryState.noSet
        var bestE1RM = 0.0, bestSetVolume = 0.0, bestSessionVolume = 0.0
        var repsAtWeight: [Int64: (Double, Int)] = [:]
        var volume: [ChartPoint] = [], e1rm: [ChartPoint] = [], maxWeight: [ChartPoint] = []
        var weekly: [Int: Double] = [:]
        var previous: [LoggedSet]?
        for index in analysis.sessionIndices[exercise] ?? [] {
            let workout = analysis.finished[index]
            let performance = analysis.performance(of: exercise, inFinished: index)
            let all = performance?.sets ?? [], working = performance?.workingSets ?? []
            let date = LocalDate(day: workout.day)
            var top = working[0]
            var sessionVolume = 0.0, sessionE1RM = 0.0, reps = 0
            for set in working {
                if !hasBest { first = set; best = set; hasBest = true }
                if rank.isBest(set, over: best) { best = set }
                if rank.isTop(set, over: top) { top = set }
                sessionVolume += rank.countedVolume(set)
                sessionE1RM = max(sessionE1RM, rank.e1rm(set))
                reps += set.reps
                bestSetVolume = max(bestSetVolume, rank.countedVolume(set))
                let key = Rounding.grams(set.kilograms)
                if set.reps > (repsAtWeight[key]?.1 ?? -1) { repsAtWeight[key] = (set.kilograms, set.reps) }
            }
            if !hasHeaviest || rank.load(top) > rank.load(heaviest) { heaviest = top; hasHeaviest = true }
            bestE1RM = max(bestE1RM, sessionE1RM)
            bestSessionVolume = max(bestSessionVolume, sessionVolume)
            let comparison = previous.map { Analysis.compare(all, $0, ranking: rank) }
            previous = all
            sessions.append(Session(
                workout: workout.id, workoutName: workout.name, date: date, volumeKilograms: Rounding.kilograms(sessionVolume),
                topSet: SetValue(top, unit), e1rmKilograms: Rounding.kilograms(sessionE1RM), maxWeightKilograms: Rounding.kilograms(top.kilograms),
                reps: reps, rosette: comparison?.rosette ?? false,
                sets: all.map { analysis.setSummary($0, plus: comparison?.plus[$0.set] ?? 0) }, durationSeconds: workout.durationSeconds))
            // An assisted exercise has no volume (`SetRanking.volumeCounts`) and no e1RM: those charts stay empty.
            if rank.volumeCounts {
                volume.append(ChartPoint(date: date, workout: workout.id, value: Rounding.kilograms(sessionVolume)))
                weekly[LocalDate.weekStart(ofDay: workout.day), default: 0] += sessionVolume
            }
            if !rank.assisted { e1rm.append(ChartPoint(date: date, workout: workout.id, value: Rounding.kilograms(sessionE1RM))) }
            maxWeight.append(ChartPoint(date: date, workout: workout.id, value: Rounding.kilograms(top.kilograms)))
        }
        let bests = sessions.isEmpty ? nil : Bests(
            heaviestWeightKilograms: Rounding.kilograms(hasHeaviest ? heaviest.kilograms : 0), e1rmKilograms: Rounding.kilograms(bestE1RM),
            setVolumeKilograms: Rounding.kilograms(bestSetVolume), sessionVolumeKilograms: Rounding.kilograms(bestSessionVolume),
            repsAtWeight: repsAtWeight.keys.sorted(by: >).map { Bests.RepsAtWeight(weightKilograms: Rounding.kilograms(repsAtWeight[$0]!.0), reps: repsAtWeight[$0]!.1) })
        self.init(
            exercise: exercise, name: analysis.exerciseName(exercise), bestSet: hasBest ? SetValue(best, unit) : nil,
            startWeight: hasBest ? DisplayWeight(kilograms: first.kilograms, in: unit) : nil, sessions: sessions.reversed(),
            records: analysis.records.filter { $0.exercise == exercise }.reversed(), bests: bests,
            charts: Charts(volume: volume, e1rm: e1rm, maxWeight: maxWeight,
                           weeklyVolume: weekly.keys.sorted().map { ChartPoint(date: LocalDate(day: $0), value: Rounding.kilograms(weekly[$0]!)) }),
            cardio: CardioHistory(analysis, exercise: exercise))
        howTo = analysis.context.howTo(exercise)
        assisted = rank.assisted
    }
}
