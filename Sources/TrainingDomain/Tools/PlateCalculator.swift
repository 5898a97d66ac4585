import JournalEvents
import JournalModel

/// The lifter's plates and bar, from `equipment.updated` events or command-line flags.
public struct PlateInventory: Equatable, Sendable {
    public var unit: WeightUnit
    public var plates: [PlateStock]
    public var barWeight: Double

    public init(unit: WeightUnit, plates: [PlateStock], barWeight: Double) {
        self.unit = unit
        self.plates = plates
        self.barWeight = barWeight
    }

    /// A standard Olympic set (seed 002's first-launch default): 20 kg bar with 25×4, 20×4, 15×2, 10×2, 5×2,
    /// 2.5×2, 1.25×2; or a 45 lb bar with 45×8, 35×2, 25×2, 10×4, 5×2, 2.5×2.
    public static func standard(_ unit: WeightUnit) -> PlateInventory {
        switch unit {
        case .kg:
            return PlateInventory(unit: .kg, plates: [
                PlateStock(weight: 25, count: 4), PlateStock(weight: 20, count: 4), PlateStock(weight: 15, count: 2),
                PlateStock(weight: 10, count: 2), PlateStock(weight: 5, count: 2), PlateStock(weight: 2.5, count: 2),
                PlateStock(weight: 1.25, count: 2),
            ], barWeight: 20)
        case .lb:
            return PlateInventory(unit: .lb, plates: [
                PlateStock(weight: 45, count: 8), PlateStock(weight: 35, count: 2), PlateStock(weight: 25, count: 2),
                PlateStock(weight: 10, count: 4), PlateStock(weight: 5, count: 2), PlateStock(weight: 2.5, count: 2),
            ], barWeight: 45)
        }
    }

    /// The plates and default bar after the ledger's `equipment.updated` events (`EquipmentInventory.from`): the bar
    /// of a barbell exercise no bar lists.
    public static func from(ledger: Ledger, defaultUnit: WeightUnit = .kg) -> PlateInventory {
        EquipmentInventory.from(ledger: ledger, defaultUnit: defaultUnit).plateInventory(for: nil)
    }

    /// Parses `25x4,20x2,1.25x2` (weight × count; `×` also accepted). A plate without a count means a pair.
    public static func parsePlates(_ text: String) throws(PlateCalculator.Failure) -> [PlateStock] {
        var plates: [PlateStock] = []
        for item in text.split(separator: ",") {
            let part = String(item).trimmed
            let pieces = part.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" }).map(String.init)
            guard (pieces.count == 1 || pieces.count == 2), let weight = Double(pieces[0].trimmed), weight > 0,
                  weight.isFinite else {
                throw .invalidPlates(text: text, item: part, reason: "expected WEIGHTxCOUNT, e.g. 25x4")
            }
            let count = pieces.count == 2 ? Int(pieces[1].trimmed) : 2
            guard let count, count >= 0 else {
                throw .invalidPlates(text: text, item: part, reason: "the count must be a whole number ≥ 0")
            }
            plates.append(PlateStock(weight: weight, count: count))
        }
        if plates.isEmpty { throw .invalidPlates(text: text, item: text, reason: "no plates given") }
        return plates
    }
}

/// What to load on each side of the bar for a target weight.
public struct PlateLoading: Equatable, Sendable {
    public var target: Double
    public var barWeight: Double
    public var unit: WeightUnit
    /// Plates on ONE side, heaviest first.
    public var perSide: [Double]
    /// Bar plus both sides.
    public var achieved: Double
    /// `target − achieved`: 0 when exact, positive when the inventory cannot reach the target.
    public var difference: Double
    public var isExact: Bool { difference == 0 }
}

/// The plate calculator of seed 002: greedy, largest plate first, each plate used in pairs (one per side),
/// limited by the inventory. Arithmetic runs in integer thousandths of the unit, so 1.25 kg plates add up exactly.
public enum PlateCalculator {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case targetBelowBar(target: Double, bar: Double, unit: WeightUnit)
        case invalidWeight(name: String, value: Double)
        case invalidPlates(text: String, item: String, reason: String)

        public var description: String {
            switch self {
            case .targetBelowBar(let target, let bar, let unit):
                return "target \(formatWeight(target)) \(unit.rawValue) is below the bar (\(formatWeight(bar)) \(unit.rawValue)): nothing to load"
            case .invalidWeight(let name, let value):
                return "\(name) \(formatWeight(value)) is not a usable weight: it must be a finite number ≥ 0"
            case .invalidPlates(let text, let item, let reason):
                return "cannot read plates \"\(text)\" at \"\(item)\": \(reason)"
            }
        }
    }

    public static func load(target: Double, inventory: PlateInventory) throws(Failure) -> PlateLoading {
        try load(target: target, barWeight: inventory.barWeight, plates: inventory.plates, unit: inventory.unit)
    }

    public static func load(target: Double, barWeight: Double, plates: [PlateStock], unit: WeightUnit) throws(Failure) -> PlateLoading {
        guard target.isFinite, target >= 0 else { throw .invalidWeight(name: "target", value: target) }
        guard barWeight.isFinite, barWeight >= 0 else { throw .invalidWeight(name: "bar", value: barWeight) }
        guard target >= barWeight else { throw .targetBelowBar(target: target, bar: barWeight, unit: unit) }
        func milli(_ value: Double) -> Int64 { Int64(saturating: (value * 1000).rounded()) }
        // Per side in thousandths; an odd thousandth is lost (half of it cannot go on each side).
        var remaining = (milli(target) - milli(barWeight)) / 2
        var denominations: [Int64: Int] = [:]
        for plate in plates where plate.weight > 0 && plate.count > 0 {
            denominations[milli(plate.weight), default: 0] += plate.count
        }
        var perSide: [Double] = []
        for weight in denominations.keys.sorted(by: >) {
            var pairs = denominations[weight, default: 0] / 2
            while remaining >= weight && pairs > 0 {
                perSide.append(Double(weight) / 1000)
                remaining -= weight
                pairs -= 1
            }
        }
        let loaded = perSide.reduce(Int64(0)) { $0 + milli($1) }
        let achievedMilli = milli(barWeight) + 2 * loaded
        return PlateLoading(target: target, barWeight: barWeight, unit: unit, perSide: perSide,
                            achieved: Double(achievedMilli) / 1000,
                            difference: Double(milli(target) - achievedMilli) / 1000)
    }
}
