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
    public var type: String { didSet { knownType = EventType(name: type) } }
    /// The payload: every key except the envelope's, in document order.
    public var fields: JSONObject { didSet { keyCodes = PayloadKeyCodes(fields) } }
    /// `type` as a vocabulary type, nil for a type outside the vocabulary: folds switch on it.
    public private(set) var knownType: EventType?
    /// The interned key of each of the first payload fields (kept in step with `fields`). Inlinable into the folds of
    /// other modules, with the look-ups below, so reading a field by key costs no call.
    @usableFromInline var keyCodes: PayloadKeyCodes

    public init(v: Int = 1, seq: Int, id: String, at: Timestamp, type: String, fields: JSONObject = [:]) {
        self.v = v
        self.seq = seq
        self.id = id
        self.at = at
        self.type = type
        self.fields = fields
        knownType = EventType(name: type)
        keyCodes = PayloadKeyCodes(fields)
    }

    /// The decoder's init: it already knows the type and the keys' codes from its string table.
    init(v: Int, seq: Int, id: String, at: Timestamp, type: String, knownType: EventType?, fields: [JSONField], keyCodes: PayloadKeyCodes) {
        self.v = v
        self.seq = seq
        self.id = id
        self.at = at
        self.type = type
        self.fields = JSONObject(fields)
        self.knownType = knownType
        self.keyCodes = keyCodes
    }

    public subscript(key: String) -> JSONValue? { fields[key] }

    public func string(_ key: String) -> String? { fields[key]?.stringValue }
    public func int(_ key: String) -> Int? { fields[key]?.intValue }
    public func double(_ key: String) -> Double? { fields[key]?.doubleValue }
    public func bool(_ key: String) -> Bool? { fields[key]?.boolValue }
    public func array(_ key: String) -> [JSONValue]? { fields[key]?.arrayValue }
    public func object(_ key: String) -> JSONObject? { fields[key]?.objectValue }

    // Lookups by interned key: a byte compare per field instead of a string compare.

    /// The value of the first payload field named `key`, as `self[key.name]`.
    @inlinable @inline(__always)
    public subscript(key: PayloadKey) -> JSONValue? {
        if let index = keyCodes.firstIndex(of: key.rawValue) { return fields.fields[index].value }
        return fields.count > PayloadKeyCodes.capacity ? value(afterCodedFields: key) : nil
    }

    /// Fields past the coded ones, compared by name.
    @usableFromInline func value(afterCodedFields key: PayloadKey) -> JSONValue? {
        let name = key.name
        for field in fields.fields[PayloadKeyCodes.capacity...] where field.key == name { return field.value }
        return nil
    }

    @inlinable @inline(__always) public func string(_ key: PayloadKey) -> String? { self[key]?.stringValue }
    @inlinable @inline(__always) public func int(_ key: PayloadKey) -> Int? { self[key]?.intValue }
    @inlinable @inline(__always) public func double(_ key: PayloadKey) -> Double? { self[key]?.doubleValue }
    @inlinable @inline(__always) public func bool(_ key: PayloadKey) -> Bool? { self[key]?.boolValue }
    @inline(__always) public func array(_ key: PayloadKey) -> [JSONValue]? { self[key]?.arrayValue }
    @inline(__always) public func object(_ key: PayloadKey) -> JSONObject? { self[key]?.objectValue }

    /// The interned key of payload field `index` (for one-pass folds that switch on each key), nil for
    /// a key outside the vocabulary.
    @inlinable @inline(__always)
    public func payloadKey(at index: Int) -> PayloadKey? {
        index < PayloadKeyCodes.capacity ? PayloadKey(rawValue: keyCodes[index]) : PayloadKey(name: fields.fields[index].key)
    }

    /// The device tag of `id` (the part before the last `-`), or nil when `id` has no tag.
    public var device: String? { EventID(id)?.device }
}

/// The codes (`PayloadKey.rawValue`, 0 for none) of the first 16 keys of a payload, one byte each,
/// so a lookup by key is a word compare instead of a string compare per field.
@usableFromInline struct PayloadKeyCodes: Hashable, Sendable {
    @usableFromInline static let capacity = 16
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: UInt64 = 0

    init() {}

    init(_ object: JSONObject) {
        for (index, field) in object.fields.prefix(PayloadKeyCodes.capacity).enumerated() {
            if let key = PayloadKey(name: field.key) { set(key.rawValue, at: index) }
        }
    }

