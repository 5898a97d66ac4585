import JournalEvents
@testable import JournalModel
import Testing

/// The one interpreter covers the whole vocabulary: every event type is either handled by `Ledger.apply(_:)` (it
/// changes the model) or deliberately ignored (`Ledger.ignoredEventTypes`, with a reason, and it changes nothing).
@Suite("Every event type has a meaning in the one fold")
struct LedgerCoverageTests {
    /// An event `minute` minutes into the base's day; by default numbered the one after `base` (each test adds one
    /// event to it, and the parameterised tests run in parallel, so the number is fixed rather than counted).
    static func event(_ type: String, _ fields: JSONObject, minute: Int, seq: Int? = nil) -> Event {
        let seq = seq ?? base.count + 1
        let at = Timestamp(epochMilliseconds: 1_793_606_400_000 + Int64(minute) * 60_000, offsetSeconds: 3600)
        return Event(seq: seq, id: "cov-\(seq)", at: at, type: type, fields: fields)
    }

    static func draft(_ type: String, _ fields: JSONObject, minute: Int) -> (type: String, fields: JSONObject, minute: Int) {
        (type, fields, minute)
    }

    /// A ledger with something for every event to act on: a profile, answers, a programme, a custom exercise, a
    /// favourite, a template, a plan, a finished workout `wf` and an open workout `wo` with a completed set, a set row,
    /// a running rest timer, a running warm-up card, two exercises and a superset, and an open workout `wp` that is paused.
    static let base: [Event] = [
        draft("account.created", ["name": "Ana"], minute: 0),
        draft("subscription.started", ["plan": "monthly"], minute: 1),
        draft("questionnaire.answered", ["question": "days_per_week", "answer": 3], minute: 2),
        draft("programme.generated", ["ruleset": "train", "programme": [
            "split": "Full Body", "days_per_week": 3, "weeks": 8,
            "sessions": [["name": "A", "exercises": [["exercise": "squat", "sets": 3, "reps": "5", "rest_s": 180]]]]]], minute: 3),
        draft("exercise.created", ["exercise": "sled-push", "name": "Sled Push"], minute: 4),
        draft("exercise.favourited", ["exercise": "squat"], minute: 5),
        draft("template.created", ["template": "t1", "name": "Legs", "exercises": [["exercise": "squat", "sets": 3]]], minute: 6),
        draft("workout.planned", ["plan": "p1", "name": "Quick", "exercises": [["exercise": "bench", "sets": 2]]], minute: 7),
        draft("workout.started", ["workout": "wf", "name": "Done", "session": .null], minute: 10),
        draft("set.completed", ["workout": "wf", "exercise": "squat", "set": 1, "weight": 100, "unit": "kg", "reps": 5, "kind": "working"], minute: 11),
        draft("workout.finished", ["workout": "wf"], minute: 20),
        draft("workout.started", ["workout": "wo", "name": "Open", "session": .null], minute: 30),
        draft("warmup.started", ["workout": "wo", "minutes": 5], minute: 30),
        draft("exercise.added", ["workout": "wo", "exercise": "bench"], minute: 31),
        draft("exercise.added", ["workout": "wo", "exercise": "row"], minute: 31),
        draft("superset.linked", ["workout": "wo", "group": "g1", "exercises": ["bench", "row"]], minute: 31),
        draft("set.completed", ["workout": "wo", "exercise": "bench", "set": 1, "weight": 60, "unit": "kg", "reps": 8, "kind": "working"], minute: 32),
        draft("set.added", ["workout": "wo", "exercise": "bench", "set": 2, "weight": 60, "unit": "kg", "reps": 8], minute: 32),
        draft("rest.started", ["workout": "wo", "exercise": "bench", "seconds": 90], minute: 32),
        // A second open workout whose session timer is paused (for `workout.resumed`).
        draft("workout.started", ["workout": "wp", "name": "Paused", "session": .null], minute: 33),
        draft("workout.paused", ["workout": "wp"], minute: 34),
    ].enumerated().map { event($1.type, $1.fields, minute: $1.minute, seq: $0 + 1) }

