import ArgumentParser
import WorkoutJournalSync

struct ExercisesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercises", abstract: "List the names other apps' exports gave exercises, and where each is filed.",
        discussion: """
        With --imported (the listing this command gives), every name an import read: the catalogue exercise the strict \
        matcher filed it under, or the custom exercise it became and the catalogue exercise it is linked to \
        (`journal link`). INTERCHANGE.md §"Matching names".
        """)

    @Argument(help: "The journal file.") var file: String
    @Flag(help: "List imported names (the only listing so far; the flag keeps room for others).") var imported = false
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try reportingFailures {
            let names = ImportedName.list(try JournalLoader.events(path: file))
            if json {
                print(JSONWriter.string(["imported": .array(names.map(\.jsonValue))]))
            } else if names.isEmpty {
                print("\(file): no imported exercise names (journal import records them)")
            } else {
                for name in names { print(name.text) }
            }
        }
    }
}
