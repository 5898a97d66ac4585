import JournalEvents

/// One fixed workout as drafts, for load generators and tests that need many small workouts whose bytes never vary:
/// `workout.started`, `sets` completed sets of one exercise (60 + 2.5 × set kg, 8 + set mod 3 reps) and
/// `workout.finished` when `finished` is set. No `seq`, `id` or `v`: the journal fills them.
public enum ScriptedWorkout {
    /// The first event's time when none is given.
    public static let start = Timestamp(rfc3339: "2026-01-05T18:00:00.000+01:00")!

    /// The drafts, their times a minute apart from `at`.
    public static func drafts(_ workout: String, sets: Int, at: Timestamp = start, finished: Bool = true,
                              exercise: String = "barbell-bench-press") -> [JSONValue] {
        var drafts: [JSONValue] = []
        var clock = at
        func next() -> Timestamp { defer { clock = clock.adding(milliseconds: 60_000) }; return clock }
        drafts.append(.draft(.workoutStarted, at: next(), [.workout: .string(workout), .name: "Push", .session: .null]))
        for set in 1...max(sets, 1) {
            drafts.append(.draft(.setCompleted, at: next(), [
                .workout: .string(workout), .exercise: .string(exercise),
                .set: .int(set), .weight: .number(60 + 2.5 * Double(set)), .unit: "kg", .reps: .int(8 + set % 3), .kind: "working",
            ]))
        }
        if finished { drafts.append(.draft(.workoutFinished, at: next(), [.workout: .string(workout)])) }
        return drafts
    }
}
