import JournalEvents
import TrainingDomain

// Units, one-rep max and rep ranges come from TrainingDomain (`WeightUnit`, `Units`, `OneRepMax`, `RepRange`):
// one conversion used everywhere. These helpers only give them the shape the folds use.

extension WeightUnit {
    /// An event's `unit` field, spelled exactly `kg` or `lb` (the hot path: no trimming or case folding).
    @inline(__always) init?(_ text: String?) {
        // Compared in place rather than through `init(rawValue:)` (a table scan): usually equal on the first try.
        if text == "kg" { self = .kg } else if text == "lb" { self = .lb } else { return nil }
    }

    /// `value` in this unit, in kilograms (1 lb = 0.45359237 kg).
    @inline(__always) func kilograms(_ value: Double) -> Double { Units.kilograms(value, from: self) }

    /// `kilograms` in this unit.
    @inline(__always) func fromKilograms(_ kilograms: Double) -> Double { Units.convert(kilograms, from: .kg, to: self) }
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

/// A weight shown in the display unit, rounded to 0.01.
public struct DisplayWeight: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var weight: Double
    public var unit: WeightUnit

    public init(weight: Double, unit: WeightUnit) { self.weight = weight; self.unit = unit }
    public init(kilograms: Double, in unit: WeightUnit) {
        self.init(weight: Rounding.display(unit.fromKilograms(kilograms)), unit: unit)
    }

    public var description: String { "\(Rounding.text(weight)) \(unit.rawValue)" }
}

/// Where projections round (PROJECTIONS.md §"Units"): kilogram figures to the gram, display weights to 0.01.
public enum Rounding {
    @inline(__always) public static func kilograms(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
    @inline(__always) public static func display(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    /// `60`, `62.5`, `45.36`: no trailing zeros.
    public static func text(_ value: Double) -> String {
        if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
        return String(display(value))
    }
}

/// Epley estimate (TrainingDomain's `OneRepMax`), 0 for a set of no reps.
@inline(__always) func epley(_ kilograms: Double, _ reps: Int) -> Double {
    OneRepMax.estimate(weight: kilograms, reps: reps, formula: .epley) ?? 0
}

extension RepRange {
    /// A prescription's `reps` text such as `"8-12"` or `"5"`; nil for nil or text without a number.
    init?(_ text: String?) {
        guard let text else { return nil }
        self.init(text)
    }
}
