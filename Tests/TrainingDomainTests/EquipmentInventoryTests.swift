import JournalEvents
import JournalModel
import Testing
import TrainingDomain

/// Seed 002's equipment inventory: which bar an exercise is loaded on, and the weights dumbbell pairs and machine
/// stacks can be set to (one rule, `Units.loadable`).
@Suite("Equipment inventory: bars per exercise, dumbbell pairs, machine stacks")
struct EquipmentInventoryTests {
    @Test("an EZ bar listed first with its curls is the curls' bar only; the default bar is the one marked, else the first general one")
    func barPerExercise() {
        var log = EventLog()
        log.add("equipment.updated", ["unit": "lb", "bars": j(#"[{"name": "EZ curl bar", "weight": 25, "exercises": ["ez-bar-curl", "ez-bar-skull-crusher"]}, {"name": "Olympic", "weight": 45}, {"name": "Women's bar", "weight": 35}]"#)])
        let inventory = EquipmentInventory.from(ledger: log.ledger)
        #expect(inventory.bar(for: "barbell-back-squat").weight == 45)
        #expect(inventory.bar(for: "ez-bar-curl").weight == 25)
        #expect(inventory.bar(for: nil).name == "Olympic")
        #expect(PlateInventory.from(ledger: log.ledger).barWeight == 45)
        log.add("equipment.updated", ["bars": j(#"[{"name": "EZ curl bar", "weight": 25}, {"name": "Olympic", "weight": 45}, {"name": "Women's bar", "weight": 35, "default": true}]"#)])
        let marked = EquipmentInventory.from(ledger: log.ledger)
        #expect(marked.bar(for: "barbell-back-squat").weight == 35)
        #expect(marked.plateInventory(for: "barbell-back-squat") == PlateInventory(unit: .lb, plates: PlateInventory.standard(.lb).plates, barWeight: 35))
        // Without a `default` or `exercises`, the first bar listed is the default (as before the keys existed).
        log.add("equipment.updated", ["bars": j(#"[{"name": "EZ curl bar", "weight": 25}, {"name": "Olympic", "weight": 45}]"#)])
        #expect(EquipmentInventory.from(ledger: log.ledger).bar(for: "barbell-back-squat").weight == 25)
        #expect(EquipmentInventory.standard(.kg).defaultBar.weight == 20)
    }

    @Test("the bar weight of an exercise in the lifter's unit: its own bar as recorded, else raised to the next loading step; none off a bar")
    func barWeightPerUnit() {
        var log = EventLog()
        log.add("equipment.updated", ["unit": "kg", "bars": j(#"[{"name": "EZ curl bar", "weight": 10, "exercises": ["ez-bar-curl"]}, {"name": "Olympic", "weight": 20}]"#),
                                      "machines": j(#"[{"name": "Smith", "min_weight": 0, "max_weight": 200, "increment": 2.5, "exercises": ["smith-machine-squat"]}]"#)])
        let kg = EquipmentInventory.from(ledger: log.ledger)
        #expect(kg.barWeight(for: "ez-bar-curl", equipment: ["barbell"], in: .kg) == 10)
        #expect(kg.barWeight(for: "ez-bar-curl", equipment: ["barbell"], in: .lb) == 25)
        #expect(kg.barWeight(for: "barbell-back-squat", equipment: ["barbell", "squat-rack"], in: .kg) == 20)
        #expect(kg.barWeight(for: "barbell-back-squat", equipment: ["barbell", "squat-rack"], in: .lb) == 45)
        #expect(kg.barWeight(for: "dumbbell-curl", equipment: ["dumbbells"], in: .kg) == nil)
        // A barbell exercise done on one of the lifter's machines is not loaded on a bar.
        #expect(kg.barWeight(for: "smith-machine-squat", equipment: ["barbell", "smith-machine"], in: .kg) == nil)
        let lb = EquipmentInventory.standard(.lb)
        #expect(lb.barWeight(for: "barbell-bench-press", equipment: ["barbell", "flat-bench"], in: .lb) == 45)
        // 45 lb is 20.41 kg: 22.5 kg, never below the bar.
        #expect(lb.barWeight(for: "barbell-bench-press", equipment: ["barbell", "flat-bench"], in: .kg) == 22.5)
    }

    @Test("cable attachments: the inventory's names mean the catalogue's attachments; every cable exercise names one the vocabulary knows")
    func attachments() {
        let vocabulary = EquipmentCatalogue.builtIn
        #expect(["Rope", "Tricep Rope", "straight bar", "V-bar", "Close-grip handle", "D-handle", "Lat pulldown bar", "ankle cuff", "Chain"]
            .map(vocabulary.attachment(named:)) == ["rope", "rope", "straight-bar", "v-bar", "v-bar", "single-handle", "lat-bar", "ankle-strap", nil])
        let catalogue = ExerciseCatalogue.builtIn
        let known = Set(vocabulary.attachments.map(\.id))
        let cable = catalogue.exercises.filter { !Set($0.equipment).isDisjoint(with: ["cable", "cable-crossover", "lat-pulldown", "seated-row"]) }
        #expect(cable.count == 30)
        #expect(cable.allSatisfy { $0.attachment.map(known.contains) == true }, "\(cable.filter { $0.attachment == nil }.map { $0.id })")
        #expect(catalogue.exercises.filter { $0.attachment != nil }.count == 30)
        #expect(["rope-triceps-pushdown", "v-bar-triceps-pushdown", "face-pull", "cable-glute-kickback"].map { catalogue.exercise(id: $0)?.attachment }
            == ["rope", "v-bar", "rope", "ankle-strap"])
        var log = EventLog()
        #expect(EquipmentInventory.from(ledger: log.ledger).hasAttachment("rope") == nil)
        log.add("equipment.updated", ["attachments": ["Tricep rope", "straight bar"]])
        let inventory = EquipmentInventory.from(ledger: log.ledger)
        #expect(inventory.hasAttachment("rope") == true && inventory.hasAttachment("straight-bar") == true && inventory.hasAttachment("v-bar") == false)
    }

    @Test("dumbbell pairs: the nearest pair, a tie to the heavier; a pair in the other unit is converted exactly", arguments: [
        (22.5, WeightUnit.kg, [10.0, 12, 14, 16, 18, 20, 24, 28], WeightUnit.kg, WeightUnit.kg, 24.0),
        (21.0, .kg, [10, 12, 14, 16, 18, 20, 24, 28], .kg, .kg, 20),
        (45, .lb, [20, 30, 40, 50, 60], .lb, .lb, 50),
        (100, .lb, [20, 30, 40, 50, 60], .lb, .lb, 60),
        // 22.5 kg is 49.6 lb: the 50 lb pair, shown in kilograms as 22.68.
        (22.5, .kg, [20, 30, 40, 50, 60], .lb, .kg, 22.6796185),
        // 45 lb is 20.41 kg: the 20 kg pair, shown as 44.09 lb.
        (45, .lb, [10, 12, 14, 16, 18, 20, 24, 28], .kg, .lb, 44.09245243697552),
    ])
    func dumbbells(_ weight: Double, _ source: WeightUnit, _ pairs: [Double], _ pairUnit: WeightUnit, _ target: WeightUnit, _ expected: Double) {
        let value = Units.loadable(weight, from: source, to: target, on: .choices(pairs, unit: pairUnit))
        #expect(abs(value - expected) < 1e-9, "\(value)")
    }

    @Test("a machine stack: the nearest step from its minimum, never outside the stack", arguments: [
        (52.5, WeightUnit.kg, 5.0, 100.0, 5.0, WeightUnit.kg, 55.0),
        (52.4, .kg, 5, 100, 5, .kg, 50),
        (2, .kg, 5, 100, 5, .kg, 5),
        (140, .kg, 5, 100, 5, .kg, 100),
        // A 7.5 kg step from 5 kg: 5, 12.5, 20, …, 95 (102.5 is past the 100 kg top).
        (99, .kg, 5, 100, 7.5, .kg, 95),
        (105, .lb, 10, 250, 10, .lb, 110),
        (300, .lb, 10, 250, 10, .lb, 250),
    ])
    func stack(_ weight: Double, _ source: WeightUnit, _ low: Double, _ high: Double, _ step: Double, _ unit: WeightUnit, _ expected: Double) {
        #expect(Units.loadable(weight, from: source, to: unit, on: .stack(minimum: low, maximum: high, increment: step, unit: unit)) == expected)
    }

    @Test("a bar's step is the unit rule itself: as recorded in the same unit, the nearest 5 lb or 2.5 kg across units")
    func step() {
        #expect(Units.loadable(102.5, from: .kg, to: .kg, on: .step(nil)) == 102.5)
        #expect(Units.loadable(40, from: .kg, to: .lb, on: .step(nil)) == 90)
        #expect(Units.loadable(135, from: .lb, to: .kg, on: .step(nil)) == 60)
    }

    @Test("an exercise's weights: the machine naming it (by its list, its id or its equipment item), else the dumbbells, else a bar's step")
    func weightsPerExercise() {
        var log = EventLog()
        log.add("equipment.updated", ["unit": "kg", "dumbbells": j("[24, 10, 12]"), "attachments": j(#"["rope", "V-bar"]"#),
                                      "machines": j(#"[{"name": "Lat Pulldown", "min_weight": 5, "max_weight": 100, "increment": 5}, {"name": "Selectorized row", "min_weight": 10, "max_weight": 120, "increment": 10, "exercises": ["seated-cable-row"]}]"#)])
        log.add("equipment.updated", ["unit": "lb", "plates": j(#"[{"weight": 45, "count": 4}]"#)])
        let inventory = EquipmentInventory.from(ledger: log.ledger)
        #expect(inventory.dumbbells == [10, 12, 24] && inventory.dumbbellUnit == .kg && inventory.attachments == ["rope", "V-bar"])
        #expect(inventory.loadableWeights(for: "lat-pulldown", equipment: ["lat-pulldown"]) == .stack(minimum: 5, maximum: 100, increment: 5, unit: .kg))
        #expect(inventory.loadableWeights(for: "seated-cable-row", equipment: ["cable"]) == .stack(minimum: 10, maximum: 120, increment: 10, unit: .kg))
        #expect(inventory.loadableWeights(for: "dumbbell-curl", equipment: ["dumbbells"]) == .choices([10, 12, 24], unit: .kg))
        #expect(inventory.loadableWeights(for: "barbell-back-squat", equipment: ["barbell", "squat-rack"]) == .step(nil))
        // The plates switched to pounds: the bar is the standard 45 lb one; plates are worked out in pounds.
        #expect(inventory.plates(for: "barbell-back-squat", equipment: ["barbell"], weight: 135, in: .lb)?.perSide == [45])
        #expect(inventory.plates(for: "lat-pulldown", equipment: ["lat-pulldown"], weight: 50, in: .kg) == nil)
    }
}

private func j(_ text: String) -> JSONValue {
    do { return try JSONParser.parse(Array(text.utf8)) } catch { fatalError("bad JSON literal: \(text)") }
}
