/// Estimated one-repetition maximum from a set of `weight` × `reps`.
public enum OneRepMax {
    public enum Formula: String, Sendable, CaseIterable {
        /// w × (1 + r/30). The default.
        case epley
        /// w × 36 / (37 − r). Defined for r < 37.
        case brzycki
    }

    /// The estimate in the unit of `weight`. A single rep returns the weight itself; nil when `reps` < 1,
    /// when `weight` is negative, or (Brzycki) when `reps` ≥ 37 where the formula divides by zero or flips sign.
    public static func estimate(weight: Double, reps: Int, formula: Formula = .epley) -> Double? {
        guard reps >= 1, weight >= 0 else { return nil }
        if reps == 1 { return weight }
        switch formula {
        case .epley:
            return weight * (1 + Double(reps) / 30)
        case .brzycki:
            guard reps < 37 else { return nil }
            return weight * 36 / (37 - Double(reps))
        }
    }
}
