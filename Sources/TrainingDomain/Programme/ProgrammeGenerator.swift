import JournalEvents

/// Why a programme could not be generated.
public enum ProgrammeError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownRuleset(name: String, known: [String])
    case invalidAnswers(QuestionnaireError)
    case noSplit(ruleset: String, days: Int, sessionMinutes: String?)
    case unknownTemplate(id: String, known: [String])
    case noTemplate(ruleset: String)
    case malformedRuleset(file: String, reason: String)

    public var description: String {
        switch self {
        case .unknownRuleset(let name, let known):
            return "unknown rule set \"\(name)\" (known: \(known.joined(separator: ", ")))"
        case .invalidAnswers(let error):
            return error.description
        case .noSplit(let ruleset, let days, let minutes):
            return "rule set \"\(ruleset)\" has no split for \(days) days per week" + (minutes.map { " and \($0) minute sessions" } ?? "")
        case .unknownTemplate(let id, let known):
            return "unknown template \"\(id)\" (known: \(known.joined(separator: ", ")))"
        case .noTemplate(let ruleset):
            return "rule set \"\(ruleset)\" has no templates"
        case .malformedRuleset(let file, let reason):
            return "rule set file \(file) is malformed: \(reason)"
        }
    }
}

/// A rule set as loaded from `Data/rulesets/NAME.json`.
public struct RuleSet: Sendable {
    public var name: String
    public var version: Int
    /// `slots` (train, train-ai) or `templates` (templates).
    public var engine: String
    /// Where in the seeds the rules come from.
    public var source: String
    let questionnaire: QuestionnaireRules
    let json: JSONValue

    /// The rest an exercise gets when neither it, its prescription nor the lifter's settings give one (the file's
    /// `rest_default_s`): seed 000's 2:00 for `train` and `train-ai`, seed 002's 90 s / 60 s for `templates`.
    public var restDefault: (compound: Int, isolation: Int)? {
        guard let compound = json["rest_default_s"]?["compound"]?.intValue, let isolation = json["rest_default_s"]?["isolation"]?.intValue else { return nil }
        return (compound, isolation)
    }

    /// The days per week the questionnaire accepts (`ranges.days_per_week`): 2–5 for `train`, 2–6 for the others.
    public var daysPerWeek: ClosedRange<Int>? { questionnaire.ranges.first { $0.question == "days_per_week" }?.range }
}

