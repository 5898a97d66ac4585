import JournalEvents
import JournalModel
import TrainingDomain

// Units and set kinds come from JournalModel (`WeightUnit`, `Units`, `SetKind`), one-rep max from TrainingDomain
// (`OneRepMax`): one conversion used everywhere. These helpers only give them the shape the views use.

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

    /// `1,234.5`, `-60`, `531,468.75`: thousands separated, at most two decimals, no trailing zeros; what every screen
    /// (the CLI's text, the HTML report) shows for a number. Any finite value, however large, is shown: beyond
    /// 10^15 without grouping (`1e+16`), as `text` does.
    public static func grouped(_ value: Double) -> String {
        let rounded = display(value)
        guard value.isFinite, abs(rounded) < 1e15 else { return String(value) }
        let whole = Int64(rounded.rounded(.towardZero))
        var digits = String(abs(whole))
        var grouped = ""
        while digits.count > 3 { grouped = "," + digits.suffix(3) + grouped; digits.removeLast(3) }
        grouped = digits + grouped
        let fraction = text(abs(rounded) - Double(abs(whole)))
        let sign = rounded < 0 ? "-" : ""
        return sign + grouped + (fraction == "0" ? "" : String(fraction.dropFirst()))
    }

    /// A kilogram figure as whole grams, the key that groups equal weights: saturating, so no stored number traps.
    @inline(__always) public static func grams(_ kilograms: Double) -> Int64 { Int64(saturating: (kilograms * 1000).rounded()) }
}

/// Epley estimate (TrainingDomain's `OneRepMax`), 0 for a set of no reps.
@inline(__always) func epley(_ kilograms: Double, _ reps: Int) -> Double {
    OneRepMax.estimate(weight: kilograms, reps: reps, formula: .epley) ?? 0
}
