/// Why an event was refused: the type, the field, the value and the rule it broke.
///
/// The message format is pinned in tests and relied on by support:
/// `set.completed: field "weight" is 650 but must be at most 500 when unit is "kg"`.
public struct EventRuleViolation: Error, Equatable, CustomStringConvertible, Sendable {
    public var type: String
    /// A dotted path for nested fields (`programme.sessions[0].name`), or nil for event-level rules.
    public var field: String?
    public var value: JSONValue?
    public var rule: String
    /// What was wrong, as a stable code an app can switch on and localise (README.md §"Error codes"); the message
    /// (`description`) is for people and may be reworded.
    public var code: String

    public init(type: String, field: String?, value: JSONValue?, rule: String, code: String = EventRuleViolation.ruleViolation) {
        self.type = type
        self.field = field
        self.value = value
        self.rule = rule
        self.code = code
    }

    // The codes (README.md §"Error codes" lists them, with when each is given).
    public static let unknownType = "record.unknown_type"
    public static let unknownField = "record.unknown_field"
    public static let missingField = "record.missing_field"
    public static let invalidValue = "record.invalid_value"
    public static let secretLooking = "record.secret_looking"
    public static let seqConflict = "record.seq_conflict"
    public static let duplicateID = "record.duplicate_id"
    public static let workoutExists = "record.workout_exists"
    public static let unknownWorkout = "record.unknown_workout"
    public static let workoutClosed = "record.workout_closed"
    public static let noCompletedSet = "record.no_completed_set"
    public static let unknownExercise = "record.unknown_exercise"
    public static let anotherWorkoutOpen = "record.another_workout_open"
    /// Any other rule of an event type (FORMAT.md §10): the message names the field, the value and the rule.
    public static let ruleViolation = "record.rule_violation"

    public var description: String {
        switch (field, value) {
        case let (field?, value?): return "\(type): field \"\(field)\" is \(value.excerpt) but \(rule)"
        case let (field?, nil): return "\(type): field \"\(field)\" \(rule)"
        default: return "\(type): \(rule)"
        }
    }
}
