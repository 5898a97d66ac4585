/// The weights a piece of equipment can be set to (`Units.loadable(_:from:to:on:)`).
public enum LoadableWeights: Equatable, Sendable {
    /// Any multiple of a step (a loaded bar): nil is the unit's loading step.
    case step(Double?)
    /// A fixed set of weights in `unit` (dumbbell pairs).
    case choices([Double], unit: WeightUnit)
    /// A weight stack from `minimum` to `maximum` in steps of `increment`, in `unit`.
    case stack(minimum: Double, maximum: Double, increment: Double, unit: WeightUnit)
}

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

    /// A weight recorded in `source` as a loadable weight of `target` (DOMAIN.md §"One unit rule"): as recorded when the
    /// units agree (the lifter loaded it), else converted and rounded to the nearest multiple of `step` (by default
    /// the target unit's loading step, 2.5 kg or 5 lb): 40 kg is 90 lb, never 88.19 lb; 135 lb (61.23 kg) is 60 kg.
    public static func loadable(_ value: Double, from source: WeightUnit, to target: WeightUnit, step: Double? = nil) -> Double {
        source == target ? value : round(convert(value, from: source, to: target), toNearest: step ?? target.loadingStep)
    }

    /// A weight recorded in `source` as a weight `equipment` can be set to, in `target` (DOMAIN.md §"Equipment"): the
    /// equipment's weights are converted to `target` and the nearest is taken (a tie goes to the heavier). With no
    /// weights to choose from (`.step`), `loadable(_:from:to:step:)`: the lifter's own weight when the units agree, else
    /// the nearest multiple of the step.
    public static func loadable(_ value: Double, from source: WeightUnit, to target: WeightUnit, on equipment: LoadableWeights) -> Double {
        switch equipment {
        case .step(let step):
            return loadable(value, from: source, to: target, step: step)
        case .choices(let weights, let unit):
            let weight = convert(value, from: source, to: target)
            let options = weights.map { convert($0, from: unit, to: target) }
            return options.min { a, b in
                let da = abs(a - weight), db = abs(b - weight)
                return da == db ? a > b : da < db
            } ?? loadable(value, from: source, to: target)
        case .stack(let minimum, let maximum, let increment, let unit):
            guard increment > 0, maximum >= minimum else { return loadable(value, from: source, to: target) }
            let inStack = min(max(convert(value, from: source, to: unit), minimum), maximum)
            let steps = min(((inStack - minimum) / increment).rounded(.toNearestOrAwayFromZero), ((maximum - minimum) / increment + 1e-9).rounded(.down))
            return convert(minimum + steps * increment, from: unit, to: target)
        }
    }

    /// Rounds down to a multiple of `step`, with a small tolerance for binary fractions (62.4999… → 62.5).
    public static func roundDown(_ value: Double, to step: Double) -> Double {
        guard step > 0 else { return value }
        return ((value / step) + 1e-9).rounded(.down) * step
    }
}

extension WeightUnit {
    /// An event's `unit` field, spelled exactly `kg` or `lb` (the hot path: no trimming or case folding).
    @inline(__always) public init?(_ text: String?) {
        // Compared in place rather than through `init(rawValue:)` (a table scan): usually equal on the first try.
        if text == "kg" { self = .kg } else if text == "lb" { self = .lb } else { return nil }
    }

    /// `value` in this unit, in kilograms (1 lb = 0.45359237 kg).
    @inline(__always) public func kilograms(_ value: Double) -> Double { Units.kilograms(value, from: self) }

    /// `kilograms` in this unit.
    @inline(__always) public func fromKilograms(_ kilograms: Double) -> Double { Units.convert(kilograms, from: .kg, to: self) }
}

/// A set's kind. Every kind except `warmup` is a working set.
public enum SetKind: String, Sendable, Equatable, Hashable, Codable {
    case working, warmup, drop, failure

    public init(_ text: String?) {
        // As `init(rawValue:)`, but compared in place (the common spellings first), with no table scan.
        switch text {
        case "working"?: self = .working
        case "warmup"?: self = .warmup
        case "drop"?: self = .drop
        case "failure"?: self = .failure
        default: self = .working
        }
    }
    public var isWorking: Bool { self != .warmup }
}

extension String {
    /// The text without leading and trailing spaces, tabs and newlines.
    package var trimmed: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

extension Int64 {
    /// `value` rounded toward zero and clamped to `Int64`'s range (0 for NaN): a conversion no stored number can trap.
    public init(saturating value: Double) {
        if value.isNaN { self = 0 }
        else if value >= 0x1p63 { self = .max }   // 2^63, the first Double past Int64.max
        else if value < -0x1p63 { self = .min }
        else { self = Int64(value) }
    }
}
