/// One fact in a user's journal: the envelope (`v`, `seq`, `id`, `at`, `type`) and the
/// payload fields of its type, in the order they were written. FORMAT.md §"Envelope".
public struct Event: Equatable, Hashable, Sendable {
    /// Schema version of this event's type (FORMAT.md §"Versioning").
    public var v: Int
    /// Position in this journal: 1, 2, 3, … with no gaps.
    public var seq: Int
    /// Unique across devices: `<device>-<counter in base 36>`, e.g. `ph-1z`.
    public var id: String
    /// When it happened, with the user's UTC offset.
    public var at: Timestamp
    /// Dotted, past tense: `set.completed`.
    public var type: String
    /// The payload: every key except the envelope's, in document order.
    public var fields: JSONObject

    public init(v: Int = 1, seq: Int, id: String, at: Timestamp, type: String, fields: JSONObject = [:]) {
        self.v = v
        self.seq = seq
        self.id = id
        self.at = at
        self.type = type
        self.fields = fields
    }

    public subscript(key: String) -> JSONValue? { fields[key] }

    public func string(_ key: String) -> String? { fields[key]?.stringValue }
    public func int(_ key: String) -> Int? { fields[key]?.intValue }
    public func double(_ key: String) -> Double? { fields[key]?.doubleValue }
    public func bool(_ key: String) -> Bool? { fields[key]?.boolValue }
    public func array(_ key: String) -> [JSONValue]? { fields[key]?.arrayValue }
    public func object(_ key: String) -> JSONObject? { fields[key]?.objectValue }

    /// The device tag of `id` (the part before the last `-`), or nil when `id` has no tag.
    public var device: String? { EventID(id)?.device }
}

/// An event id of the form `<device>-<counter>`, the counter in lowercase base 36.
public struct EventID: Hashable, Comparable, Sendable {
    public var device: String
    public var counter: Int

    public init(device: String, counter: Int) { self.device = device; self.counter = counter }

    public init?(_ text: String) {
        guard let dash = text.lastIndex(of: "-") else { return nil }
        let tag = String(text[..<dash])
        let digits = text[text.index(after: dash)...]
        guard !tag.isEmpty, !digits.isEmpty, digits.first != "0" || digits.count == 1,
              digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLowercase) }),
              let counter = Int(digits, radix: 36) else { return nil }
        device = tag
        self.counter = counter
    }

    public var text: String { "\(device)-\(String(counter, radix: 36))" }

    public static func < (lhs: EventID, rhs: EventID) -> Bool { (lhs.device, lhs.counter) < (rhs.device, rhs.counter) }

    /// A device tag is 1–16 characters of `a-z`, `0-9` and `_` (FORMAT.md §"Envelope").
    public static func isValidDeviceTag(_ tag: String) -> Bool {
        !tag.isEmpty && tag.utf8.count <= 16 && tag.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }
}
