import JournalModel
/// One suggested warm-up set.
public struct WarmUpSet: Equatable, Sendable {
    public var weight: Double
    public var reps: Int
    public var unit: WeightUnit
    /// Share of the working weight, before rounding (0.6 for 60 %).
    public var percent: Double
}

/// Warm-up suggestions (seed 000: "X kg (50-70%) • 10 reps").
public enum WarmUp {
    /// The single suggested warm-up set: 60 % of the working weight rounded to the nearest 2.5 kg (5 lb), × 10,
    /// never below the bar when a bar is given. Nil when the working weight is not positive.
    public static func suggestedSet(workingWeight: Double, unit: WeightUnit, barWeight: Double? = nil) -> WarmUpSet? {
        guard workingWeight > 0, workingWeight.isFinite else { return nil }
        var weight = Units.round(workingWeight * 0.6, toNearest: unit.loadingStep)
        if let barWeight { weight = max(weight, barWeight) }
        weight = min(weight, workingWeight)
        return WarmUpSet(weight: weight, reps: 10, unit: unit, percent: 0.6)
    }

    /// The ramp before heavy sets: the empty bar × 10, then 40 % × 5, 60 % × 3, 80 % × 2 of the working weight,
    /// each rounded to the nearest 2.5 kg (5 lb). Steps that do not exceed the previous step and the bar, or that
    /// reach the working weight, are dropped. Without a bar the ramp starts at 40 %.
    public static func ramp(workingWeight: Double, unit: WeightUnit, barWeight: Double? = nil) -> [WarmUpSet] {
        guard workingWeight > 0, workingWeight.isFinite else { return [] }
        var sets: [WarmUpSet] = []
        if let barWeight, barWeight > 0, workingWeight > barWeight {
            sets.append(WarmUpSet(weight: barWeight, reps: 10, unit: unit, percent: barWeight / workingWeight))
        }
        for (percent, reps) in [(0.4, 5), (0.6, 3), (0.8, 2)] {
            let weight = Units.round(workingWeight * percent, toNearest: unit.loadingStep)
            guard workingWeight > weight, weight > max(sets.last?.weight ?? 0, barWeight ?? 0) else { continue }
            sets.append(WarmUpSet(weight: weight, reps: reps, unit: unit, percent: percent))
        }
        return sets
    }
}
