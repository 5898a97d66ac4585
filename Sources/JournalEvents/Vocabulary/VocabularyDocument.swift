/// Renders the vocabulary as the Markdown of FORMAT.md §"Event types" (kept identical by a test).
public enum VocabularyDocument {
    public static var markdown: String {
        var out = ""
        var groups: [String] = []
        for schema in EventVocabulary.all where !groups.contains(schema.group) { groups.append(schema.group) }
        for group in groups {
            out += "### \(group)\n\n"
            out += "| type | v | fields (`?` optional) | meaning |\n|---|---|---|---|\n"
            for schema in EventVocabulary.all where schema.group == group {
                let fields = schema.fields.isEmpty ? "—" : schema.fields.map { field in
                    let name = field.required ? "`\(field.name)`" : "`\(field.name)`?"
                    let doc = field.doc.isEmpty ? "" : " — \(field.doc)"
                    return "\(name) \(field.kind.documentation)\(doc)"
                }.joined(separator: "; ")
                out += "| `\(schema.type)` | \(schema.version) | \(escape(fields)) | \(escape(schema.summary)) |\n"
            }
            out += "\n"
        }
        return out
    }

    static func escape(_ text: String) -> String { text.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}
