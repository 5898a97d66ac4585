import Testing
import JournalEvents

/// `SchemaValidator.admitsToFold`: what the fold leaves out of every view (PROJECTIONS.md §"Views are total").
@Suite("Fold admission")
struct FoldAdmissionTests {
    static func event(_ line: String) throws -> Event { try EventCodec.decode(line) }
    static let envelope = #""seq":2,"id":"ph-2","at":"2026-11-20T10:05:00.000+01:00""#

    static func set(v: Int = 1, _ fields: String) throws -> Event {
        try event(#"{"v":\#(v),\#(envelope),"type":"set.completed","workout":"w1","exercise":"barbell-bench-press",\#(fields)}"#)
    }

    @Test("a set within its ranges and its unit's weight limit is folded, at any v")
    func ordinarySet() throws {
        #expect(SchemaValidator.admitsToFold(try Self.set(#""set":1,"weight":60,"unit":"kg","reps":5,"kind":"working""#)))
        #expect(SchemaValidator.admitsToFold(try Self.set(v: 99, #""set":1,"weight":60,"unit":"kg","reps":5,"kind":"working","grip":"wide""#)))
        // An imported set takes the sanity limits: 2000 kg.
        #expect(SchemaValidator.admitsToFold(try Self.set(#""set":1,"weight":1500,"unit":"kg","reps":5,"kind":"working","source":"strong""#)))
    }

    @Test("a number out of its field's range, or past the unit's limit, leaves the event out, at any v")
    func absurdNumbers() throws {
        for v in [1, 2, 99] {
            #expect(!SchemaValidator.admitsToFold(try Self.set(v: v, #""set":1,"weight":1e16,"unit":"kg","reps":5,"kind":"working""#)))
            #expect(!SchemaValidator.admitsToFold(try Self.set(v: v, #""set":1,"weight":60,"unit":"kg","reps":9007199254740992,"kind":"working""#)))
            #expect(!SchemaValidator.admitsToFold(try Self.set(v: v, #""set":-5,"weight":60,"unit":"kg","reps":5,"kind":"working""#)))
            #expect(!SchemaValidator.admitsToFold(try Self.set(v: v, #""set":1,"weight":-60,"unit":"kg","reps":5,"kind":"working""#)))
            #expect(!SchemaValidator.admitsToFold(try Self.set(v: v, #""set":1,"weight":650,"unit":"kg","reps":5,"kind":"working""#)))
        }
        let rest = try Self.event(#"{"v":1,\#(Self.envelope),"type":"rest.started","workout":"w1","exercise":"barbell-bench-press","seconds":1e15}"#)
        #expect(!SchemaValidator.admitsToFold(rest))
    }

    @Test("a value of the wrong kind is left for the fold to read as absent; a type without numbers is always folded")
    func kindsAndNumberlessTypes() throws {
        #expect(SchemaValidator.admitsToFold(try Self.set(v: 99, #""set":1,"weight":"heavy","unit":"kg","reps":5,"kind":"working""#)))
        let finished = try Self.event(#"{"v":1,\#(Self.envelope),"type":"workout.finished","workout":"w1","odd":1e300}"#)
        #expect(SchemaValidator.admitsToFold(finished))
        let unknown = try Self.event(#"{"v":1,\#(Self.envelope),"type":"workout.teleported","weight":1e300}"#)
        #expect(SchemaValidator.admitsToFold(unknown))
    }

    @Test("a type with nested fields is checked in full: a nested number out of range leaves it out")
    func nestedFields() throws {
        let plates = #"{"v":1,\#(Self.envelope),"type":"equipment.updated","unit":"kg","plates":[{"weight":20,"count":COUNT}]}"#
        #expect(SchemaValidator.admitsToFold(try Self.event(plates.replacingOccurrences(of: "COUNT", with: "4"))))
        #expect(!SchemaValidator.admitsToFold(try Self.event(plates.replacingOccurrences(of: "COUNT", with: "1000000000"))))
    }
}
