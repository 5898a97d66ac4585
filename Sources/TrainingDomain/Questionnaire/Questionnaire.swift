import JournalEvents
import JournalModel

/// One answer that breaks a rule of the rule set's questionnaire.
public struct AnswerProblem: Equatable, Sendable, CustomStringConvertible {
    /// The `question` key of `questionnaire.answered`.
    public var question: String
    /// What was answered, or nil when the answer is missing.
    public var value: JSONValue?
    public var rule: String

    public var description: String {
        if let value { return "question \"\(question)\": answer \(value.excerpt) \(rule)" }
        return "question \"\(question)\": no answer; \(rule)"
    }
}

/// The answers broke one or more rules; `problems` lists them in a fixed order (required questions first).
public struct QuestionnaireError: Error, Equatable, Sendable, CustomStringConvertible {
    public var ruleset: String
    public var problems: [AnswerProblem]
    public var description: String {
        "the answers do not fit rule set \"\(ruleset)\":\n" + problems.map { "  - \($0.description)" }.joined(separator: "\n")
    }
}

/// Questionnaire limits, read from the `questionnaire` object of a rule-set file.
struct QuestionnaireRules: Sendable {
    var required: [String]
    var choices: [(question: String, options: [String])]
    var ranges: [(question: String, range: ClosedRange<Int>)]
    var maxItems: [(question: String, max: Int)]
    var minItems: [(question: String, min: Int)]
    /// Minimum and maximum age computed from `birth_date` (seed 001: 18–100).
    var birthDateAge: ClosedRange<Int>?
    var muscleLists: [String]
    /// A list question whose "Other" choice needs its text in another question (seeds 000 and 001: `motivations`'
    /// "Other" card opens a text field that must not be left empty).
    var otherText: [(list: String, text: String)]
    /// Per question (`height`, `weight`), the range of each unit the answer may use, the first unit being the one a
    /// bare number is in: seed 000's height 140–220 cm or 55–86 in (4'7"–7'2"), weight 40–200 kg or 88–440 lb.
    var quantities: [(question: String, units: [(unit: String, range: ClosedRange<Double>)])]

    init(json: JSONValue?) {
        required = json?["required"]?.stringArray ?? []
        choices = (json?["choices"]?.objectValue ?? [:]).fields.map { ($0.key, $0.value.stringArray ?? []) }
        ranges = (json?["ranges"]?.objectValue ?? [:]).fields.compactMap { field in
            guard let bounds = field.value.arrayValue, bounds.count == 2, let low = bounds[0].intValue, let high = bounds[1].intValue else { return nil }
            return (field.key, low...high)
        }
        maxItems = (json?["max_items"]?.objectValue ?? [:]).fields.compactMap { f in f.value.intValue.map { (f.key, $0) } }
        minItems = (json?["min_items"]?.objectValue ?? [:]).fields.compactMap { f in f.value.intValue.map { (f.key, $0) } }
        if let bounds = json?["birth_date_age"]?.arrayValue, bounds.count == 2, let low = bounds[0].intValue, let high = bounds[1].intValue {
            birthDateAge = low...high
        }
        muscleLists = json?["muscle_lists"]?.stringArray ?? []
        otherText = (json?["other_text"]?.objectValue ?? [:]).fields.compactMap { f in f.value.stringValue.map { (f.key, $0) } }
        quantities = (json?["quantities"]?.objectValue ?? [:]).fields.map { question in
            (question.key, (question.value.objectValue ?? [:]).fields.compactMap { unit in
                guard let bounds = unit.value.arrayValue, bounds.count == 2, let low = bounds[0].doubleValue, let high = bounds[1].doubleValue else { return nil }
                return (unit.key, low...high)
            })
        }
    }
}

