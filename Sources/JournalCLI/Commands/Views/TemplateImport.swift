import ArgumentParser
import EventJournal
import Foundation
import JournalEvents
import JournalModel
import JournalProjections

struct TemplateImport: ParsableCommand {
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
            let existing = FileManager.default.fileExists(atPath: file) ? try JournalLoader.events(path: file) : []
            let ledger = Ledger(events: existing, asOf: Timestamp(epochMilliseconds: 253_402_300_799_999, offsetSeconds: 0))
            let template = id ?? (1...).lazy.map { "t\($0)" }.first { id in !ledger.templates.contains { $0.id == id } }!
            let draft = try TemplateImport.draft(Array(bytes), path: input, template: template, name: name,
                                                 resolve: { Journal.projectionContext.exerciseID($0) })
            let journal = try EventJournal(path: file, device: device, options: Journal.recordingOptions, clock: SystemClock.now)
            // A journal created only for a refused routine is removed again.
            defer { journal.closeDiscardingIfEmpty() }
            do {
                try journal.record(draft)
            } catch JournalError.refused(_, _, let problem) {
                throw Failure(message: "\(input): the routine was refused: \(problem); nothing was written")
            }
            let count = draft.objectValue?["exercises"]?.arrayValue?.count ?? 0
            let title = draft.objectValue?["name"]?.stringValue ?? ""
            print("imported \"\(title)\" as template \(template) (\(count) exercise\(count == 1 ? "" : "s"))")
        }
    }

    static let exerciseKeys: Set<String> = ["exercise", "name", "sets", "reps", "rest_s", "superset", "note", "minutes", "km"]

    /// The `template.created` draft for a routine document, or a Failure naming the place and the problem.
    static func draft(_ bytes: [UInt8], path: String, template: String, name: String?, resolve: (String) -> String?) throws -> JSONValue {
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch { throw Failure(message: "\(path): not JSON: \(error)") }
        guard let object = document.objectValue else { throw Failure(message: "\(path): a routine document is a JSON object, found \(document.kindName)") }
        func fail(_ message: String) -> Failure { Failure(message: "\(path): \(message)") }
        guard object["format"]?.stringValue == RoutineDocument.format else {
            throw fail("\"format\" must be \"\(RoutineDocument.format)\" (found \(object["format"]?.excerpt ?? "nothing")): not a routine document")
        }
        guard let version = object["version"]?.intValue, version >= 1 else { throw fail("\"version\" must be a whole number ≥ 1") }
        if version > RoutineDocument.version {
            throw fail("version \(version) is newer than this journal reads (\(RoutineDocument.version)); update the app")
        }
        for key in object.keys where !["format", "version", "name", "note", "exercises"].contains(key) {
            throw fail("\"\(key)\" is not a key of a routine document (keys: format, version, name, note, exercises)")
        }
        guard let title = name ?? object["name"]?.stringValue, !title.isEmpty else { throw fail("\"name\" must be a non-empty string") }
        guard let list = object["exercises"]?.arrayValue else { throw fail("\"exercises\" must be an array") }
        if list.isEmpty { throw fail("\"exercises\" is empty: a routine needs at least one exercise") }
        var exercises: [JSONValue] = []
        for (index, element) in list.enumerated() {
            guard var item = element.objectValue else { throw fail("exercises[\(index)] must be an object, found \(element.kindName)") }
            if let key = item.keys.first(where: { !exerciseKeys.contains($0) }) {
                throw fail("exercises[\(index)].\(key) is not a key of a routine exercise (keys: \(exerciseKeys.sorted().joined(separator: ", ")))")
            }
            if item["exercise"] == nil {
                guard let typed = item["name"]?.stringValue else { throw fail("exercises[\(index)] needs \"exercise\" (an id) or \"name\"") }
                guard let id = resolve(typed) else { throw fail("exercises[\(index)].name \"\(typed)\" matches no exercise in the catalogue; give its \"exercise\" id") }
                item = JSONObject([JSONField("exercise", .string(id))] + item.fields)
            }
            item["name"] = nil
            exercises.append(.object(item))
        }
        var draft: JSONObject = ["type": "template.created", "template": .string(template), "name": .string(title), "exercises": .array(exercises)]
        if let note = object["note"] { draft["note"] = note }
        draft["source"] = "import"
        return .object(draft)
    }
}
