import JournalEvents
import JournalModel

/// One completed working set.
public struct CompletedSet: Equatable, Sendable {
    public var weight: Double
    public var unit: WeightUnit
    public var reps: Int
    public init(weight: Double, unit: WeightUnit, reps: Int) { self.weight = weight; self.unit = unit; self.reps = reps }
}

/// One exercise in one finished workout: its working sets and what was prescribed.
public struct CompletedSession: Equatable, Sendable {
    public var workout: String
    public var exercise: String
    public var at: Timestamp?
    /// Working sets in set-number order (warm-ups and drop sets excluded).
    public var sets: [CompletedSet]
    /// Reps each set had to reach (top of the prescribed range); nil when nothing was prescribed.
    public var targetReps: Int?
    /// Prescribed number of sets; nil when nothing was prescribed.
    public var targetSets: Int?

    public init(workout: String, exercise: String, at: Timestamp? = nil, sets: [CompletedSet], targetReps: Int? = nil, targetSets: Int? = nil) {
        self.workout = workout
        self.exercise = exercise
        self.at = at
        self.sets = sets
        self.targetReps = targetReps
        self.targetSets = targetSets
    }
}

/// What one session did to the target.
public struct ProgressionStep: Equatable, Sendable {
    public enum Outcome: String, Sendable { case passed, failed, deloaded, skipped }
    public var workout: String
    public var at: Timestamp?
    public var outcome: Outcome
    /// Heaviest working weight, in the rule's unit (on an assisted exercise the least help).
    public var weight: Double?
    public var reps: [Int]
    public var targetReps: Int
    public var targetAfter: Double?
    public var failuresAfter: Int
    public var note: String
}

/// A deload and the failed sessions that caused it.
public struct Deload: Equatable, Sendable {
    public var from: Double
    public var to: Double
    public var percent: Double
    /// The consecutive failed sessions (workout ids), oldest first.
    public var causedBy: [String]
}

/// The next session's target for one exercise, with its derivation.
public struct ProgressionTarget: Equatable, Sendable {
    public var exercise: String
    /// Nil when there is no usable history yet.
    public var weight: Double?
    public var unit: WeightUnit
    public var reps: Int?
    /// Consecutive failures so far (toward the next deload).
    public var failures: Int
    public var steps: [ProgressionStep]
    public var deloads: [Deload]
    public var rule: ProgressionRule
    /// The target the lifter set by hand that the fold started from, if any.
    public var setByHand: Double? = nil
    /// An assisted exercise: every weight here is the help (less is better; DOMAIN.md §"Assisted exercises").
    public var assisted = false

