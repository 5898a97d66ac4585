import JournalEvents
import JournalModel
import TrainingDomain

/// What `journal link FILE NAME EXERCISE` records (`exercise.linked`): NAME is an imported name (`ImportedName.list`)
/// or a custom exercise's id or name; EXERCISE a catalogue id or name, or `none` to undo the link.
public struct ExerciseLink: Sendable {
    /// Why a link cannot be recorded; nothing was written.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The custom or imported exercise's id.
    public var custom: String
    /// The catalogue exercise it is filed under; nil undoes the link.
    public var target: String?
    /// The sets recorded under `custom`, which every view then counts as `target`'s.
    public var sets: Int

    /// The event to record.
    public var draft: JSONValue { .draft(.exerciseLinked, [.exercise: .string(custom), .to: target.map { .string($0) } ?? .null]) }

    /// Resolves NAME and EXERCISE against the journal at `path` (its `events`) and the catalogue.
    public init(events: [Event], path: String, name: String, exercise: String, catalogue: ExerciseCatalogue = .builtIn) throws(Refusal) {
        let ledger = Ledger(events: events, asOf: Ledger.everything)
        let lowered = name.lowercased()
        if let entry = ImportedName.list(events, catalogue: catalogue).first(where: { $0.name.lowercased() == lowered }) {
            guard entry.custom else {
                throw Refusal(description: "\"\(entry.name)\" is filed under the catalogue exercise \(entry.exercise) by the import, not a custom exercise; only custom exercises are linked")
            }
            custom = entry.exercise
        } else if let found = ledger.customExercises.values.sorted(by: { $0.id < $1.id })
            .first(where: { $0.id == name || $0.name.lowercased() == lowered }) {
            custom = found.id
        } else {
            throw Refusal(description: "\(path): no imported name or custom exercise \"\(name)\" (`journal exercises \(path) --imported` lists them)")
        }
        if exercise.lowercased() != "none" {
            guard let found = catalogue.exercise(id: exercise)
                    ?? catalogue.exercises.first(where: { !$0.isCustom && $0.name.lowercased() == exercise.lowercased() }) else {
                throw Refusal(description: "no catalogue exercise \"\(exercise)\" (`journal catalog --search TEXT` lists ids and names; none undoes a link)")
            }
            target = found.id
        }
        let id = custom
        sets = ledger.workouts.reduce(0) { $0 + $1.sets.filter { $0.exercise == id }.count }
    }
}
