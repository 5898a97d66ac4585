import ArgumentParser
import Foundation
import WorkoutJournalSync

struct TemplateExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write one template as a routine document (JSON).")

    @Argument(help: "The journal file.") var file: String
    @Argument(help: "The template id (as `journal templates` lists it).") var id: String
    @Option(name: .shortAndLong, help: "Where to write the document (default: standard output).") var output: String?

    func run() throws {
        try reportingFailures {
            let events = try JournalLoader.events(path: file)
            let asOf = Projections.defaultAsOf(lastEvent: events.last, now: SystemClock.now())
            let analysis = Projections.analysis(events: events, asOf: asOf, context: Journal.projectionContext)
            guard let template = analysis.ledger.templates.first(where: { $0.id == id }) else {
                let known = analysis.ledger.templates.map(\.id)
                throw Failure(message: "\(file): no template \"\(id)\"" + (known.isEmpty ? " (the journal has none)" : " (templates: \(known.joined(separator: ", ")))"))
            }
            let text = RoutineDocument.text(template, name: analysis.exerciseName)
            if let output {
                try Interchange.write(text, to: output)
                printError("wrote \"\(template.name)\" (\(template.exercises.count) exercises) to \(output)")
            } else {
                print(text, terminator: "")
            }
        }
    }
}
