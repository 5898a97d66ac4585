import JournalEvents

/// A fixed programme the simulator can follow without the training domain's generator.
public enum BuiltInProgramme {
    static func exercise(_ id: String, _ sets: Int, _ reps: String, _ rest: Int) -> JSONValue {
        .object(["exercise": .string(id), "sets": .int(sets), "reps": .string(reps), "rest_s": .int(rest)])
    }

    static let push: JSONValue = .object(["name": "Push", "exercises": [
        exercise("barbell-bench-press", 4, "6-10", 120), exercise("dumbbell-shoulder-press", 3, "8-12", 90),
        exercise("incline-dumbbell-press", 3, "8-12", 90), exercise("cable-lateral-raise", 3, "12-15", 60),
        exercise("triceps-pushdown", 3, "10-15", 60),
    ]])
    static let pull: JSONValue = .object(["name": "Pull", "exercises": [
        exercise("barbell-row", 4, "6-10", 120), exercise("lat-pulldown", 3, "8-12", 90),
        exercise("seated-cable-row", 3, "8-12", 90), exercise("face-pull", 3, "12-15", 60),
        exercise("dumbbell-bicep-curl", 3, "10-12", 60),
    ]])
    static let legs: JSONValue = .object(["name": "Legs", "exercises": [
        exercise("barbell-back-squat", 4, "6-10", 150), exercise("romanian-deadlift", 3, "8-10", 120),
        exercise("leg-press", 3, "10-12", 90), exercise("lying-leg-curl", 3, "10-15", 60),
        exercise("standing-calf-raise", 4, "12-15", 60),
    ]])
    static let upper: JSONValue = .object(["name": "Upper", "exercises": [
        exercise("barbell-bench-press", 4, "4-6", 150), exercise("barbell-row", 4, "4-6", 150),
        exercise("dumbbell-shoulder-press", 3, "6-8", 120), exercise("lat-pulldown", 3, "6-8", 90),
    ]])
    static let lower: JSONValue = .object(["name": "Lower", "exercises": [
        exercise("barbell-back-squat", 4, "4-6", 180), exercise("conventional-deadlift", 3, "4-6", 180),
        exercise("leg-press", 3, "6-8", 120), exercise("standing-calf-raise", 3, "8-10", 60),
    ]])
    static let fullBody: JSONValue = .object(["name": "Full Body", "exercises": [
        exercise("goblet-squat", 3, "12-15", 60), exercise("dumbbell-bench-press", 3, "12-15", 60),
        exercise("lat-pulldown", 3, "12-15", 60), exercise("plank", 3, "12-15", 45),
    ]])

    /// Full Body for 2–3 days, Upper/Lower for 4, Push/Pull/Legs (+ Upper/Lower) for 5–6.
    public static func choose(_ answers: [String: JSONValue]) -> (ruleset: String, version: Int, programme: JSONValue) {
        let days = answers["days_per_week"]?.intValue ?? 3
        let split: String
        let sessions: [JSONValue]
        switch days {
        case ...3: split = "Full Body"; sessions = Array(repeating: fullBody, count: max(days, 2))
        case 4: split = "Upper/Lower"; sessions = [upper, lower, upper, lower]
        default: split = "Push/Pull/Legs"; sessions = Array([push, pull, legs, upper, lower, push].prefix(days))
        }
        var programme: JSONObject = [
            "split": .string(split), "days_per_week": .int(days), "weeks": 12, "sessions": .array(sessions),
        ]
        if let minutes = answers["session_minutes"] { programme["session_minutes"] = minutes }
        if let priority = answers["priority_muscles"] { programme["priority_muscles"] = priority }
        if let goal = answers["primary_goal"] { programme["goal"] = goal }
        return ("built-in", 1, .object(programme))
    }

    static func repRange(_ text: String) -> ClosedRange<Int> {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        if parts.count == 2, parts[0] <= parts[1] { return parts[0]...parts[1] }
        if let single = parts.first { return single...single }
        return 8...12
    }

    public static let starting: [String: Double] = [
        "barbell-bench-press": 60, "barbell-back-squat": 80, "conventional-deadlift": 100, "barbell-row": 50,
        "romanian-deadlift": 70, "leg-press": 120, "dumbbell-shoulder-press": 16, "incline-dumbbell-press": 20,
        "lat-pulldown": 50, "seated-cable-row": 45, "dumbbell-bicep-curl": 12, "triceps-pushdown": 20,
    ]

    static func startingKg(_ exercise: String) -> Double { starting[exercise] ?? 20 }

    static func alternative(for exercise: String) -> String {
        switch exercise {
        case "dumbbell-shoulder-press": return "machine-shoulder-press"
        case "lat-pulldown": return "assisted-pull-up"
        case "romanian-deadlift": return "good-morning"
        case "barbell-row": return "dumbbell-row"
        case "conventional-deadlift": return "trap-bar-deadlift"
        case "dumbbell-bench-press": return "push-up"
        default: return "machine-chest-press"
        }
    }
}
