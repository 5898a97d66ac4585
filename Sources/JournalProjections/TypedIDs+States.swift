import JournalEvents

// The ids a screen's state holds, typed for the calls that take them back (`UserJournal.completeSet(_:exercise:…)`
// takes a `WorkoutID` and an `ExerciseID`): `journal.completeSet(active.workoutID, exercise: row.exerciseID, …)`.
// The states keep their `String` fields, which their JSON and the apps' comparisons read.

extension ActiveWorkoutState {
    /// `workout`, typed.
    public var workoutID: WorkoutID { WorkoutID(workout) }
}

extension ActiveWorkoutState.Exercise {
    /// `exercise`, typed.
    public var exerciseID: ExerciseID { ExerciseID(exercise) }
}

extension ActiveWorkoutState.Rest {
    /// `exercise`, typed.
    public var exerciseID: ExerciseID { ExerciseID(exercise) }
}

extension WorkoutSummary {
    /// `workout`, typed.
    public var workoutID: WorkoutID { WorkoutID(workout) }
}

extension ExerciseSummary {
    /// `exercise`, typed.
    public var exerciseID: ExerciseID { ExerciseID(exercise) }
}

extension SessionCard.Exercise {
    /// `exercise`, typed.
    public var exerciseID: ExerciseID { ExerciseID(exercise) }
}

extension HomeState.RecentWorkout {
    /// `workout`, typed.
    public var workoutID: WorkoutID { WorkoutID(workout) }
}

extension ExerciseHistoryState {
    /// `exercise`, typed.
    public var exerciseID: ExerciseID { ExerciseID(exercise) }
}

extension ExerciseHistoryState.Session {
    /// `workout`, typed.
    public var workoutID: WorkoutID { WorkoutID(workout) }
}

extension PersonalRecord {
    /// `exercise`, typed.
    public var exerciseID: ExerciseID { ExerciseID(exercise) }
    /// `workout`, typed.
    public var workoutID: WorkoutID { WorkoutID(workout) }
}
