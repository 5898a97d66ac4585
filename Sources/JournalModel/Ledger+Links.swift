import JournalEvents

/// `exercise.linked`: a custom or imported exercise filed under a catalogue exercise. The workouts keep
/// the sets as they were recorded; every view reads them through `refiled(_:)`, so a link (or its undoing, `to`
/// null) re-files history, records, charts and progress at once, and the latest link of an exercise counts.
extension Ledger {
    mutating func link(_ event: Event) {
        guard let id = event.string(.exercise) else { return }
        var links = exerciseLinks ?? [:]
        links[id] = event.string(.to)
        exerciseLinks = links.isEmpty ? nil : links
    }

    /// The exercise an id is filed under: its link's catalogue exercise, else itself.
    public func resolvedExercise(_ id: String) -> String { exerciseLinks?[id] ?? id }

    /// `workout` with every linked exercise's sets, cardio, notes and place filed under the catalogue exercise. Sets
    /// keep their order: a linked exercise's sets are numbered after the catalogue exercise's own sets of the workout.
    public func refiled(_ workout: WorkoutRecord) -> WorkoutRecord {
        guard let links = exerciseLinks,
              workout.exercises.contains(where: { links[$0.exercise] != nil }) || workout.sets.contains(where: { links[$0.exercise] != nil })
                || workout.cardio.contains(where: { links[$0.exercise] != nil }) else { return workout }
        var copy = workout
        var offsets: [String: Int] = [:]
        func offset(_ from: String, _ to: String) -> Int {
            if let known = offsets[from] { return known }
            // After every set already under `to` (its own and earlier linked exercises').
            let taken = copy.sets.filter { $0.exercise == to }.map(\.set).max() ?? 0
            offsets[from] = taken
            return taken
        }
        for from in workout.sets.map(\.exercise).filter({ links[$0] != nil }).reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) {
            let to = links[from]!
            let shift = offset(from, to)
            for index in copy.sets.indices where copy.sets[index].exercise == from {
                copy.sets[index].exercise = to
                copy.sets[index].set += shift
            }
            for index in copy.notes.indices where copy.notes[index].exercise == from {
                copy.notes[index].exercise = to
                copy.notes[index].set = copy.notes[index].set.map { $0 + shift }
            }
        }
        for index in copy.notes.indices { if let exercise = copy.notes[index].exercise, let to = links[exercise] { copy.notes[index].exercise = to } }
        var cardio: [CardioEntry] = []
        for var entry in copy.cardio {
            entry.exercise = resolvedExercise(entry.exercise)
            if let same = cardio.firstIndex(where: { $0.exercise == entry.exercise }) {
                cardio[same].minutes += entry.minutes
                if let km = entry.km { cardio[same].km = (cardio[same].km ?? 0) + km }
                if let calories = entry.calories { cardio[same].calories = (cardio[same].calories ?? 0) + calories }
            } else {
                cardio.append(entry)
            }
        }
        copy.cardio = cardio
        var exercises: [WorkoutExercise] = []
        for var entry in copy.exercises {
            entry.exercise = resolvedExercise(entry.exercise)
            entry.prescription?.exercise = entry.exercise
            if !exercises.contains(where: { $0.exercise == entry.exercise }) { exercises.append(entry) }
        }
        copy.exercises = exercises
        for index in copy.rows.indices { copy.rows[index].exercise = resolvedExercise(copy.rows[index].exercise) }
        copy.submitted = copy.submitted.map(resolvedExercise)
        for index in copy.supersets.indices { copy.supersets[index].exercises = copy.supersets[index].exercises.map(resolvedExercise) }
        return copy
    }
}
