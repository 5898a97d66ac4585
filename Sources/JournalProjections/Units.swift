import JournalEvents

/// A weight unit as events record it (`"kg"` or `"lb"`). PROJECTIONS.md §"Units".
public enum MassUnit: String, Sendable, Equatable, Hashable, CaseIterable {
    case kg, lb

    /// Exactly 0.45359237 kg per pound (the international pound).
    public static let kilogramsPerPound = 0.45359237

    public init?(_ text: String?) {
        switch text {
        case "kg": self = .kg
        case "lb", "lbs": self = .lb
        default: return nil
        }
    }

    public func kilograms(_ value: Double) -> Double { self == .kg ? value : value * MassUnit.kilogramsPerPound }
    public func fromKilograms(_ kg: Double) -> Double { self == .kg ? kg : kg / MassUnit.kilogramsPerPound }
}

/// A set's kind. Every kind except `warmup` is a working set.
public enum SetKind: String, Sendable, Equatable, Hashable {
    case working, warmup, drop, failure

    public init(_ text: String?) { self = text.flatMap(SetKind.init(rawValue:)) ?? .working }
    public var isWorking: Bool { self != .warmup }
}

/// A weight shown in the display unit, rounded to 0.01.
public struct DisplayWeight: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var weight: Double
    public var unit: MassUnit

    public init(weight: Double, unit: MassUnit) { self.weight = weight; self.unit = unit }
    public init(kilograms: Double, in unit: MassUnit) {
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

public enum Strength {
    /// Epley: `w × (1 + r/30)`, computed as `w + w·r/30` (exact for whole weights); one rep returns the weight, zero reps 0.
    public static func epley(weight: Double, reps: Int) -> Double {
        if reps <= 0 { return 0 }
        if reps == 1 { return weight }
        return weight + weight * Double(reps) / 30
    }
}

/// A rep prescription such as `"8-12"`, `"5"`, `"8–12"` or `"AMRAP"` (no bounds).
public struct PrescribedReps: Equatable, Hashable, Sendable {
    public var low: Int
    public var high: Int

    public init(low: Int, high: Int) { self.low = low; self.high = high }

    public init?(_ text: String?) {
        guard let text else { return nil }
        var numbers: [Int] = []
        var current: Int?
        for byte in text.utf8 {
            if byte >= 48 && byte <= 57 {
                current = (current ?? 0) * 10 + Int(byte - 48)
            } else if let value = current {
                numbers.append(value); current = nil
            }
        }
        if let current { numbers.append(current) }
        guard let first = numbers.first else { return nil }
        self.init(low: first, high: numbers.count > 1 ? max(first, numbers[1]) : first)
    }

    public var text: String { low == high ? "\(low)" : "\(low)-\(high)" }
}