/// Questionnaire answers (the model's `Ledger.answers`: the latest per question since the last `programme.reset`):
/// normalising the spellings of seeds 000 and 001, and
/// checking them against a rule set.
public enum Questionnaire {
    /// Seed 001's and the UI's spellings mapped to seed 000's keys: `0_months` → `0`, `0_6_months` → `0-6`,
    /// `6_months_2_years` → `6-24`, `2_plus_years` → `24+`.
    public static func normaliseExperience(_ text: String) -> String {
        let key = text.trimmed.lowercased().replacingSpaces()
        switch key {
        case "0", "0_months", "0-months", "0months", "just_starting_out": return "0"
        // Seed 002's levels: beginner (< 1 year), intermediate (1–3 years), advanced (3+ years).
        case "0-6", "0_6_months", "0-6_months", "0-6-months", "finding_my_feet", "beginner": return "0-6"
        case "6-24", "6_months_2_years", "6-months-2-years", "6_24_months", "getting_comfortable", "intermediate": return "6-24"
        case "24+", "2_plus_years", "2+_years", "2+", "2-plus-years", "confident_and_consistent", "advanced": return "24+"
        default: return text
        }
    }

    /// `"30-45 min"`, `"30-45 minutes"`, `"30–45"`, or a number of minutes (seed 002: 30, 45, 60, 75, 90) → `"30-45"`,
    /// `"45-60"` or `"60-90"`.
    public static func normaliseSessionMinutes(_ value: JSONValue) -> String? {
        if let minutes = value.intValue {
            return minutes <= 45 ? "30-45" : minutes <= 60 ? "45-60" : "60-90"
        }
        guard var text = value.stringValue?.lowercased() else { return nil }
        text = String(text.map { $0 == "–" ? "-" : $0 })
        for suffix in ["minutes", "minute", "mins", "min"] where text.hasSuffix(suffix) { text = String(text.dropLast(suffix.count)) }
        return String(text.filter { !$0.isWhitespace })
    }

    /// `"get stronger"`, `"Get Stronger"` → `"get_stronger"`; `"Build Muscle Mass"` → `"build_muscle"`; seed 002's
    /// goals: `strength`, `powerlifting` and `athletic performance` → `get_stronger`, `hypertrophy` → `build_muscle`,
    /// `general fitness` → `tone_up`.
    public static func normaliseGoal(_ text: String) -> String {
        let key = text.trimmed.lowercased().replacingSpaces()
        switch key {
        case "build_muscle_mass", "build-muscle", "hypertrophy": return "build_muscle"
        case "get-stronger", "strength", "powerlifting", "athletic_performance", "athletic-performance": return "get_stronger"
        case "tone-up", "general_fitness", "general-fitness": return "tone_up"
        default: return key
        }
    }
}

extension String {
    func replacingSpaces() -> String { String(map { $0 == " " ? "_" : $0 }) }
}

/// The answers the engines use, after normalisation and validation.
struct Answers: Sendable {
    var goal: String
    var experience: String
    var days: Int
    var sessionMinutes: String?
    var priorityMuscles: [String]
    var injuries: [String]
    var equipment: [String]
    /// Body weight and its unit when answered (`80`, `{"value": 176, "unit": "lb"}`).
    var bodyWeight: (value: Double, unit: WeightUnit)?
    /// For the `templates` rule set: the chosen template id.
    var template: String?

