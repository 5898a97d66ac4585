import JournalEvents
import JournalModel

/// When a session counts as a success.
public enum ProgressionTrigger: String, Sendable, Hashable, CaseIterable {
    /// Every working set reached the target reps (and, when prescribed, all prescribed sets were done).
    case allSets = "all_sets"
    /// The heaviest working set reached the target reps.
    case topSet = "top_set"
}

/// A rule that cannot be applied.
public enum ProgressionError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidRule(field: String, value: Double, rule: String)

    public var description: String {
        switch self {
        case .invalidRule(let field, let value, let rule): return "progression rule \(field) \(formatWeight(value)) \(rule)"
        }
    }
}

/// Per-exercise progressive overload (seed 002 `ProgressionRule`), configurable by `progression.configured`.
public struct ProgressionRule: Equatable, Sendable {
    /// Added to the target after a successful session, in `unit`.
    public var increment: Double
    public var unit: WeightUnit
    public var trigger: ProgressionTrigger
    /// Cut applied on deload, in percent (10 = 10 %).
    public var deloadPercent: Double
    /// Consecutive failed sessions that trigger a deload.
    public var failuresBeforeDeload: Int
    /// Target reps when a session carries no prescription (seed 002's 5×5 default: 5).
    public var defaultTargetReps: Int

    public init(increment: Double, unit: WeightUnit = .kg, trigger: ProgressionTrigger = .allSets, deloadPercent: Double = 10,
                failuresBeforeDeload: Int = 3, defaultTargetReps: Int = 5) {
        self.increment = increment
        self.unit = unit
        self.trigger = trigger
        self.deloadPercent = deloadPercent
        self.failuresBeforeDeload = failuresBeforeDeload
        self.defaultTargetReps = defaultTargetReps
    }

    /// The `train` rule set's default (seed 000): +2.5 kg when all sets reach the top of the rep range; deload 10 %
    /// after 3 consecutive failures (seed 002). In pounds: +5 lb.
    public static func trainDefault(unit: WeightUnit = .kg) -> ProgressionRule {
        ProgressionRule(increment: unit == .kg ? 2.5 : 5, unit: unit)
    }

    /// Seed 002's defaults by exercise: 5 lb for barbell compounds, 2.5 lb for barbell isolation, 5 lb for dumbbells
    /// and everything else; in kilograms 2.5 kg for all, except 1.25 kg for barbell isolation.
    public static func suggested(for exercise: Exercise?, unit: WeightUnit = .kg) -> ProgressionRule {
        let barbellIsolation = exercise.map { $0.equipment.contains("barbell") && $0.mechanic == .isolation } ?? false
        switch unit {
        case .kg: return ProgressionRule(increment: barbellIsolation ? 1.25 : 2.5, unit: .kg)
        case .lb: return ProgressionRule(increment: barbellIsolation ? 2.5 : 5, unit: .lb)
        }
    }

    /// `base` with the exercise's `progression.configured` settings as the model folded them (present keys replace;
    /// a unit other than the rule's, given without an increment, converts the increment): the one rule resolution
    /// behind the active workout's target, `journal explain` and `Progression.nextTarget(exercise:ledger:base:)`.
    public static func resolve(base: ProgressionRule, settings: ProgressionSettings?) -> ProgressionRule {
        var rule = base
        guard let settings else { return rule }
        if let unit = settings.unit, unit != rule.unit {
            if settings.increment == nil { rule.increment = Units.convert(rule.increment, from: rule.unit, to: unit) }
            rule.unit = unit
        }
        if let increment = settings.increment { rule.increment = increment }
        if let trigger = settings.trigger.flatMap(ProgressionTrigger.init(rawValue:)) { rule.trigger = trigger }
        if let percent = settings.deloadPercent { rule.deloadPercent = percent }
        if let failures = settings.failuresBeforeDeload { rule.failuresBeforeDeload = failures }
        return rule
    }

    /// Seed 002's suggestion for `exercise` in `unit`, with its `progression.configured` settings: the rule every view
    /// and `journal explain` run.
    public static func resolve(exercise: String, catalogue: ExerciseCatalogue, unit: WeightUnit, settings: ProgressionSettings?) -> ProgressionRule {
        resolve(base: suggested(for: catalogue.exercise(id: exercise), unit: unit), settings: settings)
    }

    /// `resolve(base:settings:)` with the settings of `exercise` in `ledger`.
    public static func resolve(exercise: String, ledger: Ledger, base: ProgressionRule) -> ProgressionRule {
        resolve(base: base, settings: ledger.progression[exercise])
    }

    public func validate() throws(ProgressionError) {
        guard increment.isFinite, increment >= 0 else { throw .invalidRule(field: "increment", value: increment, rule: "must be ≥ 0") }
        guard deloadPercent.isFinite, deloadPercent >= 0, deloadPercent < 100 else {
            throw .invalidRule(field: "deload_percent", value: deloadPercent, rule: "must be at least 0 and below 100")
        }
        guard failuresBeforeDeload >= 1 else {
            throw .invalidRule(field: "failures_before_deload", value: Double(failuresBeforeDeload), rule: "must be at least 1")
        }
        guard defaultTargetReps >= 1 else {
            throw .invalidRule(field: "default_target_reps", value: Double(defaultTargetReps), rule: "must be at least 1")
        }
    }

    /// `+2.5 kg when all sets reach the target reps; −10% after 3 consecutive failures`.
    public var summary: String {
        let when = trigger == .allSets ? "all sets reach the target reps" : "the top set reaches the target reps"
        return "+\(formatWeight(increment)) \(unit.rawValue) when \(when); −\(formatWeight(deloadPercent))% after \(failuresBeforeDeload) consecutive failures"
    }
}
