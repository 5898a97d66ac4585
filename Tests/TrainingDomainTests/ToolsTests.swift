import JournalModel
import Testing
import JournalEvents
@testable import TrainingDomain

@Suite("Plate calculator")
struct PlateCalculatorTests {
    static let kgPlates = [PlateStock(weight: 25, count: 4), PlateStock(weight: 20, count: 2), PlateStock(weight: 10, count: 2),
                           PlateStock(weight: 5, count: 2), PlateStock(weight: 2.5, count: 2), PlateStock(weight: 1.25, count: 2)]

    @Test("Loads greedily from the largest plate, in pairs, within the inventory", arguments: [
        // target, bar, per side, achieved, difference
        (100.0, 20.0, [25.0, 10, 5], 100.0, 0.0),
        (20.0, 20.0, [], 20.0, 0.0),
        (142.5, 20.0, [25.0, 25, 10, 1.25], 142.5, 0.0),
        (62.5, 20.0, [20.0, 1.25], 62.5, 0.0),
        (21.0, 20.0, [], 20.0, 1.0),                  // odd remainder: 0.5 per side, no plate that small
        (300.0, 20.0, [25.0, 25, 20, 10, 5, 2.5, 1.25], 197.5, 102.5), // inventory runs out
        (60.0, 15.0, [20.0, 2.5], 60.0, 0.0),        // a 15 kg bar
        (23.0, 20.0, [1.25], 22.5, 0.5),
    ])
    func greedy(target: Double, bar: Double, perSide: [Double], achieved: Double, difference: Double) throws {
        let loading = try PlateCalculator.load(target: target, barWeight: bar, plates: Self.kgPlates, unit: .kg)
        #expect(loading.perSide == perSide)
        #expect(loading.achieved == achieved)
        #expect(loading.difference == difference)
        #expect(loading.isExact == (difference == 0))
    }

    @Test("Works in pounds with a 45 lb bar")
    func pounds() throws {
        let loading = try PlateCalculator.load(target: 225, inventory: .standard(.lb))
        #expect(loading.perSide == [45, 45])
        #expect(loading.achieved == 225)
        let odd = try PlateCalculator.load(target: 137, inventory: .standard(.lb))
        #expect(odd.perSide == [45])      // 46 per side: 45, then 1 lb that no plate fits
        #expect(odd.achieved == 135)
        #expect(odd.difference == 2)
    }

    @Test("A target below the bar is refused with both weights in the message")
    func belowBar() {
        #expect(throws: PlateCalculator.Failure.targetBelowBar(target: 15, bar: 20, unit: .kg)) {
            try PlateCalculator.load(target: 15, barWeight: 20, plates: Self.kgPlates, unit: .kg)
        }
        #expect(PlateCalculator.Failure.targetBelowBar(target: 15, bar: 20, unit: .kg).description
            == "target 15 kg is below the bar (20 kg): nothing to load")
    }

    @Test("A plate that is not paired cannot be used")
    func unpaired() throws {
        let loading = try PlateCalculator.load(target: 70, barWeight: 20, plates: [PlateStock(weight: 25, count: 1), PlateStock(weight: 10, count: 2)], unit: .kg)
        #expect(loading.perSide == [10])
        #expect(loading.achieved == 40)
        #expect(loading.difference == 30)
    }

    @Test("Plate lists parse from the command-line form and errors quote the input")
    func parsing() throws {
        #expect(try PlateInventory.parsePlates("25x4, 20x2,1.25×2,5") == [
            PlateStock(weight: 25, count: 4), PlateStock(weight: 20, count: 2), PlateStock(weight: 1.25, count: 2), PlateStock(weight: 5, count: 2),
        ])
        #expect(throws: PlateCalculator.Failure.invalidPlates(text: "25x4,heavy", item: "heavy", reason: "expected WEIGHTxCOUNT, e.g. 25x4")) {
            try PlateInventory.parsePlates("25x4,heavy")
        }
        #expect(PlateCalculator.Failure.invalidPlates(text: "25x4,heavy", item: "heavy", reason: "expected WEIGHTxCOUNT, e.g. 25x4").description
            == "cannot read plates \"25x4,heavy\" at \"heavy\": expected WEIGHTxCOUNT, e.g. 25x4")
    }

    @Test("The inventory follows equipment.updated events")
    func inventoryFromEvents() {
        var log = EventLog()
        log.add("equipment.updated", ["unit": "lb"])
        log.add("equipment.updated", ["plates": [.object(["weight": 45, "count": 4]), .object(["weight": 10, "count": 2])],
                                      "bars": [.object(["name": "Women's bar", "weight": 33])]])
        let inventory = PlateInventory.from(ledger: log.ledger)
        #expect(inventory == PlateInventory(unit: .lb, plates: [PlateStock(weight: 45, count: 4), PlateStock(weight: 10, count: 2)], barWeight: 33))
    }
}

