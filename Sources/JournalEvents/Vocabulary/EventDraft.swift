/// A draft event, the JSON object that a writer hands to the recording rules, built from the vocabulary's
/// names so that a misspelt type or key does not compile. The writers (the facade's typed calls, the simulator)
/// build their drafts here; a field given nil is left out.
extension JSONValue {
    public static func draft(_ type: EventType, at time: Timestamp? = nil, _ fields: KeyValuePairs<PayloadKey, JSONValue?> = [:]) -> JSONValue {
        var object: JSONObject = ["type": .string(type.name)]
        if let time { object["at"] = .string(time.rfc3339) }
        for (key, value) in fields { if let value { object[key.name] = value } }
        return .object(object)
    }
}
