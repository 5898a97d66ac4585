import Testing
@testable import JournalEvents

/// An event of a known type at a `v` above this version's (FORMAT.md §12): its unknown keys are allowed and kept,
/// and every field this version knows is checked as at the current version, with the same message.
@Suite("events of a newer version")
struct NewerVersionValidationTests {
    static let at = "2026-11-21T18:04:05.120+01:00"

    static func event(v: Int, _ payload: String, type: String = "set.completed") throws -> Event {
        try EventCodec.decode(Array(#"{"v":\#(v),"seq":1,"id":"ph-1","at":"\#(at)","type":"\#(type)",\#(payload)}"#.utf8))
    }

    static let set = #""workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":8,"kind":"working""#

    @Test("a known field out of range, of the wrong kind, missing, or breaking the type's own rule is refused at v 99 with the message of v 1", arguments: [
        (#""workout":"w1","exercise":"barbell-bench-press","set":1,"weight":1e16,"unit":"kg","reps":8,"kind":"working""#,
         #"set.completed: field "weight" is 1e+16 but must be between -1000000000 and 1000000000"#),
        (#""workout":"w1","exercise":"barbell-bench-press","set":1,"weight":"heavy","unit":"kg","reps":8,"kind":"working""#,
         #"set.completed: field "weight" is "heavy" but must be a number"#),
        (#""workout":"w1","exercise":"barbell-bench-press","set":-5,"weight":60,"unit":"kg","reps":8,"kind":"working""#,
         #"set.completed: field "set" is -5 but must be between 1 and 200"#),
        (#""workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"stone","reps":8,"kind":"working""#,
         #"set.completed: field "unit" is "stone" but must be one of "kg", "lb""#),
        (#""workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","kind":"working""#,
         #"set.completed: field "reps" is required"#),
        (#""workout":"w1","exercise":"barbell-bench-press","set":1,"weight":600,"unit":"kg","reps":8,"kind":"working""#,
         #"set.completed: field "weight" is 600 but must be at most 500 when unit is "kg""#),
    ])
    func knownFieldsAreChecked(payload: String, message: String) throws {
        let current = try Self.event(v: 1, payload), newer = try Self.event(v: 99, payload)
        #expect(SchemaValidator.validate(current)?.description == message)
        #expect(SchemaValidator.validate(newer)?.description == message)
    }

    @Test("unknown keys at a newer v are allowed and kept byte for byte; at the current v they are refused")
    func unknownKeysAreKept() throws {
        let payload = Self.set + #","tempo":"3-1-1","bar":{"kind":"ez"}"#
        let newer = try Self.event(v: 2, payload)
        #expect(SchemaValidator.validate(newer) == nil)
        #expect(EventCodec.encodeString(newer)
            == #"{"v":2,"seq":1,"id":"ph-1","at":"2026-11-21T18:04:05.120+01:00","type":"set.completed","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":8,"kind":"working","tempo":"3-1-1","bar":{"kind":"ez"}}"#)
        #expect(SchemaValidator.validate(try Self.event(v: 1, payload))?.description
            == #"set.completed: field "tempo" is not a field of set.completed v1 (fields: workout, exercise, set, weight, unit, reps, kind, rpe, note, edited, source, source_name, source_set, source_rpe, source_seconds, source_km, source_category, source_negative, out_of_range)"#)
    }

    @Test("inside a known object: an unknown key is allowed at a newer v, a known key is still checked")
    func nestedObjects() throws {
        let extraKey = #""height":{"value":180,"unit":"cm","precision":1}"#
        #expect(SchemaValidator.validate(try Self.event(v: 2, extraKey, type: "profile.updated")) == nil)
        #expect(SchemaValidator.validate(try Self.event(v: 1, extraKey, type: "profile.updated"))?.description
            == #"profile.updated: field "height.precision" is not a known key (keys: value, unit)"#)
        let negative = #""height":{"value":-5,"unit":"cm","precision":1}"#
        #expect(SchemaValidator.validate(try Self.event(v: 2, negative, type: "profile.updated"))?.description
            == #"profile.updated: field "height.value" is -5 but must be between 0 and 10000"#)
    }

    @Test("no key that looks like a credential, at any version")
    func privacyAtANewerVersion() throws {
        #expect(SchemaValidator.validate(try Self.event(v: 5, Self.set + #","api_token":"x""#))?.description
            == #"set.completed: field "api_token" looks like a credential; the journal never stores passwords, tokens or secrets"#)
    }
}