@Suite("One-rep max, units and warm-ups")
struct FormulaTests {
    @Test("Epley is the default, Brzycki is available, one rep returns the weight", arguments: [
        (100.0, 1, OneRepMax.Formula.epley, 100.0 as Double?),
        (100.0, 10, .epley, 133.33333333333334),
        (100.0, 5, .epley, 116.66666666666667),
        (100.0, 1, .brzycki, 100.0),
        (100.0, 10, .brzycki, 133.33333333333334),
        (100.0, 5, .brzycki, 112.5),
        (100.0, 0, .epley, nil),
        (100.0, 37, .brzycki, nil),
    ])
    func oneRepMax(weight: Double, reps: Int, formula: OneRepMax.Formula, expected: Double?) {
        let estimate = OneRepMax.estimate(weight: weight, reps: reps, formula: formula)
        if let expected {
            #expect(abs((estimate ?? -1) - expected) < 1e-9)
        } else {
            #expect(estimate == nil)
        }
    }

    @Test("One pound is exactly 0.45359237 kg, both ways")
    func units() {
        #expect(Units.kilograms(1, from: .lb) == 0.45359237)
        #expect(Units.kilograms(100, from: "lb") == 45.359237)
        #expect(Units.kilograms(100, from: "stone") == nil)
        #expect(Units.convert(45.359237, from: .kg, to: .lb) == 100)
        #expect(Units.convert(20, from: "kg", to: "kg") == 20)
        #expect(Units.round(61.3, toNearest: 2.5) == 62.5)
        #expect(Units.roundDown(92.24, to: 2.5) == 90)
    }

    @Test("The warm-up set is 60% of the working weight, rounded to 2.5 kg, for 10 reps")
    func warmUpSet() {
        #expect(WarmUp.suggestedSet(workingWeight: 100, unit: .kg) == WarmUpSet(weight: 60, reps: 10, unit: .kg, percent: 0.6))
        #expect(WarmUp.suggestedSet(workingWeight: 82.5, unit: .kg)?.weight == 50)      // 49.5 → 50
        #expect(WarmUp.suggestedSet(workingWeight: 135, unit: .lb)?.weight == 80)       // 81 → 80
        #expect(WarmUp.suggestedSet(workingWeight: 25, unit: .kg, barWeight: 20)?.weight == 20)
        #expect(WarmUp.suggestedSet(workingWeight: 0, unit: .kg) == nil)
    }

    @Test("The warm-up ramp climbs from the bar and skips steps that do not climb")
    func ramp() {
        #expect(WarmUp.ramp(workingWeight: 100, unit: .kg, barWeight: 20).map { "\(formatted($0.weight))x\($0.reps)" }
            == ["20x10", "40x5", "60x3", "80x2"])
        #expect(WarmUp.ramp(workingWeight: 40, unit: .kg, barWeight: 20).map { "\(formatted($0.weight))x\($0.reps)" }
            == ["20x10", "25x3", "32.5x2"])
        #expect(WarmUp.ramp(workingWeight: 20, unit: .kg, barWeight: 20).isEmpty)
        // In pounds every step is a multiple of 5 lb over a 45 lb bar.
        #expect(WarmUp.ramp(workingWeight: 140, unit: .lb, barWeight: 45).map { "\(formatted($0.weight))x\($0.reps)" }
            == ["45x10", "55x5", "85x3", "110x2"])
        #expect(WarmUp.suggestedSet(workingWeight: 135, unit: .lb, barWeight: 45)?.weight == 80)
    }
}
