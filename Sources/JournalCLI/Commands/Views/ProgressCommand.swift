import ArgumentParser
import WorkoutJournalSync

extension ProgressRange: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.uppercased()) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

struct ProgressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress", abstract: "Progress over a time range: totals, weekly frequency, muscle groups, consistency, strength.")

    @OptionGroup var options: ViewOptions

    @Option(help: "1M, 3M, 6M, 1Y or ALL.")
    var range: ProgressRange = .oneMonth

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            let view = ProgressState(analysis, range: range)
            let unit = analysis.unit
            options.emit(view) {
                var lines = ["Progress \(view.range.rawValue): \(view.from.map { "\($0)" } ?? "–") to \(view.to)",
                             "Workouts: \(view.workouts) (this month \(view.workoutsThisMonth)) · volume \(Text.kilograms(view.totalVolumeKilograms, unit)) · day streak \(view.dayStreak) · records \(view.recordCount)",
                             "Consistency: \(view.consistency.percent)% of \(view.consistency.weeks) weeks met \(view.consistency.target) workout\(view.consistency.target == 1 ? "" : "s")",
                             "", "Workouts per week:"]
                for week in view.weeklyFrequency { lines.append("  \(week.week)  \(String(repeating: "#", count: week.workouts)) \(week.workouts)") }
                if !view.muscleGroups.isEmpty {
                    lines.append("")
                    lines.append(Text.table(["MUSCLE", "SETS", "SHARE"], view.muscleGroups.map { [$0.muscle, "\($0.sets)", "\(Text.number($0.percent))%"] }))
                }
                if !view.strength.isEmpty {
                    lines.append("")
                    lines.append("Max weight per session:")
                    for series in view.strength {
                        let values = series.points.map { Text.number(Units.convert($0.value, from: .kg, to: unit)) }
                        let shown = TerminalCharts.enabled ? TerminalCharts.sparkline(series.points.map(\.value)) + "  " + (values.last ?? "")
                                                           : values.joined(separator: " → ")
                        lines.append("  \(series.name)\(series.favourite ? " ★" : ""): " + shown)
                    }
                }
                if view.weeklyFrequency.contains(where: { $0.volumeKilograms > 0 }) {
                    lines.append("")
                    lines.append("Volume per week:")
                    for week in view.weeklyFrequency { lines.append("  \(week.week)  \(Text.kilograms(week.volumeKilograms, unit))") }
                }
                if view.weeklyFrequency.contains(where: { $0.sets > 0 }) {
                    lines.append("")
                    lines.append("Working sets per week:")
                    for week in view.weeklyFrequency { lines.append("  \(week.week)  \(week.sets)") }
                }
                if !view.strength.isEmpty {
                    lines.append("")
                    lines.append("Estimated 1RM per session (Epley):")
                    for series in view.strength {
                        lines.append("  \(series.name): " + series.oneRepMax.map { Text.number(Units.convert($0.value, from: .kg, to: unit)) }.joined(separator: " → "))
                    }
                }
                return lines.joined(separator: "\n")
            }
        }
    }
}
