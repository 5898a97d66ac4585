import JournalEvents
import JournalModel

/// The typed calls of `UserJournal` with their workout and exercise ids as strings, as they were before `WorkoutID` and
/// `ExerciseID`: each forwards to the typed call. Deprecated; a string literal already calls the typed one.
extension UserJournal {
    /// `startWorkout` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func startWorkout(name: String, session: Int? = nil, template: String? = nil, plan: String? = nil, repeating: String? = nil,
                             startedAt: Timestamp? = nil, id: String? = nil) throws(JournalError) -> String {
        try startWorkout(name: name, session: session, template: template, plan: plan, repeating: repeating.map(WorkoutID.init), startedAt: startedAt, id: id.map(WorkoutID.init)).rawValue
    }

    /// `finishWorkout` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func finishWorkout(_ workout: some StringProtocol, finishedAt: Timestamp? = nil) throws(JournalError) -> Event {
        try finishWorkout(WorkoutID(String(workout)), finishedAt: finishedAt)
    }

    /// `discardWorkout` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func discardWorkout(_ workout: some StringProtocol) throws(JournalError) -> Event {
        try discardWorkout(WorkoutID(String(workout)))
    }

    /// `editWorkout` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func editWorkout(_ workout: some StringProtocol, name: String? = nil, startedAt: Timestamp? = nil, finishedAt: Timestamp? = nil) throws(JournalError) -> Event {
        try editWorkout(WorkoutID(String(workout)), name: name, startedAt: startedAt, finishedAt: finishedAt)
    }

    /// `deleteWorkout` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func deleteWorkout(_ workout: some StringProtocol) throws(JournalError) -> Event {
        try deleteWorkout(WorkoutID(String(workout)))
    }

    /// `noteWorkout` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func noteWorkout(_ workout: some StringProtocol, _ note: String) throws(JournalError) -> Event {
        try noteWorkout(WorkoutID(String(workout)), note)
    }

    /// `addExercise` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func addExercise(_ exercise: some StringProtocol, to workout: some StringProtocol, position: Int? = nil, sets: Int? = nil, reps: String? = nil,
                            restSeconds: Int? = nil) throws(JournalError) -> Event {
        try addExercise(ExerciseID(String(exercise)), to: WorkoutID(String(workout)), position: position, sets: sets, reps: reps, restSeconds: restSeconds)
    }

    /// `removeExercise` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func removeExercise(_ exercise: some StringProtocol, from workout: some StringProtocol) throws(JournalError) -> Event {
        try removeExercise(ExerciseID(String(exercise)), from: WorkoutID(String(workout)))
    }

    /// `reorderExercises` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func reorderExercises(_ workout: some StringProtocol, _ order: [String]) throws(JournalError) -> Event {
        try reorderExercises(WorkoutID(String(workout)), order.map(ExerciseID.init))
    }

    /// `swapExercise` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func swapExercise(_ workout: some StringProtocol, from: some StringProtocol, to: some StringProtocol, reason: String? = nil) throws(JournalError) -> Event {
        try swapExercise(WorkoutID(String(workout)), from: ExerciseID(String(from)), to: ExerciseID(String(to)), reason: reason)
    }

    /// `noteExercise` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func noteExercise(_ exercise: some StringProtocol, in workout: some StringProtocol, _ note: String) throws(JournalError) -> Event {
        try noteExercise(ExerciseID(String(exercise)), in: WorkoutID(String(workout)), note)
    }

    /// `submitExercise` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func submitExercise(_ exercise: some StringProtocol, in workout: some StringProtocol) throws(JournalError) -> Event {
        try submitExercise(ExerciseID(String(exercise)), in: WorkoutID(String(workout)))
    }

    /// `linkSuperset` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func linkSuperset(_ exercises: [String], in workout: some StringProtocol, group: String? = nil) throws(JournalError) -> String {
        try linkSuperset(exercises.map(ExerciseID.init), in: WorkoutID(String(workout)), group: group)
    }

    /// `unlinkSuperset` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func unlinkSuperset(_ group: String, in workout: some StringProtocol) throws(JournalError) -> Event {
        try unlinkSuperset(group, in: WorkoutID(String(workout)))
    }

    /// `completeSet` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func completeSet(_ workout: some StringProtocol, exercise: some StringProtocol, set: Int, weight: Double, unit: WeightUnit = .kg, reps: Int,
                            kind: SetKind = .working, rpe: Double? = nil, edited: Bool = false) throws(JournalError) -> Event {
        try completeSet(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)), set: set, weight: weight, unit: unit, reps: reps, kind: kind, rpe: rpe, edited: edited)
    }

    /// `uncompleteSet` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func uncompleteSet(_ workout: some StringProtocol, exercise: some StringProtocol, set: Int) throws(JournalError) -> Event {
        try uncompleteSet(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)), set: set)
    }

    /// `addSet` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func addSet(_ workout: some StringProtocol, exercise: some StringProtocol, set: Int, weight: Double? = nil, unit: WeightUnit? = nil, reps: Int? = nil,
                       kind: SetKind? = nil) throws(JournalError) -> Event {
        try addSet(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)), set: set, weight: weight, unit: unit, reps: reps, kind: kind)
    }

    /// `removeSet` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func removeSet(_ workout: some StringProtocol, exercise: some StringProtocol, set: Int) throws(JournalError) -> Event {
        try removeSet(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)), set: set)
    }

    /// `editSet` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func editSet(_ workout: some StringProtocol, exercise: some StringProtocol, set: Int, weight: Double? = nil, unit: WeightUnit? = nil, reps: Int? = nil,
                        kind: SetKind? = nil, rpe: Double? = nil) throws(JournalError) -> Event {
        try editSet(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)), set: set, weight: weight, unit: unit, reps: reps, kind: kind, rpe: rpe)
    }

    /// `rateSet` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func rateSet(_ workout: some StringProtocol, exercise: some StringProtocol, set: Int, rpe: Double) throws(JournalError) -> Event {
        try rateSet(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)), set: set, rpe: rpe)
    }

    /// `noteSet` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func noteSet(_ workout: some StringProtocol, exercise: some StringProtocol, set: Int, _ note: String) throws(JournalError) -> Event {
        try noteSet(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)), set: set, note)
    }

    /// `logCardio` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func logCardio(_ workout: some StringProtocol, exercise: some StringProtocol, minutes: Double, km: Double? = nil, calories: Double? = nil) throws(JournalError) -> Event {
        try logCardio(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)), minutes: minutes, km: km, calories: calories)
    }

    /// `startRest` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func startRest(_ workout: some StringProtocol, exercise: some StringProtocol, seconds: Int? = nil) throws(JournalError) -> Event? {
        try startRest(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)), seconds: seconds)
    }

    /// `adjustRest` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func adjustRest(_ workout: some StringProtocol, exercise: some StringProtocol, by seconds: Int) throws(JournalError) -> Event {
        try adjustRest(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)), by: seconds)
    }

    /// `skipRest` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func skipRest(_ workout: some StringProtocol, exercise: some StringProtocol, remaining: Int) throws(JournalError) -> Event {
        try skipRest(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)), remaining: remaining)
    }

    /// `configureRest` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func configureRest(_ exercise: some StringProtocol, seconds: Int) throws(JournalError) -> Event {
        try configureRest(ExerciseID(String(exercise)), seconds: seconds)
    }

    /// `saveAsTemplate` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func saveAsTemplate(_ workout: some StringProtocol, name: String, id: String? = nil) throws(JournalError) -> String {
        try saveAsTemplate(WorkoutID(String(workout)), name: name, id: id)
    }

    /// `favourite` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func favourite(_ exercise: some StringProtocol) throws(JournalError) -> Event {
        try favourite(ExerciseID(String(exercise)))
    }

    /// `unfavourite` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func unfavourite(_ exercise: some StringProtocol) throws(JournalError) -> Event {
        try unfavourite(ExerciseID(String(exercise)))
    }

    /// `configureProgression` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func configureProgression(_ exercise: some StringProtocol, increment: Double? = nil, unit: WeightUnit? = nil,
                                     trigger: ProgressionTrigger? = nil, deloadPercent: Double? = nil,
                                     failuresBeforeDeload: Int? = nil, target: Double? = nil) throws(JournalError) -> Event {
        try configureProgression(ExerciseID(String(exercise)), increment: increment, unit: unit, trigger: trigger, deloadPercent: deloadPercent, failuresBeforeDeload: failuresBeforeDeload, target: target)
    }

    /// `linkExercise` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func linkExercise(_ exercise: some StringProtocol, to catalogueExercise: String?) throws(JournalError) -> Event {
        try linkExercise(ExerciseID(String(exercise)), to: catalogueExercise.map(ExerciseID.init))
    }

    /// `startWarmup` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func startWarmup(_ workout: some StringProtocol, minutes: Double? = nil) throws(JournalError) -> Event {
        try startWarmup(WorkoutID(String(workout)), minutes: minutes)
    }

    /// `completeWarmup` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func completeWarmup(_ workout: some StringProtocol) throws(JournalError) -> Event {
        try completeWarmup(WorkoutID(String(workout)))
    }

    /// `skipWarmup` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func skipWarmup(_ workout: some StringProtocol) throws(JournalError) -> Event {
        try skipWarmup(WorkoutID(String(workout)))
    }

    /// `pauseWorkout` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func pauseWorkout(_ workout: some StringProtocol) throws(JournalError) -> Event {
        try pauseWorkout(WorkoutID(String(workout)))
    }

    /// `resumeWorkout` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func resumeWorkout(_ workout: some StringProtocol) throws(JournalError) -> Event {
        try resumeWorkout(WorkoutID(String(workout)))
    }

    /// `finishRest` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func finishRest(_ workout: some StringProtocol, exercise: some StringProtocol) throws(JournalError) -> Event {
        try finishRest(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)))
    }

    /// `answerInjuryWarning` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func answerInjuryWarning(_ workout: some StringProtocol, exercise: some StringProtocol, muscle: String, choice: InjuryChoice) throws(JournalError) -> Event {
        try answerInjuryWarning(WorkoutID(String(workout)), exercise: ExerciseID(String(exercise)), muscle: muscle, choice: choice)
    }

    /// `workout` with its ids as strings: wrap them (`WorkoutID(id)`, `ExerciseID(id)`) to call the typed one.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    public func workout(_ id: String?) -> WorkoutDetail? {
        workout(id.map(WorkoutID.init))
    }

    /// `createExercise` with its id as a string.
    @available(*, deprecated, message: "pass the ids as WorkoutID and ExerciseID")
    @_disfavoredOverload
    @discardableResult
    public func createExercise(name: String, id: String? = nil, primaryMuscles: [String]? = nil, secondaryMuscles: [String]? = nil,
                               equipment: [String]? = nil, mechanic: Mechanic? = nil, category: String? = nil) throws(JournalError) -> String {
        try createExercise(name: name, id: id.map(ExerciseID.init), primaryMuscles: primaryMuscles, secondaryMuscles: secondaryMuscles,
                           equipment: equipment, mechanic: mechanic, category: category).rawValue
    }
}
