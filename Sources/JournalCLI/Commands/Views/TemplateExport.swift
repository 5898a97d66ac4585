import ArgumentParser
import Foundation
import JournalEvents
import JournalModel
import JournalProjections

struct TemplateExport: ParsableCommand {
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
            let text = TemplateExport.document(template, name: analysis.exerciseName)
            if let output {
                do { try Data(text.utf8).write(to: URL(fileURLWithPath: output)) } catch {
                    throw Failure(message: "\(output): cannot write: \(error.localizedDescription)")
                }
                printError("wrote \"\(template.name)\" (\(template.exercises.count) exercises) to \(output)")
            } else {
                print(text, terminator: "")
            }
        }
    }

    /// The document, one exercise per line so it reads and diffs well.
    static func document(_ template: Template, name: (String) -> String) -> String {
        var head = JSONObject()
        head["format"] = .string(RoutineDocument.format)
        head["version"] = .int(RoutineDocument.version)
        head["name"] = .string(template.name)
        if let note = template.note { head["note"] = .string(note) }
        let exercises = template.exercises.map { prescription -> String in
            guard case .object(var object) = prescription.eventValue else { return "" }
            object = JSONObject([object.fields[0], JSONField("name", .string(name(prescription.exercise)))] + object.fields.dropFirst())
            return "    " + JSONWriter.string(.object(object))
        }
        let fields = head.fields.map { "  \(JSONWriter.string(.string($0.key))): \(JSONWriter.string($0.value))" }
        return "{\n" + fields.joined(separator: ",\n") + ",\n  \"exercises\": [\n" + exercises.joined(separator: ",\n") + "\n  ]\n}\n"
    }
}
