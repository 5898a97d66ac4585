import JournalEvents
@testable import JournalModel
import Testing

/// "Clear All Data" keeps what its `keep` names (DOMAIN.md §11): nothing by default (seed 000's promise and the
/// issue's), the profile in seed 004 (its Settings profile lives in the app's preferences), the settings on request.
@Suite("data.cleared keeps what its keep names")
struct ClearKeepTests {
    static func events(unit: String, keep: [String]?) -> [Event] {
        var clear: JSONObject = [:]
        if let keep { clear["keep"] = .array(keep.map(JSONValue.string)) }
        let drafts: [(String, JSONObject)] = [
            ("account.created", ["name": "Secret Sam", "email": "sam@example.com"]),
            ("profile.updated", ["unit": .string(unit), "body_weight": .object(["value": 80, "unit": "kg"])]),
            ("settings.changed", ["key": "rest_default_s", "value": 75]),
            ("rest.configured", ["exercise": "barbell-bench-press", "seconds": 150]),
            ("exercise.favourited", ["exercise": "barbell-bench-press"]),
            ("workout.started", ["workout": "old", "name": "Sams Day", "session": .null]),
            ("set.completed", ["workout": "old", "exercise": "barbell-bench-press", "set": 1, "weight": 100, "unit": .string(unit), "reps": 5, "kind": "working"]),
            ("workout.finished", ["workout": "old"]),
            ("data.cleared", clear),
        ]
        return drafts.enumerated().map { index, draft in
            Event(seq: index + 1, id: "k-\(index + 1)", at: Timestamp(epochMilliseconds: 1_793_606_400_000 + Int64(index) * 60_000, offsetSeconds: 0),
                  type: draft.0, fields: draft.1)
        }
    }

    @Test("what each keep holds after the clear; the history and favourites go whatever it keeps", arguments: [
        ("kg", nil as [String]?, nil as String?, WeightUnit.kg, [String: Int](), nil as String?),
        ("lb", [], nil, .kg, [:], nil),
        ("lb", ["profile"], "Secret Sam", .lb, [:], nil),
        ("kg", ["profile"], "Secret Sam", .kg, [:], nil),
        ("lb", ["settings"], nil, .kg, ["barbell-bench-press": 150], "75"),
        ("lb", ["profile", "settings"], "Secret Sam", .lb, ["barbell-bench-press": 150], "75"),
    ])
    func kept(_ unit: String, _ keep: [String]?, _ name: String?, _ displayUnit: WeightUnit, _ rest: [String: Int], _ restDefault: String?) {
        let ledger = Ledger(events: Self.events(unit: unit, keep: keep), asOf: Ledger.everything)
        #expect(ledger.profile.name == name)
        #expect(ledger.profile.email == (name == nil ? nil : "sam@example.com"))
        #expect(ledger.displayUnit == displayUnit)
        #expect(ledger.restSettings == rest)
        #expect(ledger.settings["rest_default_s"].map { "\($0.intValue ?? -1)" } == restDefault)
        #expect(ledger.workouts.isEmpty && ledger.favourites.isEmpty && ledger.clearedAtSeq == 9)
    }

    @Test("each keep holds its own event types; a unit set in the settings is a profile fact too")
    func holds() {
        func event(_ type: String, _ fields: JSONObject = [:]) -> Event { Event(seq: 1, id: "h", at: Timestamp(epochMilliseconds: 0, offsetSeconds: 0), type: type, fields: fields) }
        #expect(Ledger.ClearKeep.profile.holds(event("profile.updated", ["name": "A"])))
        #expect(Ledger.ClearKeep.profile.holds(event("subscription.started", ["plan": "monthly"])))
        #expect(Ledger.ClearKeep.profile.holds(event("settings.changed", ["key": "unit", "value": "lb"])))
        #expect(!Ledger.ClearKeep.profile.holds(event("settings.changed", ["key": "rest_default_s", "value": 60])))
        #expect(Ledger.ClearKeep.settings.holds(event("settings.changed", ["key": "rest_default_s", "value": 60])))
        #expect(Ledger.ClearKeep.settings.holds(event("rest.configured", ["exercise": "squat", "seconds": 60])))
        #expect(!Ledger.ClearKeep.settings.holds(event("workout.started", ["workout": "w", "name": "W", "session": .null])))
        #expect(!Ledger.ClearKeep.profile.holds(event("exercise.favourited", ["exercise": "squat"])))
    }
}
