import JournalEvents
import JournalModel

/// A rule set's questionnaire as typed values: the questions and their options (`Form`), what the onboarding screens
/// are built from, and the answers as typed values (`AnswerSheet`), which give exactly the `[String: JSONValue]`
/// that `questionnaire.answered` records. The options come from the rule set's file (`Data/rulesets/NAME.json`,
/// `questionnaire`), so a screen never spells "6-24" or "45-60" itself.
extension Questionnaire {
    /// The main goal (`primary_goal`).
    public enum Goal: String, CaseIterable, Sendable {
        case getStronger = "get_stronger", buildMuscle = "build_muscle", toneUp = "tone_up"
    }

    /// How long the lifter has trained (`experience`).
    public enum Experience: String, CaseIterable, Sendable {
        case none = "0", underSixMonths = "0-6", sixMonthsToTwoYears = "6-24", overTwoYears = "24+"
    }

    /// How long a session may last (`session_minutes`).
    public enum SessionLength: String, CaseIterable, Sendable {
        case thirtyToFortyFive = "30-45", fortyFiveToSixty = "45-60", sixtyToNinety = "60-90"
        /// The minutes it spans.
        public var minutes: ClosedRange<Int> {
            switch self {
            case .thirtyToFortyFive: 30...45
            case .fortyFiveToSixty: 45...60
            case .sixtyToNinety: 60...90
            }
        }
    }

    /// `gender` (seed 000's third card, "Other/Prefer not to say", is `other`).
    public enum Gender: String, CaseIterable, Sendable { case male, female, other }

    /// A question's key in `questionnaire.answered` (`question`).
    public enum QuestionKey: String, CaseIterable, Sendable {
        case primaryGoal = "primary_goal", experience, daysPerWeek = "days_per_week", sessionMinutes = "session_minutes"
        case equipment, priorityMuscles = "priority_muscles", injuries, gender, age, birthDate = "birth_date", height, weight
        case motivations, motivationOther = "motivation_other"
    }

    /// A unit a quantity question takes and the range it allows in it.
    public struct QuantityUnit: Equatable, Sendable {
        /// `cm`, `in`, `kg` or `lb`.
        public var unit: String
        /// The amounts it allows in that unit.
        public var range: ClosedRange<Double>
        /// `range` in `unit`.
        public init(unit: String, range: ClosedRange<Double>) { self.unit = unit; self.range = range }
    }

    /// An amount and its unit, as a height or weight answer records it (`{"value": 80, "unit": "kg"}`).
    public struct Quantity: Equatable, Sendable {
        /// The amount, in `unit`.
        public var value: Double
        /// `cm`, `in`, `kg` or `lb`.
        public var unit: String
        /// `value` in `unit` (one of the question's `QuantityUnit`s).
        public init(_ value: Double, unit: String) { self.value = value; self.unit = unit }
        /// A height in centimetres.
        public static func centimetres(_ value: Double) -> Quantity { Quantity(value, unit: "cm") }
        /// A height in inches.
        public static func inches(_ value: Double) -> Quantity { Quantity(value, unit: "in") }
        /// A body weight in kilograms.
        public static func kilograms(_ value: Double) -> Quantity { Quantity(value, unit: WeightUnit.kg.rawValue) }
        /// A body weight in pounds.
        public static func pounds(_ value: Double) -> Quantity { Quantity(value, unit: WeightUnit.lb.rawValue) }
    }

    /// One question of a rule set's questionnaire.
    public struct Question: Equatable, Sendable, Identifiable {
        /// What the screen asks for.
        public enum Kind: Equatable, Sendable {
            /// One of `options` (the recorded spellings, in the rule set's order).
            case choice(options: [String])
            /// A whole number, within `range` when the rule set bounds it.
            case wholeNumber(range: ClosedRange<Int>?)
            /// Several names: `options` when the list is closed (muscle groups, equipment), between `min` and `max`.
            case list(options: [String]?, min: Int?, max: Int?)
            /// An amount in one of `units` (the first is a bare number's).
            case quantity(units: [QuantityUnit])
            /// A date (YYYY-MM-DD) that gives an age within `ages` on the day of the answers.
            case birthDate(ages: ClosedRange<Int>)
            /// Free text, needed when the list question `list` includes "other".
            case otherText(list: QuestionKey)
        }
        /// Its key in `questionnaire.answered`.
        public var key: QuestionKey
        /// What it asks for, with its options and limits.
        public var kind: Kind
        /// The rule set refuses answers without it.
        public var required: Bool
        /// `key`: a form asks each question once.
        public var id: QuestionKey { key }
    }

    /// A rule set's questionnaire: its questions in the order the screens ask them, and its option lists typed.
    public struct Form: Equatable, Sendable {
        /// The rule set's name (`train`, `train-ai`, `templates`).
        public var ruleset: String
        /// The questions it asks, in seed 000's screen order.
        public var questions: [Question]

        /// The question under `key`; nil when this rule set does not ask it.
        public func question(_ key: QuestionKey) -> Question? { questions.first { $0.key == key } }

        /// The options of a choice question as `Option` values (those the type knows, in the rule set's order).
        public func options<Option: RawRepresentable>(_ key: QuestionKey, as: Option.Type = Option.self) -> [Option] where Option.RawValue == String {
            guard case .choice(let options)? = question(key)?.kind else { return [] }
            return options.compactMap(Option.init(rawValue:))
        }
        /// The goals it offers, in order.
        public var goals: [Goal] { options(.primaryGoal) }
        /// The experience levels it offers, in order.
        public var experiences: [Experience] { options(.experience) }
        /// The session lengths it offers, in order.
        public var sessionLengths: [SessionLength] { options(.sessionMinutes) }
        /// The genders it offers (empty when it does not ask).
        public var genders: [Gender] { options(.gender) }
        /// The days per week it accepts.
        public var daysPerWeek: ClosedRange<Int>? {
            guard case .wholeNumber(let range)? = question(.daysPerWeek)?.kind else { return nil }
            return range
        }