    @inline(__always)
    mutating func set(_ code: UInt8, at index: Int) {
        if index < 8 { low |= UInt64(code) &<< UInt64(index &* 8) } else if index < 16 { high |= UInt64(code) &<< UInt64((index &- 8) &* 8) }
    }

    @inlinable @inline(__always)
    subscript(index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (index < 8 ? low : high) &>> UInt64((index & 7) &* 8))
    }

    /// The first position holding `code` (never 0), if any.
    @inlinable @inline(__always)
    func firstIndex(of code: UInt8) -> Int? {
        if let index = PayloadKeyCodes.firstByte(low, code) { return index }
        if high != 0, let index = PayloadKeyCodes.firstByte(high, code) { return 8 &+ index }
        return nil
    }

    /// The lowest byte of `word` equal to `code`: bytes of `word ^ pattern` that are zero, found
    /// with the borrow trick (the lowest flagged byte is always a true zero).
    @inlinable @inline(__always)
    static func firstByte(_ word: UInt64, _ code: UInt8) -> Int? {
        let x = word ^ (UInt64(code) &* 0x0101_0101_0101_0101)
        let zeros = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
        return zeros == 0 ? nil : zeros.trailingZeroBitCount >> 3
    }
}

/// An event id of the form `<device>-<counter>`, the counter in lowercase base 36.
public struct EventID: Hashable, Comparable, Sendable {
    public var device: String
    public var counter: Int

    public init(device: String, counter: Int) { self.device = device; self.counter = counter }

    public init?(_ text: String) {
        // Every stored event's id is parsed (`RecordingRules.apply`): ASCII ids, all of them in practice, are read
        // byte by byte (in ASCII each byte is one Character, except "\r\n", which can hold neither a dash nor a
        // digit); anything else takes the Character path below, with the same answer.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            guard let parsed = EventID.parseASCII(text) else { return nil }
            self = parsed
            return
        }
        guard let dash = text.lastIndex(of: "-") else { return nil }
        let tag = String(text[..<dash])
        let digits = text[text.index(after: dash)...]
        guard !tag.isEmpty, !digits.isEmpty, digits.first != "0" || digits.count == 1,
              digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLowercase) }),
              let counter = Int(digits, radix: 36) else { return nil }
        device = tag
        self.counter = counter
    }

    /// `init?(_:)` for an ASCII `text`.
    private static func parseASCII(_ text: String) -> EventID? {
        let utf8 = text.utf8
        guard let dash = utf8.lastIndex(of: UInt8(ascii: "-")), dash != utf8.startIndex else { return nil }
        guard let counter = base36(utf8[utf8.index(after: dash)...]) else { return nil }
        return EventID(device: String(text[..<dash]), counter: counter)
    }

    /// `EventID(text)?.counter` when `text`'s device is `device`, an ASCII tag, read without making a `String`;
    /// nil when it is another device's id or no id. (An ASCII tag followed by a dash and base-36 digits: the dash is
    /// the id's last, as `init?(_:)` finds it.)
    public static func counter(of text: String, device: String) -> Int? {
        var text = text, device = device
        return text.withUTF8 { id in
            device.withUTF8 { tag -> Int? in
                guard id.count > tag.count + 1, id[tag.count] == UInt8(ascii: "-") else { return nil }
                for index in 0..<tag.count where id[index] != tag[index] { return nil }
                return base36(UnsafeBufferPointer(rebasing: id[(tag.count + 1)...]))
            }
        }
    }

    /// An id's counter: lowercase base-36 digits, no leading zero but in "0", at most `Int.max`; nil otherwise.
    private static func base36(_ digits: some Collection<UInt8>) -> Int? {
        guard let first = digits.first, first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
        var counter = 0
        for byte in digits {
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte &- UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): digit = Int(byte &- UInt8(ascii: "a")) &+ 10
            default: return nil
            }
            let (shifted, overflow) = counter.multipliedReportingOverflow(by: 36)
            let (sum, overflow2) = shifted.addingReportingOverflow(digit)
            if overflow || overflow2 { return nil }
            counter = sum
        }
        return counter
    }

    public var text: String { "\(device)-\(String(counter, radix: 36))" }

    public static func < (lhs: EventID, rhs: EventID) -> Bool { (lhs.device, lhs.counter) < (rhs.device, rhs.counter) }

    /// A device tag is 1–16 characters of `a-z`, `0-9` and `_` (FORMAT.md §"Envelope").
    public static func isValidDeviceTag(_ tag: String) -> Bool {
        !tag.isEmpty && tag.utf8.count <= 16 && tag.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }
}