    /// Human-readable derivation: the rule, one line per session, the deloads with their causes.
    public var explanation: String {
        // An assisted exercise's weights are help, and say so.
        let u = unit.rawValue + (assisted ? " assistance" : "")
        var lines: [String] = []
        if let weight {
            lines.append("\(exercise): next target \(formatWeight(weight)) \(u)" + (reps.map { " × \($0)" } ?? "") + " (rule: \(rule.summary))")
        } else {
            lines.append("\(exercise): no target yet: no finished session with working sets (rule: \(rule.summary))")
        }
        if let setByHand { lines.append("  set by hand to \(formatWeight(setByHand)) \(u); earlier sessions no longer count") }
        for step in steps {
            let day = step.at.map { " on \(LocalDate(day: $0.localDay))" } ?? ""
            let lifted = step.weight.map { "\(formatWeight($0)) \(u) × \(step.reps.map(String.init).joined(separator: ","))" } ?? "no working sets"
            let after = step.targetAfter.map { "; target \(formatWeight($0)) \(u)" } ?? ""
            lines.append("  \(step.workout)\(day): \(lifted) vs \(step.targetReps) reps → \(step.outcome.rawValue)\(after)" + (step.note.isEmpty ? "" : " (\(step.note))"))
        }
        for deload in deloads {
            let sign = assisted ? "+" : "−"
            lines.append("  deload: \(formatWeight(deload.from)) \(u) \(sign) \(formatWeight(deload.percent))% = \(formatWeight(deload.to)) \(u), after failed sessions \(deload.causedBy.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}

/// Progressive overload and deload (seed 002 "Progression & Deload Logic") as a pure fold over finished sessions.
public enum Progression {
    /// Folds `history` (oldest first; sessions of other exercises are ignored) into the next target.
    ///
    /// - The first session with working sets sets the baseline: its heaviest weight.
    /// - Success (`rule.trigger`) → target = heaviest weight lifted + increment, made loadable (`loadable`: the
    ///   nearest multiple of the loading step, above the heaviest), never below the current target; failures reset
    ///   to 0. An unloaded session (heaviest 0 kg, a bodyweight exercise) adds no weight.
    /// - The loading step is 2.5 kg / 5 lb, or the increment when smaller (a configured 2.5 lb steps by 2.5 lb).
    /// - Failure → target kept, failures + 1; at `failuresBeforeDeload` the target drops by `deloadPercent`, rounded
    ///   down to the loading step (2.5 kg / 5 lb, or the increment when smaller), and failures reset to 0.
    /// - Weights in another unit are converted with `Units`; a baseline lifted in another unit is its nearest
    ///   loadable weight in the rule's unit (`Units.loadable`: 100 kg starts a pound rule at 220 lb).
    /// - On an `assisted` exercise a set's weight is the help (DOMAIN.md §"Assisted exercises"), and the fold runs on
    ///   the load, minus the help: the top set is the one with the least help, a success lowers the help by the
    ///   increment (never below 0: with no help left, reps progress), and a deload raises it by `deloadPercent`,
    ///   rounded up to the loading step and by at least one step (20 kg of help → 22.5 kg).
    /// `start`: a target set by hand (seed 002: the lifter overrides the automatic change), in the rule's unit; the
    /// fold then starts from it instead of the first session's heaviest weight (pass only the sessions after it).
    public static func nextTarget(exercise: String, history: [CompletedSession], rule: ProgressionRule,
                                  start: Double? = nil, assisted: Bool = false) throws(ProgressionError) -> ProgressionTarget {
        try rule.validate()
        // Loads: weights, or minus the help on an assisted exercise; `shown` turns a load back into the weight.
        let sign: Double = assisted ? -1 : 1
        func shown(_ load: Double) -> Double { load == 0 ? 0 : sign * load }
        var target: Double? = start.map { sign * $0 }
        var failures = 0
        var failing: [String] = []
        var steps: [ProgressionStep] = []
        var deloads: [Deload] = []
        var lastReps: Int?
        let step = rule.increment > 0 ? min(rule.unit.loadingStep, rule.increment) : rule.unit.loadingStep
        for session in history where session.exercise == exercise {
            let needed = session.targetReps ?? rule.defaultTargetReps
            lastReps = needed
            let sets = session.sets.filter { $0.reps >= 0 && $0.weight >= 0 && $0.weight.isFinite }
            let reps = sets.map(\.reps)
            guard !sets.isEmpty else {
                steps.append(ProgressionStep(workout: session.workout, at: session.at, outcome: .skipped, weight: nil, reps: [], targetReps: needed,
                                             targetAfter: target.map(shown), failuresAfter: failures, note: "no working sets"))
                continue
            }
            let weights = sets.map { sign * Units.convert($0.weight, from: $0.unit, to: rule.unit) }
            let heaviest = weights.max() ?? 0
            let rounded = (heaviest * 1000).rounded() / 1000
            // The weight a target starts from is loadable in the rule's unit: a set lifted in the other unit (the
            // lifter switched units) counts as its nearest loadable weight there (`Units.loadable`).
            let top = sets[weights.firstIndex(of: heaviest) ?? 0]
            let baseline = sign * (Units.loadable(top.weight, from: top.unit, to: rule.unit, step: step) * 1000).rounded() / 1000
            let passed: Bool
            var note = ""
            switch rule.trigger {
            case .allSets:
                let enoughSets = session.targetSets.map { sets.count >= $0 } ?? true
                passed = enoughSets && reps.allSatisfy { $0 >= needed }
                if !enoughSets { note = "\(sets.count) of \(session.targetSets ?? 0) sets" }
            case .topSet:
                let top = zip(weights, reps).filter { $0.0 == heaviest }.map(\.1).max() ?? 0
                passed = top >= needed
            }
            let current = target ?? baseline
            if passed {
                // An unloaded (bodyweight) session has no weight to add to, nor an assisted one without help to take
                // away: reps progress instead.
                let unloaded = rounded == 0
                target = unloaded ? current : max(current, loadable(rounded + rule.increment, step: step, above: rounded))
                if assisted { target = min(0, target ?? 0) }
                failures = 0
                failing = []
                let plain = unloaded ? (assisted ? "no assistance left: no help taken away" : "unloaded: no weight added") : ""
                steps.append(ProgressionStep(workout: session.workout, at: session.at, outcome: .passed, weight: shown(rounded), reps: reps,
                                             targetReps: needed, targetAfter: target.map(shown), failuresAfter: 0,
                                             note: note.isEmpty ? plain : note))
                continue
            }
            failures += 1
            failing.append(session.workout)
            target = current
            if failures >= rule.failuresBeforeDeload {
                // Less load: a lighter weight (never below 0), or more help (at least one loading step more).
                let cut = Units.roundDown(current - abs(current) * rule.deloadPercent / 100, to: step)
                let lowered = assisted ? min(current - step, cut) : max(0, cut)
                deloads.append(Deload(from: shown(current), to: shown(lowered), percent: rule.deloadPercent, causedBy: failing))
                target = lowered
                failures = 0
                failing = []
                steps.append(ProgressionStep(workout: session.workout, at: session.at, outcome: .deloaded, weight: shown(rounded), reps: reps,
                                             targetReps: needed, targetAfter: shown(lowered), failuresAfter: 0,
                                             note: note.isEmpty ? "failure \(rule.failuresBeforeDeload) of \(rule.failuresBeforeDeload)" : note))
            } else {
                steps.append(ProgressionStep(workout: session.workout, at: session.at, outcome: .failed, weight: shown(rounded), reps: reps,
                                             targetReps: needed, targetAfter: shown(current), failuresAfter: failures,
                                             note: note.isEmpty ? "failure \(failures) of \(rule.failuresBeforeDeload)" : note))
            }
        }
        return ProgressionTarget(exercise: exercise, weight: target.map(shown), unit: rule.unit, reps: lastReps, failures: failures,
                                 steps: steps, deloads: deloads, rule: rule, setByHand: start, assisted: assisted)
    }

    /// `value` rounded to the nearest multiple of `step` (a weight the lifter can load), raised by one step when
    /// that would not exceed `floor`: 135 lb + 5 lb stays 140 lb; 61.235 kg (135 lb) + 2.5 kg becomes 62.5 kg.
    public static func loadable(_ value: Double, step: Double, above floor: Double) -> Double {
        guard step > 0 else { return value }
        let nearest = Units.round(value, toNearest: step)
        return nearest > floor + 1e-9 ? nearest : nearest + step
    }
}
