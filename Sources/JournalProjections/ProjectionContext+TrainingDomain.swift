import JournalModel
import TrainingDomain

extension ProjectionContext {
    /// What the views know of the training domain: TrainingDomain's built-in catalogue (names, primary and secondary
    /// muscles, mechanic), its name matcher (accepted at `NameMatcher.acceptThreshold`), its progression engine with
    /// each exercise's suggested rule and `progression.configured` settings, its warm-up rule and its muscle groups
    /// for injuries, the rest defaults of the rule set that made the programme, and each exercise's instructions, equipment
    /// and cable attachment. The
    /// CLI's views and the `WorkoutJournal` facade both use it.
    public static let trainingDomain: ProjectionContext = {
        let catalogue = ExerciseCatalogue.builtIn
        return ProjectionContext(
            exerciseName: { catalogue.exercise(id: $0)?.name ?? ProjectionContext.titleCase($0) },
            muscles: { catalogue.exercise(id: $0)?.primaryMuscles ?? [] },
            workedMuscles: { catalogue.exercise(id: $0)?.allMuscles ?? [] },
            isCompound: { catalogue.exercise(id: $0)?.mechanic == .compound },
            exerciseID: { text in NameMatcher.builtIn.match(text).flatMap { $0.confidence >= NameMatcher.acceptThreshold ? $0.exerciseID : nil } },
            nextTarget: { nextTarget($0, catalogue: catalogue) },
            warmup: { exercise, kilograms, unit, bar in
                // Loadable in the lifter's unit, never below the bar the exercise is loaded on.
                WarmUp.suggestedSet(workingWeight: unit.fromKilograms(kilograms), unit: unit, barWeight: bar).map {
                    WarmupSuggestion(kilograms: unit.kilograms($0.weight), reps: $0.reps, percentLow: 50, percentHigh: 70)
                }
            },
            injuryMuscles: { catalogue.expandMuscle($0).sorted() },
            isCardio: { catalogue.exercise(id: $0)?.isCardio == true },
            defaultRest: { ruleset, compound in
                // The rule set that made the programme (DOMAIN.md §4 "Defaults per seed"); seed 002's without one.
                ruleset.flatMap { ProgrammeGenerator.ruleSets[$0]?.restDefault }.map { compound ? $0.compound : $0.isolation }
                    ?? ProjectionContext.seedRest(ruleset, compound)
            },
            howTo: { id in
                catalogue.exercise(id: id).flatMap { exercise in
                    exercise.instructions.map { ExerciseHowTo(equipment: exercise.equipment, setup: $0.setup, steps: $0.steps, cues: $0.cues) }
                }
            },
            equipment: { catalogue.exercise(id: $0)?.equipment ?? [] },
            attachment: { catalogue.exercise(id: $0)?.attachment })
    }()

    /// The rule for one exercise: seed 002's suggestion for it in the lifter's unit (`input.unit`), with its
    /// `progression.configured` settings.
    public static func progressionRule(_ input: ProgressionInput, catalogue: ExerciseCatalogue = .builtIn) -> ProgressionRule {
        ProgressionRule.resolve(exercise: input.exercise, catalogue: catalogue, unit: input.unit, settings: input.settings)
    }

    /// TrainingDomain's `Progression.target` over the exercise's past sessions in the lifter's unit; nil without
    /// history. Its weights are in the rule's unit, loadable there. A target set by hand (`progression.configured`
    /// `target`) is the start, and only the sessions begun after it count.
    public static func progressionTarget(_ input: ProgressionInput, catalogue: ExerciseCatalogue = .builtIn) -> ProgressionTarget? {
        let history = input.sessionsAfterOverride.map { session in
            CompletedSession(workout: session.workout, exercise: input.exercise, at: session.at,
                             sets: session.sets.map { CompletedSet(weight: $0.unit.fromKilograms($0.kilograms), unit: $0.unit, reps: $0.reps) },
                             targetReps: session.targetReps, targetSets: session.targetSets)
        }
        return Progression.target(exercise: input.exercise, history: history, settings: input.settings, catalogue: catalogue,
                                  unit: input.unit, startKilograms: input.override?.kilograms,
                                  startUnit: input.settings?.targetUnit ?? input.unit, assisted: input.assisted)
    }

    /// The next target in kilograms: `progressionTarget`'s weight, loadable in the lifter's unit (a rule configured in
    /// the other unit steps there; its target is shown as the nearest loadable weight); the prescribed weight when
    /// there is no history or only unloaded (bodyweight) sessions. On an assisted exercise the target is help, and
    /// 0 (no help) is one.
    static func nextTarget(_ input: ProgressionInput, catalogue: ExerciseCatalogue) -> Double? {
        guard let target = progressionTarget(input, catalogue: catalogue), let weight = target.weight, weight > 0 || target.assisted else {
            return input.prescribedKilograms
        }
        return input.unit.kilograms(Units.loadable(weight, from: target.unit, to: input.unit))
    }
}
