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

    public init(type: String, field: String?, value: JSONValue?, rule: String) {
        self.type = type
        self.field = field
        self.value = value
        self.rule = rule
    }

    public var description: String {
        switch (field, value) {
        case let (field?, value?): return "\(type): field \"\(field)\" is \(value.excerpt) but \(rule)"
        case let (field?, nil): return "\(type): field \"\(field)\" \(rule)"
        default: return "\(type): \(rule)"
        }
    }
}
