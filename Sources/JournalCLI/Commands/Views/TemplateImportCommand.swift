import ArgumentParser
import WorkoutJournalSync
import Foundation

struct TemplateImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Record a routine document (JSON) as a new template.",
        discussion: """
        The document is checked as a whole before anything is written: its format and version, every \
        exercise (an exercise without an id is looked up by its name in the catalogue), and then the \
        template.created event against the recording rules. Prints the new template's id.
        """)

    @Argument(help: "The journal file (created when it does not exist).") var file: String
    @Argument(help: "The routine document, as `journal template export` writes it.") var input: String
    @Option(help: "The new template's id (default: the first free t1, t2, …).") var id: String?
    @Option(help: "Name the template differently from the document.") var name: String?
    @Option(help: "Device tag for the ids this writer assigns (1–16 of a-z, 0-9, _).") var device: String = "cli"

    func run() throws {
        try reportingFailures {
            guard let bytes = FileManager.default.contents(atPath: input) else { throw Failure(message: "\(input): no such file (check the path of the routine document; `journal template export` writes one)") }
            let routine: RoutineDocument.Routine
            do {
                routine = try RoutineDocument.read(Array(bytes), path: input, name: name, resolve: { Journal.projectionContext.exerciseID($0) })
            } catch {
                throw Failure(message: "\(error)")
            }
            let journal = try UserJournal.open(path: file, device: device)
            // A journal created only for a refused routine is removed again.
            defer { journal.close(discardingIfEmpty: true) }
            let template: String
            do {
                template = try journal.createTemplate(name: routine.name, exercises: routine.exercises, note: routine.note, source: "import", id: id)
            } catch JournalError.refused(_, _, let problem) {
                throw Failure(message: "\(input): the routine was refused: \(problem); nothing was written")
            }
            let count = routine.exercises.count
            print("imported \"\(routine.name)\" as template \(template) (\(count) exercise\(count == 1 ? "" : "s"))")
        }
    }
}
