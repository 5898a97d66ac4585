import JournalEvents
import JournalModel

/// The exercise catalogue: the built-in exercises (`Data/catalogue.json`) plus custom ones from events.
/// Immutable; `with(customExercisesFrom:)` returns a new catalogue.
public struct ExerciseCatalogue: Sendable {
    /// In catalogue order (built-in file order, then custom exercises in event order).
    public private(set) var exercises: [Exercise]
    private var index: [String: Int]
    let muscleGroups: [String: [String]]
    let muscleSynonyms: [String: String]
    public let equipment: EquipmentCatalogue

    /// The built-in catalogue, loaded once from the module bundle.
    public static let builtIn: ExerciseCatalogue = {
        do {
            return try ExerciseCatalogue(catalogue: BundledData.json("catalogue.json"), muscles: BundledData.json("muscles.json"),
                                         equipment: .builtIn, instructions: BundledData.json("instructions.json"))
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    /// `instructions`: `Data/instructions.json`'s `{"instructions": {id: {"setup", "steps", "cues"}}}`.
    init(catalogue: JSONValue, muscles: JSONValue, equipment: EquipmentCatalogue, instructions: JSONValue? = nil) throws {
        let howTo = instructions?["instructions"]
        guard let list = catalogue["exercises"]?.arrayValue else {
            throw BundledData.LoadError(file: "catalogue.json", reason: "missing \"exercises\"")
        }
        exercises = try list.map { item in
            guard let id = item["id"]?.stringValue, let name = item["name"]?.stringValue,
                  let mechanic = item["mechanic"]?.stringValue.flatMap(Mechanic.init(rawValue:)),
                  let difficulty = item["difficulty"]?.stringValue.flatMap(Difficulty.init(rawValue:)) else {
                throw BundledData.LoadError(file: "catalogue.json", reason: "malformed exercise \(item.excerpt)")
            }
            return Exercise(id: id, name: name, primaryMuscles: item["primary"]?.stringArray ?? [],
                            secondaryMuscles: item["secondary"]?.stringArray ?? [], equipment: item["equipment"]?.stringArray ?? [],
                            mechanic: mechanic, pattern: item["pattern"]?.stringValue.flatMap(MovementPattern.init(rawValue:)),
                            difficulty: difficulty, alternatives: item["alternatives"]?.stringArray ?? [],
                            aliases: item["aliases"]?.stringArray ?? [], isCardio: item["category"]?.stringValue == "cardio",
                            isAssisted: item["assisted"]?.boolValue == true,
                            instructions: howTo?[id].flatMap { entry in
                                entry["setup"]?.stringValue.map { ExerciseInstructions(setup: $0, steps: entry["steps"]?.stringArray ?? [],
                                                                                       cues: entry["cues"]?.stringArray ?? []) }
                            }, attachment: item["attachment"]?.stringValue)
        }
        index = [:]
        for (position, exercise) in exercises.enumerated() where index[exercise.id] == nil { index[exercise.id] = position }
        var groups: [String: [String]] = [:]
        for field in muscles["groups"]?.objectValue ?? [:] { groups[field.key] = field.value.stringArray ?? [] }
        muscleGroups = groups
        var synonyms: [String: String] = [:]
        for field in muscles["synonyms"]?.objectValue ?? [:] { synonyms[field.key] = field.value.stringValue }
        muscleSynonyms = synonyms
        self.equipment = equipment
    }

    public var count: Int { exercises.count }

    /// The built-in exercises' ids: what the recording rules accept besides custom exercises
    /// (`RecordingRules(catalogue:)`, `EventJournal.Options.catalogue`).
    public static let builtInIDs: Set<String> = Set(builtIn.exercises.filter { !$0.isCustom }.map(\.id))

    /// The built-in cardio exercises' ids: logged as minutes and km, never as sets (`RecordingRules(cardio:)`,
    /// `EventJournal.Options.cardio`); every other built-in id is a strength exercise.
    public static let builtInCardioIDs: Set<String> = Set(builtIn.exercises.filter { !$0.isCustom && $0.isCardio }.map(\.id))

    /// The built-in assisted exercises' ids (`Exercise.isAssisted`): their sets' weight is the help, less is better.
    public static let builtInAssistedIDs: Set<String> = Set(builtIn.exercises.filter { !$0.isCustom && $0.isAssisted }.map(\.id))

    public func exercise(id: String) -> Exercise? { index[id].map { exercises[$0] } }

    /// `Lats`, `lower back`, `Quadriceps` → `back`, `lower-back`, `quads`.
    public func normaliseMuscle(_ name: String) -> String {
        var key = ""
        for character in name.trimmed.lowercased() { key.append(character == "_" || character == " " ? "-" : character) }
        return muscleSynonyms[key] ?? key
    }

    /// The muscle and the muscles its group covers (`back` → `back`, `lower-back`).
    public func expandMuscle(_ name: String) -> Set<String> {
        let muscle = normaliseMuscle(name)
        return Set([muscle] + (muscleGroups[muscle] ?? []))
    }

    /// True when the exercise loads the muscle, as prime mover or helper (used for injuries).
    public func loads(_ exercise: Exercise, muscle: String) -> Bool {
        !expandMuscle(muscle).isDisjoint(with: exercise.allMuscles)
    }

    /// The muscle filter that selects the cardio exercises (seed 004's Cardio tab).
    public static let cardioFilter = "cardio"
    /// Seed 004's category tabs that are not single muscles: they put an exercise under its primary muscles' group.
    public static let categoryTabs: Set<String> = ["arms", "legs", "core"]
    /// Seed 004's Exercises screen tabs after "All", in its order.
    public static let categoryTabNames = ["chest", "back", "shoulders", "arms", "legs", "core", "cardio"]

    /// The exercises of one of seed 004's category tabs (`categoryTabNames`), catalogue order: only those filed under
    /// it (`Exercise.categoryTab`, by the first primary muscle), so a triceps dip is under Arms, never under Chest.
    public func exercises(inCategory tab: String) -> [Exercise] {
        let key = tab.trimmed.lowercased()
        return exercises.filter { $0.categoryTab == key }
    }

    /// The muscles an exercise may name (the vocabulary's), for pickers and messages.
    public static var muscleNames: [String] { EventVocabulary.muscles }

    /// The category tabs that are not single muscles (arms, legs, core, cardio), which a muscle filter also takes.
    public static var tabsBeyondMuscles: [String] { categoryTabNames.filter { !EventVocabulary.muscles.contains($0) } }

    /// True for what `filter(muscles:)` accepts: a muscle of the vocabulary or a synonym, a group (`back`, `abs`,
    /// seed 004's tabs `arms`, `legs`, `core`), or `cardio`.
    public func knowsMuscleFilter(_ name: String) -> Bool {
        let muscle = normaliseMuscle(name)
        return EventVocabulary.muscles.contains(muscle) || muscleGroups[muscle] != nil || muscle == ExerciseCatalogue.cardioFilter
    }

    /// Exercises that work ANY listed muscle (primary or secondary, group members included; a category tab — arms,
    /// legs, core — by primary muscles only, as seed 004 files each exercise under one group; `cardio`: the cardio
    /// exercises) AND use ANY listed piece of equipment (a machine category also matches its machines:
    /// `pin-loaded-machine` matches `leg-press`). Several values of one filter are alternatives, as the pickers'
    /// chips are (seed 003/004); different filters combine. Empty lists do not filter. Catalogue order.
    public func filter(muscles: [String] = [], equipment: [String] = []) -> [Exercise] {
        let wantsCardio = muscles.contains { normaliseMuscle($0) == ExerciseCatalogue.cardioFilter }
        func isTab(_ name: String) -> Bool { ExerciseCatalogue.categoryTabs.contains(name.trimmed.lowercased()) }
        let muscleSet = muscles.filter { !isTab($0) }.reduce(into: Set<String>()) { $0.formUnion(expandMuscle($1)) }
        let tabSet = muscles.filter(isTab).reduce(into: Set<String>()) { $0.formUnion(expandMuscle($1)) }
        let equipmentSet = equipment.reduce(into: Set<String>()) { set, name in
            let key = self.equipment.normalise(name)
            set.insert(key)
            if self.equipment.machineCategories.contains(key) { set.formUnion(self.equipment.categories.first { $0.name == key }?.items ?? []) }
        }
        return exercises.filter { exercise in
            (muscles.isEmpty || (wantsCardio && exercise.isCardio) || !muscleSet.isDisjoint(with: exercise.allMuscles)
                || !tabSet.isDisjoint(with: exercise.primaryMuscles))
                && (equipment.isEmpty || !equipmentSet.isDisjoint(with: exercise.equipment))
        }
    }

    /// Exercises a lifter can do with the equipment answers (every required item available).
    public func doable(withEquipment answers: [String]) -> [Exercise] {
        let available = equipment.available(from: answers)
        // Cardio is logged, never prescribed by a rule set.
        return exercises.filter { !$0.isCardio && $0.equipment.allSatisfy(available.contains) }
    }

    /// Free-text search, tolerant of case, punctuation, plurals and word order: every word of `text` must start a
    /// word of the name, an alias, the equipment or the muscles. Name matches rank before alias-only matches;
    /// then catalogue order. An empty query returns everything.
    public func search(_ text: String) -> [Exercise] {
        let query = SearchText.words(text)
        guard !query.isEmpty else { return exercises }
        var ranked: [(rank: Int, position: Int, exercise: Exercise)] = []
        for (position, exercise) in exercises.enumerated() {
            let nameWords = SearchText.words(exercise.name)
            var allWords = nameWords
            for alias in exercise.aliases { allWords += SearchText.words(alias) }
            for item in exercise.equipment + exercise.allMuscles { allWords += SearchText.words(item) }
            func matches(_ words: [String]) -> Bool { query.allSatisfy { q in words.contains { $0.hasPrefix(q) } } }
            guard matches(allWords) else { continue }
            let rank = nameWords == query ? 0 : matches(nameWords) ? 1 : 2
            ranked.append((rank, position, exercise))
        }
        return ranked.sorted { ($0.rank, $0.position) < ($1.rank, $1.position) }.map(\.exercise)
    }

    /// This catalogue plus the custom exercises of the ledger (`exercise.created`, as the model folded them: a later
    /// event for the same id replaces the earlier one, `data.cleared` drops them all), in id order; an id that is
    /// already built in is ignored.
    public func with(customExercisesFrom ledger: Ledger) -> ExerciseCatalogue {
        var custom: [Exercise] = []
        for recorded in ledger.customExercises.values.sorted(by: { $0.id < $1.id }) {
            guard index[recorded.id] == nil || exercises[index[recorded.id]!].isCustom else { continue }
            custom.append(Exercise(
                id: recorded.id, name: recorded.name, primaryMuscles: recorded.primaryMuscles.map(normaliseMuscle),
                secondaryMuscles: recorded.secondaryMuscles.map(normaliseMuscle),
                equipment: recorded.equipment.map(equipment.normalise),
                mechanic: recorded.mechanic.flatMap(Mechanic.init(rawValue:)) ?? .compound,
                pattern: nil, difficulty: .beginner, isCustom: true))
        }
        var copy = self
        for exercise in custom {
            copy.index[exercise.id] = copy.exercises.count
            copy.exercises.append(exercise)
        }
        return copy
    }

    /// Recently used exercise ids, most recent first, each once: the exercises of the ledger's workouts (any status),
    /// the latest started first and, within a workout, the last added first. What the workouts hold now counts: a
    /// swapped-out exercise is no longer in its workout (`exercise.swapped` renamed its sets).
    public static func recentlyUsed(in ledger: Ledger, limit: Int = 10) -> [String] {
        var recent: [String] = []
        for workout in ledger.workouts.reversed() {
            for entry in workout.exercises.reversed() where !recent.contains(entry.exercise) { recent.append(entry.exercise) }
            if recent.count >= limit { break }
        }
        return Array(recent.prefix(max(0, limit)))
    }
}

/// Word splitting shared by search and the name matcher.
enum SearchText {
    /// Lower-case words of letters and digits; `pull-up`/`pullup` → `pull`,`up`; simple plurals dropped
    /// (`curls` → `curl`, `presses` → `press`, but `press` stays).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        func flush() {
            guard !current.isEmpty else { return }
            words.append(contentsOf: expand(singular(current)))
            current = ""
        }
        for character in text.lowercased() {
            if character.isLetter || character.isNumber { current.append(character) } else if character != "'" { flush() }
        }
        flush()
        return words
    }