/// Turns questionnaire answers into a `Programme` with a rule set. One engine per rule-set kind; the rules, splits,
/// slots and templates are data (`Data/rulesets/*.json`, `Data/templates/*.json`): adding a rule set or a template
/// is adding a file. Pure and deterministic: the same answers give the same programme.
public enum ProgrammeGenerator {
    /// Every bundled rule set, by name.
    public static let ruleSets: [String: RuleSet] = {
        do {
            var sets: [String: RuleSet] = [:]
            for file in try BundledData.jsonFiles(in: "rulesets") {
                let json = file.value
                guard let name = json["name"]?.stringValue, let version = json["version"]?.intValue,
                      let engine = json["engine"]?.stringValue else {
                    throw ProgrammeError.malformedRuleset(file: file.name, reason: "needs \"name\", \"version\" and \"engine\"")
                }
                sets[name] = RuleSet(name: name, version: version, engine: engine, source: json["source"]?.stringValue ?? "",
                                     questionnaire: QuestionnaireRules(json: json["questionnaire"]), json: json)
            }
            return sets
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    /// Rule-set names, sorted.
    public static var ruleSetNames: [String] { ruleSets.keys.sorted() }

    /// The bundled templates of the `templates` engine (`Data/templates/*.json`), in rank order.
    public static let templates: [ProgrammeTemplate] = {
        do {
            return try BundledData.jsonFiles(in: "templates").map { try ProgrammeTemplate(json: $0.value, file: $0.name) }
                .sorted { ($0.rank, $0.id) < ($1.rank, $1.id) }
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    /// Checks the answers against the rule set's questionnaire without generating anything.
    /// `asOf` is the local day used to turn `birth_date` into an age; without it the age check is skipped.
    public static func validate(ruleset: String, answers: [String: JSONValue], asOf: LocalDate? = nil) throws(ProgrammeError) {
        let rules = try ruleSet(named: ruleset)
        do {
            _ = try Answers.read(answers, rules: rules.questionnaire, ruleset: ruleset, catalogue: .builtIn, asOf: asOf)
        } catch {
            throw .invalidAnswers(error)
        }
    }

    /// Generates the programme. Throws `invalidAnswers` listing every broken questionnaire rule. With the lifter's
    /// recorded `inventory` (`EquipmentInventory.recorded(in:)`), the equipment is the answer's together with the
    /// inventory's (`EquipmentInventory.available(answers:)`) and starting weights are ones it can load (DOMAIN.md §4).
    public static func generate(ruleset: String, answers: [String: JSONValue], asOf: LocalDate? = nil,
                                catalogue: ExerciseCatalogue = .builtIn, inventory: EquipmentInventory? = nil) throws(ProgrammeError) -> Programme {
        let rules = try ruleSet(named: ruleset)
        let read: Answers
        do {
            read = try Answers.read(answers, rules: rules.questionnaire, ruleset: ruleset, catalogue: catalogue, asOf: asOf)
        } catch {
            throw .invalidAnswers(error)
        }
        switch rules.engine {
        case "templates":
            return try TemplateEngine(rules: rules, catalogue: catalogue, inventory: inventory).generate(read)
        default:
            return try SlotEngine(rules: rules, catalogue: catalogue, inventory: inventory).generate(read)
        }
    }

    /// For the `templates` rule set: the 2–3 best templates for the answers (and the recorded `inventory`, as
    /// `generate`), best first, each with a rationale.
    public static func recommendTemplates(answers: [String: JSONValue], ruleset: String = "templates",
                                          catalogue: ExerciseCatalogue = .builtIn,
                                          inventory: EquipmentInventory? = nil) throws(ProgrammeError) -> [TemplateRecommendation] {
        let rules = try ruleSet(named: ruleset)
        let read: Answers
        do {
            read = try Answers.read(answers, rules: rules.questionnaire, ruleset: ruleset, catalogue: catalogue, asOf: nil)
        } catch {
            throw .invalidAnswers(error)
        }
        return try TemplateEngine(rules: rules, catalogue: catalogue, inventory: inventory).recommend(read)
    }

    static func ruleSet(named name: String) throws(ProgrammeError) -> RuleSet {
        guard let rules = ruleSets[name] else { throw .unknownRuleset(name: name, known: ruleSetNames) }
        return rules
    }
}

/// What a lifter can do, given the answers and the recorded inventory: equipment, injuries, and the rule set's
/// difficulty cap.
struct Usability {
    let catalogue: ExerciseCatalogue
    let available: Set<String>
    let injured: [String]
    let maxDifficulty: Difficulty

    init(catalogue: ExerciseCatalogue, answers: Answers, rules: JSONValue, inventory: EquipmentInventory?) {
        self.catalogue = catalogue
        let equipment = Usability.assumedEquipment(answers: answers, rules: rules, inventory: inventory) ?? answers.equipment
        available = inventory?.available(answers: equipment, vocabulary: catalogue.equipment)
            ?? catalogue.equipment.available(from: equipment)
        injured = answers.injuries
        maxDifficulty = rules["max_difficulty"]?[answers.experience]?.stringValue.flatMap(Difficulty.init(rawValue:)) ?? .advanced
    }

    /// The equipment a rule set assumes when neither the answers nor a recorded inventory name any: its
    /// `default_equipment` (seed 002's gym, whose equipment comes from the inventory the lifter fills in; DOMAIN.md
    /// §4.5), nil for a rule set without one (an unanswered question then means bodyweight only).
    static func assumedEquipment(answers: Answers, rules: JSONValue, inventory: EquipmentInventory?) -> [String]? {
        guard answers.equipment.isEmpty, inventory == nil else { return nil }
        return rules["default_equipment"]?.stringArray
    }

    /// The rationale's clause about the recorded inventory, or about the equipment assumed without one.
    static func inventoryNote(_ inventory: EquipmentInventory?, assumed: [String]? = nil) -> String {
        if let assumed { return "; no equipment given, so a gym is assumed (\(assumed.joined(separator: ", ")))" }
        guard let inventory else { return "" }
        let names = inventory.equipmentNames()
        return "; equipment from your answer and your inventory (\(names.isEmpty ? "nothing loadable" : names.joined(separator: ", ")))"
            + (inventory.hasBarbell ? "" : ", which has no plates for a barbell")
    }

    func hasEquipment(_ exercise: Exercise) -> Bool { exercise.equipment.allSatisfy(available.contains) }
    func isSafe(_ exercise: Exercise) -> Bool { !injured.contains { catalogue.loads(exercise, muscle: $0) } }
    func usable(_ exercise: Exercise) -> Bool { hasEquipment(exercise) && isSafe(exercise) && exercise.difficulty <= maxDifficulty }
}

/// The `slots` engine (rule sets `train` and `train-ai`): a split chosen by days (and session length), each session
/// filled from its template's ordered slots.
struct SlotEngine {
    let rules: RuleSet
    let catalogue: ExerciseCatalogue
    let inventory: EquipmentInventory?

    struct Slot { var muscle: String; var mechanic: Mechanic?; var pattern: MovementPattern?; var candidates: [String]; var order: Int }

    func generate(_ answers: Answers) throws(ProgrammeError) -> Programme {
        let json = rules.json
        let minutes = answers.sessionMinutes ?? json["default_session_minutes"]?.stringValue ?? "45-60"
        guard let split = (json["splits"]?.arrayValue ?? []).first(where: { entry in
            (entry["days"]?.arrayValue ?? []).contains { $0.intValue == answers.days }
                && (entry["session_minutes"]?.stringArray.map { $0.contains(minutes) } ?? true)
        }), let splitName = split["split"]?.stringValue else {
            throw .noSplit(ruleset: rules.name, days: answers.days, sessionMinutes: answers.sessionMinutes)
        }
        let usability = Usability(catalogue: catalogue, answers: answers, rules: json, inventory: inventory)
        let perSession = json["exercises_per_session"]?[minutes]?.intValue ?? 5
        let priority = Set(answers.priorityMuscles.flatMap(catalogue.expandMuscle))
        let sets = json["sets"]?[answers.experience]
        let extraSets = json["priority_extra_sets"]?.intValue ?? 0
        let compoundShare = json["min_compound_share"]?.doubleValue ?? 0.5
        var sessions: [ProgrammeSession] = []
        for entry in split["sessions"]?.arrayValue ?? [] {
            guard let name = entry["name"]?.stringValue, let templateName = entry["template"]?.stringValue,
                  let template = json["session_templates"]?[templateName] else {
                throw .malformedRuleset(file: "rulesets/\(rules.name).json", reason: "session \(entry.excerpt) names no known template")
            }
            let variant = entry["variant"]?.intValue ?? 0
            let slots = (template["slots"]?.arrayValue ?? []).enumerated().map { order, slot in
                Slot(muscle: catalogue.normaliseMuscle(slot["muscle"]?.stringValue ?? ""),
                     mechanic: slot["mechanic"]?.stringValue.flatMap(Mechanic.init(rawValue:)),
                     pattern: slot["pattern"]?.stringValue.flatMap(MovementPattern.init(rawValue:)),
                     candidates: slot["candidates"]?.stringArray ?? [], order: order)
            }
            // 1. Pick an exercise for every slot (explicit candidates first, then any catalogue exercise that fits).
            var used: Set<String> = []
            var filled: [(slot: Slot, exercise: Exercise)] = []
            for slot in slots {
                var options = slot.candidates.compactMap(catalogue.exercise(id:)).filter { usability.usable($0) && !used.contains($0.id) }
                if options.isEmpty {
                    options = catalogue.exercises.filter { exercise in
                        usability.usable(exercise) && !used.contains(exercise.id) && exercise.primaryMuscles.contains(slot.muscle)
                            && (slot.mechanic == nil || exercise.mechanic == slot.mechanic)
                            && (slot.pattern == nil || exercise.pattern == slot.pattern)
                    }.sorted { ($0.difficulty.rank, $0.id) < ($1.difficulty.rank, $1.id) }
                }
                guard !options.isEmpty else { continue }
                let exercise = options[variant % options.count]
                used.insert(exercise.id)
                filled.append((slot, exercise))
            }
            // 2. Priority muscles first, then choose `perSession` keeping compounds and isolations balanced.
            func isPriority(_ item: (slot: Slot, exercise: Exercise)) -> Bool {
                priority.contains(item.slot.muscle) || !priority.isDisjoint(with: item.exercise.primaryMuscles)
            }
            let ranked = filled.filter(isPriority) + filled.filter { !isPriority($0) }
            let target = min(perSession, ranked.count)
            let compoundsAvailable = ranked.filter { $0.exercise.mechanic == .compound }.count
            let isolationsAvailable = ranked.count - compoundsAvailable
            let minCompounds = min(Int((Double(target) * compoundShare).rounded(.up)), compoundsAvailable)
            let minIsolations = min(target >= 4 ? 1 : 0, isolationsAvailable)
            var chosen: [Int] = []
            var compounds = 0, isolations = 0
            for (index, item) in ranked.enumerated() where chosen.count < target {
                if item.exercise.mechanic == .compound {
                    guard compounds + 1 <= target - minIsolations else { continue }
                    compounds += 1
                } else {
                    guard isolations + 1 <= target - minCompounds else { continue }
                    isolations += 1
                }
                chosen.append(index)
            }
            for index in ranked.indices where chosen.count < target && !chosen.contains(index) { chosen.append(index) }
            // 3. Order: compounds before isolations; priority first within each; then template order.
            let picked = chosen.map { ranked[$0] }.sorted { a, b in
                (a.exercise.mechanic == .compound ? 0 : 1, isPriority(a) ? 0 : 1, a.slot.order)
                    < (b.exercise.mechanic == .compound ? 0 : 1, isPriority(b) ? 0 : 1, b.slot.order)
            }
            let exercises = picked.map { item -> PrescribedExercise in
                let mechanic = item.exercise.mechanic.rawValue
                var count = sets?[mechanic]?.intValue ?? 3
                if isPriority(item) { count = min(count + extraSets, sets?["max"]?.intValue ?? count + extraSets) }
                let reps = json["reps"]?[answers.goal].flatMap { $0.stringValue ?? $0[mechanic]?.stringValue } ?? "8-12"
                let rest = json["rest_s"]?[answers.goal]?[mechanic]?.intValue ?? 90
                return PrescribedExercise(exercise: item.exercise.id, sets: count, reps: reps, restSeconds: rest)
            }
            sessions.append(ProgrammeSession(name: name, exercises: exercises, focus: template["focus"]?.stringValue))
        }
        let excluded = catalogue.exercises.filter { !usability.isSafe($0) }.count
        var rationale = "\(splitName) for \(answers.days) days a week (rule set \(rules.name) v\(rules.version)); "
            + "\(perSession) exercises per \(minutes) minute session; reps \(json["reps"]?[answers.goal]?.stringValue ?? "8-12") for \(answers.goal); "
            + "sets for experience \(answers.experience): \(sets?["compound"]?.intValue ?? 3) compound, \(sets?["isolation"]?.intValue ?? 3) isolation"
        if !answers.priorityMuscles.isEmpty { rationale += "; +\(extraSets) set for priority muscles \(answers.priorityMuscles.joined(separator: ", "))" }
        if !answers.injuries.isEmpty { rationale += "; \(excluded) exercises excluded for injuries \(answers.injuries.joined(separator: ", "))" }
        rationale += Usability.inventoryNote(inventory)
        return Programme(ruleset: rules.name, rulesetVersion: rules.version, split: splitName, daysPerWeek: answers.days,
                         weeks: json["weeks"]?.intValue ?? 8, sessions: ProgrammeSession.distinctlyNamed(sessions), sessionMinutes: minutes,
                         priorityMuscles: answers.priorityMuscles, goal: answers.goal, experience: answers.experience,
                         rationale: rationale)
    }
}
