import Testing
import JournalEvents
import JournalModel
@testable import TrainingDomain

/// Seed 002: the generator's equipment is "pulled from inventory". With an `equipment.updated` recorded, a programme
/// uses what the answer names together with what the inventory holds, never a barbell the inventory cannot load, and
/// its starting weights are weights that inventory can load.
@Suite("Programme generation from the recorded equipment inventory")
struct InventoryProgrammeTests {
    let catalogue = ExerciseCatalogue.builtIn

    /// A lifter who owns dumbbell pairs and no plates, in `unit`.
    static func dumbbellsOnly(_ unit: String) -> EquipmentInventory {
        var log = EventLog()
        log.add("profile.updated", ["unit": .string(unit)])
        log.add("equipment.updated", ["unit": .string(unit), "plates": [], "dumbbells": unit == "kg" ? [10, 12, 14, 16, 18, 20] : [20, 25, 30, 35, 40, 45]])
        return EquipmentInventory.recorded(in: log.ledger)!
    }

    /// Every catalogue equipment item the programme's exercises need.
    func equipment(_ programme: Programme) -> Set<String> {
        Set(programme.sessions.flatMap(\.exercises).flatMap { catalogue.exercise(id: $0.exercise)?.equipment ?? [] })
    }

    @Test("what the inventory holds, in the questionnaire's names; nothing recorded is no inventory")
    func names() {
        var log = EventLog()
        #expect(EquipmentInventory.recorded(in: log.ledger) == nil)
        log.add("equipment.updated", ["machines": try! JSONParser.parse(Array(#"[{"name": "Lat Pulldown", "min_weight": 5, "max_weight": 100, "increment": 5}, {"name": "Glute Blaster 3000", "min_weight": 5, "max_weight": 100, "increment": 5}]"#.utf8)),
                                      "attachments": ["rope"], "equipment": ["Pull-up bar", "kettlebell"]])
        let gym = EquipmentInventory.recorded(in: log.ledger)!
        // The standard plates load a bar; an unknown machine name is left out.
        #expect(gym.equipmentNames() == ["barbell", "lat-pulldown", "cable", "pull-up-bar", "kettlebells"])
        #expect(gym.hasBarbell)
        for unit in ["kg", "lb"] {
            let home = Self.dumbbellsOnly(unit)
            #expect(!home.hasBarbell)
            #expect(home.equipmentNames() == ["dumbbells"])
            // An answered barbell brings nothing without plates: not its racks and benches either.
            #expect(home.available(answers: ["barbell", "dumbbells"]) == ["dumbbells", "flat-bench", "incline-bench", "bodyweight"])
        }
    }

    @Test("templates: a lifter whose inventory is dumbbells only gets no barbell programme, whatever the answer said",
          arguments: ["kg", "lb"])
    func templatesDumbbellsOnly(_ unit: String) throws {
        let answers: [String: JSONValue] = ["primary_goal": "get_stronger", "experience": "0", "days_per_week": 3, "equipment": ["barbell", "dumbbells"]]
        #expect(try ProgrammeGenerator.recommendTemplates(answers: answers).map(\.template) == ["starting-strength", "stronglifts-5x5", "full-body"])
        let inventory = Self.dumbbellsOnly(unit)
        let ranked = try ProgrammeGenerator.recommendTemplates(answers: answers, inventory: inventory)
        #expect(ranked.map(\.template) == ["full-body", "starting-strength", "stronglifts-5x5"])
        #expect(ranked.map(\.score) == [95, 40, 40])
        #expect(ranked[0].rationale.hasSuffix("; equipment from your answer and your inventory (dumbbells), which has no plates for a barbell"))
        let programme = try ProgrammeGenerator.generate(ruleset: "templates", answers: answers, inventory: inventory)
        #expect(programme.template == "full-body")
        #expect(!equipment(programme).contains("barbell"))
        // A chosen barbell template keeps its shape but every barbell lift becomes a usable alternative.
        let chosen = try ProgrammeGenerator.generate(ruleset: "templates", answers: answers.merging(["template": "stronglifts-5x5"]) { $1 },
                                                     inventory: inventory)
        #expect(!equipment(chosen).contains("barbell"))
        #expect(chosen.sessions[0].exercises[0].note == "instead of Barbell Back Squat, which your equipment or injuries rule out")
    }

    @Test("slots: train and train-ai fill no slot with a barbell exercise for a dumbbells-only inventory; the answer's cables stay",
          arguments: [("train", "kg"), ("train", "lb"), ("train-ai", "kg"), ("train-ai", "lb")])
    func slotsDumbbellsOnly(_ ruleset: String, _ unit: String) throws {
        let answers: [String: JSONValue] = ["primary_goal": "build_muscle", "experience": "0-6", "days_per_week": 3, "session_minutes": "45-60",
                                            "equipment": ["barbell", "dumbbells", "cable"], "age": 30]
        #expect(equipment(try ProgrammeGenerator.generate(ruleset: ruleset, answers: answers)).isSuperset(of: ["barbell", "squat-rack", "cable"]))
        let programme = try ProgrammeGenerator.generate(ruleset: ruleset, answers: answers, inventory: Self.dumbbellsOnly(unit))
        // Nothing of the inventory says the lifter has no cable station: the answer's cable exercises remain.
        #expect(equipment(programme) == ["dumbbells", "flat-bench", "incline-bench", "bodyweight", "cable", "lat-pulldown", "seated-row"])
        #expect(programme.rationale?.hasSuffix("; equipment from your answer and your inventory (dumbbells), which has no plates for a barbell") == true)
    }

    @Test("what the inventory holds counts even when the answer left it out: plates for a dumbbell answer bring the barbell programmes")
    func inventoryAdds() throws {
        var log = EventLog()
        log.add("equipment.updated", ["unit": "kg", "dumbbells": [10, 12, 14]])
        let answers: [String: JSONValue] = ["primary_goal": "get_stronger", "experience": "0", "days_per_week": 3, "equipment": ["dumbbells"]]
        #expect(try ProgrammeGenerator.recommendTemplates(answers: answers).map(\.template) == ["full-body", "starting-strength", "stronglifts-5x5"])
        let ranked = try ProgrammeGenerator.recommendTemplates(answers: answers, inventory: EquipmentInventory.recorded(in: log.ledger))
        #expect(ranked.map(\.template) == ["starting-strength", "stronglifts-5x5", "full-body"])
        #expect(ranked.map(\.score) == [100, 100, 95])
    }

    @Test("starting weights are never below the lifter's own bar, in the unit of the answers", arguments: [
        // 80 kg: the overhead press's 20 kg minimum is below a 45 lb bar (20.41 kg): 22.5 kg.
        ("kg", JSONValue.number(80), "lb",
         ["Workout A: barbell-back-squat 3x5/180 @40kg, barbell-bench-press 3x5/180 @30kg, deadlift 1x5/180 @50kg",
          "Workout B: barbell-back-squat 3x5/180 @40kg, overhead-press 3x5/180 @20kg, power-clean 5x3/180 @30kg"],
         ["Workout A: barbell-back-squat 3x5/180 @40kg, barbell-bench-press 3x5/180 @30kg, deadlift 1x5/180 @50kg",
          "Workout B: barbell-back-squat 3x5/180 @40kg, overhead-press 3x5/180 @22.5kg, power-clean 5x3/180 @30kg"]),
        // 100 lb: the 20 kg minimum is 40 lb after rounding down, below the 45 lb bar: 45 lb.
        ("lb", JSONValue.object(["value": 100, "unit": "lb"]), "lb",
         ["Workout A: barbell-back-squat 3x5/180 @50lb, barbell-bench-press 3x5/180 @40lb, deadlift 1x5/180 @85lb",
          "Workout B: barbell-back-squat 3x5/180 @50lb, overhead-press 3x5/180 @40lb, power-clean 5x3/180 @65lb"],
         ["Workout A: barbell-back-squat 3x5/180 @50lb, barbell-bench-press 3x5/180 @45lb, deadlift 1x5/180 @85lb",
          "Workout B: barbell-back-squat 3x5/180 @50lb, overhead-press 3x5/180 @45lb, power-clean 5x3/180 @65lb"]),
    ])
    func startingWeights(_ unit: String, _ weight: JSONValue, _ inventoryUnit: String, _ without: [String], _ with: [String]) throws {
        var log = EventLog()
        log.add("equipment.updated", ["unit": .string(inventoryUnit), "dumbbells": [20, 30]])
        let answers: [String: JSONValue] = ["primary_goal": "get_stronger", "experience": "0", "days_per_week": 3,
                                            "equipment": ["barbell", "dumbbells"], "weight": weight]
        #expect(summary(try ProgrammeGenerator.generate(ruleset: "templates", answers: answers)) == without)
        #expect(summary(try ProgrammeGenerator.generate(ruleset: "templates", answers: answers, inventory: EquipmentInventory.recorded(in: log.ledger))) == with)
    }

    @Test("onboarding generates from the inventory the journal already records", arguments: ["kg", "lb"])
    func onboarding(_ unit: String) throws {
        var log = EventLog()
        log.add("profile.updated", ["unit": .string(unit)])
        log.add("equipment.updated", ["unit": .string(unit), "plates": [], "dumbbells": [10, 20, 30]])
        let drafts = try Onboarding.drafts(ruleset: "templates", answers: ["primary_goal": "get_stronger", "experience": "0", "days_per_week": 3,
                                                                           "equipment": ["barbell", "dumbbells"]], existing: log.ledger)
        let generated = try #require(drafts.last)
        #expect(generated["programme"]?["template"]?.stringValue == "full-body")
    }

    @Test("no equipment answer and no inventory: templates (a gym app) assumes a gym and says so; train means bodyweight")
    func noEquipmentGiven() throws {
        let answers: [String: JSONValue] = ["primary_goal": "get_stronger", "experience": "0", "days_per_week": 3]
        let ranked = try ProgrammeGenerator.recommendTemplates(answers: answers)
        #expect(ranked.map(\.template) == ["starting-strength", "stronglifts-5x5", "full-body"])
        #expect(ranked[0].rationale.hasSuffix("; no equipment given, so a gym is assumed (barbell, dumbbells, cable, pin-loaded-machine, plate-loaded-machine)"))
        let programme = try ProgrammeGenerator.generate(ruleset: "templates", answers: answers)
        #expect(programme.template == "starting-strength")
        #expect(programme.sessions[0].exercises.map(\.exercise) == ["barbell-back-squat", "barbell-bench-press", "deadlift"])
        // An inventory recorded, even of dumbbells only, is what the lifter has: nothing is assumed.
        #expect(try ProgrammeGenerator.generate(ruleset: "templates", answers: answers, inventory: Self.dumbbellsOnly("kg")).template == "full-body")
        // Seed 000 asks the equipment (train-ai requires it): unanswered, bodyweight only.
        let bodyweight = try ProgrammeGenerator.generate(ruleset: "train", answers: answers.merging(["session_minutes": "45-60"]) { $1 })
        #expect(equipment(bodyweight).isSubset(of: ["bodyweight", "pull-up-bar", "dip-station", "back-extension-bench"]))
    }
}
