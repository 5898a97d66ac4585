import JournalEvents

/// The headline counts of a ledger: what `journal replay` prints as its summary, derived from the one fold so that
/// it agrees with every view (history, progress, calendar, records, exports) on workouts, sets and volume.
public struct WorkoutTotals: Equatable, Sendable {
    /// Workouts finished and not deleted.
    public var finished = 0
    /// Workouts discarded while open.
    public var discarded = 0
    /// Working sets (every kind but `warmup`) of the finished workouts.
    public var workingSets = 0
    /// Warm-up sets of the finished workouts.
    public var warmupSets = 0
    /// Working volume of the finished workouts: weight in kilograms × reps, summed set by set in workout order.
    public var volumeKilograms = 0.0

    public init() {}
}

extension Ledger {
    /// The totals of the workouts as of `asOf` (every edit, deletion, swap and `data.cleared` folded), every set's
    /// weight × reps in the volume.
    public var totals: WorkoutTotals { totals(countingVolumeOf: { _ in true }) }

    /// The totals, the volume counting only the sets of the exercises `addsVolume` names (the views' rule leaves
    /// assisted exercises out: `Ledger.addsVolume`, JournalProjections).
    public func totals(countingVolumeOf addsVolume: (String) -> Bool) -> WorkoutTotals {
        var totals = WorkoutTotals()
        for workout in workouts {
            switch workout.status {
            case .finished:
                totals.finished += 1
                totals.volumeKilograms += workout.workingVolumeKilograms(countingVolumeOf: addsVolume)
                for set in workout.sets {
                    if set.isWorking { totals.workingSets += 1 } else { totals.warmupSets += 1 }
                }
            case .discarded: totals.discarded += 1
            case .open, .deleted: break
            }
        }
        return totals
    }
}

extension WorkoutRecord {
    /// Kilograms × reps over the working sets, unrounded (views round it where they show it).
    public var workingVolumeKilograms: Double { workingVolumeKilograms(countingVolumeOf: { _ in true }) }

    /// Kilograms × reps over the working sets of the exercises `addsVolume` names.
    public func workingVolumeKilograms(countingVolumeOf addsVolume: (String) -> Bool) -> Double {
        sets.reduce(0.0) { $0 + ($1.isWorking && addsVolume($1.exercise) ? $1.volumeKilograms : 0) }
    }
}

extension WorkoutRecord {
    /// `Analysis.finished`'s order (PROJECTIONS.md §"Finished workouts"): start instant, then seq of `workout.started`.
    public static func finishedOrder(_ a: WorkoutRecord, _ b: WorkoutRecord) -> Bool {
        (a.startedAt.epochMilliseconds, a.seq) < (b.startedAt.epochMilliseconds, b.seq)
    }

    /// This workout's session of `exercise` as progression reads it: its working sets (every kind but `warmup`) in
    /// set order, with what the workout prescribed; nil when it has no working set of it.
    public func session(of exercise: String) -> ExerciseSession? {
        let working = workingSets(of: exercise)
        guard !working.isEmpty else { return nil }
        let prescribed = prescription(of: exercise)
        return ExerciseSession(workout: id, at: startedAt, sets: working, targetReps: prescribed?.repRange?.upper,
                               targetSets: prescribed.map(\.setCount).flatMap { $0 > 0 ? $0 : nil })
    }
}

/// One finished workout's working sets of one exercise and what that workout prescribed: the history the progression
/// rules (TrainingDomain) read, the same for the active workout's target, `journal explain deload` and the domain.
public struct ExerciseSession: Equatable, Sendable {
    public var workout: String
    /// When the workout started.
    public var at: Timestamp
    /// Working sets, in set order.
    public var sets: [LoggedSet]
    /// Top of the prescribed rep range.
    public var targetReps: Int?
    public var targetSets: Int?
    public init(workout: String, at: Timestamp, sets: [LoggedSet], targetReps: Int? = nil, targetSets: Int? = nil) {
        self.workout = workout; self.at = at; self.sets = sets; self.targetReps = targetReps; self.targetSets = targetSets
    }
}

extension Ledger {
    /// Finished workouts in `WorkoutRecord.finishedOrder`, with linked exercises filed under their catalogue
    /// exercise (`exercise.linked`, `Ledger+Links.swift`).
    public var finishedWorkouts: [WorkoutRecord] { workouts.filter(\.isFinished).map(refiled).sorted(by: WorkoutRecord.finishedOrder) }

    /// The sessions of `exercise`, oldest first (`WorkoutRecord.session(of:)` of every finished workout).
    public func sessions(of exercise: String) -> [ExerciseSession] { finishedWorkouts.compactMap { $0.session(of: exercise) } }

    /// Seed 004's "Recent" section of the exercise picker: the exercises of the finished workouts, the latest workout
    /// first (in its exercise order), each once, at most `limit`.
    public func recentExercises(limit: Int = 10) -> [String] {
        var seen = Set<String>(), recent: [String] = []
        for workout in finishedWorkouts.reversed() {
            for exercise in workout.exercises.map(\.exercise) where recent.count < limit && seen.insert(exercise).inserted { recent.append(exercise) }
        }
        return recent
    }
}