    /// One valid event of every type of the vocabulary, acting on `base`.
    static let samples: [String: JSONObject] = [
        "account.created": ["name": "Ana Lima"],
        "account.logged_in": ["method": "email"],
        "account.logged_out": [:],
        "account.password_reset": [:],
        "account.deleted": ["reason": "moving on"],
        "subscription.started": ["plan": "annual"],
        "subscription.renewed": ["next_billing_date": "2027-12-01"],
        "subscription.cancelled": ["effective_date": "2027-01-01"],
        "profile.updated": ["unit": "lb"],
        "settings.changed": ["key": "theme", "value": "dark"],
        "data.cleared": [:],
        "data.exported": ["format": "jsonl", "events": 40, "destination": "backup.jsonl"],
        "data.erased": ["through_seq": 40, "events": 40],
        "workout.paused": ["workout": "wo"],
        "workout.resumed": ["workout": "wp"],
        "questionnaire.started": ["ruleset": "train"],
        "questionnaire.answered": ["question": "days_per_week", "answer": 4],
        "questionnaire.completed": [:],
        "programme.generated": ["ruleset": "train", "programme": [
            "split": "Upper/Lower", "days_per_week": 4, "weeks": 8,
            "sessions": [["name": "Upper", "exercises": [["exercise": "bench", "sets": 3, "reps": "8", "rest_s": 120]]]]]],
        "programme.reset": [:],
        "equipment.updated": ["plates": [["weight": 20, "count": 2]]],
        "progression.configured": ["exercise": "squat", "increment": 5],
        "exercise.created": ["exercise": "landmine-press", "name": "Landmine Press"],
        "exercise.linked": ["exercise": "sled-push", "to": "barbell-back-squat"],
        "exercise.favourited": ["exercise": "bench"],
        "exercise.unfavourited": ["exercise": "squat"],
        "workout.planned": ["plan": "p2", "name": "Later", "exercises": [["exercise": "row", "sets": 3]]],
        "template.created": ["template": "t2", "name": "Push", "exercises": [["exercise": "bench", "sets": 3]]],
        "template.updated": ["template": "t1", "name": "Leg day"],
        "template.deleted": ["template": "t1"],
        "workout.started": ["workout": "w3", "name": "New", "session": 0],
        "workout.finished": ["workout": "wo"],
        "workout.discarded": ["workout": "wo"],
        "workout.edited": ["workout": "wf", "name": "Renamed"],
        "workout.deleted": ["workout": "wf"],
        "workout.noted": ["workout": "wo", "note": "felt strong"],
        "warmup.started": ["workout": "wo", "minutes": 8],
        "warmup.completed": ["workout": "wo"],
        "warmup.skipped": ["workout": "wo"],
        "exercise.added": ["workout": "wo", "exercise": "curl"],
        "exercise.removed": ["workout": "wo", "exercise": "row"],
        "exercises.reordered": ["workout": "wo", "order": ["row", "bench"]],
        "exercise.swapped": ["workout": "wo", "from": "row", "to": "pendlay-row"],
        "exercise.noted": ["workout": "wo", "exercise": "bench", "note": "elbows in"],
        "exercise.submitted": ["workout": "wo", "exercise": "bench"],
        "injury.warning_answered": ["workout": "wo", "exercise": "bench", "muscle": "shoulders", "choice": "continue"],
        "superset.linked": ["workout": "wo", "group": "g2", "exercises": ["row", "bench"]],
        "superset.unlinked": ["workout": "wo", "group": "g1"],
        "set.added": ["workout": "wo", "exercise": "bench", "set": 3],
        "set.removed": ["workout": "wo", "exercise": "bench", "set": 1],
        "set.completed": ["workout": "wo", "exercise": "bench", "set": 2, "weight": 60, "unit": "kg", "reps": 8, "kind": "working"],
        "set.uncompleted": ["workout": "wo", "exercise": "bench", "set": 1],
        "set.edited": ["workout": "wf", "exercise": "squat", "set": 1, "reps": 6],
        "set.rated": ["workout": "wo", "exercise": "bench", "set": 1, "rpe": 8],
        "set.noted": ["workout": "wo", "exercise": "bench", "set": 1, "note": "easy"],
        "cardio.logged": ["workout": "wo", "exercise": "rowing-machine", "minutes": 10],
        "rest.started": ["workout": "wo", "exercise": "bench", "seconds": 120],
        "rest.adjusted": ["workout": "wo", "exercise": "bench", "delta_s": 30],
        "rest.skipped": ["workout": "wo", "exercise": "bench", "remaining_s": 40],
        "rest.finished": ["workout": "wo", "exercise": "bench"],
        "rest.configured": ["exercise": "bench", "seconds": 120],
    ]

    /// `ledger` without the count of events folded, which every event at or before T moves.
    static func meaning(_ ledger: Ledger) -> Ledger {
        var copy = ledger
        copy.eventCount = 0
        return copy
    }

    @Test("the samples cover the vocabulary exactly and each one is valid (SchemaValidator)")
    func samplesAreTheVocabulary() {
        #expect(Set(Self.samples.keys) == Set(EventType.allCases.map(\.name)), "add a sample for a new event type here")
        #expect(EventType.allCases.count == EventVocabulary.all.count)
        for (type, fields) in Self.samples {
            #expect(SchemaValidator.validate(Self.event(type, fields, minute: 40)) == nil, "\(type)")
        }
        for event in Self.base { #expect(SchemaValidator.validate(event) == nil, "\(event.type)") }
    }

    @Test("every event type is handled by the one fold (it changes the model) or listed as ignored (it changes nothing)",
          arguments: EventType.allCases)
    func handledOrIgnored(_ type: EventType) throws {
        let before = Ledger(events: Self.base, asOf: Ledger.everything)
        #expect(before.workout("wo")?.status == .open && before.workout("wf")?.status == .finished)
        var after = before
        let fields = try #require(Self.samples[type.name])
        let event = Self.event(type.name, fields, minute: 40)
        #expect(event.knownType == type)
        after.apply(event)
        // Counted since the last `data.cleared` (which starts the count over).
        #expect(after.eventCount == (type == .dataCleared || type == .dataErased ? 0 : before.eventCount + 1), "\(type.name) at or before T is counted")
        if let reason = Ledger.ignoredEventTypes[type] {
            #expect(Self.meaning(after) == Self.meaning(before), "\(type.name) is listed as ignored (\(reason)) but changed the model")
        } else {
            #expect(Self.meaning(after) != Self.meaning(before), "\(type.name) changed nothing: handle it in Ledger.apply(_:) or list it in Ledger.ignoredEventTypes")
        }
    }

    @Test("an event later than T changes nothing at all, whatever its type", arguments: EventType.allCases)
    func laterThanAsOfIsIgnored(_ type: EventType) throws {
        let asOf = Timestamp(epochMilliseconds: 1_793_606_400_000 + 35 * 60_000, offsetSeconds: 3600)
        let before = Ledger(events: Self.base, asOf: asOf)
        var after = before
        after.apply(Self.event(type.name, try #require(Self.samples[type.name]), minute: 40))
        #expect(after == before)
    }
}
