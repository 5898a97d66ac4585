import ArgumentParser
import WorkoutJournalSync
import Foundation

struct TemplateSaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: "Save a finished workout as a template (seed 004 \"Save as Template\").",
        discussion: "Records one template.created with the workout's exercises, their exact sets (weight, reps, warm-up or working), cardio and supersets.")

    @Argument(help: "The journal file.") var file: String
    @Argument(help: "The finished workout's id (from `journal history`).") var workout: String
    @Option(help: "The template's name (default: the workout's).") var name: String?
    @Option(help: "The new template's id (default: the first free t1, t2, …).") var id: String?
    @Option(help: "Device tag for the ids this writer assigns (1–16 of a-z, 0-9, _).") var device: String = "cli"

    func run() throws {
        try reportingFailures {
            try JournalLoader.requireJournal(file)
            let journal = try UserJournal.open(path: file, device: device)
            defer { journal.close() }
            guard let finished = journal.ledger.workout(workout), finished.isFinished else {
                throw Failure(message: "\(file): no finished workout \"\(workout)\" (see `journal history \(file)`)")
            }
            let title = name ?? finished.name
            let template = try journal.saveAsTemplate(WorkoutID(workout), name: title, id: id)
            print("saved \(workout) as template \(template) \"\(title)\" (\(finished.performedExercises.count) exercises)")
        }
    }
}
