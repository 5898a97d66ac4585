/// Checks one event against its type's schema: required fields, shapes, ranges, the
/// type's own rules, and the privacy rule (no password, token or secret anywhere).
public enum SchemaValidator {
    /// Keys refused anywhere in a payload: the journal never holds credentials (FORMAT.md §"Privacy").
    public static let forbiddenKeyFragments = ["password", "passwd", "token", "secret", "credential"]

    /// Returns the first rule the event breaks, or nil. An unknown type is accepted here
    /// only when `allowUnknownTypes` is set (it was written by a newer version).
    public static func validate(_ event: Event, allowUnknownTypes: Bool = false) -> EventRuleViolation? {
        if let violation = checkPrivacy(event.fields, path: { "" }, type: event.type, event: event) { return violation }
        if let known = event.knownType, let entry = EventVocabulary.entriesByKnownType[Int(known.rawValue)] {
            return entry._withUnsafeGuaranteedRef { validate(event, against: $0) }
        }
        guard let schema = EventVocabulary.schema(for: event.type) else {
            if allowUnknownTypes { return nil }
            return EventRuleViolation(type: event.type, field: "type", value: .string(event.type),
                                      rule: "is not a known event type (see FORMAT.md §\"Event types\"; `journal schema` lists them)", code: EventRuleViolation.unknownType)
        }
        return validate(event, against: EventVocabulary.SchemaEntry(schema))
    }

    /// The checks of an event whose type's schema is known, read in place through its entry (not copied: see
    /// `EventVocabulary.SchemaEntry`). At a `v` above the schema's (written by a newer version, FORMAT.md §12) every
    /// field this version knows is checked as at its own version, with the same messages, and so is the type's own
    /// rule; keys it does not know, in the payload or in a known object, are allowed and kept.
    static func validate(_ event: Event, against entry: EventVocabulary.SchemaEntry) -> EventRuleViolation? {
        let newer = event.v > entry.schema.version
        // A key of the vocabulary is judged by its code; any other by name.
        for position in event.fields.fields.indices where !newer {
            if let key = event.payloadKey(at: position) {
                if entry.schema.hasField(key) { continue }
            } else if entry.schema.fieldNames.contains(event.fields.fields[position].key) {
                continue
            }
            return EventRuleViolation(type: event.type, field: event.fields.fields[position].key, value: nil,
                                      rule: "is not a field of \(event.type) v\(entry.schema.version) (fields: \(entry.schema.fields.map(\.name).joined(separator: ", ")))", code: EventRuleViolation.unknownField)
        }
        if let violation = check(fields: entry.schema.fields, in: event.fields, path: { "" }, type: event.type, event: event,
                                 unknownKeys: newer) { return violation }
        return entry.schema.check?(event)
    }

    /// Where a value sits in the payload (`exercises[2].sets[0].weight`), rendered only when a rule is broken: the
    /// checks of every stored event build no strings.
    typealias Path = () -> String

    /// `path`: the object's own path, empty for the payload itself. `event`: the event whose payload `object` is, to find
    /// its fields by interned key. `unknownKeys`: whether a nested object may hold keys its kind does not list (an
    /// event of a newer version).
    static func check(fields: [FieldSpec], in object: JSONObject, path: Path, type: String, event: Event? = nil,
                      unknownKeys: Bool = false) -> EventRuleViolation? {
        for index in fields.indices {
            let found: JSONValue?
            if let event, let key = fields[index].key { found = event[key] } else { found = object[fields[index].name] }
            func name() -> String { let parent = path(); return parent.isEmpty ? fields[index].name : "\(parent).\(fields[index].name)" }
            guard let value = found else {
                if fields[index].required { return EventRuleViolation(type: type, field: name(), value: nil, rule: "is required", code: EventRuleViolation.missingField) }
                continue
            }
            if let violation = check(value, against: fields[index].kind, path: name, type: type, unknownKeys: unknownKeys) { return violation }
        }
        return nil
    }

