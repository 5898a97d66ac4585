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
        for (key, value) in fields { if let value { object[key.name] = value } }
        return .object(object)
    }
}