        init(ruleset: String, rules: QuestionnaireRules, equipment: EquipmentCatalogue) {
            self.ruleset = ruleset
            // Equipment is asked by every rule set, required or not: each generator picks from the usable exercises
            // (DOMAIN.md §4), and without an answer only bodyweight ones are usable.
            let lists = Set(rules.maxItems.map(\.question) + rules.minItems.map(\.question) + rules.muscleLists
                            + rules.otherText.map(\.list) + ["equipment"])
            questions = QuestionKey.allCases.compactMap { key in
                let name = key.rawValue
                let kind: Question.Kind
                if let options = rules.choices.first(where: { $0.question == name })?.options {
                    kind = .choice(options: options)
                } else if let range = rules.ranges.first(where: { $0.question == name })?.range {
                    kind = .wholeNumber(range: range)
                } else if key == .birthDate, let ages = rules.birthDateAge {
                    kind = .birthDate(ages: ages)
                } else if let units = rules.quantities.first(where: { $0.question == name })?.units {
                    kind = .quantity(units: units.map { QuantityUnit(unit: $0.unit, range: $0.range) })
                } else if lists.contains(name) {
                    let options = rules.muscleLists.contains(name) ? EventVocabulary.muscles
                        : key == .equipment ? equipment.knownNames.sorted() : nil
                    kind = .list(options: options, min: rules.minItems.first { $0.question == name }?.min,
                                 max: rules.maxItems.first { $0.question == name }?.max)
                } else if let list = rules.otherText.first(where: { $0.text == name }).flatMap({ QuestionKey(rawValue: $0.list) }) {
                    kind = .otherText(list: list)
                } else {
                    return nil
                }
                return Question(key: key, kind: kind, required: rules.required.contains(name))
            }
        }
    }

    /// The questionnaire of `ruleset` (`train`, `train-ai`, `templates`). Throws `unknownRuleset` naming the known ones.
    public static func form(ruleset: String) throws(ProgrammeError) -> Form { try ProgrammeGenerator.ruleSet(named: ruleset).form }

    /// Answers as typed values; `values` is what onboarding records (`questionnaire.answered`, one per answer), the
    /// same as an app writing the keys and spellings by hand. Unset answers are left out.
    public struct AnswerSheet: Equatable, Sendable {
        /// `primary_goal`.
        public var goal: Goal?
        /// `experience`.
        public var experience: Experience?
        /// `days_per_week`, within the form's `daysPerWeek`.
        public var daysPerWeek: Int?
        /// `session_minutes`.
        public var sessionLength: SessionLength?
        /// Muscle groups of `EventVocabulary.muscles` (at most the form's `max`).
        public var priorityMuscles: [String]?
        /// `injuries`: muscle groups to spare.
        public var injuries: [String]?
        /// Equipment names of the catalogue (`dumbbells`, `barbell`, …).
        public var equipment: [String]?
        /// `gender`.
        public var gender: Gender?
        /// `age`, in whole years.
        public var age: Int?
        /// `birth_date` (seed 001 asks it instead of the age).
        public var birthDate: LocalDate?
        /// Height (`.centimetres(180)`, `.inches(70)`).
        public var height: Quantity?
        /// Body weight (`.kilograms(80)`, `.pounds(176)`).
        public var weight: Quantity?
        /// `motivations`: why the lifter trains (`other` needs `motivationOther`).
        public var motivations: [String]?
        /// The text of the "other" motivation.
        public var motivationOther: String?

        /// A sheet with the first screens' answers (the rest are set one by one).
        public init(goal: Goal? = nil, experience: Experience? = nil, daysPerWeek: Int? = nil, sessionLength: SessionLength? = nil) {
            self.goal = goal; self.experience = experience; self.daysPerWeek = daysPerWeek; self.sessionLength = sessionLength
        }

        /// The answers by question key, as `questionnaire.answered` records them.
        public var values: [String: JSONValue] {
            var values: [String: JSONValue] = [:]
            func set(_ key: QuestionKey, _ value: JSONValue?) { if let value { values[key.rawValue] = value } }
            func strings(_ list: [String]?) -> JSONValue? { list.map { .array($0.map(JSONValue.string)) } }
            func quantity(_ value: Quantity?) -> JSONValue? { value.map { .object(["value": .number($0.value), "unit": .string($0.unit)]) } }
            set(.primaryGoal, goal.map { .string($0.rawValue) })
            set(.experience, experience.map { .string($0.rawValue) })
            set(.daysPerWeek, daysPerWeek.map(JSONValue.int))
            set(.sessionMinutes, sessionLength.map { .string($0.rawValue) })
            set(.priorityMuscles, strings(priorityMuscles))
            set(.injuries, strings(injuries))
            set(.equipment, strings(equipment))
            set(.gender, gender.map { .string($0.rawValue) })
            set(.age, age.map(JSONValue.int))
            set(.birthDate, birthDate.map { .string($0.description) })
            set(.height, quantity(height))
            set(.weight, quantity(weight))
            set(.motivations, strings(motivations))
            set(.motivationOther, motivationOther.map(JSONValue.string))
            return values
        }
    }
}

extension RuleSet {
    /// This rule set's questionnaire as typed values.
    public var form: Questionnaire.Form { Questionnaire.Form(ruleset: name, rules: questionnaire, equipment: .builtIn) }
}
