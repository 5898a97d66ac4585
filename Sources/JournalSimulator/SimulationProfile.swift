import JournalEvents

/// Who the simulated user is. The named profiles are the sample journals' stories.
public struct SimulationProfile: Sendable {
    public var name: String
    public var displayName: String
    public var email: String
    public var unit: String
    /// Questionnaire answers, as `questionnaire.answered` records them.
    public var answers: [(question: String, answer: JSONValue)]
    /// Stop after onboarding (a brand-new user).
    public var onboardingOnly = false
    /// Chance that a scheduled training day is missed.
    public var missRate = 0.12
    /// UTC offset in seconds, and an optional move to another offset from a given week.
    public var offsetSeconds: Int32 = 0
    public var move: (week: Int, offsetSeconds: Int32)?
    /// Starting working weights (kg) by exercise id; the rest are estimated.
    public var startingKg: [String: Double] = [:]
    /// The rule set that turns the answers into a programme (TrainingDomain).
    public var ruleset = "train"

    public static let names = ["new-user", "ppl", "upper-lower-lb", "full-body"]

    public static func named(_ name: String) -> SimulationProfile? {
        switch name {
        case "new-user":
            var profile = base(name: name, displayName: "Maya Patel", email: "maya@example.com", unit: "kg", goal: "build_muscle",
                               experience: "0", days: 3, minutes: "45-60", priority: ["glutes", "back"], injuries: [])
            profile.onboardingOnly = true
            profile.offsetSeconds = 3600
            return profile
        case "ppl":
            var profile = base(name: name, displayName: "Tom Berg", email: "tom@example.com", unit: "kg", goal: "build_muscle",
                               experience: "6-24", days: 5, minutes: "60-90", priority: ["chest", "shoulders", "biceps"], injuries: [])
            profile.offsetSeconds = 3600
            profile.move = (week: 7, offsetSeconds: -18000)
            return profile
        case "upper-lower-lb":
            var profile = base(name: name, displayName: "Dana Cruz", email: "dana@example.com", unit: "lb", goal: "get_stronger",
                               experience: "24+", days: 4, minutes: "60-90", priority: ["quads", "back"], injuries: ["shoulders"])
            profile.offsetSeconds = -21600
            profile.missRate = 0.15
            profile.ruleset = "train-ai"
            return profile
        case "full-body":
            var profile = base(name: name, displayName: "Sam Okafor", email: "sam@example.com", unit: "kg", goal: "tone_up",
                               experience: "0-6", days: 3, minutes: "30-45", priority: ["abs"], injuries: [])
            profile.offsetSeconds = 0
            return profile
        default:
            return nil
        }
    }

    static func base(name: String, displayName: String, email: String, unit: String, goal: String, experience: String,
                     days: Int, minutes: String, priority: [String], injuries: [String]) -> SimulationProfile {
        SimulationProfile(
            name: name, displayName: displayName, email: email, unit: unit,
            answers: [
                ("primary_goal", .string(goal)),
                ("experience", .string(experience)),
                ("priority_muscles", .array(priority.map { .string($0) })),
                ("equipment", ["dumbbells", "barbell", "cable", "pin-loaded-machine", "plate-loaded-machine"]),
                ("injuries", .array(injuries.map { .string($0) })),
                ("days_per_week", .int(days)),
                ("session_minutes", .string(minutes)),
                ("motivations", ["structure", "accountability"]),
                ("age", 31),
                ("gender", "other"),
                ("height", .object(["value": 176, "unit": "cm"])),
                ("weight", .object(["value": unit == "lb" ? 172 : 78, "unit": .string(unit)])),
            ])
    }
}
