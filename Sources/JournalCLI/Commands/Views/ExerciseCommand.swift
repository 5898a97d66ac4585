import ArgumentParser
import WorkoutJournalSync

struct ExerciseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercise", abstract: "One exercise's history: best set, start weight, sessions, records and chart series.")

    @OptionGroup var options: ViewOptions

    @Argument(help: "A catalogue id (barbell-bench-press) or a name (\"Barbell Bench Press\").")
    var exercise: String

    /// Seed 004's How-to after the history: the equipment, then setup, numbered steps and cues.
    static func howTo(_ view: ExerciseHistoryState) -> [String] {
        guard let how = view.howTo else { return [] }
        return ["", "How to (\(how.equipment.joined(separator: ", "))):", "  Setup: \(how.setup)"]
            + how.steps.enumerated().map { "  \($0.offset + 1). \($0.element)" } + ["  Cues: " + how.cues.joined(separator: " ")]
    }

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            guard let id = analysis.resolveExercise(exercise) else {
                throw Failure(message: "no exercise \"\(exercise)\" in the catalogue or in \(options.file) (`journal catalog --search TEXT` lists ids and names)")
            }
            let view = ExerciseHistoryState(analysis, exercise: id)
            let unit = analysis.unit
            options.emit(view) {
                var lines = [view.name]
                guard !view.isEmpty else { return (lines + [ExerciseHistoryState.emptyMessage] + Self.howTo(view)).joined(separator: "\n") }
                if let cardio = view.cardio {
                    let b = cardio.bests
                    lines.append("Longest: \(Text.number(b.longestMinutes)) min" + (b.longestKm.map { " · farthest: \(Text.number($0)) km" } ?? "")
                                 + (b.fastestPaceMinutesPerKm.map { " · fastest pace: \(Text.number($0)) min/km" } ?? ""))
                    lines.append("")
                    lines.append(Text.table(["DATE", "WORKOUT", "MINUTES", "KM", "PACE"], cardio.sessions.map { s in
                        [s.date.description, s.workoutName, Text.number(s.minutes), s.km.map(Text.number) ?? "–",
                         s.paceMinutesPerKm.map { "\(Text.number($0)) min/km" } ?? "–"]
                    }))
                    lines.append("")
                    lines.append("Distance per session: " + cardio.charts.km.map { Text.number($0.value) }.joined(separator: " → ") + " km")
                    if view.sessions.isEmpty { return (lines + Self.howTo(view)).joined(separator: "\n") }
                    lines.append("")
                }
                // An assisted exercise's weights are help: said so, and no e1RM (SetRanking).
                let help = view.assisted
                if let best = view.bestSet { lines.append("Best set: \(Text.weight(best.weight, best.unit, assisted: help)) • \(best.reps) reps") }
                if let start = view.startWeight { lines.append("Start weight: \(Text.weight(start.weight, start.unit, assisted: help))") }
                if let bests = view.bests, view.assisted {
                    lines.append("Least assistance: \(Text.kilograms(bests.heaviestWeightKilograms, unit)) (less is better; no e1RM on an assisted exercise)")
                } else if let bests = view.bests {
                    lines.append("Heaviest: \(Text.kilograms(bests.heaviestWeightKilograms, unit)) · best e1RM: \(Text.kilograms(bests.e1rmKilograms, unit)) · best session volume: \(Text.kilograms(bests.sessionVolumeKilograms, unit))")
                }
                lines.append("")
                lines.append(Text.table(["DATE", "WORKOUT", "TOP SET", "E1RM", "VOLUME", "REPS", ""], view.sessions.map { s in
                    [s.date.description, s.workoutName, "\(Text.weight(s.topSet.weight, s.topSet.unit, assisted: help)) × \(s.topSet.reps)",
                     view.assisted ? "–" : Text.kilograms(s.e1rmKilograms, unit), Text.kilograms(s.volumeKilograms, unit), "\(s.reps)", s.rosette ? "🏅" : ""]
                }))
                if let last = view.sessions.first {
                    lines.append("")
                    lines.append("Last session (\(last.date)):")
                    for line in Text.sets(last.sets, assisted: help) { lines.append("  " + line) }
                }
                if !view.records.isEmpty {
                    lines.append("")
                    lines.append("Records:")
                    for record in view.records { lines.append("  " + Text.record(record, unit)) }
                }
                lines.append("")
                if TerminalCharts.enabled {
                    // Oldest first, as a chart reads (a compact Unicode chart on a terminal).
                    let second = view.assisted ? ("Least assistance per session", view.charts.maxWeight) : ("Estimated 1RM per session", view.charts.e1rm)
                    // An assisted exercise has no volume (help is not load): only its assistance is charted.
                    for (title, series) in (view.assisted ? [] : [("Volume per session", view.charts.volume)]) + [second] {
                        lines.append(TerminalCharts.render(series, title: title, unit: unit))
                    }
                } else if !view.assisted {
                    lines.append("Volume per session: " + view.charts.volume.map { Text.number(Units.convert($0.value, from: .kg, to: unit)) }.joined(separator: " → "))
                }
                return (lines + Self.howTo(view)).joined(separator: "\n")
            }
        }
    }
}
