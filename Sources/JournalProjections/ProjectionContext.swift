import JournalEvents
import JournalModel
import TrainingDomain

/// What projections need from the training domain, as closures so the real catalogue and progression
/// engine (TrainingDomain) plug in without this target depending on their shapes. `.standard` is a
/// catalogue-free default: names from ids, no muscles, seed 000's progression and warm-up rules.
/// Custom exercises recorded by `exercise.created` always win over the context.
public struct ProjectionContext: Sendable {
    /// Display name of a catalogue id (`barbell-bench-press` → `Barbell Bench Press`).
    public var exerciseName: @Sendable (String) -> String
    /// Primary muscles of an exercise (vocabulary names: `chest`, `quads`, …); the first is its group.
    public var muscles: @Sendable (String) -> [String]
    /// Every muscle an exercise loads (primary and secondary): what injury warnings check.
    public var workedMuscles: @Sendable (String) -> [String]
    /// Compound (true) or isolation (false): chooses the default rest time.
    public var isCompound: @Sendable (String) -> Bool
    /// A catalogue id for a display name or alias typed by the user, if the catalogue knows one.
    public var exerciseID: @Sendable (String) -> String?
    /// The next session's target weight in kilograms, or nil when there is nothing to go on.
    public var nextTarget: @Sendable (ProgressionInput) -> Double?
    /// The suggested warm-up set for a working weight in kilograms, loadable in the lifter's unit (the third argument),
    /// for an exercise loaded on a bar of `barWeight` in that unit (the lifter's own bar for it, nil when not on a bar).
    public var warmup: @Sendable (_ exercise: String, _ workingKilograms: Double, _ unit: WeightUnit, _ barWeight: Double?) -> WarmupSuggestion?
    /// The muscles an injury answer (`"knees"`, `"lower-back"`, `"shoulders"`) puts at risk.
    public var injuryMuscles: @Sendable (String) -> [String]
    /// A cardio exercise (logged as minutes and km, never as set rows).
    public var isCardio: @Sendable (String) -> Bool
    /// The rest of an exercise nothing else sets, by the rule set that made the programme (nil: none) and mechanic.
    public var defaultRest: @Sendable (_ ruleset: String?, _ compound: Bool) -> Int
    /// How to do an exercise and what it needs (the catalogue's instructions and equipment); nil when unknown.
    public var howTo: @Sendable (String) -> ExerciseHowTo?
    /// The equipment an exercise needs (catalogue items: `barbell`, `dumbbells`, `lat-pulldown`, …): which of the
    /// lifter's equipment loads it (DOMAIN.md §7 "Equipment").
    public var equipment: @Sendable (String) -> [String]
    /// The cable attachment an exercise is done with (`rope`, `v-bar`, …; DOMAIN.md §7 "Equipment"), nil for none.
    public var attachment: @Sendable (String) -> String?

    public init(
        exerciseName: @escaping @Sendable (String) -> String = ProjectionContext.titleCase,
        muscles: @escaping @Sendable (String) -> [String] = { _ in [] },
        workedMuscles: (@Sendable (String) -> [String])? = nil,
        isCompound: @escaping @Sendable (String) -> Bool = { _ in false },
        exerciseID: @escaping @Sendable (String) -> String? = { _ in nil },
        nextTarget: @escaping @Sendable (ProgressionInput) -> Double? = ProjectionContext.seedProgression,
        warmup: @escaping @Sendable (String, Double, WeightUnit, Double?) -> WarmupSuggestion? = ProjectionContext.seedWarmup,
        injuryMuscles: @escaping @Sendable (String) -> [String] = ProjectionContext.injuryAliases,
        isCardio: @escaping @Sendable (String) -> Bool = { _ in false },
        defaultRest: @escaping @Sendable (String?, Bool) -> Int = ProjectionContext.seedRest,
        howTo: @escaping @Sendable (String) -> ExerciseHowTo? = { _ in nil },
        equipment: @escaping @Sendable (String) -> [String] = { _ in [] },
        attachment: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.exerciseName = exerciseName
        self.muscles = muscles
        self.workedMuscles = workedMuscles ?? muscles
        self.isCompound = isCompound
        self.exerciseID = exerciseID
        self.nextTarget = nextTarget
        self.warmup = warmup
        self.injuryMuscles = injuryMuscles
        self.isCardio = isCardio
        self.defaultRest = defaultRest
        self.howTo = howTo
        self.equipment = equipment
        self.attachment = attachment
    }

