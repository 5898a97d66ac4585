import Testing
import JournalEvents
import Foundation

/// `SchemaValidator.admitsToFold`: what the fold leaves out of every view (PROJECTIONS.md §"Views are total").
@Suite("Fold admission")
struct FoldAdmissionTests {
    static func event(_ line: String) throws -> Event { try EventCodec.decode(line) }
    static let envelope = #""seq":2,"id":"ph-2","at":"2026-11-20T10:05:00.000+01:00""#

    static func set(v: Int = 1, _ fields: String) throws -> Event {
        try event(#"{"v":\#(v),\#(envelope),"type":"set.completed","workout":"w1","exercise":"barbell-bench-press",\#(fields)}"#)
    }

    @Test("a set within its fields' ranges is folded, at any v")
    func ordinarySet() throws {
        #expect(SchemaValidator.admitsToFold(try Self.set(#""set":1,"weight":60,"unit":"kg","reps":5,"kind":"working""#)))
        #expect(SchemaValidator.admitsToFold(try Self.set(v: 99, #""set":1,"weight":60,"unit":"kg","reps":5,"kind":"working","grip":"wide""#)))
        // An imported set takes the sanity limits: 2000 kg.
        #expect(SchemaValidator.admitsToFold(try Self.set(#""set":1,"weight":1500,"unit":"kg","reps":5,"kind":"working","source":"strong""#)))
    }

    @Test("a number out of its field's range leaves the event out, at any v")
    func absurdNumbers() throws {
        for v in [1, 2, 99] {
            #expect(!SchemaValidator.admitsToFold(try Self.set(v: v, #""set":1,"weight":1e16,"unit":"kg","reps":5,"kind":"working""#)))
            #expect(!SchemaValidator.admitsToFold(try Self.set(v: v, #""set":1,"weight":60,"unit":"kg","reps":9007199254740992,"kind":"working""#)))
            #expect(!SchemaValidator.admitsToFold(try Self.set(v: v, #""set":-5,"weight":60,"unit":"kg","reps":5,"kind":"working""#)))
            #expect(!SchemaValidator.admitsToFold(try Self.set(v: v, #""set":1,"weight":-1e10,"unit":"kg","reps":5,"kind":"working""#)))
        }
        let rest = try Self.event(#"{"v":1,\#(Self.envelope),"type":"rest.started","workout":"w1","exercise":"barbell-bench-press","seconds":1e15}"#)
        #expect(!SchemaValidator.admitsToFold(rest))
    }

    @Test("what is not a number out of range is verify's to report, not a reason to leave the event out")
    func otherRules() throws {
        // Past the manual-entry limit of its unit, and a weight without its unit: rule violations, folded as stored.
        #expect(SchemaValidator.admitsToFold(try Self.set(#""set":1,"weight":650,"unit":"kg","reps":5,"kind":"working""#)))
        #expect(SchemaValidator.validate(try Self.set(#""set":1,"weight":650,"unit":"kg","reps":5,"kind":"working""#)) != nil)
        let edit = try Self.event(#"{"v":1,\#(Self.envelope),"type":"set.edited","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":67.5}"#)
        #expect(SchemaValidator.admitsToFold(edit))
        #expect(SchemaValidator.validate(edit)?.description.contains("\"unit\" is required when weight is given") == true)
    }

    @Test("a value of the wrong kind is left for the fold to read as absent; a type without numbers is always folded")
    func kindsAndNumberlessTypes() throws {
        #expect(SchemaValidator.admitsToFold(try Self.set(v: 99, #""set":1,"weight":"heavy","unit":"kg","reps":5,"kind":"working""#)))
        let finished = try Self.event(#"{"v":1,\#(Self.envelope),"type":"workout.finished","workout":"w1","odd":1e300}"#)
        #expect(SchemaValidator.admitsToFold(finished))
        let unknown = try Self.event(#"{"v":1,\#(Self.envelope),"type":"workout.teleported","weight":1e300}"#)
        #expect(SchemaValidator.admitsToFold(unknown))
    }

    @Test("a nested number out of its kind's range, or an array longer than its kind allows, leaves the event out")
    func nestedFields() throws {
        let plates = #"{"v":1,\#(Self.envelope),"type":"equipment.updated","unit":"kg","plates":[{"weight":20,"count":COUNT}]}"#
        #expect(SchemaValidator.admitsToFold(try Self.event(plates.replacingOccurrences(of: "COUNT", with: "4"))))
        #expect(!SchemaValidator.admitsToFold(try Self.event(plates.replacingOccurrences(of: "COUNT", with: "1000000000"))))
        // A nested string where a number belongs is read as absent, not judged here.
        #expect(SchemaValidator.admitsToFold(try Self.event(plates.replacingOccurrences(of: "COUNT", with: "\"four\""))))
        let many = (1...31).map { _ in #"{"weight":20,"count":2}"# }.joined(separator: ",")
        #expect(!SchemaValidator.admitsToFold(try Self.event(#"{"v":1,\#(Self.envelope),"type":"equipment.updated","unit":"kg","plates":[\#(many)]}"#)))
    }
}
