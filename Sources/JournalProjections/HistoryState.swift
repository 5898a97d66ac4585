import JournalEvents
import JournalModel
import TrainingDomain

/// One set as the history screens show it, in the display unit.
public struct SetSummary: Equatable, Hashable, Sendable {
    public var set: Int
    public var weight: Double
    public var unit: WeightUnit
    public var reps: Int
    public var kind: SetKind
    /// "+N": reps over set i of the previous comparison, 0 when not more.
    public var plus: Int
    public var rpe: Double?
    public init(set: Int, weight: Double, unit: WeightUnit, reps: Int, kind: SetKind = .working, plus: Int = 0, rpe: Double? = nil) {
        self.set = set; self.weight = weight; self.unit = unit; self.reps = reps; self.kind = kind; self.plus = plus; self.rpe = rpe
    }
}

public struct ExerciseSummary: Equatable, Hashable, Sendable {
    public var exercise: String
    public var name: String
    public var rosette: Bool
    /// Nil when the previous workout of the same name did not have this exercise (or there is none).
    public var repsDelta: Int?
    public var volumeDeltaKilograms: Double?
    public var volumeKilograms: Double
    public var sets: [SetSummary]
    public var cardio: CardioEntry?
    public var superset: String?
    /// Notes on the exercise and its sets (`exercise.noted`, `set.noted`), in order.
    public var notes: [String]
    /// An assisted exercise (`SetRanking`): its sets' weights are help (DOMAIN.md §"Assisted exercises").
    public var assisted: Bool
    public init(exercise: String, name: String, rosette: Bool = false, repsDelta: Int? = nil, volumeDeltaKilograms: Double? = nil,
                volumeKilograms: Double, sets: [SetSummary], cardio: CardioEntry? = nil, superset: String? = nil, notes: [String] = [],
                assisted: Bool = false) {
        self.exercise = exercise; self.name = name; self.rosette = rosette; self.repsDelta = repsDelta
        self.volumeDeltaKilograms = volumeDeltaKilograms; self.volumeKilograms = volumeKilograms; self.sets = sets
        self.cardio = cardio; self.superset = superset; self.notes = notes; self.assisted = assisted
    }
}

/// A finished workout as the history list, the workout page and the finish summary show it (seed 000 §15).
public struct WorkoutSummary: Equatable, Hashable, Sendable {
    public var workout: String
    public var name: String
    public var startedAt: Timestamp
    public var finishedAt: Timestamp
    /// The local day it counts on (the day it finished).
    public var date: LocalDate
    public var durationSeconds: Int
    public var exerciseCount: Int
    /// Working sets.
    public var setCount: Int
    public var reps: Int
    public var volumeKilograms: Double
    /// No earlier finished workout with the same name.
    public var firstTime: Bool
    public var previousWorkout: String?
    public var increasedReps: Int
    public var increasedLoadKilograms: Double
    public var exercises: [ExerciseSummary]
    public var notes: [String]
    public var edited: Bool

    public init(workout: String, name: String, startedAt: Timestamp, finishedAt: Timestamp, date: LocalDate, durationSeconds: Int,
                exerciseCount: Int, setCount: Int, reps: Int, volumeKilograms: Double, firstTime: Bool, previousWorkout: String? = nil,
                increasedReps: Int = 0, increasedLoadKilograms: Double = 0, exercises: [ExerciseSummary], notes: [String] = [], edited: Bool = false) {
        self.workout = workout; self.name = name; self.startedAt = startedAt; self.finishedAt = finishedAt; self.date = date
        self.durationSeconds = durationSeconds; self.exerciseCount = exerciseCount; self.setCount = setCount; self.reps = reps
        self.volumeKilograms = volumeKilograms; self.firstTime = firstTime; self.previousWorkout = previousWorkout
        self.increasedReps = increasedReps; self.increasedLoadKilograms = increasedLoadKilograms; self.exercises = exercises
        self.notes = notes; self.edited = edited
    }
}

