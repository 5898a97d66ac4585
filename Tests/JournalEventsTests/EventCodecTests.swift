import Testing
@testable import JournalEvents

@Suite("Event codec")
struct EventCodecTests {
    let at = Timestamp(rfc3339: "2026-11-21T18:04:05.120+01:00")!

    @Test("encodes the envelope first, in canonical order")
    func encodesCanonically() {
        let event = Event(seq: 7, id: "ph-7", at: at, type: "set.completed", fields: [
            "workout": "w1", "exercise": "barbell-bench-press", "set": 1, "weight": 82.5, "unit": "kg", "reps": 8, "kind": "working",
        ])
        #expect(EventCodec.encodeString(event) ==
            #"{"v":1,"seq":7,"id":"ph-7","at":"2026-11-21T18:04:05.120+01:00","type":"set.completed","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":82.5,"unit":"kg","reps":8,"kind":"working"}"#)
    }

    @Test("round-trips one event of every type in the vocabulary")
    func roundTripsEveryType() throws {
        #expect(EventVocabulary.all.count >= 50)
        for (index, schema) in EventVocabulary.all.enumerated() {
            let event = Event(v: schema.version, seq: index + 1, id: "t-\(String(index + 1, radix: 36))", at: at, type: schema.type,
                              fields: SampleValues.payload(for: schema))
            #expect(SchemaValidator.validate(event) == nil, "\(schema.type): \(SchemaValidator.validate(event)!)")
            let line = EventCodec.encode(event)
            let decoded = try EventCodec.decode(line)
            #expect(decoded == event, "\(schema.type)")
            #expect(EventCodec.encode(decoded) == line)
        }
    }

    @Test("keeps fields it does not know, in order, for newer versions")
    func keepsUnknownFields() throws {
        let line = #"{"v":3,"seq":1,"id":"ph-1","at":"2026-11-21T18:04:05.120+01:00","type":"set.completed","zeta":1,"workout":"w1","alpha":{"x":[1]}}"#
        let event = try EventCodec.decode(line)
        #expect(event.v == 3)
        #expect(event.fields.keys == ["zeta", "workout", "alpha"])
        #expect(EventCodec.encodeString(event) == line)
        // Kept, but the fields this version knows are still checked (NewerVersionValidationTests).
        #expect(SchemaValidator.validate(event)?.description == #"set.completed: field "exercise" is required"#)
    }

    @Test("names the envelope field that is wrong", arguments: [
        (#"{"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#, "field \"v\": is missing"),
        (#"{"v":1,"seq":0,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#, "field \"seq\": is 0 but must be an integer ≥ 1"),
        (#"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21 18:04","type":"x.y"}"#, "field \"at\": is \"2026-11-21 18:04\" but must be an RFC 3339 time with a UTC offset, e.g. \"2026-11-21T18:04:05.120+01:00\""),
        (#"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"SetCompleted"}"#, "field \"type\": is \"SetCompleted\" but must be a dotted lowercase name such as \"set.completed\""),
        (#"{"v":1,"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#, "field \"v\": appears twice in the same event"),
        // A repeated key at any depth (FORMAT.md §3), named by its path; the fast decoder leaves it to the reference one.
        (#"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"profile.updated","height":{"value":170,"unit":"cm","unit":"in"}}"#,
         "field \"height.unit\": appears twice in the same object"),
        (#"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","a":[{"b":1},{"c":[{"d":1,"d":2}]}]}"#,
         "field \"a[1].c[0].d\": appears twice in the same object"),
        (#"[1]"#, "a line must be a JSON object, found array"),
        (#"{"v":1,"#, "invalid JSON at byte 7 of the line: expected a quoted key, found end of line"),
    ])
    func envelopeErrors(line: String, message: String) {
        do {
            _ = try EventCodec.decode(line)
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.description == message)
        }
    }
}

/// A valid value for every field kind, so each type can be exercised.
enum SampleValues {
    static func payload(for schema: EventSchema) -> JSONObject {
        var object = JSONObject()
        for field in schema.fields { object[field.name] = value(for: field.kind, name: field.name) }
        switch schema.type {
        case "superset.linked": object["exercises"] = ["barbell-bench-press", "barbell-row"]
        case "questionnaire.answered": object["question"] = "days_per_week"; object["answer"] = 4
        case "set.completed", "set.added", "set.edited": object["unit"] = "kg"; object["weight"] = 100
        case "set.rated": object["rpe"] = 8.5
        case "rest.adjusted": object["delta_s"] = 30
        case "profile.updated": object["height"] = ["value": 180, "unit": "cm"]; object["body_weight"] = ["value": 80, "unit": "kg"]
        case "workout.planned", "template.created", "template.updated":
            // A superset links at least two adjacent exercises.
            guard case .array(let items)? = object["exercises"], case .object(var second)? = items.first else { break }
            second["exercise"] = "barbell-row"
            object["exercises"] = .array(items + [.object(second)])
        default: break
        }
        return object
    }

    static func value(for kind: FieldKind, name: String) -> JSONValue {
        switch kind {
        case .text(let maxBytes): return name == "email" ? "sam@example.com" : .string(String("sample".prefix(maxBytes)))
        case .slug: return "barbell-bench-press"
        case .reference: return "w1"
        case .integer(let range): return .int(max(range.lowerBound, min(range.upperBound, 3)))
        case .number(let range): return .number(max(range.lowerBound, min(range.upperBound, 7.5)))
        case .boolean: return true
        case .choice(let options): return .string(options[0])
        case .timestamp: return "2026-11-21T17:00:00.000+01:00"
        case .date: return "2026-11-21"
        case .object(let fields):
            var object = JSONObject()
            for field in fields { object[field.name] = value(for: field.kind, name: field.name) }
            return .object(object)
        case .array(let element, _): return [value(for: element, name: name)]
        case .any: return "anything"
        case .either(let first, _): return value(for: first, name: name)
        case .null: return nil
        }
    }
}
