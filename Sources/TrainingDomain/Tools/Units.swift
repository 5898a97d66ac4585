/// A weight unit as events write it: `kg` or `lb`.
public enum WeightUnit: String, Sendable, Hashable, CaseIterable, Codable {
    case kg
    case lb

    /// Accepts `kg`, `kgs`, `lb`, `lbs` in any case; nil for anything else.
    public init?(parsing text: String) {
        switch text.trimmed.lowercased() {
        case "kg", "kgs", "kilogram", "kilograms": self = .kg
        case "lb", "lbs", "pound", "pounds": self = .lb
        default: return nil
        }
    }

    /// The smallest step weights are rounded to for loading a bar: 2.5 kg or 5 lb.
    public var loadingStep: Double { self == .kg ? 2.5 : 5 }
}

/// The one weight conversion used everywhere: 1 lb = 0.45359237 kg exactly (international pound).
public enum Units {
    public static let kilogramsPerPound = 0.45359237

    public static func kilograms(_ value: Double, from unit: WeightUnit) -> Double {
        unit == .kg ? value : value * kilogramsPerPound
    }

    /// `value` in `unit` ("kg"/"lb", as events spell it) converted to kilograms; nil for an unknown unit.
    public static func kilograms(_ value: Double, from unit: String) -> Double? {
        WeightUnit(parsing: unit).map { kilograms(value, from: $0) }
    }

    public static func pounds(_ value: Double, from unit: WeightUnit) -> Double {
        unit == .lb ? value : value / kilogramsPerPound
    }

    public static func convert(_ value: Double, from source: WeightUnit, to target: WeightUnit) -> Double {
        source == target ? value : (target == .kg ? kilograms(value, from: source) : pounds(value, from: source))
    }

    /// String-unit form for event payloads; nil when either unit is unknown.
    public static func convert(_ value: Double, from source: String, to target: String) -> Double? {
        guard let s = WeightUnit(parsing: source), let t = WeightUnit(parsing: target) else { return nil }
        return convert(value, from: s, to: t)
    }

    /// Rounds to the nearest multiple of `step` (ties away from zero); `step` ≤ 0 returns the value.
    public static func round(_ value: Double, toNearest step: Double) -> Double {
        guard step > 0 else { return value }
        return (value / step).rounded(.toNearestOrAwayFromZero) * step
    }

    /// Rounds down to a multiple of `step`, with a small tolerance for binary fractions (62.4999… → 62.5).
    public static func roundDown(_ value: Double, to step: Double) -> Double {
        guard step > 0 else { return value }
        return ((value / step) + 1e-9).rounded(.down) * step
    }
}
