import JournalModel
import JournalEvents

// Progression reads the journal through the model (JournalModel's `Ledger`): the sessions are the finished workouts'
// working sets as the one fold left them (edits, deletions, swaps, unit changes, `data.cleared` included).

extension CompletedSession {
    /// The model's session of `exercise`, its sets in the units they were recorded in.
    public init(_ session: ExerciseSession, exercise: String) {
        self.init(workout: session.workout, exercise: exercise, at: session.at,
                  sets: session.sets.map { CompletedSet(weight: $0.weight, unit: $0.unit, reps: $0.reps) },
                  targetReps: session.targetReps, targetSets: session.targetSets)
    }
}

extension Progression {
    /// The finished sessions of `exercise` in `ledger`, oldest first (`Ledger.sessions(of:)`): working sets (every kind
    /// but `warmup`) in kilograms, with the prescription of the workout (its `exercise.added`, else its programme
    /// session, template or plan).
    public static func sessions(for exercise: String, in ledger: Ledger) -> [CompletedSession] {
        ledger.sessions(of: exercise).map { CompletedSession($0, exercise: exercise) }
    }

    /// The next target straight from a ledger: its sessions and `base` with the exercise's settings. A target set by
    /// hand (`progression.configured` `target`) is the start, and only the sessions begun after it count.
    public static func nextTarget(exercise: String, ledger: Ledger, base: ProgressionRule = .trainDefault()) throws(ProgressionError) -> ProgressionTarget {
        let rule = ProgressionRule.resolve(exercise: exercise, ledger: ledger, base: base)
        var history = sessions(for: exercise, in: ledger)
        var start: Double?
        if let settings = ledger.progression[exercise], let target = settings.target, let at = settings.targetAt {
            history = history.filter { ($0.at?.epochMilliseconds ?? .min) > at.epochMilliseconds }
            start = Units.loadable(target, from: settings.targetUnit ?? ledger.displayUnit, to: rule.unit)
        }
        return try nextTarget(exercise: exercise, history: history, rule: rule, start: start, assisted: ledger.isAssisted(exercise))
    }

    /// The target the app shows for `exercise` (the active workout, `journal explain`): the catalogue's suggested rule
    /// in the lifter's `unit` with the exercise's settings (`ProgressionRule.resolve(exercise:catalogue:unit:settings:)`),
    /// over `history`; nil without history or when the rule is invalid. Its weights are loadable in the rule's unit.
    /// `startKilograms`: a target the lifter set by hand (`progression.configured` `target`); the fold starts from it
    /// and `history` holds only the sessions begun after it; `startUnit` is the unit it was set in (a target set in
    /// the other unit starts from its nearest loadable weight in the rule's unit). `assisted`: the exercise's weights
    /// are help (`Ledger.isAssisted`), so progress lowers them.
    public static func target(exercise: String, history: [CompletedSession], settings: ProgressionSettings?,
                              catalogue: ExerciseCatalogue = .builtIn, unit: WeightUnit = .kg,
                              startKilograms: Double? = nil, startUnit: WeightUnit = .kg, assisted: Bool = false) -> ProgressionTarget? {
        guard !history.isEmpty || startKilograms != nil else { return nil }
        let rule = ProgressionRule.resolve(exercise: exercise, catalogue: catalogue, unit: unit, settings: settings)
        return try? nextTarget(exercise: exercise, history: history, rule: rule,
                               start: startKilograms.map { Units.loadable(startUnit.fromKilograms($0), from: startUnit, to: rule.unit) },
                               assisted: assisted)
    }
}
