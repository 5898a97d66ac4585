import JournalModel
import TrainingDomain

extension ProjectionContext {
    /// What the views know of the training domain: TrainingDomain's built-in catalogue (names, primary and secondary
    /// muscles, mechanic), its name matcher (accepted at `NameMatcher.acceptThreshold`), its progression engine with
    /// each exercise's suggested rule and `progression.configured` settings, its warm-up rule and its muscle groups
    /// for injuries. The CLI's views and the `WorkoutJournal` facade both use it.
    public static let trainingDomain: ProjectionContext = {
        let catalogue = ExerciseCatalogue.builtIn
        let matcher = NameMatcher(catalogue: catalogue)
        return ProjectionContext(
            exerciseName: { catalogue.exercise(id: $0)?.name ?? ProjectionContext.titleCase($0) },
            muscles: { catalogue.exercise(id: $0)?.primaryMuscles ?? [] },
            workedMuscles: { catalogue.exercise(id: $0)?.allMuscles ?? [] },
            isCompound: { catalogue.exercise(id: $0)?.mechanic == .compound },
            exerciseID: { text in matcher.match(text).flatMap { $0.confidence >= NameMatcher.acceptThreshold ? $0.exerciseID : nil } },
            nextTarget: { nextTarget($0, catalogue: catalogue) },
            warmup: { _, kilograms in
                WarmUp.suggestedSet(workingWeight: kilograms, unit: .kg).map {
                    WarmupSuggestion(kilograms: $0.weight, reps: $0.reps, percentLow: 50, percentHigh: 70)
                }
            },
            injuryMuscles: { catalogue.expandMuscle($0).sorted() })
    }()

    /// TrainingDomain's progression fold over the exercise's past sessions, with the exercise's suggested rule
    /// and any `progression.configured` settings; the prescribed weight when there is no history.
    static func nextTarget(_ input: ProgressionInput, catalogue: ExerciseCatalogue) -> Double? {
        let history = input.sessions.map { session in
            CompletedSession(workout: session.workout, exercise: input.exercise, at: session.at,
                             sets: session.sets.map { CompletedSet(weight: $0.kilograms, unit: .kg, reps: $0.reps) },
                             targetReps: session.targetReps, targetSets: session.targetSets)
        }
        guard let target = Progression.target(exercise: input.exercise, history: history, settings: input.settings, catalogue: catalogue),
              let weight = target.weight else { return input.prescribedKilograms }
        return Units.kilograms(weight, from: target.unit)
    }
}
