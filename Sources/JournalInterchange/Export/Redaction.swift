import JournalEvents

/// `--redact` (INTERCHANGE.md §"`--redact`"): personal free text is replaced, never removed, so every event
/// still passes the journal's rules and keeps its seq, id and time.
public enum Redaction {
    public static let text = "[redacted]"
    public static let name = "Redacted"
    public static let email = "redacted@example.invalid"

    /// Keys replaced in every event type that has them.
    static let freeTextKeys: Set<String> = ["note", "reason", "device_name", "rationale", "destination"]

    public static func redact(_ event: Event) -> Event {
        var copy = event
        for field in event.fields {
            switch field.key {
            case "name" where event.knownType == .accountCreated || event.knownType == .profileUpdated:
                copy.fields["name"] = .string(name)
            case "email":
                copy.fields["email"] = .string(email)
            case let key where freeTextKeys.contains(key) && field.value.stringValue != nil:
                copy.fields[key] = .string(text)
            case "exercises" where event.knownType == .workoutPlanned || event.knownType == .templateCreated || event.knownType == .templateUpdated:
                copy.fields["exercises"] = redactNotes(field.value)
            case "programme":
                copy.fields["programme"] = redactNotes(field.value)
            case "answer" where event.string(.question) == "injuries" || event.string(.question) == "motivations":
                break
            default: break
            }
        }
        return copy
    }

    /// Replaces every `note` and `rationale` string inside nested objects.
    static func redactNotes(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items): return .array(items.map(redactNotes))
        case .object(var object):
            for field in object.fields {
                if freeTextKeys.contains(field.key), field.value.stringValue != nil { object[field.key] = .string(text) }
                else { object[field.key] = redactNotes(field.value) }
            }
            return .object(object)
        default: return value
        }
    }
}
