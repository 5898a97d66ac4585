import JournalModel

// Progression reads the journal through the model (JournalModel's `Ledger`): the sessions are the finished workouts'
// working sets as the one fold left them (edits, deletions, swaps, unit changes, `data.cleared` included).

extension CompletedSession {
    /// The model's session of `exercise`, its sets in kilograms.
    public init(_ session: ExerciseSession, exercise: String) {
        self.init(workout: session.workout, exercise: exercise, at: session.at,
                  sets: session.sets.map { CompletedSet(weight: $0.kilograms, unit: .kg, reps: $0.reps) },
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

    /// The next target straight from a ledger: its sessions and `base` with the exercise's settings.
    public static func nextTarget(exercise: String, ledger: Ledger, base: ProgressionRule = .trainDefault()) throws(ProgressionError) -> ProgressionTarget {
        try nextTarget(exercise: exercise, history: sessions(for: exercise, in: ledger),
                       rule: ProgressionRule.resolve(exercise: exercise, ledger: ledger, base: base))
    }

    /// The target the app shows for `exercise` (the active workout, `journal explain`): the catalogue's suggested rule
    /// in the lifter's `unit` with the exercise's settings (`ProgressionRule.resolve(exercise:catalogue:unit:settings:)`),
    /// over `history`; nil without history or when the rule is invalid. Its weights are loadable in the rule's unit.
    public static func target(exercise: String, history: [CompletedSession], settings: ProgressionSettings?,
                              catalogue: ExerciseCatalogue = .builtIn, unit: WeightUnit = .kg) -> ProgressionTarget? {
        guard !history.isEmpty else { return nil }
        let rule = ProgressionRule.resolve(exercise: exercise, catalogue: catalogue, unit: unit, settings: settings)
        return try? nextTarget(exercise: exercise, history: history, rule: rule)
    }
}