    public static let standard = ProjectionContext()

    /// `barbell-bench-press` → `Barbell Bench Press`.
    @Sendable public static func titleCase(_ id: String) -> String {
        id.split(separator: "-").map { word in word.prefix(1).uppercased() + word.dropFirst() }.joined(separator: " ")
    }

    /// Seed 000: +increment (default 2.5 kg, 5 lb for a lifter in pounds) when every working set of the last session
    /// reached the top of the rep range; otherwise the last session's top weight again. No history: the prescribed
    /// weight. An unloaded session (0 kg: bodyweight) gets no weight target. On an assisted exercise the weight is the
    /// help: the top is the least help, and success takes the increment away (never below 0).
    @Sendable public static func seedProgression(_ input: ProgressionInput) -> Double? {
        if let override = input.override, input.sessionsAfterOverride.isEmpty { return override.kilograms }
        let weights = input.sessionsAfterOverride.last?.sets.map(\.kilograms) ?? []
        guard let last = input.sessionsAfterOverride.last?.sets, let top = input.assisted ? weights.min() : weights.max() else { return input.prescribedKilograms }
        guard top > 0 || input.assisted else { return input.prescribedKilograms }
        guard let range = input.repRange else { return top }
        let allAtTop = last.allSatisfy { $0.reps >= range.upper }
        guard allAtTop else { return top }
        return input.assisted ? max(0, top - input.incrementKilograms) : top + input.incrementKilograms
    }

    /// Seed 000: "X kg (50-70%) • 10 reps": 50 % of the working weight, rounded down to the loading step of the
    /// lifter's unit (2.5 kg, 5 lb), × 10, whatever the bar.
    @Sendable public static func seedWarmup(_ exercise: String, _ workingKilograms: Double, _ unit: WeightUnit, _ barWeight: Double?) -> WarmupSuggestion? {
        guard workingKilograms > 0 else { return nil }
        let weight = Units.roundDown(unit.fromKilograms(workingKilograms) * 0.5, to: unit.loadingStep)
        return WarmupSuggestion(kilograms: unit.kilograms(weight), reps: 10, percentLow: 50, percentHigh: 70)
    }

    /// Seed 002's rest timer: 90 s for a compound, 60 s for an isolation exercise, whatever the rule set.
    @Sendable public static func seedRest(_ ruleset: String?, _ compound: Bool) -> Int { compound ? 90 : 60 }

    /// A small alias table from injury answers to muscle names; unknown answers map to themselves.
    @Sendable public static func injuryAliases(_ injury: String) -> [String] {
        switch injury.lowercased() {
        case "knee", "knees": return ["quads", "hamstrings"]
        case "lower back", "lower-back", "back": return ["lower-back"]
        case "shoulder", "shoulders": return ["shoulders"]
        case "wrist", "wrists": return ["forearms"]
        case "elbow", "elbows": return ["triceps", "biceps"]
        case "hip", "hips": return ["glutes", "adductors", "abductors"]
        case "ankle", "ankles": return ["calves"]
        case "neck": return ["neck", "traps"]
        default: return [injury.lowercased()]
        }
    }
}

