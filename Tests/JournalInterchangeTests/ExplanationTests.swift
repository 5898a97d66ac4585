import JournalEvents
import JournalInterchange
import JournalModel
import JournalProjections
import Testing
import TrainingDomain

/// `journal explain` as a library function of the model and the domain's rules.
@Suite("Explanations from the model")
struct ExplanationTests {
    /// Two squat sessions at 100 kg × 5,5,5 (prescribed 3 × 5) and `progression.configured` switching the exercise to
    /// pounds without an increment.
    static func events(unitConfigured: Bool, thirdKilograms: Double? = nil) throws -> [Event] {
        var drafts: [JSONValue] = []
        if unitConfigured { drafts.append(["type": "progression.configured", "exercise": "barbell-back-squat", "unit": "lb"]) }
        for (workout, weight) in [("w1", 100.0), ("w2", 100)] + (thirdKilograms.map { [("w3", $0)] } ?? []) {
            drafts.append(["type": "workout.started", "workout": .string(workout), "name": "Legs", "session": .null])
            drafts.append(["type": "exercise.added", "workout": .string(workout), "exercise": "barbell-back-squat", "sets": 3, "reps": "5"])
            for set in 1...3 {
                // The third workout's heavier weight is on set 2 only.
                let kilograms = workout == "w3" && set != 2 ? 100 : weight
                drafts.append(["type": "set.completed", "workout": .string(workout), "exercise": "barbell-back-squat", "set": .int(set),
                               "weight": .number(kilograms), "unit": "kg", "reps": 5, "kind": "working"])
            }
            drafts.append(["type": "workout.finished", "workout": .string(workout)])
        }
        return try record(drafts)
    }

    @Test("deload uses the rule the active workout uses: an exercise configured in pounds converts the suggested increment")
    func deloadConvertsTheIncrement() throws {
        let plain = Explanation.deload(analysis(try Self.events(unitConfigured: false)), exercise: "barbell-back-squat", number: Rounding.text)
        #expect(plain.text.hasPrefix("Barbell Back Squat: rule 2.5 kg per success, deload 10% after 3 failures\n"))
        #expect(plain.jsonValue.objectValue?["target"] == .number(102.5))

        let pounds = Explanation.deload(analysis(try Self.events(unitConfigured: true)), exercise: "barbell-back-squat", number: Rounding.text)
        // 2.5 kg is 5.51 lb: what `explain` used to drop (it kept 2.5 in the settings' unit, unlike the active workout).
        #expect(pounds.text.hasPrefix("Barbell Back Squat: rule 5.51 lb per success, deload 10% after 3 failures\n"))
        #expect(pounds.jsonValue.objectValue?["unit"] == .string("lb"))
        let target = try #require(Explanation.progressionTarget(analysis(try Self.events(unitConfigured: true)), exercise: "barbell-back-squat"))
        #expect(target.rule.unit == .lb && abs(target.rule.increment - 2.5 / Units.kilogramsPerPound) < 1e-9)
    }

    @Test("record names the set the record finder kept, and session volume its biggest set")
    func recordNamesTheSet() throws {
        let equal = Explanation.record(analysis(try Self.events(unitConfigured: false)), exercise: "barbell-back-squat", number: Rounding.text)
        // Equal sessions: no record on the first session and none beaten on the second.
        #expect(equal.text == "Barbell Back Squat: 0 records (a record must beat the previous best by a gram; no record on the first session)")
        let heavier = Explanation.record(analysis(try Self.events(unitConfigured: false, thirdKilograms: 110)), exercise: "barbell-back-squat",
                                         number: Rounding.text)
        let lines = heavier.text.split(separator: "\n").map { String($0.prefix { $0 != "," }) + ($0.contains(", set ") ? " @" + $0.split(separator: ",")[1].split(separator: ":")[0] : "") }
        #expect(lines == [
            "Barbell Back Squat: 4 records (a record must beat the previous best by a gram; no record on the first session)",
            "2026-11-22 Heaviest weight: 110 kg (previous best 100) in w3 @ set 2",
            "2026-11-22 Best e1RM: 128.33 kg (previous best 116.67) in w3 @ set 2",
            "2026-11-22 Best set volume: 550 kg (previous best 500) in w3 @ set 2",
            "2026-11-22 Best session volume: 1550 kg (previous best 1500) in w3 @ set 2",   // Rounding.text: no separators
        ])
    }
}
