import ArgumentParser
import WorkoutJournalSync

struct HomeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home", abstract: "The home page: streaks, programme week, this week's sessions, next workout, recent records.")

    @OptionGroup var options: ViewOptions

    func run() throws {
        try reportingFailures {
            if options.untilSeq == nil {
                // From `<journal>.home-snapshot` when it gives the full replay's answer (PROJECTIONS.md §"Snapshots").
                let page = try JournalLoader.home(path: options.file, asOf: options.asOf.map { try parseTime($0, option: "--as-of") },
                                                  context: Journal.projectionContext, useSnapshot: options.snapshot.enabled)
                options.emit(page.home) { HomeCommand.render(page.home, unit: page.unit) }
                return
            }
            let analysis = try options.analysis()
            let home = HomeState(analysis)
            options.emit(home) { HomeCommand.render(home, unit: analysis.unit) }
        }
    }

    static func render(_ home: HomeState, unit: WeightUnit) -> String {
        var lines: [String] = []
        let first = home.name?.split(separator: " ").first.map(String.init)
        lines.append(first.map { "Hey, \($0)" } ?? "Hey there")
        lines.append(home.message)
        let s = home.streak
        lines.append("Streak: \(s.currentDays) day\(s.currentDays == 1 ? "" : "s") (longest \(s.longestDays)) · \(s.currentWeeks) week\(s.currentWeeks == 1 ? "" : "s") in a row")
        if let p = home.programme {
            var parts = ["\(p.split)", p.finished ? "finished (\(p.weeks) weeks): retake the questionnaire or regenerate the programme" : "Week \(p.week) of \(p.weeks)",
                         "\(p.daysPerWeek) days/week"]
            if let minutes = p.sessionMinutes { parts.append("\(minutes) min") }
            if !p.priorityMuscles.isEmpty { parts.append("priority: " + p.priorityMuscles.joined(separator: ", ")) }
            lines.append("Programme: " + parts.joined(separator: " · "))
        } else {
            lines.append("Programme: none")
        }
        lines.append("")
        let target = home.week.target.map { "/\($0)" } ?? ""
        lines.append("This week (from \(home.week.start)): \(home.week.completed)\(target) complete")
        for session in home.week.sessions { lines.append("  \(session.completed ? "✓" : " ") \(session.name)") }
        lines.append("  " + ["M", "T", "W", "T", "F", "S", "S"].joined(separator: " "))
        lines.append("  " + home.week.calendar.map { $0.finished ? "●" : $0.scheduled.isEmpty ? "·" : "○" }.joined(separator: " "))
        func card(_ c: SessionCard) -> String { "\(c.name) • \(c.exercises.count) exercise\(c.exercises.count == 1 ? "" : "s")" }
        if let next = home.nextWorkout {
            lines.append("")
            lines.append("Next workout: \(card(next))")
            for e in next.exercises { lines.append("  \(e.name)  \(e.sets) × \(e.reps ?? "–")") }
        }
        if !home.upcoming.isEmpty { lines.append("Upcoming: " + home.upcoming.map(card).joined(separator: ", ")) }
        if !home.plannedWorkouts.isEmpty {
            lines.append("Planned:")
            for card in home.plannedWorkouts {
                lines.append("  \(card.date.map { "\($0)" } ?? "no date")  \(card.name) • \(card.exercises.count) exercise\(card.exercises.count == 1 ? "" : "s")"
                             + (card.overdue ? " (overdue)" : "") + ": " + card.exercises.map(\.name).joined(separator: ", "))
            }
        }
        if let active = home.activeWorkout { lines.append("In progress: \(active) (journal active)") }
        if !home.recentRecords.isEmpty {
            lines.append("")
            lines.append("Recent PRs:")
            for record in home.recentRecords { lines.append("  " + Text.record(record, unit)) }
        }
        if !home.lastWorkouts.isEmpty {
            lines.append("")
            lines.append("Last workouts:")
            lines.append(Text.table(["DATE", "NAME", "DURATION", "EXERCISES", "VOLUME"], home.lastWorkouts.map {
                [$0.date.description, $0.name, Text.duration($0.durationSeconds), "\($0.exerciseCount)", Text.kilograms($0.volumeKilograms, unit)]
            }).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        }
        return lines.joined(separator: "\n")
    }
}
