import JournalEvents
import JournalModel
import JournalProjections

/// The routine document (seed 002 "Import/export routines as JSON"): one JSON
/// object, `{"format": "workout-journal/routine", "version": 1, "name": …, "note": …, "exercises": [{"exercise",
/// "name"?, "sets"?, "reps"?, "rest_s"?, "superset"?, "note"?, "minutes"?, "km"?}]}`, the exercises as
/// `template.created` holds them (FORMAT.md §15), each with its display name. `journal template export` writes it,
/// `journal template import` reads it.
public enum RoutineDocument {
    public static let format = "workout-journal/routine"
    public static let version = 1
    public static let keys = ["format", "version", "name", "note", "exercises"]
    public static let exerciseKeys: Set<String> = ["exercise", "name", "sets", "reps", "rest_s", "superset", "note", "minutes", "km"]

    /// A document's content, ready for `template.created`: the exercises as that event holds them (every one with
    /// its `exercise` id, display names dropped). The recording rules check it when it is recorded.
    public struct Routine: Equatable, Sendable {
        public var name: String
        public var note: JSONValue?
        public var exercises: [JSONValue]
    }

    /// Why a document cannot be read: `<path>: <problem>`.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public var path: String
        public var problem: String
        public var description: String { "\(path): \(problem)" }
        public init(path: String, problem: String) { self.path = path; self.problem = problem }
    }

    /// The document of `template`, one exercise per line so it reads and diffs well.
    public static func text(_ template: Template, name: (String) -> String) -> String {
        var head = JSONObject()
        head["format"] = .string(format)
        head["version"] = .int(version)
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

    /// Reads the document in `bytes` (from `path`): its format and version, its keys and every exercise's; an exercise
    /// without an id is looked up by its name with `resolve`. `name` replaces the document's name.
    public static func read(_ bytes: [UInt8], path: String, name: String? = nil, resolve: (String) -> String?) throws(Invalid) -> Routine {
        func fail(_ problem: String) -> Invalid { Invalid(path: path, problem: problem) }
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch { throw fail("not JSON: \(error)") }
        guard let object = document.objectValue else { throw fail("a routine document is a JSON object, found \(document.kindName)") }
        guard object["format"]?.stringValue == format else {
            throw fail("\"format\" must be \"\(format)\" (found \(object["format"]?.excerpt ?? "nothing")): not a routine document")
        }
        guard let found = object["version"]?.intValue, found >= 1 else { throw fail("\"version\" must be a whole number ≥ 1") }
        if found > version { throw fail("version \(found) is newer than this journal reads (\(version)); update the app") }
        for key in object.keys where !keys.contains(key) {
            throw fail("\"\(key)\" is not a key of a routine document (keys: \(keys.joined(separator: ", ")))")
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
        return Routine(name: title, note: object["note"], exercises: exercises)
    }
}
