import JournalEvents
import JournalModel

/// The time range of the progress charts (seed 004 Time Range Filter).
public enum ProgressRange: String, Equatable, Sendable, CaseIterable {
    case oneMonth = "1M", threeMonths = "3M", sixMonths = "6M", oneYear = "1Y", all = "ALL"

    var months: Int? {
        switch self {
        case .oneMonth: return 1
        case .threeMonths: return 3
        case .sixMonths: return 6
        case .oneYear: return 12
        case .all: return nil
        }
    }
}

/// Progress overview (seed 003 ProgressOverview, seed 004 Progress).
public struct ProgressState: Equatable, Sendable {
    public struct WeekCount: Equatable, Sendable {
        public var week: LocalDate
        public var workouts: Int
        /// Working volume of the week's finished workouts (seed 002/003 overview: weekly volume), kilograms.
        public var volumeKilograms: Double
        /// Working sets of the week's finished workouts (seed 003's weekly bar chart of sets).
        public var sets: Int
        public init(week: LocalDate, workouts: Int, volumeKilograms: Double = 0, sets: Int = 0) {
            self.week = week; self.workouts = workouts; self.volumeKilograms = volumeKilograms; self.sets = sets
        }
    }
    public struct MuscleShare: Equatable, Sendable {
        public var muscle: String
        /// Working sets (cardio entries count one each under `cardio`).
        public var sets: Int
        /// Of all sets in the range, to 0.1 %.
        public var percent: Double
        public init(muscle: String, sets: Int, percent: Double) { self.muscle = muscle; self.sets = sets; self.percent = percent }
    }
    public struct Consistency: Equatable, Sendable {
        public var target: Int
        /// Weeks counted: every week of the range from the week of the first finished workout ever, except this
        /// week while it has not met the target yet.
        public var weeks: Int
        public var weeksMet: Int
        /// Whole percent.
        public var percent: Int
        public init(target: Int, weeks: Int, weeksMet: Int, percent: Int) { self.target = target; self.weeks = weeks; self.weeksMet = weeksMet; self.percent = percent }
    }
    public struct StrengthSeries: Equatable, Sendable {
        public var exercise: String
        public var name: String
        public var favourite: Bool
        /// Max working weight per session (the top set), kilograms, oldest first; on an assisted exercise the least
        /// assistance.
        public var points: [ChartPoint]
        /// An assisted exercise (`SetRanking`): its points are help, lower is better.
        public var assisted: Bool
        /// The best estimated one-rep max (Epley, as the records) per session, kilograms, oldest first (seed 003's
        /// "1RM Estimate" metric); empty for an assisted exercise.
        public var oneRepMax: [ChartPoint]
        public init(exercise: String, name: String, favourite: Bool, points: [ChartPoint], assisted: Bool = false, oneRepMax: [ChartPoint] = []) {
            self.exercise = exercise; self.name = name; self.favourite = favourite; self.points = points; self.assisted = assisted
            self.oneRepMax = oneRepMax
        }
    }

    public var range: ProgressRange
    /// First day of the range (nil for ALL with no workouts).
    public var from: LocalDate?
    public var to: LocalDate
    public var workouts: Int
    /// In T's calendar month, whatever the range.
    public var workoutsThisMonth: Int
    public var totalVolumeKilograms: Double
    public var dayStreak: Int
    public var recordCount: Int
    public var weeklyFrequency: [WeekCount]
    public var muscleGroups: [MuscleShare]
    public var consistency: Consistency
    public var strength: [StrengthSeries]
    /// Records in the range, newest first (at most 10).
    public var recentRecords: [PersonalRecord]

    public init(range: ProgressRange, from: LocalDate?, to: LocalDate, workouts: Int, workoutsThisMonth: Int, totalVolumeKilograms: Double,
                dayStreak: Int, recordCount: Int, weeklyFrequency: [WeekCount], muscleGroups: [MuscleShare], consistency: Consistency,
                strength: [StrengthSeries], recentRecords: [PersonalRecord]) {
        self.range = range; self.from = from; self.to = to; self.workouts = workouts; self.workoutsThisMonth = workoutsThisMonth
        self.totalVolumeKilograms = totalVolumeKilograms; self.dayStreak = dayStreak; self.recordCount = recordCount
        self.weeklyFrequency = weeklyFrequency; self.muscleGroups = muscleGroups; self.consistency = consistency
        self.strength = strength; self.recentRecords = recentRecords
    }