    static func check(_ value: JSONValue, against kind: FieldKind, path: Path, type: String, unknownKeys: Bool = false) -> EventRuleViolation? {
        func fail(_ rule: String) -> EventRuleViolation { EventRuleViolation(type: type, field: path(), value: value, rule: rule, code: EventRuleViolation.invalidValue) }
        switch kind {
        case .any:
            return nil
        case .null:
            return value.isNull ? nil : fail("must be null")
        case .either(let a, let b):
            if check(value, against: a, path: path, type: type, unknownKeys: unknownKeys) == nil { return nil }
            if check(value, against: b, path: path, type: type, unknownKeys: unknownKeys) == nil { return nil }
            return fail("must be \(kind.documentation)")
        case .text(let maxBytes):
            guard let s = value.stringValue else { return fail("must be a string") }
            return s.utf8.count <= maxBytes ? nil : fail("must be at most \(maxBytes) bytes")
        case .slug:
            guard let s = value.stringValue else { return fail("must be a string") }
            return EventVocabulary.isSlug(s) ? nil : fail("must be a kebab-case id such as \"barbell-bench-press\"")
        case .reference:
            guard let s = value.stringValue else { return fail("must be a string") }
            // No newline byte means no "\n" (the byte test first: `contains` compares Characters).
            return !s.isEmpty && s.utf8.count <= 64 && (!s.utf8.contains(10) || !s.contains("\n")) ? nil : fail("must be a non-empty id of at most 64 bytes")
        case .integer(let range):
            guard let n = value.intValue else { return fail("must be an integer") }
            if range.contains(n) { return nil }
            if range.upperBound == Int.max { return fail("must be at least \(range.lowerBound)") }
            return fail("must be between \(range.lowerBound) and \(range.upperBound)")
        case .number(let range):
            guard let d = value.doubleValue else { return fail("must be a number") }
            if range.contains(d) { return nil }
            if range.upperBound == .greatestFiniteMagnitude { return fail("must be at least \(formatNumber(range.lowerBound))") }
            return fail("must be between \(formatNumber(range.lowerBound)) and \(formatNumber(range.upperBound))")
        case .boolean:
            return value.boolValue == nil ? fail("must be true or false") : nil
        case .choice(let options):
            guard let s = value.stringValue, options.contains(s) else {
                return fail("must be one of " + options.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            return nil
        case .timestamp:
            guard let s = value.stringValue, Timestamp(rfc3339: s) != nil else {
                return fail("must be an RFC 3339 time with a UTC offset, e.g. \"2026-11-21T18:04:05.120+01:00\"")
            }
            return nil
        case .date:
            guard let s = value.stringValue, LocalDate(iso: s) != nil else { return fail("must be a date \"YYYY-MM-DD\"") }
            return nil
        case .object(let fields):
            guard let object = value.objectValue else { return fail("must be an object") }
            for field in object.fields where !unknownKeys && !fields.contains(where: { $0.name == field.key }) {
                return EventRuleViolation(type: type, field: "\(path()).\(field.key)", value: nil,
                                          rule: "is not a known key (keys: \(fields.map(\.name).joined(separator: ", ")))", code: EventRuleViolation.unknownField)
            }
            return check(fields: fields, in: object, path: path, type: type, unknownKeys: unknownKeys)
        case .array(let element, let maxCount):
            guard let elements = value.arrayValue else { return fail("must be an array") }
            if elements.count > maxCount { return fail("must hold at most \(maxCount) items") }
            for (index, item) in elements.enumerated() {
                if let violation = check(item, against: element, path: { "\(path())[\(index)]" }, type: type, unknownKeys: unknownKeys) { return violation }
            }
            return nil
        }
    }

    /// `event`: the event whose payload `object` is, whose vocabulary keys are judged by their codes.
    static func checkPrivacy(_ object: JSONObject, path: Path, type: String, event: Event? = nil) -> EventRuleViolation? {
        for (position, field) in object.fields.enumerated() {
            let nested: Bool
            switch field.value {
            case .object, .array: nested = true
            default: nested = false
            }
            let credential = event?.payloadKey(at: position).map { vocabularyKeyLooksLikeCredential[Int($0.rawValue)] }
                ?? looksLikeCredential(field.key)
            guard credential || nested else { continue }
            func name() -> String { let parent = path(); return parent.isEmpty ? field.key : "\(parent).\(field.key)" }
            if credential {
                return EventRuleViolation(type: type, field: name(), value: nil,
                                          rule: "looks like a credential; the journal never stores passwords, tokens or secrets", code: EventRuleViolation.secretLooking)
            }
            if let violation = checkPrivacy(field.value, path: name, type: type) { return violation }
        }
        return nil
    }

    static let forbiddenFragmentBytes: [[UInt8]] = forbiddenKeyFragments.map { Array($0.utf8) }

    /// `looksLikeCredential` of each `PayloadKey`'s name, indexed by its code.
    static let vocabularyKeyLooksLikeCredential: [Bool] = {
        var table = [Bool](repeating: false, count: PayloadKey.tableSize)
        for key in PayloadKey.allCases { table[Int(key.rawValue)] = looksLikeCredential(key.name) }
        return table
    }()

    /// Whether `key` contains a forbidden fragment, ignoring ASCII case (on the append path: no String work).
    static func looksLikeCredential(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { bytes in
            guard bytes.count >= 5 else { return false }
            for fragment in forbiddenFragmentBytes where fragment.count <= bytes.count {
                var start = 0
                while start + fragment.count <= bytes.count {
                    var index = 0
                    while index < fragment.count {
                        var byte = bytes[start + index]
                        if byte >= 65 && byte <= 90 { byte += 32 }
                        if byte != fragment[index] { break }
                        index += 1
                    }
                    if index == fragment.count { return true }
                    start += 1
                }
            }
            return false
        }
    }

    static func checkPrivacy(_ value: JSONValue, path: Path, type: String) -> EventRuleViolation? {
        switch value {
        case .object(let object): return checkPrivacy(object, path: path, type: type)
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let violation = checkPrivacy(element, path: { "\(path())[\(index)]" }, type: type) { return violation }
            }
            return nil
        default: return nil
        }
    }
}
