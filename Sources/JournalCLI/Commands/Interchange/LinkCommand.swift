import ArgumentParser
import JournalInterchange
import WorkoutJournal

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
            let events = try JournalLoader.events(path: file)
            let ledger = Ledger(events: events, asOf: Ledger.everything)
            let catalogue = ExerciseCatalogue.builtIn
            let imported = ImportedName.list(events)
            let lowered = name.lowercased()
            // The custom exercise NAME means: an imported name, or a custom exercise's id or name.
            let custom: String
            if let entry = imported.first(where: { $0.name.lowercased() == lowered }) {
                guard entry.custom else {
                    throw Failure(message: "\"\(entry.name)\" is filed under the catalogue exercise \(entry.exercise) by the import, not a custom exercise; only custom exercises are linked")
                }
                custom = entry.exercise
            } else if let found = ledger.customExercises.values.sorted(by: { $0.id < $1.id })
                .first(where: { $0.id == name || $0.name.lowercased() == lowered }) {
                custom = found.id
            } else {
                throw Failure(message: "\(file): no imported name or custom exercise \"\(name)\" (`journal exercises \(file) --imported` lists them)")
            }
            var target: String?
            if exercise.lowercased() != "none" {
                guard let found = catalogue.exercise(id: exercise) ?? catalogue.exercises.first(where: { !$0.isCustom && $0.name.lowercased() == exercise.lowercased() }) else {
                    throw Failure(message: "no catalogue exercise \"\(exercise)\" (`journal catalog --search TEXT` lists ids and names; none undoes a link)")
                }
                target = found.id
            }
            let journal = try EventJournal(path: file, device: device, clock: SystemClock.now)
            defer { journal.close() }
            try journal.record(["type": "exercise.linked", "exercise": .string(custom), "to": target.map { .string($0) } ?? .null])
            let sets = ledger.workouts.reduce(0) { $0 + $1.sets.filter { $0.exercise == custom }.count }
            if let target {
                print("linked \(custom) to \(target): its \(sets) sets count as \(catalogue.exercise(id: target)!.name) in every view")
            } else {
                print("unlinked \(custom): its \(sets) sets count as itself again")
            }
        }
    }
}
