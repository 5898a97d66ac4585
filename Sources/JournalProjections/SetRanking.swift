import JournalModel
import TrainingDomain

/// How the sets of one exercise compare: the one rule behind its records, top set, best set, estimated 1RM and
/// charts (PROJECTIONS.md §"Records", DOMAIN.md §"Assisted exercises"). Usually more weight is better; on an
/// assisted exercise the weight is the help (a counterweight or a band), so the set counts with minus its weight
/// (less help is better) and has no estimated 1RM, and volume (help × reps) is no achievement.
public struct SetRanking: Equatable, Sendable {
    public var assisted: Bool

    public init(assisted: Bool) { self.assisted = assisted }

    /// The load a set counts with: its kilograms, or minus them (the assistance) on an assisted exercise.
    @inline(__always) public func load(_ set: LoggedSet) -> Double { assisted ? -set.kilograms : set.kilograms }

    /// Load × reps: the volume a session's comparison counts (minus the help × reps on an assisted exercise, so less
    /// help is an increase).
    @inline(__always) public func volume(_ set: LoggedSet) -> Double { load(set) * Double(set.reps) }

    /// Epley's estimate; 0 (none) on an assisted exercise.
    @inline(__always) public func e1rm(_ set: LoggedSet) -> Double { assisted ? 0 : epley(set.kilograms, set.reps) }

    /// The top set: the most load, then the most reps (the earlier set keeps a tie).
    @inline(__always) public func isTop(_ set: LoggedSet, over other: LoggedSet) -> Bool {
        load(set) > load(other) || (load(set) == load(other) && set.reps > other.reps)
    }

    /// The best set: the most volume; on an assisted exercise the top set (the least help, then the most reps).
    @inline(__always) public func isBest(_ set: LoggedSet, over other: LoggedSet) -> Bool {
        assisted ? isTop(set, over: other) : set.volumeKilograms > other.volumeKilograms
    }

    /// Whether the sets add to volume (a workout's, a session's, a week's, the journal's) and make volume records:
    /// not on an assisted exercise, whose weight is help, not load (DOMAIN.md §"Assisted exercises").
    public var volumeCounts: Bool { !assisted }

    /// The volume a set adds to a total: weight × reps, nothing on an assisted exercise (`volumeCounts`).
    @inline(__always) public func countedVolume(_ set: LoggedSet) -> Double { volumeCounts ? set.volumeKilograms : 0 }

    /// The record kind of the best load: `least_assistance` on an assisted exercise, else `heaviest_weight`.
    public var loadRecord: PersonalRecord.Kind { assisted ? .leastAssistance : .heaviestWeight }
}

extension Ledger {
    /// How `exercise`'s sets compare: assisted when `isAssisted` says so (its `exercise.created`, or the catalogue).
    public func ranking(of exercise: String) -> SetRanking { SetRanking(assisted: isAssisted(exercise)) }

    /// Whether `exercise`'s sets add to volume (`SetRanking.volumeCounts`): the predicate the model's totals take.
    public func addsVolume(_ exercise: String) -> Bool { ranking(of: exercise).volumeCounts }
}
