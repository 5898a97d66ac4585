import JournalEvents

/// Prescriptions back into the event shape of `template.created`, `template.updated` and `workout.planned`
/// (FORMAT.md §"Event types", `exercises`): only the keys that hold a value, so the result validates.
extension PrescribedSet {
    public var eventValue: JSONValue {
        var object = JSONObject()
        if let weight { object["weight"] = .number(weight); object["unit"] = .string((unit ?? .kg).rawValue) }
        if let reps { object["reps"] = .int(reps) }
        if let repsRange { object["reps_range"] = .string(repsRange) }
        object["kind"] = .string(kind.rawValue)
        if let rpe { object["rpe"] = .number(rpe) }
        return .object(object)
    }
}

extension Prescription {
    public var eventValue: JSONValue {
        var object: JSONObject = ["exercise": .string(exercise)]
        if !setConfigs.isEmpty { object["sets"] = .array(setConfigs.map(\.eventValue)) } else if let sets { object["sets"] = .int(sets) }
        if let reps { object["reps"] = .string(reps) }
        if let restSeconds { object["rest_s"] = .int(restSeconds) }
        if let superset { object["superset"] = .string(superset) }
        if let note { object["note"] = .string(note) }
        if let minutes { object["minutes"] = .number(minutes) }
        if let km { object["km"] = .number(km) }
        if let rpe { object["rpe"] = .number(rpe) }
        return .object(object)
    }

    /// The `exercises` array of a template or plan.
    public static func eventValue(_ prescriptions: [Prescription]) -> JSONValue { .array(prescriptions.map(\.eventValue)) }

    /// Parses a template's or plan's `exercises` array (what `template.created` carries).
    public static func parse(_ value: JSONValue?) -> [Prescription] { list(value) }
}