/// What the progression rule sees for one exercise: its past sessions, oldest first, and its settings. Shaped so
/// an adapter can build TrainingDomain's `CompletedSession`s and `ProgressionRule` from it.
public struct ProgressionInput: Equatable, Sendable {
    public struct Set: Equatable, Sendable {
        public var kilograms: Double
        public var reps: Int
        /// The unit the set was recorded in.
        public var unit: WeightUnit
        public init(kilograms: Double, reps: Int, unit: WeightUnit = .kg) { self.kilograms = kilograms; self.reps = reps; self.unit = unit }
    }
    /// One finished workout's working sets of the exercise (set-number order) and what that workout prescribed.
    public struct Session: Equatable, Sendable {
        public var workout: String
        public var at: Timestamp
        public var sets: [Set]
        /// Top of the prescribed rep range in that workout.
        public var targetReps: Int?
        public var targetSets: Int?
        public init(workout: String, at: Timestamp, sets: [Set], targetReps: Int? = nil, targetSets: Int? = nil) {
            self.workout = workout; self.at = at; self.sets = sets; self.targetReps = targetReps; self.targetSets = targetSets
        }
        /// The model's session (`WorkoutRecord.session(of:)`), its sets in kilograms.
        public init(_ session: ExerciseSession) {
            self.init(workout: session.workout, at: session.at, sets: session.sets.map { Set(kilograms: $0.kilograms, reps: $0.reps, unit: $0.unit) },
                      targetReps: session.targetReps, targetSets: session.targetSets)
        }
    }
    public var exercise: String
    public var sessions: [Session]
    /// What the workout in progress prescribes.
    public var repRange: RepRange?
    public var prescribedKilograms: Double?
    /// `progression.configured` for this exercise, if any.
    public var settings: ProgressionSettings?
    /// The lifter's unit (the profile's): targets are loadable weights in it and its increments apply.
    public var unit: WeightUnit
    /// An assisted exercise (`Ledger.isAssisted`): the weights are help, and progress lowers them.
    public var assisted: Bool

    public init(exercise: String, sessions: [Session], repRange: RepRange?, prescribedKilograms: Double?, settings: ProgressionSettings? = nil,
                unit: WeightUnit = .kg, assisted: Bool = false) {
        self.unit = unit
        self.assisted = assisted
        self.exercise = exercise
        self.sessions = sessions
        self.repRange = repRange
        self.prescribedKilograms = prescribedKilograms
        self.settings = settings
    }

    /// The target set by hand (`progression.configured` `target`), in kilograms, and when; nil when none.
    public var override: (kilograms: Double, at: Timestamp)? {
        guard let target = settings?.target, let at = settings?.targetAt else { return nil }
        return ((settings?.targetUnit ?? unit).kilograms(target), at)
    }

    /// The sessions that count: those begun after the target set by hand, else all.
    public var sessionsAfterOverride: [Session] {
        guard let override else { return sessions }
        return sessions.filter { $0.at.epochMilliseconds > override.at.epochMilliseconds }
    }

    /// The configured increment in kilograms (default 2.5 kg, or 5 lb for a lifter in pounds).
    public var incrementKilograms: Double {
        guard let increment = settings?.increment else { return unit == .lb ? unit.kilograms(5) : 2.5 }
        return (settings?.unit ?? unit).kilograms(increment)
    }
}

/// An exercise's equipment and instructions (setup, steps, cues), as the exercise detail shows them.
public struct ExerciseHowTo: Equatable, Sendable {
    public var equipment: [String]
    public var setup: String
    public var steps: [String]
    public var cues: [String]
    public init(equipment: [String], setup: String, steps: [String], cues: [String]) {
        self.equipment = equipment; self.setup = setup; self.steps = steps; self.cues = cues
    }
}

public struct WarmupSuggestion: Equatable, Sendable {
    public var kilograms: Double
    public var reps: Int
    public var percentLow: Int
    public var percentHigh: Int
    public init(kilograms: Double, reps: Int, percentLow: Int, percentHigh: Int) {
        self.kilograms = kilograms; self.reps = reps; self.percentLow = percentLow; self.percentHigh = percentHigh
    }
}