extension Analysis {
    /// The summary of `finished[index]`, compared with the previous workout of the same name.
    public func summary(_ index: Int) -> WorkoutSummary {
        let workout = finished[index]
        let previousIndex = previousSameName(index)
        var exercises: [ExerciseSummary] = []
        var setCount = 0, reps = 0, volume = 0.0, increasedReps = 0, increasedLoad = 0.0
        for performance in performed[index] {
            let exercise = performance.exercise, sets = performance.sets
            var comparison: ExerciseComparison?
            let ranking = ledger.ranking(of: exercise)
            if let previousIndex, let then = self.performance(of: exercise, inFinished: previousIndex) {
                comparison = Analysis.compare(sets, then.sets, ranking: ranking)
            }
            var exerciseVolume = 0.0
            sets.withUnsafeBufferPointer { sets in   // read in place: a copied `LoggedSet` retains its strings
                for index in sets.indices where sets[index].isWorking {
                    setCount += 1; reps += sets[index].reps; exerciseVolume += ranking.countedVolume(sets[index])
                }
            }
            volume += exerciseVolume
            if let comparison {
                increasedReps += max(0, comparison.repsDelta)
                increasedLoad += max(0, comparison.volumeDeltaKilograms)
            }
            exercises.append(ExerciseSummary(
                exercise: exercise, name: exerciseName(exercise), rosette: comparison?.rosette ?? false,
                repsDelta: comparison?.repsDelta, volumeDeltaKilograms: comparison?.volumeDeltaKilograms,
                volumeKilograms: Rounding.kilograms(exerciseVolume),
                sets: sets.map { setSummary($0, plus: comparison?.plus[$0.set] ?? 0) },
                cardio: workout.cardio.first { $0.exercise == exercise },
                superset: workout.supersets.first { $0.exercises.contains(exercise) }?.group,
                notes: workout.notes.filter { $0.exercise == exercise }.map(\.text), assisted: ranking.assisted))
        }
        return WorkoutSummary(
            workout: workout.id, name: workout.name, startedAt: workout.startedAt, finishedAt: workout.finishedAt ?? workout.startedAt,
            date: LocalDate(day: workout.day), durationSeconds: workout.durationSeconds, exerciseCount: exercises.count,
            setCount: setCount, reps: reps, volumeKilograms: Rounding.kilograms(volume), firstTime: previousIndex == nil,
            previousWorkout: previousIndex.map { finished[$0].id }, increasedReps: increasedReps, increasedLoadKilograms: Rounding.kilograms(increasedLoad),
            exercises: exercises, notes: workout.notes.filter { $0.exercise == nil }.map(\.text), edited: workout.edited)
    }

    func setSummary(_ set: LoggedSet, plus: Int) -> SetSummary {
        SetSummary(set: set.set, weight: DisplayWeight(kilograms: set.kilograms, in: unit).weight, unit: unit, reps: set.reps,
                   kind: set.kind, plus: set.isWorking ? plus : 0, rpe: set.rpe)
    }
}

/// Filters of `journal history` (seed 003 SearchAndFilterBar).
public struct HistoryQuery: Equatable, Sendable {
    public var from: LocalDate?
    public var to: LocalDate?
    /// An exercise id or name: only workouts that performed it.
    public var exercise: String?
    /// Case-insensitive text in the workout's name, its exercises' names or its notes.
    public var text: String?
    public var limit: Int?
    /// Matches to skip first, newest first (seed 003 "load more": the next page starts where the last one ended).
    public var offset: Int
    public init(from: LocalDate? = nil, to: LocalDate? = nil, exercise: String? = nil, text: String? = nil, limit: Int? = nil, offset: Int = 0) {
        self.from = from; self.to = to; self.exercise = exercise; self.text = text; self.limit = limit; self.offset = offset
    }
}

/// Workout history, newest first (seed 000 §15, seed 003 History, seed 004 History).
public struct HistoryState: Equatable, Sendable {
    /// How many workouts match before `limit`.
    public var total: Int
    public var workouts: [WorkoutSummary]
    public init(total: Int, workouts: [WorkoutSummary]) { self.total = total; self.workouts = workouts }