    static func read(_ raw: [String: JSONValue], rules: QuestionnaireRules, ruleset: String, catalogue: ExerciseCatalogue,
                     asOf: LocalDate?) throws(QuestionnaireError) -> Answers {
        var problems: [AnswerProblem] = []
        func fail(_ question: String, _ value: JSONValue?, _ rule: String) { problems.append(AnswerProblem(question: question, value: value, rule: rule)) }
        for question in rules.required where raw[question] == nil || raw[question]?.isNull == true {
            fail(question, nil, "it is required by rule set \"\(ruleset)\"")
        }
        func text(_ question: String, _ normalise: (JSONValue) -> String?) -> String? {
            guard let value = raw[question], !value.isNull else { return nil }
            guard let result = normalise(value) else { fail(question, value, "must be a string"); return nil }
            if let options = rules.choices.first(where: { $0.question == question })?.options, !options.contains(result) {
                fail(question, value, "must be one of " + options.map { "\"\($0)\"" }.joined(separator: ", "))
                return nil
            }
            return result
        }
        let goal = text("primary_goal") { value in
            if let s = value.stringValue { return Questionnaire.normaliseGoal(s) }
            if let first = value.arrayValue?.first?.stringValue { return Questionnaire.normaliseGoal(first) } // seed 000 stores an array
            return nil
        }
        let experience = text("experience") { $0.stringValue.map(Questionnaire.normaliseExperience) }
        let minutes = text("session_minutes", Questionnaire.normaliseSessionMinutes)
        _ = text("gender") { value in
            // Seed 000's third card is "Other/Prefer not to say".
            value.stringValue.map { ["prefer_not_to_say", "prefer not to say", "other/prefer not to say"].contains($0.lowercased()) ? "other" : $0.lowercased() }
        }
        for (question, units) in rules.quantities {
            guard let value = raw[question], !value.isNull, let first = units.first else { continue }
            guard let (amount, unit) = Answers.quantity(value, defaultUnit: first.unit) else {
                fail(question, value, "must be a number of \(first.unit) or {\"value\": N, \"unit\": " + units.map { "\"\($0.unit)\"" }.joined(separator: "|") + "}"
                     + (question == "height" ? " or {\"ft\": F, \"in\": I}" : ""))
                continue
            }
            let allowed = units.map { "\(formatWeight($0.range.lowerBound))–\(formatWeight($0.range.upperBound)) \($0.unit)" }.joined(separator: " or ")
            guard let range = units.first(where: { $0.unit == unit })?.range else {
                fail(question, value, "has unit \"\(unit)\"; rule set \"\(ruleset)\" takes \(allowed)")
                continue
            }
            if !range.contains(amount) { fail(question, value, "must be within \(allowed) (rule set \"\(ruleset)\")") }
        }
        func integer(_ question: String) -> Int? {
            guard let value = raw[question], !value.isNull else { return nil }
            guard let n = value.looseInt else { fail(question, value, "must be a whole number"); return nil }
            if let range = rules.ranges.first(where: { $0.question == question })?.range, !range.contains(n) {
                fail(question, value, "must be between \(range.lowerBound) and \(range.upperBound)")
                return nil
            }
            return n
        }
        let days = integer("days_per_week")
        _ = integer("age")
        func list(_ question: String) -> [String] {
            guard let value = raw[question], !value.isNull else {
                if let min = rules.minItems.first(where: { $0.question == question })?.min, min > 0, !rules.required.contains(question) {
                    fail(question, nil, "at least \(min) must be selected")
                }
                return []
            }
            var items: [String]
            if let single = value.stringValue { items = [single] } else if let array = value.stringArray { items = array } else {
                fail(question, value, "must be an array of strings"); return []
            }
            items = items.filter { !["none", "no_injuries", ""].contains($0.trimmed.lowercased()) }
            if let max = rules.maxItems.first(where: { $0.question == question })?.max, items.count > max {
                fail(question, value, "must name at most \(max) (got \(items.count))")
            }
            if let min = rules.minItems.first(where: { $0.question == question })?.min, items.count < min {
                fail(question, value, "must name at least \(min)")
            }
            if rules.muscleLists.contains(question) {
                let known = Set(EventVocabulary.muscles)
                let normalised = items.map(catalogue.normaliseMuscle)
                for (original, muscle) in zip(items, normalised) where !known.contains(muscle) {
                    fail(question, value, "names \"\(original)\", which is not a muscle group (known: \(EventVocabulary.muscles.joined(separator: ", ")))")
                }
                return normalised
            }
            return items
        }
        let priority = list("priority_muscles")
        let injuries = list("injuries")
        let equipment = list("equipment").map(catalogue.equipment.normalise)
        let knownEquipment = catalogue.equipment.knownNames
        if let unknown = equipment.first(where: { !knownEquipment.contains($0) }) {
            fail("equipment", raw["equipment"], "names \"\(unknown)\", which is not equipment the catalogue knows (e.g. dumbbells, barbell, kettlebells, cable-machines, pin-loaded-machines, plate-loaded-machines)")
        }
        _ = list("motivations")
        for (question, textQuestion) in rules.otherText {
            let chosen = raw[question].flatMap { $0.stringArray ?? $0.stringValue.map { [$0] } } ?? []
            guard chosen.contains(where: { $0.trimmed.lowercased() == "other" }) else { continue }
            if raw[textQuestion]?.stringValue?.trimmed.isEmpty ?? true {
                fail(textQuestion, raw[textQuestion], "must be 1–200 characters of text when \"\(question)\" includes \"other\" (rule set \"\(ruleset)\")")
            }
        }
        if let span = rules.birthDateAge, let value = raw["birth_date"], !value.isNull {
            if let text = value.stringValue, let born = LocalDate(iso: text) {
                if let asOf {
                    let age = Answers.age(born: born, on: asOf)
                    if age < span.lowerBound {
                        fail("birth_date", value, "gives age \(age) on \(asOf): you must be at least \(span.lowerBound) years old")
                    } else if age > span.upperBound {
                        fail("birth_date", value, "gives age \(age) on \(asOf): the maximum age is \(span.upperBound)")
                    }
                }
            } else {
                fail("birth_date", value, "must be a date written YYYY-MM-DD")
            }
        }
        var bodyWeight: (Double, WeightUnit)?
        if let value = raw["weight"], !value.isNull {
            if let number = value.doubleValue, number > 0 {
                bodyWeight = (number, .kg)
            } else if let number = value["value"]?.doubleValue, number > 0,
                      let unit = WeightUnit(parsing: value["unit"]?.stringValue ?? "kg") {
                bodyWeight = (number, unit)
            } else if !rules.quantities.contains(where: { $0.question == "weight" }) {
                // (A rule set with weight ranges has said what is wrong with it above.)
                fail("weight", value, "must be a positive number of kg or {\"value\": N, \"unit\": \"kg\"|\"lb\"}")
            }
        }
        var template: String?
        if let value = raw["template"], !value.isNull {
            if let id = value.stringValue { template = id } else { fail("template", value, "must be a template id") }
        }
        if !problems.isEmpty { throw QuestionnaireError(ruleset: ruleset, problems: problems) }
        return Answers(goal: goal ?? "build_muscle", experience: experience ?? "0", days: days ?? 3, sessionMinutes: minutes,
                       priorityMuscles: priority, injuries: injuries, equipment: equipment, bodyWeight: bodyWeight, template: template)
    }

    /// A quantity answer as (amount, unit): a bare number in `defaultUnit`, `{"value": N, "unit": U}` (`lbs`, `kgs`,
    /// `inches` accepted), or a height `{"ft": 5, "in": 10}` in inches. Nil when it is none of these.
    static func quantity(_ value: JSONValue, defaultUnit: String) -> (Double, String)? {
        if let number = value.doubleValue { return (number, defaultUnit) }
        if let feet = value["ft"]?.doubleValue { return (feet * 12 + (value["in"]?.doubleValue ?? 0), "in") }
        guard let number = value["value"]?.doubleValue else { return nil }
        let unit = (value["unit"]?.stringValue ?? defaultUnit).trimmed.lowercased()
        switch unit {
        case "lbs", "pound", "pounds": return (number, "lb")
        case "kgs", "kilogram", "kilograms": return (number, "kg")
        case "inch", "inches": return (number, "in")
        default: return (number, unit)
        }
    }

    /// Whole years between `born` and `day`.
    static func age(born: LocalDate, on day: LocalDate) -> Int {
        let b = born.components, d = day.components
        var years = d.year - b.year
        if (d.month, d.day) < (b.month, b.day) { years -= 1 }
        return years
    }
}
