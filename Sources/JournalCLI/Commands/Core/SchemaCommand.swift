import ArgumentParser
import WorkoutJournalSync
import JournalEvents

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "List every event type with its fields, units and ranges.",
        discussion: "`--markdown` prints the exact text of FORMAT.md §\"Event types\"; a test keeps the two identical."
    )

    @Flag(help: "Print FORMAT.md's event tables.") var markdown = false

    func run() throws {
        if markdown {
            print(VocabularyDocument.markdown, terminator: "")
        } else {
            for schema in EventVocabulary.all {
                let fields = schema.fields.map { $0.required ? $0.name : $0.name + "?" }.joined(separator: ", ")
                print("\(schema.type) v\(schema.version)  \(fields)")
            }
        }
    }
}
