/// A draft event, the JSON object that a writer hands to the recording rules, built from the vocabulary's
/// names so that a misspelt type or key does not compile. The writers (the facade's typed calls, the simulator)
/// build their drafts here; a field given nil is left out.
extension JSONValue {
    public static func draft(_ type: EventType, at time: Timestamp? = nil, _ fields: KeyValuePairs<PayloadKey, JSONValue?> = [:]) -> JSONValue {
        draft(type, at: time.map { .string($0.rfc3339) }, fields)
    }

    /// With the time already written (a writer that stamps many events with one time formats it once).
    public static func draft(_ type: EventType, at time: JSONValue?, _ fields: KeyValuePairs<PayloadKey, JSONValue?> = [:]) -> JSONValue {
        var object: JSONObject = ["type": .string(type.name)]
        if let time { object["at"] = time }
        object.fields += EventDraft.payload(fields).fields
        return .object(object)
    }
}

/// A draft whose envelope is typed: its type and instant, and its payload built from the vocabulary's keys (a field
/// given nil is left out; a key given twice keeps its place and its last value). The recording rules fill in `v`,
/// `seq` and `id` as for the JSON draft `jsonValue` without them, with no JSON object to rebuild and decode
/// (`RecordingRules.prepare(_:device:)`). Writers of many events (`journal import`) hand these.
public struct EventDraft: Equatable, Sendable {
    public let type: EventType
    public let at: Timestamp
    /// The payload, in the order given.
    public let fields: JSONObject
    /// The payload's interned keys, known as it is built.
    let keyCodes: PayloadKeyCodes

    public init(_ type: EventType, at: Timestamp, _ fields: KeyValuePairs<PayloadKey, JSONValue?> = [:]) {
        self.type = type
        self.at = at
        var keys: [PayloadKey] = []
        self.fields = EventDraft.payload(fields, keys: &keys)
        var codes = PayloadKeyCodes()
        for (index, key) in keys.prefix(PayloadKeyCodes.capacity).enumerated() { codes.set(key.rawValue, at: index) }
        keyCodes = codes
    }

    /// The payload of `fields`: the non-nil values in order, a repeated key's last value in its first place (what
    /// `JSONObject`'s subscript gives, key by key).
    static func payload(_ fields: KeyValuePairs<PayloadKey, JSONValue?>) -> JSONObject {
        var keys: [PayloadKey] = []
        return payload(fields, keys: &keys)
    }

    static func payload(_ fields: KeyValuePairs<PayloadKey, JSONValue?>, keys: inout [PayloadKey]) -> JSONObject {
        var payload: [JSONField] = []
        payload.reserveCapacity(fields.count)
        keys.reserveCapacity(fields.count)
        for (key, value) in fields {
            guard let value else { continue }
            if let index = keys.firstIndex(of: key) { payload[index].value = value; continue }
            keys.append(key)
            payload.append(JSONField(key.name, value))
        }
        return JSONObject(payload)
    }

    /// The draft as a JSON draft: `type`, `at`, then the payload (`JSONValue.draft`).
    public var jsonValue: JSONValue {
        .object(JSONObject([JSONField("type", .string(type.name)), JSONField("at", .string(at.rfc3339))] + fields.fields))
    }

    /// The event of this draft with the rest of its envelope (`v` and `seq` ≥ 1): what `EventCodec.decode` gives
    /// for `jsonValue` with them added, and the error it throws (an id longer than 64 bytes, a repeated key in a
    /// nested object of the payload).
    public func event(v: Int, seq: Int, id: String) throws(EventCodec.DecodingError) -> Event {
        let id = try EventCodec.envelopeID(.string(id))
        for field in fields.fields { try EventCodec.refuseRepeatedKeys(in: field.value, path: field.key) }
        return Event(v: v, seq: seq, id: id, at: at, type: type.name, knownType: type, fields: fields.fields, keyCodes: keyCodes)
    }
}
