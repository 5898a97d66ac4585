/// The shape of one payload field, as FORMAT.md §"Event types" documents it.
/// Only the two recursive cases are `indirect`: the schema checks read a kind for every field of every event, and a
/// boxed payload is a reference count shared by every thread that validates (SCALE.md §"Fleet jobs").
public enum FieldKind: Sendable {
    /// A UTF-8 string of at most `maxBytes` bytes.
    case text(maxBytes: Int)
    /// A kebab-case identifier: `[a-z0-9]+(-[a-z0-9]+)*`, at most 64 bytes (exercise ids).
    case slug
    /// An opaque reference to another entity in the journal (workout, template, plan ids): 1–64 bytes.
    case reference
    case integer(ClosedRange<Int>)
    case number(ClosedRange<Double>)
    case boolean
    case choice([String])
    /// RFC 3339 with offset, as `at`.
    case timestamp
    /// `YYYY-MM-DD`.
    case date
    case object([FieldSpec])
    indirect case array(of: FieldKind, maxCount: Int)
    /// Any JSON value.
    case any
    /// Either of two kinds (e.g. an integer or null).
    indirect case either(FieldKind, FieldKind)
    case null

    /// How FORMAT.md names the kind.
    public var documentation: String {
        switch self {
        case .text(let max): return "string (≤ \(max) bytes)"
        case .slug: return "kebab-case id"
        case .reference: return "id string"
        case .integer(let r): return r.upperBound == Int.max ? "int ≥ \(r.lowerBound)" : "int \(r.lowerBound)–\(r.upperBound)"
        case .number(let r): return r.upperBound == .greatestFiniteMagnitude ? "number ≥ \(formatNumber(r.lowerBound))" : "number \(formatNumber(r.lowerBound))–\(formatNumber(r.upperBound))"
        case .boolean: return "bool"
        case .choice(let options): return options.map { "`\($0)`" }.joined(separator: "/")
        case .timestamp: return "RFC 3339 time"
        case .date: return "date `YYYY-MM-DD`"
        case .object(let fields):
            // Each nested key with its kind, so the table types nested values too (FORMAT.md §15).
            return "{" + fields.map { "`\($0.name)`\($0.required ? "" : "?") \($0.kind.documentation)" }.joined(separator: ", ") + "}"
        case .array(let element, let max): return "[\(element.documentation)] (≤ \(max))"
        case .any: return "any JSON"
        case .either(let a, let b): return "\(a.documentation) or \(b.documentation)"
        case .null: return "null"
        }
    }
}

/// `500`, `62.5`: how a rule's message prints a number.
package func formatNumber(_ d: Double) -> String {
    d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d)
}

/// One payload field of an event type.
public struct FieldSpec: Sendable {
    public var name: String { didSet { key = PayloadKey(name: name) } }
    public var kind: FieldKind
    public var required: Bool
    public var doc: String
    /// `name` interned (nil for a name outside `PayloadKey`): an event's field is found by a byte compare.
    public private(set) var key: PayloadKey?

    public init(name: String, kind: FieldKind, required: Bool, doc: String) {
        self.name = name
        self.kind = kind
        self.required = required
        self.doc = doc
        key = PayloadKey(name: name)
    }

    public static func required(_ name: String, _ kind: FieldKind, _ doc: String = "") -> FieldSpec {
        FieldSpec(name: name, kind: kind, required: true, doc: doc)
    }
    public static func optional(_ name: String, _ kind: FieldKind, _ doc: String = "") -> FieldSpec {
        FieldSpec(name: name, kind: kind, required: false, doc: doc)
    }
}

/// One event type: its name, current version, fields and the rules beyond field shapes.
public struct EventSchema: Sendable {
    public var type: String
    public var version: Int
    /// Which area of FORMAT.md lists it.
    public var group: String
    public var summary: String
    public var fields: [FieldSpec] { didSet { (fieldNames, fieldKeys) = EventSchema.index(fields) } }
    /// The names of `fields`, kept in step with them (`SchemaValidator` checks every payload key against them).
    public private(set) var fieldNames: Set<String>
    /// Whether each `PayloadKey` (by its code) names one of `fields`: a vocabulary key is judged by one array read.
    public private(set) var fieldKeys: [Bool]
    /// Rules that involve more than one field (e.g. the weight limit depends on the unit).
    public var check: (@Sendable (Event) -> EventRuleViolation?)?

    public init(_ type: String, version: Int = 1, group: String, _ summary: String, _ fields: [FieldSpec],
                check: (@Sendable (Event) -> EventRuleViolation?)? = nil) {
        self.type = type
        self.version = version
        self.group = group
        self.summary = summary
        self.fields = fields
        (fieldNames, fieldKeys) = EventSchema.index(fields)
        self.check = check
    }

    /// `fieldNames` and `fieldKeys` of `fields`.
    static func index(_ fields: [FieldSpec]) -> (Set<String>, [Bool]) {
        var keys = [Bool](repeating: false, count: PayloadKey.tableSize)
        for case let key? in fields.map(\.key) { keys[Int(key.rawValue)] = true }
        return (Set(fields.map(\.name)), keys)
    }

    /// Whether `key` names one of `fields`.
    @inline(__always) public func hasField(_ key: PayloadKey) -> Bool { fieldKeys[Int(key.rawValue)] }
}