    static func singular(_ word: String) -> String {
        if word.count > 4 && word.hasSuffix("sses") { return String(word.dropLast(2)) }
        if word.count > 5 && (word.hasSuffix("ches") || word.hasSuffix("shes")) { return String(word.dropLast(2)) }
        if word == "ups" { return "up" }
        if word.count > 3 && word.hasSuffix("ss") { return word }
        if word.count > 3 && word.hasSuffix("ies") { return String(word.dropLast(3)) + "y" }
        if word.count > 3 && word.hasSuffix("s") && !word.hasSuffix("us") { return String(word.dropLast()) }
        return word
    }

    /// Joined spellings split into the catalogue's words.
    static func expand(_ word: String) -> [String] {
        switch word {
        case "pullup": return ["pull", "up"]
        case "pushup": return ["push", "up"]
        case "chinup": return ["chin", "up"]
        case "situp": return ["sit", "up"]
        case "pulldown": return ["pulldown"]
        case "skullcrusher": return ["skull", "crusher"]
        case "flye": return ["fly"]
        case "deltoid", "delts", "deltoids": return ["delt"]
        default: return [word]
        }
    }
}

extension Ledger {
    /// Whether `exercise`'s weights are help (DOMAIN.md §"Assisted exercises"): its `exercise.created` says
    /// `assisted`, or the built-in catalogue marks it (`Exercise.isAssisted`). The one place that decides it: the
    /// sets' ranking (`SetRanking`) and progression read it.
    public func isAssisted(_ exercise: String) -> Bool {
        customExercises[exercise]?.assisted == true || ExerciseCatalogue.builtInAssistedIDs.contains(exercise)
    }
}
