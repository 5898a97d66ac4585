import ArgumentParser
import WorkoutJournalSync

struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar", abstract: "One month's days with finished workouts (●) and scheduled ones (○).")

    @OptionGroup var options: ViewOptions

    @Option(help: "The month, YYYY-MM (default: the month of --as-of).")
    var month: String?

    func validate() throws {
        if let month, LocalDate(iso: month + "-01") == nil { throw ValidationError("--month \"\(month)\" is not of the form YYYY-MM.") }
    }

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            let start = month.flatMap { LocalDate(iso: $0 + "-01") }?.components
            let calendar = CalendarMonth(analysis, year: start?.year, month: start?.month)
            options.emit(calendar) {
                var lines = ["\(calendar.year)-\(calendar.month < 10 ? "0" : "")\(calendar.month)", " M  T  W  T  F  S  S"]
                let first = LocalDate(year: calendar.year, month: calendar.month, day: 1)
                var cells = Array(repeating: "  ", count: first.isoWeekday - 1)
                for day in 1...LocalDate.daysIn(month: calendar.month, year: calendar.year) {
                    let trained = calendar.days.contains { $0.date.components.day == day }
                    let scheduled = calendar.scheduled.contains { $0.date.components.day == day }
                    cells.append(trained ? " ●" : scheduled ? " ○" : (day < 10 ? " \(day)" : "\(day)"))
                }
                while !cells.isEmpty {
                    lines.append(cells.prefix(7).joined(separator: " "))
                    cells.removeFirst(min(7, cells.count))
                }
                lines.append("\(calendar.days.count) day\(calendar.days.count == 1 ? "" : "s") with workouts")
                for day in calendar.scheduled { lines.append("○ \(day.date): \(day.names.joined(separator: ", "))") }
                return lines.joined(separator: "\n")
            }
        }
    }
}
