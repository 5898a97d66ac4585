/// A JSON value as the journal stores it: objects keep their key order, so an event
/// re-encodes to the same bytes and unknown fields written by newer versions survive.
public enum JSONValue: Equatable, Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    @inlinable public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    @inlinable public var doubleValue: Double? { if case .number(let d) = self { return d }; return nil }
    @inlinable public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    @inlinable public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    @inlinable public var objectValue: JSONObject? { if case .object(let o) = self { return o }; return nil }
    public var isNull: Bool { if case .null = self { return true }; return false }

    /// The value as an integer when it is a number with no fractional part within ±2^53.
    @inlinable public var intValue: Int? {
        guard case .number(let d) = self, d.rounded(.towardZero) == d, abs(d) <= 9_007_199_254_740_992 else { return nil }
        return Int(d)
    }

    /// A short human description used in error messages: the value as JSON, cut to 60 characters.
    public var excerpt: String {
        let text = JSONWriter.string(self)
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }

    /// The JSON type name, as error messages say it.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// One key and its value inside a `JSONObject`.
public struct JSONField: Equatable, Hashable, Sendable {
    public var key: String
    public var value: JSONValue
    public init(_ key: String, _ value: JSONValue) { self.key = key; self.value = value }
}

/// A JSON object with its keys in document order. Lookups are linear: event payloads hold
/// a handful of keys, where a scan beats hashing.
public struct JSONObject: Equatable, Hashable, Sendable, ExpressibleByDictionaryLiteral, Sequence {
    public var fields: [JSONField]

    public init(_ fields: [JSONField] = []) { self.fields = fields }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        fields = elements.map { JSONField($0.0, $0.1) }
    }

    public subscript(key: String) -> JSONValue? {
        get {
            for field in fields where field.key == key { return field.value }
            return nil
        }
        set {
            if let index = fields.firstIndex(where: { $0.key == key }) {
                if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                fields.append(JSONField(key, newValue))
            }
        }
    }

    public var keys: [String] { fields.map(\.key) }

    /// The index of the first field whose key an earlier field has, or nil: compared pair by pair for an event's few
    /// fields (cheaper than hashing every key), through a set beyond.
    public var firstRepeatedKeyIndex: Int? {
        if fields.count <= 16 {
            for index in fields.indices.dropFirst() where fields[..<index].contains(where: { $0.key == fields[index].key }) { return index }
            return nil
        }
        var seen = Set<String>()
        return fields.firstIndex { !seen.insert($0.key).inserted }
    }

    public var isEmpty: Bool { fields.isEmpty }
    public var count: Int { fields.count }
    public func makeIterator() -> IndexingIterator<[JSONField]> { fields.makeIterator() }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    public static func int(_ value: Int) -> JSONValue { .number(Double(value)) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONField($0.0, $0.1) }))
    }
}
