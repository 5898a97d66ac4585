import Testing
@testable import JournalEvents

/// `Event.knownType`, `Event.payloadKey(at:)` and the lookups by `PayloadKey` must always say what the
/// strings say, however the event was made (decoder fast path, reference path, init, mutation).
@Suite("Interned type and key names")
struct InternedNamesTests {
    let at = Timestamp(rfc3339: "2026-11-21T18:04:05.120+01:00")!

    @Test("EventType lists exactly the vocabulary's types, in table order")
    func typesMatchTheVocabulary() {
        #expect(EventType.allCases.map(\.name) == EventVocabulary.all.map(\.type))
        for type in EventType.allCases { #expect(EventType(name: type.name) == type) }
        #expect(EventType(name: "set.exploded") == nil)
        #expect(EventType.setCompleted.name == "set.completed")
        // The decoder predicts a line's type in a place per previous type.
        #expect(Int(EventType.allCases.map(\.rawValue).max()!) < KnownStrings.predictedPlaces - KnownStrings.typePlaces)
    }

    @Test("PayloadKey holds every top-level payload key of the vocabulary, each once")
    func keysCoverThePayloads() {
        let names = Set(PayloadKey.allCases.map(\.name))
        #expect(names.count == PayloadKey.allCases.count)
        for schema in EventVocabulary.all {
            for field in schema.fields { #expect(names.contains(field.name), "\(schema.type).\(field.name)") }
        }
        let vocabulary = Set(KnownStrings.vocabulary.map(\.0))
        for key in PayloadKey.allCases {
            #expect(vocabulary.contains(key.name), "\(key.name)")
            #expect(PayloadKey(name: key.name) == key)
        }
        #expect(PayloadKey.birthDate.name == "birth_date")
        #expect(PayloadKey(name: "Workout") == nil)
    }

    @Test("the fast path, the reference path and init agree on the interned names")
    func decodersAgree() throws {
        let line = #"{"v":1,"seq":7,"id":"ph-7","at":"2026-11-21T18:04:05.120+01:00","type":"set.completed","workout":"w1","exercise":"barbell-bench-press","set":2,"weight":82.5,"unit":"kg","reps":8,"kind":"working","mood":"great"}"#
        let fast = try EventCodec.StreamDecoder().decode(Array(line.utf8))
        let reference = try EventCodec.decodeReference(Array(line.utf8))
        let made = Event(seq: 7, id: "ph-7", at: at, type: "set.completed", fields: [
            "workout": "w1", "exercise": "barbell-bench-press", "set": 2, "weight": 82.5, "unit": "kg", "reps": 8, "kind": "working",
            "mood": "great",
        ])
        #expect(fast == reference)
        #expect(fast == made)
        for event in [fast, reference, made] {
            #expect(event.knownType == .setCompleted)
            #expect((0..<event.fields.count).map { event.payloadKey(at: $0) }
                == [.workout, .exercise, .set, .weight, .unit, .reps, .kind, nil])
            #expect(event.string(.exercise) == "barbell-bench-press")
            #expect(event.int(.set) == 2)
            #expect(event.double(.weight) == 82.5)
            #expect(event.string(.note) == nil)
        }
        let unknown = try EventCodec.StreamDecoder().decode(Array(#"{"v":1,"seq":1,"id":"ph-1","at":"2026-11-21T18:04:05.120+01:00","type":"set.exploded","workout":"w1"}"#.utf8))
        #expect(unknown.knownType == nil)
        #expect(unknown.string(.workout) == "w1")
    }

    @Test("mutating the type or the payload keeps the interned names in step")
    func mutationsFollow() {
        var event = Event(seq: 1, id: "ph-1", at: at, type: "rest.started", fields: ["workout": "w1", "seconds": 90])
        #expect(event.knownType == .restStarted)
        event.type = "rest.finished"
        #expect(event.knownType == .restFinished)
        event.type = "x.y"
        #expect(event.knownType == nil)
        event.fields["exercise"] = "squat"
        #expect(event.string(.exercise) == "squat")
        event.fields["workout"] = nil
        #expect(event.string(.workout) == nil)
        #expect(event.payloadKey(at: 0) == .seconds)
        #expect(event == Event(seq: 1, id: "ph-1", at: at, type: "x.y", fields: ["seconds": 90, "exercise": "squat"]))
    }

    @Test("lookups by key find the first match, past the coded fields too")
    func manyFields() {
        var fields: [JSONField] = (0..<20).map { JSONField("extra_\($0)", .int($0)) }
        fields.insert(JSONField("note", "first"), at: 3)
        fields.append(JSONField("note", "second"))
        fields.append(JSONField("reps", 9))
        let event = Event(seq: 1, id: "ph-1", at: at, type: "set.noted", fields: JSONObject(fields))
        #expect(event.string(.note) == "first")
        #expect(event.int(.reps) == 9)
        #expect(event.payloadKey(at: 21) == .note)
        #expect(event.payloadKey(at: 22) == .reps)
        #expect(event.payloadKey(at: 0) == nil)
        #expect(event.string(.workout) == nil)
        for key in PayloadKey.allCases { #expect(event[key] == event[key.name], "\(key.name)") }
    }
}