    public init(_ analysis: Analysis, range: ProgressRange = .oneMonth) {
        let today = analysis.asOf.localDay
        let from: Int?
        if let months = range.months {
            let (y, m, d) = LocalDate(day: today).components
            let total = y * 12 + (m - 1) - months
            let year = total / 12, month = total % 12 + 1
            from = LocalDate(year: year, month: month, day: min(d, LocalDate.daysIn(month: month, year: year))).day
        } else {
            from = analysis.finished.map(\.day).min()
        }
        let inRange = analysis.finished.filter { workout in workout.day <= today && (from.map { workout.day >= $0 } ?? false) }
        let (year, month, _) = LocalDate(day: today).components
        let monthStart = LocalDate(year: year, month: month, day: 1).day
        var volume = 0.0
        struct Sums { var sets = 0, volume = 0.0; mutating func add(_ set: LoggedSet) { sets += 1; volume += set.volumeKilograms } }
        var muscleSets: [String: Int] = [:], perExercise: [String: Sums] = [:]
        for workout in inRange {
            for set in workout.sets where set.isWorking { perExercise[set.exercise, default: Sums()].add(set) }
            if !workout.cardio.isEmpty { muscleSets["cardio", default: 0] += workout.cardio.count }
        }
        // Each exercise's muscles, and whether it adds volume, looked up once, not once per set.
        for (exercise, sums) in perExercise {
            muscleSets[analysis.muscles(exercise).first ?? "other", default: 0] += sums.sets
            if analysis.ledger.addsVolume(exercise) { volume += sums.volume }
        }
        let totalSets = muscleSets.values.reduce(0, +)
        let shares = muscleSets.map { MuscleShare(muscle: $0.key, sets: $0.value, percent: (Double($0.value) * 1000 / Double(max(1, totalSets))).rounded() / 10) }
            .sorted { ($0.sets, $1.muscle) > ($1.sets, $0.muscle) }

        var perWeek: [Int: Int] = [:], volumePerWeek: [Int: Double] = [:], setsPerWeek: [Int: Int] = [:]
        for workout in inRange {
            perWeek[LocalDate.weekStart(ofDay: workout.day), default: 0] += 1
            var workoutVolume = 0.0, workoutSets = 0
            workoutVolume = workout.workingVolumeKilograms(countingVolumeOf: analysis.ledger.addsVolume)
            for set in workout.sets where set.isWorking { workoutSets += 1 }
            volumePerWeek[LocalDate.weekStart(ofDay: workout.day), default: 0] += workoutVolume
            setsPerWeek[LocalDate.weekStart(ofDay: workout.day), default: 0] += workoutSets
        }
        var weeks: [WeekCount] = []
        if let from {
            var week = LocalDate.weekStart(ofDay: from)
            let last = LocalDate.weekStart(ofDay: today)
            while week <= last {
                weeks.append(WeekCount(week: LocalDate(day: week), workouts: perWeek[week] ?? 0,
                                       volumeKilograms: Rounding.kilograms(volumePerWeek[week] ?? 0), sets: setsPerWeek[week] ?? 0))
                week += 7
            }
        }
        let target = max(1, analysis.weeklyTarget ?? 1)
        // Weeks before the lifter's first finished workout do not count against consistency.
        let firstWeek = analysis.finished.map(\.day).min().map { LocalDate.weekStart(ofDay: $0) } ?? Int.max
        let considered = weeks.filter { $0.week.day >= firstWeek }
        var counted = considered.count, met = considered.filter { $0.workouts >= target }.count
        if let current = considered.last, current.week.day == LocalDate.weekStart(ofDay: today), current.workouts < target { counted -= 1 }
        if counted < 0 { counted = 0; met = 0 }

        let ids = Set(inRange.map(\.id))
        let records = analysis.records.filter { ids.contains($0.workout) }
        var order = analysis.ledger.favourites.filter { analysis.sessionIndices[$0] != nil }
        let others = analysis.sessionIndices.keys.filter { !order.contains($0) }
            .sorted { (analysis.sessionIndices[$0]!.count, $1) > (analysis.sessionIndices[$1]!.count, $0) }
        order += others
        let strength = order.prefix(10).compactMap { exercise -> StrengthSeries? in
            let rank = analysis.ledger.ranking(of: exercise)
            var points: [ChartPoint] = [], oneRepMax: [ChartPoint] = []
            for index in analysis.sessionIndices[exercise] ?? [] {
                let workout = analysis.finished[index]
                guard ids.contains(workout.id) else { continue }
                let sets = analysis.performance(of: exercise, inFinished: index)?.workingSets ?? []
                let date = LocalDate(day: workout.day)
                let top = sets.max { rank.load($0) < rank.load($1) }
                points.append(ChartPoint(date: date, workout: workout.id, value: Rounding.kilograms(top?.kilograms ?? 0)))
                if !rank.assisted {
                    oneRepMax.append(ChartPoint(date: date, workout: workout.id, value: Rounding.kilograms(sets.map(rank.e1rm).max() ?? 0)))
                }
            }
            return points.isEmpty ? nil : StrengthSeries(exercise: exercise, name: analysis.exerciseName(exercise),
                                                         favourite: analysis.ledger.favourites.contains(exercise), points: points,
                                                         assisted: rank.assisted, oneRepMax: oneRepMax)
        }
        self.init(range: range, from: from.map { LocalDate(day: $0) }, to: LocalDate(day: today), workouts: inRange.count,
                  workoutsThisMonth: analysis.finished.filter { $0.day >= monthStart && $0.day <= today }.count,
                  totalVolumeKilograms: Rounding.kilograms(volume), dayStreak: analysis.streaks.currentDays, recordCount: records.count,
                  weeklyFrequency: weeks, muscleGroups: shares,
                  consistency: Consistency(target: target, weeks: counted, weeksMet: met, percent: counted == 0 ? 0 : Int((Double(met) * 100 / Double(counted)).rounded())),
                  strength: strength, recentRecords: Array(records.suffix(10).reversed()))
    }
}
