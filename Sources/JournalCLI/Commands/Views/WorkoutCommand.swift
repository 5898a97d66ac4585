import ArgumentParser
import WorkoutJournalSync

struct WorkoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout", abstract: "One finished workout with its sets, progress and records (the finish summary).",
        discussion: "Without ID, the latest finished workout.")

    @OptionGroup var options: ViewOptions

    @Argument(help: "The workout id (from `journal history`).")
    var id: String?

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            guard let detail = WorkoutDetail(analysis, workout: id) else {
                if let id { throw Failure(message: "no finished workout \"\(id)\" in \(options.file) (see `journal history \(options.file)`)") }
                throw Failure(message: "no finished workout yet in \(options.file) (a workout in progress shows in `journal active \(options.file)`)")
            }
            options.emit(detail) { WorkoutCommand.render(detail, unit: analysis.unit) }
        }
    }

    static func render(_ detail: WorkoutDetail, unit: WeightUnit) -> String {
        let w = detail.summary
        var lines = ["\(w.name) Workout  \(Text.duration(w.durationSeconds))",
                     "\(w.date)  \(w.startedAt) – \(w.finishedAt)\(w.edited ? "  (edited)" : "")"]
        if w.firstTime {
            lines.append(WorkoutSummary.firstTimeMessage)
        } else {
            lines.append("Total increased reps: \(w.increasedReps)")
            lines.append("Total increased load: \(Text.kilograms(w.increasedLoadKilograms, unit))")
        }
        lines.append("\(w.exerciseCount) exercises · \(w.setCount) sets · \(w.reps) reps · \(Text.kilograms(w.volumeKilograms, unit))")
        for exercise in w.exercises {
            lines.append("")
            let superset = exercise.superset.map { "  [superset \($0)]" } ?? ""
            lines.append("\(exercise.name)\(exercise.rosette ? "  🏅" : "")\(superset)")
            if let cardio = exercise.cardio {
                lines.append("  \(Text.number(cardio.minutes)) min" + (cardio.km.map { " • \(Text.number($0)) km" } ?? ""))
            }
            for line in Text.sets(exercise.sets, assisted: exercise.assisted) { lines.append("  " + line) }
            for note in exercise.notes { lines.append("  Note: \(note)") }
        }
        for note in w.notes { lines.append("Note: \(note)") }
        if !detail.records.isEmpty {
            lines.append("")
            lines.append("Records:")
            for record in detail.records { lines.append("  " + Text.record(record, unit)) }
        }
        return lines.joined(separator: "\n")
    }
}
