import JournalEvents
import JournalModel
import JournalProjections
import TrainingDomain

/// One name another app's export gave an exercise, and where the journal files it (`journal exercises --imported`).
public struct ImportedName: Equatable, Sendable, JSONRepresentable {
    public var name: String
    /// The app (`strong`, `hevy`, …).
    public var app: String
    /// The exercise the import filed it under: a catalogue id, or the custom exercise it became.
    public var exercise: String
    public var custom: Bool
    /// The catalogue exercise a custom one is linked to (`exercise.linked`), if any.
    public var linkedTo: String?
    /// Sets (and cardio entries) recorded under the name.
    public var sets: Int

    /// Where its sets count now: the link's exercise, else the one the import chose.
    public var filedUnder: String { linkedTo ?? exercise }

    public var jsonValue: JSONValue {
        ["name": .string(name), "app": .string(app), "exercise": .string(exercise), "custom": .bool(custom),
         "linked_to": linkedTo.map { .string($0) } ?? .null, "filed_under": .string(filedUnder), "sets": .int(sets)]
    }

    public var text: String {
        let filing = custom ? (linkedTo.map { "custom, linked to \($0)" } ?? "custom, not linked") : "catalogue"
        return "\(name) (\(app)) → \(exercise) (\(filing), \(sets) sets)"
    }

    /// Every imported name of `events` (`source_name` of imported sets and cardio entries, and imported custom
    /// exercises never used), sorted by name; links as the ledger folds them.
    public static func list(_ events: [Event], catalogue: ExerciseCatalogue = .builtIn) -> [ImportedName] {
        let ledger = Ledger(events: events, asOf: Ledger.everything)
        var names: [String: ImportedName] = [:]
        func add(_ name: String, app: String, exercise: String, count: Int) {
            let key = "\(app)|\(name)|\(exercise)"
            let custom = catalogue.exercise(id: exercise) == nil
            names[key, default: ImportedName(name: name, app: app, exercise: exercise, custom: custom,
                                              linkedTo: custom ? ledger.exerciseLinks?[exercise] : nil, sets: 0)].sets += count
        }
        for event in events {
            switch event.knownType {
            case .dataCleared: names = [:]
            case .setCompleted, .cardioLogged:
                guard let app = event.string(.source), let name = event.string(.sourceName), let exercise = event.string(.exercise) else { continue }
                add(name, app: app, exercise: exercise, count: 1)
            case .exerciseCreated:
                guard let app = event.string(.source), let name = event.string(.name), let exercise = event.string(.exercise) else { continue }
                add(name, app: app, exercise: exercise, count: 0)
            default: continue
            }
        }
        return names.values.sorted { ($0.name.lowercased(), $0.app, $0.exercise) < ($1.name.lowercased(), $1.app, $1.exercise) }
    }
}
