import Foundation
import JournalEvents
import JournalInterchange
import JournalModel
import JournalProjections
import TrainingDomain

/// Records drafts the way EventJournal does (RecordingRules.prepare, then apply), in memory.
func record(_ drafts: [JSONValue], onto existing: [Event] = []) throws -> [Event] {
    let now = Timestamp(rfc3339: "2026-11-22T10:00:00.000+01:00")!
    return try record(drafts, onto: existing) { rules, draft in rules.prepare(draft, device: "test", now: now) }
}

/// `record` of typed drafts (an import plan's).
func record(_ drafts: [EventDraft], onto existing: [Event] = []) throws -> [Event] {
    try record(drafts, onto: existing) { rules, draft in rules.prepare(draft, device: "test") }
}

private func record<Draft>(_ drafts: [Draft], onto existing: [Event],
                           prepare: (RecordingRules, Draft) -> Result<Event, RecordingRules.Problem>) throws -> [Event] {
    var rules = RecordingRules()
    for event in existing { rules.apply(event) }
    var events = existing
    for draft in drafts {
        let event = try prepare(rules, draft).get()
        rules.apply(event)
        events.append(event)
    }
    return events
}

let planner = ImportPlanner(matcher: NameMatcher(catalogue: .builtIn), offsetSeconds: 3600)

func read(_ text: String, _ source: ExportReader.Source = .auto, unit: WeightUnit = .kg, strict: Bool = false) throws(InterchangeError) -> ParsedExport {
    try ExportReader.read(text: text, file: "in.csv", source: source, defaultUnit: unit, strict: strict)
}

/// Analysis as of far in the future, so every imported workout counts.
func analysis(_ events: [Event]) -> Analysis {
    let catalogue = ExerciseCatalogue.builtIn
    var context = ProjectionContext.standard
    context.exerciseName = { catalogue.exercise(id: $0)?.name ?? ProjectionContext.titleCase($0) }
    context.muscles = { catalogue.exercise(id: $0)?.primaryMuscles ?? [] }
    return Projections.analysis(events: events, asOf: Timestamp(rfc3339: "2030-01-01T00:00:00.000+01:00")!, context: context)
}

/// `../shared/realdata/strong-export.csv` beside the repository, when present.
let realStrongExport: String? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let path = root.deletingLastPathComponent().appendingPathComponent("shared/realdata/strong-export.csv").path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}()

func sets(_ workout: ImportedWorkout) -> [String] {
    workout.sets.map { "\($0.exerciseName) \($0.weight)\($0.unit.rawValue)x\($0.reps) \($0.kind)" }
}
