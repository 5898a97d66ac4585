import JournalFile
import JournalEvents
import JournalModel
import JournalStore
import JournalTesting
import Testing

/// Hostile and malformed input gets a clear error naming the line and the field, never a crash
/// (RELIABILITY.md §"Hostile input", §"Privacy and hostile paths"). Messages are pinned.
@Suite("Hostile input")
struct HostileInputTests {
    @Test("a time with more than three fractional digits parses (truncated to milliseconds) instead of crashing")
    func longFractionalSeconds() throws {
        #expect(Timestamp(rfc3339: "2026-11-21T18:04:05.1234+01:00")?.rfc3339 == "2026-11-21T18:04:05.123+01:00")
        #expect(Timestamp(rfc3339: "2026-11-21T18:04:05.123456789Z")?.rfc3339 == "2026-11-21T18:04:05.123+00:00")
        #expect(Timestamp(rfc3339: "2026-11-21T18:04:05.1234567890Z") == nil)
        let event = try EventCodec.decode(#"{"v":1,"seq":1,"id":"ph-1","at":"2025-01-14T18:35:20.00100+00:00","type":"workout.started","workout":"w1","name":"Push","session":null}"#)
        #expect(event.at.rfc3339 == "2025-01-14T18:35:20.001+00:00")
    }

    @Test("no password, token, secret or credential is accepted into any event, at any depth, whatever the case", arguments: [
        ("password", "password"), ("Password", "Password"), ("new_passwd", "new_passwd"), ("refreshToken", "refreshToken"),
        ("client_secret", "client_secret"), ("credentials", "credentials"),
    ])
    func credentialsRefused(_ key: String, _ path: String) throws {
        let events: [(JSONObject, String)] = [
            ([JSONField(key, "x")].reduce(into: JSONObject()) { $0[$1.key] = $1.value }, path),
            (["name": "Sam", "extra": .object([JSONField(key, "x")].reduce(into: JSONObject()) { $0[$1.key] = $1.value })], "extra." + path),
            (["name": "Sam", "list": .array([1, .object([JSONField(key, "x")].reduce(into: JSONObject()) { $0[$1.key] = $1.value })])], "list[1]." + path),
        ]
        for (fields, field) in events {
            let event = Event(seq: 1, id: "ph-1", at: Fixtures.start, type: "profile.updated", fields: fields)
            // Unknown types are no way around it either.
            for unknown in [false, true] {
                let checked = unknown ? Event(seq: 1, id: "ph-1", at: Fixtures.start, type: "future.thing", fields: fields) : event
                let violation = SchemaValidator.validate(checked, allowUnknownTypes: true)
                #expect(violation?.field == field)
                #expect(violation?.rule == "looks like a credential; the journal never stores passwords, tokens or secrets")
            }
        }
    }

    @Test("a key given twice in an event is refused, not silently dropped")
    func duplicateKeyRefused() {
        let draft = try! JSONParser.parse(#"{"type":"workout.started","workout":"w1","name":"Push","session":null,"type":"x.y"}"#)
        func message(_ result: Result<Event, RecordingRules.Problem>) -> String? {
            if case .failure(let problem) = result { return problem.description }
            return nil
        }
        #expect(message(RecordingRules().prepare(draft, device: "ph", now: Fixtures.start)) == "field \"type\": appears twice in the same event")
        let payload = try! JSONParser.parse(#"{"type":"workout.started","workout":"w1","name":"Push","session":null,"name":"Legs"}"#)
        #expect(message(RecordingRules().prepare(payload, device: "ph", now: Fixtures.start)) == "field \"name\": appears twice in the same event")
    }
}

/// `journal record` end to end on hostile lines: a clear message naming the input line and the
/// field (or the byte, for JSON syntax), exit status 1, and the file byte for byte unchanged.
@Suite("journal record refuses hostile lines")
struct RecordRefusalTests {
    static let started = #"{"type":"workout.started","at":"2026-01-05T18:00:00.000+01:00","workout":"w1","name":"Push","session":null}"#
    static func set(_ fields: String) -> String {
        #"{"type":"set.completed","at":"2026-01-05T18:01:00.000+01:00","workout":"w1","exercise":"squat","# + fields + "}"
    }

    static let cases: [(name: String, line: [UInt8], message: String)] = [
        ("malformed JSON", Array(#"{"type":"set.completed","workout":"w1","#.utf8),
         "input line 2 is not JSON: invalid JSON at byte 39 of the line: expected a quoted key, found end of line; nothing was written"),
        ("deep nesting", Array(String(repeating: "[", count: 100_000).utf8),
         "input line 2 is not JSON: invalid JSON at byte 64 of the line: nesting deeper than 64 levels; nothing was written"),
        ("invalid UTF-8", Array(#"{"type":"workout.noted","workout":"w1","note":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8),
         "input line 2 is not JSON: invalid JSON at byte 47 of the line: invalid UTF-8 in string; nothing was written"),
        ("NaN weight", Array(set(#""set":1,"weight":NaN,"unit":"kg","reps":5,"kind":"working""#).utf8),
         "input line 2 is not JSON: invalid JSON at byte 112 of the line: expected a value, found 'N'; nothing was written"),
        ("infinite weight", Array(set(#""set":1,"weight":1e999,"unit":"kg","reps":5,"kind":"working""#).utf8),
         "input line 2 is not JSON: invalid JSON at byte 112 of the line: number 1e999 is out of range; nothing was written"),
        ("negative weight", Array(set(#""set":1,"weight":-5,"unit":"kg","reps":5,"kind":"working""#).utf8),
         "input line 2 was refused: set.completed: field \"weight\" is -5 but must be between 0 and 1100; nothing was written"),
        ("weight over the kg limit", Array(set(#""set":1,"weight":650,"unit":"kg","reps":5,"kind":"working""#).utf8),
         "input line 2 was refused: set.completed: field \"weight\" is 650 but must be at most 500 when unit is \"kg\"; nothing was written"),
        ("weight as a string", Array(set(#""set":1,"weight":"heavy","unit":"kg","reps":5,"kind":"working""#).utf8),
         "input line 2 was refused: set.completed: field \"weight\" is \"heavy\" but must be a number; nothing was written"),
        ("fractional reps", Array(set(#""set":1,"weight":100,"unit":"kg","reps":5.5,"kind":"working""#).utf8),
         "input line 2 was refused: set.completed: field \"reps\" is 5.5 but must be an integer; nothing was written"),
        ("set number as a string", Array(set(#""set":"2","weight":100,"unit":"kg","reps":5,"kind":"working""#).utf8),
         "input line 2 was refused: set.completed: field \"set\" is \"2\" but must be an integer; nothing was written"),
        ("unknown type", Array(#"{"type":"workout.teleported","workout":"w1"}"#.utf8),
         "input line 2 was refused: workout.teleported: field \"type\" is \"workout.teleported\" but is not a known event type (see FORMAT.md §\"Event types\"; `journal schema` lists them); nothing was written"),
        ("a password", Array(#"{"type":"profile.updated","password":"hunter2"}"#.utf8),
         "input line 2 was refused: profile.updated: field \"password\" looks like a credential; the journal never stores passwords, tokens or secrets; nothing was written"),
        ("a nested token", Array(#"{"type":"profile.updated","name":"Sam","extra":{"api_token":"abc"}}"#.utf8),
         "input line 2 was refused: profile.updated: field \"extra.api_token\" looks like a credential; the journal never stores passwords, tokens or secrets; nothing was written"),
        ("a huge line", Array((#"{"type":"workout.noted","workout":"w1","note":""# + String(repeating: "x", count: 2_000_000) + #""}"#).utf8),
         "input line 2 was refused: workout.noted: field \"note\" is \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... but must be at most 4000 bytes; nothing was written"),
        ("not an object", Array("[1,2]".utf8),
         "input line 2 was refused: an event must be a JSON object, found array; nothing was written"),
        ("a reused seq", Array(set(#""set":1,"weight":100,"unit":"kg","reps":5,"kind":"working","seq":1"#).utf8),
         "input line 2 was refused: set.completed: field \"seq\" is 1 but is already used (the last seq is 1); nothing was written"),
        ("a key given twice", Array(set(#""set":1,"weight":100,"unit":"kg","reps":5,"kind":"working","type":"x.y""#).utf8),
         "input line 2 was refused: field \"type\": appears twice in the same event; nothing was written"),
    ]

    @Test("each hostile line is refused with its pinned message, exit status 1, and the file unchanged", arguments: 0..<cases.count)
    func refused(_ index: Int) throws {
        let (name, line, message) = RecordRefusalTests.cases[index]
        let scratch = ScratchDirectory("hostile")
        defer { scratch.remove() }
        let path = scratch.file("case-\(index).journal")
        let binary = try journalBinary()
        let first = try Subprocess.run(binary, ["record", path, "--device", "ph"], stdin: RecordRefusalTests.started + "\n", scratch: scratch.path)
        #expect(first.status == 0)
        let before = readFileBytes(path)
        let child = try Subprocess(binary, ["record", path, "--device", "ph"], errorPath: scratch.file("err-\(index)"))
        // Line 1 is blank (skipped); line 2 is the hostile one; line 3 would be fine but must not be written.
        child.write("\n")
        child.writeBytes(line + [0x0A] + Array(RecordRefusalTests.set(#""set":1,"weight":100,"unit":"kg","reps":5,"kind":"working""#).utf8) + [0x0A])
        child.closeInput()
        let acknowledged = child.readAllLines()
        let status = child.wait()
        let stderr = readFile(scratch.file("err-\(index)"))
        #expect(status == 1, "\(name)")
        #expect(acknowledged == [], "\(name)")
        #expect(stderr == "journal: \(path): \(message)\n", "\(name)")
        #expect(readFileBytes(path) == before, "\(name) changed the file")
    }
}
