import ArgumentParser
import EventJournal
import Foundation
import JournalEvents
import JournalModel
import JournalProjections

struct TemplateSave: ParsableCommand {
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
            let events = try JournalLoader.events(path: file)
            let ledger = Ledger(events: events, asOf: Timestamp(epochMilliseconds: 253_402_300_799_999, offsetSeconds: 0))
            guard let finished = ledger.workout(workout), finished.isFinished else {
                throw Failure(message: "\(file): no finished workout \"\(workout)\" (see `journal history \(file)`)")
            }
            let template = id ?? (1...).lazy.map { "t\($0)" }.first { id in !ledger.templates.contains { $0.id == id } }!
            let title = name ?? finished.name
            let journal = try EventJournal(path: file, device: device, options: Journal.recordingOptions, clock: SystemClock.now)
            defer { journal.close() }
            try journal.record([
                "type": "template.created", "template": .string(template), "name": .string(title),
                "exercises": Prescription.eventValue(finished.repeatPrescriptions), "from_workout": .string(workout),
            ])
            print("saved \(workout) as template \(template) \"\(title)\" (\(finished.performedExercises.count) exercises)")
        }
    }
}
