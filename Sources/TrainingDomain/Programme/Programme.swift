import JournalEvents
import JournalModel

/// One exercise of a programme session: the shape of `programme.generated`'s
/// `sessions[].exercises[]` (FORMAT.md, `programme` field kind).
public struct PrescribedExercise: Equatable, Sendable {
    public var exercise: String
    public var sets: Int
    /// `"8-12"`, `"5"`, `"5/3/1"`.
    public var reps: String
    public var restSeconds: Int
    /// Starting weight, when the rule set prescribes one.
    public var weight: Double?
    public var unit: WeightUnit?
    public var note: String?
    /// The target RPE of its working sets, when the template gives one (DOMAIN.md §4.6).
    public var rpe: Double?

    public init(exercise: String, sets: Int, reps: String, restSeconds: Int, weight: Double? = nil, unit: WeightUnit? = nil, note: String? = nil,
                rpe: Double? = nil) {
        self.exercise = exercise
        self.sets = sets
        self.reps = reps
        self.restSeconds = restSeconds
        self.weight = weight
        self.unit = unit
        self.note = note
        self.rpe = rpe
    }

    public var jsonValue: JSONValue {
        var object: JSONObject = ["exercise": .string(exercise), "sets": .int(sets), "reps": .string(reps), "rest_s": .int(restSeconds)]
        if let weight { object["weight"] = .number(weight) }
        if let unit { object["unit"] = .string(unit.rawValue) }
        if let note { object["note"] = .string(note) }
        if let rpe { object["rpe"] = .number(rpe) }
        return .object(object)
    }

    /// The top of the rep range (`"8-12"` → 12, `"5"` → 5, `"5/3/1"` → 5); nil when no number is found.
    public var topReps: Int? { RepRange(reps)?.upper }
}

/// One training day of a programme.
public struct ProgrammeSession: Equatable, Sendable {
    /// Sessions sharing a name but not their exercises become `Push A`, `Push B`, …, so "the previous
    /// workout of the same type" (PROJECTIONS.md) compares like with like. Identical sessions keep their name.
    public static func distinctlyNamed(_ sessions: [ProgrammeSession]) -> [ProgrammeSession] {
        var result = sessions
        for name in Set(sessions.map(\.name)) {
            let indices = sessions.indices.filter { sessions[$0].name == name }
            let variants = indices.reduce(into: [[String]]()) { list, index in
                let ids = sessions[index].exercises.map(\.exercise)
                if !list.contains(ids) { list.append(ids) }
            }
            guard variants.count > 1 else { continue }
            for index in indices {
                let ids = sessions[index].exercises.map(\.exercise)
                let letter = Character(Unicode.Scalar(UInt8(65 + variants.firstIndex(of: ids)!)))
                result[index].name = "\(name) \(letter)"
            }
        }
        return result
    }

    public var name: String
    public var exercises: [PrescribedExercise]
    public var focus: String?

    public init(name: String, exercises: [PrescribedExercise], focus: String? = nil) {
        self.name = name
        self.exercises = exercises
        self.focus = focus
    }

    public var jsonValue: JSONValue {
        var object: JSONObject = ["name": .string(name), "exercises": .array(exercises.map(\.jsonValue))]
        if let focus { object["focus"] = .string(focus) }
        return .object(object)
    }
}

/// A generated programme: what `programme.generated` records in its `programme` field, plus the rule set
/// and version that produced it.
public struct Programme: Equatable, Sendable {
    public var ruleset: String
    public var rulesetVersion: Int
    public var split: String
    public var daysPerWeek: Int
    public var weeks: Int
    public var sessions: [ProgrammeSession]
    public var sessionMinutes: String?
    public var priorityMuscles: [String]
    public var goal: String?
    public var experience: String?
    public var rationale: String?
    public var template: String?

    public init(ruleset: String, rulesetVersion: Int, split: String, daysPerWeek: Int, weeks: Int, sessions: [ProgrammeSession],
                sessionMinutes: String? = nil, priorityMuscles: [String] = [], goal: String? = nil, experience: String? = nil,
                rationale: String? = nil, template: String? = nil) {
        self.ruleset = ruleset
        self.rulesetVersion = rulesetVersion
        self.split = split
        self.daysPerWeek = daysPerWeek
        self.weeks = weeks
        self.sessions = sessions
        self.sessionMinutes = sessionMinutes
        self.priorityMuscles = priorityMuscles
        self.goal = goal
        self.experience = experience
        self.rationale = rationale
        self.template = template
    }

    /// Exactly the `programme` field of `programme.generated`, keys in schema order.
    public var jsonValue: JSONValue {
        var object: JSONObject = [
            "split": .string(split), "days_per_week": .int(daysPerWeek), "weeks": .int(weeks),
            "sessions": .array(sessions.map(\.jsonValue)),
        ]
        if let sessionMinutes { object["session_minutes"] = .string(sessionMinutes) }
        if !priorityMuscles.isEmpty { object["priority_muscles"] = .array(priorityMuscles.map(JSONValue.string)) }
        if let goal { object["goal"] = .string(goal) }
        if let experience { object["experience"] = .string(experience) }
        if let rationale { object["rationale"] = .string(rationale) }
        if let template { object["template"] = .string(template) }
        return .object(object)
    }

    /// The payload of a `programme.generated` event: `ruleset`, `ruleset_version`, `programme`.
    public var eventFields: JSONObject {
        ["ruleset": .string(ruleset), "ruleset_version": .int(rulesetVersion), "programme": jsonValue]
    }

    /// Reads a `programme.generated` payload back (for projections); nil when the shape is wrong.
    public init?(eventFields fields: JSONObject) {
        guard let ruleset = fields["ruleset"]?.stringValue, let programme = fields["programme"],
              let split = programme["split"]?.stringValue, let days = programme["days_per_week"]?.intValue,
              let weeks = programme["weeks"]?.intValue, let sessions = programme["sessions"]?.arrayValue else { return nil }
        var parsed: [ProgrammeSession] = []
        for session in sessions {
            guard let name = session["name"]?.stringValue, let exercises = session["exercises"]?.arrayValue else { return nil }
            var list: [PrescribedExercise] = []
            for item in exercises {
                guard let id = item["exercise"]?.stringValue, let sets = item["sets"]?.intValue, let reps = item["reps"]?.stringValue,
                      let rest = item["rest_s"]?.intValue else { return nil }
                list.append(PrescribedExercise(exercise: id, sets: sets, reps: reps, restSeconds: rest, weight: item["weight"]?.doubleValue,
                                               unit: item["unit"]?.stringValue.flatMap(WeightUnit.init(parsing:)), note: item["note"]?.stringValue,
                                               rpe: item["rpe"]?.doubleValue))
            }
            parsed.append(ProgrammeSession(name: name, exercises: list, focus: session["focus"]?.stringValue))
        }
        self.init(ruleset: ruleset, rulesetVersion: fields["ruleset_version"]?.intValue ?? 1, split: split, daysPerWeek: days,
                  weeks: weeks, sessions: parsed, sessionMinutes: programme["session_minutes"]?.stringValue,
                  priorityMuscles: programme["priority_muscles"]?.stringArray ?? [], goal: programme["goal"]?.stringValue,
                  experience: programme["experience"]?.stringValue, rationale: programme["rationale"]?.stringValue,
                  template: programme["template"]?.stringValue)
    }
}
