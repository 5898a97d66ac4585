/// An id held as a typed value: written as a string literal, encoded by `Codable` as the plain string (the standard
/// library's coding of a `String` raw value), so JSON that holds one is unchanged. It holds any text: the recording
/// rules check an id where it is recorded (FORMAT.md §"Limits").
public protocol TypedID: RawRepresentable<String>, Hashable, Comparable, Codable, Sendable, ExpressibleByStringLiteral,
                         CustomStringConvertible {
    /// The id `rawValue`, as the journal stores it.
    init(rawValue: String)
}

extension TypedID {
    /// The id `rawValue`.
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
    /// The id a string literal spells.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    /// The id as the journal stores it.
    public var description: String { rawValue }
    /// By the ids' text.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The id of an exercise: a catalogue id (`barbell-bench-press`) or one a journal created (`exercise.created`). Typed
/// so that an exercise id and a workout id cannot be passed for one another.
public struct ExerciseID: TypedID {
    /// The id as the journal stores it.
    public var rawValue: String
    /// The id `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// The id of a workout (`workout.started` `workout`: `w1`, `w2`, … as `UserJournal.startWorkout` makes them). Typed so
/// that a workout id and an exercise id cannot be passed for one another.
public struct WorkoutID: TypedID {
    /// The id as the journal stores it.
    public var rawValue: String
    /// The id `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
}
