import JournalEvents
import JournalModel

// Small readers for the bundled data files and event payloads. Internal: the public API speaks in domain types.
extension JSONValue {
    subscript(key: String) -> JSONValue? { objectValue?[key] }

    var stringArray: [String]? {
        guard let array = arrayValue else { return nil }
        var out: [String] = []
        for element in array {
            guard let text = element.stringValue else { return nil }
            out.append(text)
        }
        return out
    }

    /// An integer given as a number or as a string of digits ("4").
    var looseInt: Int? {
        if let n = intValue { return n }
        if let text = stringValue, let n = Int(text.trimmed) { return n }
        return nil
    }
}

/// A number written for people: `60`, `62.5`, `1.25`.
func formatWeight(_ value: Double) -> String {
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int64(rounded)) }
    var text = String(rounded)
    if text.contains("e") { text = String(value) }
    return text
}
