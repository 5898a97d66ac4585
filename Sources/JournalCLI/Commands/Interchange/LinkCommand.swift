import ArgumentParser
import WorkoutJournalSync

struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "File a custom or imported exercise under a catalogue exercise (or undo it with none).",
        discussion: """
        Records exercise.linked: every view (history, records, charts, progress) then counts the exercise's sets as the \
        catalogue exercise's. NAME is an imported name (`journal exercises FILE --imported`) or a custom exercise's id \
        or name; EXERCISE a catalogue id or name, or none to undo the link.
        """)

    @Argument(help: "The journal file.") var file: String
    @Argument(help: "The imported name or custom exercise (\"Leg Press Keller\", custom-leg-press-keller).") var name: String
    @Argument(help: "The catalogue exercise (leg-press, \"Leg Press\"), or none to undo the link.") var exercise: String
    @Option(help: "Device tag for the ids this writer assigns (1–16 of a-z, 0-9, _).") var device: String = "cli"

    func run() throws {
        try reportingFailures {
            let link: ExerciseLink
            do {
                link = try ExerciseLink(events: try JournalLoader.events(path: file), path: file, name: name, exercise: exercise)
            } catch let refusal as ExerciseLink.Refusal {
                throw Failure(message: refusal.description)
            }
            // Through the facade: the recording rules with the catalogue's ids, as every command that records.
            let journal = try UserJournal.open(path: file, device: device)
            defer { journal.close() }
            try journal.record(link.draft)
            let sets = link.sets
            let custom = link.custom
            if let target = link.target {
                print("linked \(custom) to \(target): its \(sets) sets count as \(ExerciseCatalogue.builtIn.exercise(id: target)!.name) in every view")
            } else {
                print("unlinked \(custom): its \(sets) sets count as itself again")
            }
        }
    }
}