    public init(_ analysis: Analysis, query: HistoryQuery = HistoryQuery()) {
        let exercise = query.exercise.map { analysis.resolveExercise($0) ?? $0 }
        let text = query.text?.lowercased()
        var result: [WorkoutSummary] = []
        var total = 0
        for index in analysis.finished.indices.reversed() {
            let workout = analysis.finished[index]
            let day = workout.day
            if let from = query.from, day < from.day { continue }
            if let to = query.to, day > to.day { continue }
            if let exercise, !workout.performedExercises.contains(exercise) { continue }
            if let text, !text.isEmpty {
                let haystack = ([workout.name] + workout.performedExercises.map(analysis.exerciseName) + workout.notes.map(\.text))
                guard haystack.contains(where: { $0.lowercased().contains(text) }) else { continue }
            }
            total += 1
            if total <= query.offset { continue }
            if let limit = query.limit, result.count >= limit { continue }
            result.append(analysis.summary(index))
        }
        self.init(total: total, workouts: result)
    }
}

/// One finished workout with the records it set: `journal workout` and the finish summary (seed 003 FinishSummary).
public struct WorkoutDetail: Equatable, Sendable {
    public var summary: WorkoutSummary
    public var records: [PersonalRecord]
    public init(summary: WorkoutSummary, records: [PersonalRecord]) { self.summary = summary; self.records = records }

    /// The workout `id`, or the latest finished one when `id` is nil; nil when there is none.
    public init?(_ analysis: Analysis, workout id: String?) {
        guard let index = id.map({ analysis.index(of: $0) }) ?? (analysis.finished.isEmpty ? nil : analysis.finished.count - 1) else { return nil }
        let summary = analysis.summary(index)
        self.init(summary: summary, records: analysis.records.filter { $0.workout == summary.workout })
    }
}

/// The days of one local month with finished workouts (seed 004 Calendar View).
public struct CalendarMonth: Equatable, Sendable {
    public struct Day: Equatable, Sendable {
        public var date: LocalDate
        public var workouts: [String]
        public init(date: LocalDate, workouts: [String]) { self.date = date; self.workouts = workouts }
    }
    /// A day with something scheduled and not done (seed 001's session indicators).
    public struct ScheduledDay: Equatable, Sendable {
        public var date: LocalDate
        public var names: [String]
        public init(date: LocalDate, names: [String]) { self.date = date; self.names = names }
    }
    public var year: Int
    public var month: Int
    /// The days with finished workouts, in date order.
    public var days: [Day]
    /// The days with something scheduled, in date order: the week of T as its home page schedules it
    /// (`HomeState.Week.calendar`), and on other weeks the dated plans not yet started (`HomeState.datedPlans`).
    public var scheduled: [ScheduledDay]
    public init(year: Int, month: Int, days: [Day], scheduled: [ScheduledDay] = []) {
        self.year = year; self.month = month; self.days = days; self.scheduled = scheduled
    }

    /// The month containing `asOf` unless `year`/`month` are given.
    public init(_ analysis: Analysis, year: Int? = nil, month: Int? = nil) {
        let today = LocalDate(day: analysis.asOf.localDay).components
        let y = year ?? today.year, m = month ?? today.month
        let first = LocalDate(year: y, month: m, day: 1).day
        let last = first + LocalDate.daysIn(month: m, year: y) - 1
        var days: [Day] = []
        for workout in analysis.finished where (first...last).contains(workout.day) {
            if let index = days.firstIndex(where: { $0.date.day == workout.day }) { days[index].workouts.append(workout.id) }
            else { days.append(Day(date: LocalDate(day: workout.day), workouts: [workout.id])) }
        }
        days.sort { $0.date < $1.date }
        // The week of T is scheduled by the home page's rule; the month's other days have their dated plans.
        let home = HomeState(ledger: analysis.ledger, finished: analysis.finished.map { FinishedWorkout($0, addsVolume: analysis.ledger.addsVolume) }, recentRecords: [], context: analysis.context)
        var names = HomeState.datedPlans(analysis.ledger, days: first..<last + 1)
        for day in home.week.calendar {
            names[day.date.day] = day.scheduled
        }
        let scheduled = names.filter { (first...last).contains($0.key) && !$0.value.isEmpty }.sorted { $0.key < $1.key }
            .map { ScheduledDay(date: LocalDate(day: $0.key), names: $0.value) }
        self.init(year: y, month: m, days: days, scheduled: scheduled)
    }
}
