/// Compound (several joints) or isolation (one joint).
public enum Mechanic: String, Sendable, Hashable, CaseIterable { case compound, isolation }

/// The movement pattern an exercise trains.
public enum MovementPattern: String, Sendable, Hashable, CaseIterable { case push, pull, squat, hinge, carry, core }

public enum Difficulty: String, Sendable, Hashable, CaseIterable, Comparable {
    case beginner, intermediate, advanced
    var rank: Int { self == .beginner ? 0 : self == .intermediate ? 1 : 2 }
    public static func < (a: Difficulty, b: Difficulty) -> Bool { a.rank < b.rank }
}

/// How to do an exercise (seed 004's exercise detail "How-to", seeds 000, 001 and 003's exercise info): where to start,
/// the movement in steps, and two or three cues (`Data/instructions.json`, written for this catalogue).
public struct ExerciseInstructions: Equatable, Hashable, Sendable {
    public var setup: String
    public var steps: [String]
    public var cues: [String]
    public init(setup: String, steps: [String], cues: [String]) { self.setup = setup; self.steps = steps; self.cues = cues }
}

/// One exercise of the catalogue, built in or created by the user (`exercise.created`).
public struct Exercise: Equatable, Hashable, Sendable, Identifiable {
    /// Stable kebab-case id, as events write it (`barbell-bench-press`).
    public var id: String
    public var name: String
    /// Muscle names of seed 000 plus `forearms`, `traps`, `lower-back`, `obliques`, `adductors`, `abductors`.
    public var primaryMuscles: [String]
    public var secondaryMuscles: [String]
    /// Everything needed, all of it (`["barbell", "flat-bench"]`); see `EquipmentCatalogue`.
    public var equipment: [String]
    public var mechanic: Mechanic
    public var pattern: MovementPattern?
    public var difficulty: Difficulty
    /// Swap candidates (ids), best first.
    public var alternatives: [String]
    /// Other common names, used by search and the name matcher.
    public var aliases: [String]
    /// True for exercises from `exercise.created`.
    public var isCustom: Bool
    /// Cardio (seed 004): logged as minutes and kilometres (`cardio.logged`), never in strength records.
    public var isCardio: Bool
    /// Assisted (DOMAIN.md §"Assisted exercises"): a set's weight is the help (a counterweight or a band), so less is
    /// better; records, the best set and the charts rank its sets by least assistance.
    public var isAssisted: Bool
    /// How to do it; every built-in exercise has instructions, a custom one none.
    public var instructions: ExerciseInstructions?
    /// The cable attachment it is done with (`rope`, `straight-bar`, `v-bar`, `single-handle`, `lat-bar`,
    /// `ankle-strap`: `EquipmentCatalogue.attachments`); nil when it needs none.
    public var attachment: String?

    public init(id: String, name: String, primaryMuscles: [String], secondaryMuscles: [String] = [], equipment: [String],
                mechanic: Mechanic, pattern: MovementPattern?, difficulty: Difficulty = .beginner,
                alternatives: [String] = [], aliases: [String] = [], isCustom: Bool = false, isCardio: Bool = false,
                isAssisted: Bool = false, instructions: ExerciseInstructions? = nil, attachment: String? = nil) {
        self.id = id
        self.name = name
        self.primaryMuscles = primaryMuscles
        self.secondaryMuscles = secondaryMuscles
        self.equipment = equipment
        self.mechanic = mechanic
        self.pattern = pattern
        self.difficulty = difficulty
        self.alternatives = alternatives
        self.aliases = aliases
        self.isCustom = isCustom
        self.isCardio = isCardio
        self.isAssisted = isAssisted
        self.instructions = instructions
        self.attachment = attachment
    }

    /// Seed 004's category tab (`ExerciseCatalogue.categoryTabNames`) the exercise is filed under: `cardio` for a cardio
    /// exercise, else the group of its first primary muscle (chest; back with lower back and traps; shoulders; arms:
    /// biceps, triceps, forearms; legs; core: abs, obliques); nil without a primary muscle of those groups.
    public var categoryTab: String? {
        if isCardio { return "cardio" }
        switch primaryMuscles.first {
        case "chest"?: return "chest"
        case "back"?, "lower-back"?, "traps"?: return "back"
        case "shoulders"?: return "shoulders"
        case "biceps"?, "triceps"?, "forearms"?: return "arms"
        case "quads"?, "hamstrings"?, "glutes"?, "calves"?, "adductors"?, "abductors"?: return "legs"
        case "abs"?, "obliques"?: return "core"
        default: return nil
        }
    }

    /// Primary then secondary muscles.
    public var allMuscles: [String] { primaryMuscles + secondaryMuscles }
}
