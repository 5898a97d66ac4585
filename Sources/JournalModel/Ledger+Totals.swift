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
    /// The totals of the workouts as of `asOf` (every edit, deletion, swap and `data.cleared` folded).
    public var totals: WorkoutTotals {
        var totals = WorkoutTotals()
        for workout in workouts {
            switch workout.status {
            case .finished:
                totals.finished += 1
                totals.volumeKilograms += workout.workingVolumeKilograms
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
    public var workingVolumeKilograms: Double {
        sets.reduce(0.0) { $0 + ($1.isWorking ? $1.volumeKilograms : 0) }
    }
}
