import ArgumentParser
import WorkoutJournalSync

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Finished workouts, newest first, with progress over the previous workout of the same name.")

    @OptionGroup var options: ViewOptions

    @Option(help: "Only workouts on or after this local date (YYYY-MM-DD).")
    var from: String?

    @Option(help: "Only workouts on or before this local date (YYYY-MM-DD).")
    var to: String?

    @Option(help: "Only workouts with this exercise (an id or a name).")
    var exercise: String?

    @Option(help: "Only workouts whose name, exercises or notes contain this text.")
    var query: String?

    @Option(help: "At most N workouts (default: all with --json, 20 in the table).")
    var limit: Int?

    @Option(help: "Skip the N newest matching workouts first (the next page: --offset 20 --limit 20).")
    var offset: Int = 0

    func validate() throws {
        if offset < 0 { throw ValidationError("--offset \(offset) must be 0 or more.") }
        for (flag, value) in [("--from", from), ("--to", to)] {
            if let value, LocalDate(iso: value) == nil { throw ValidationError("\(flag) \"\(value)\" is not a date of the form YYYY-MM-DD.") }
        }
        if let limit, limit < 1 { throw ValidationError("--limit \(limit) must be at least 1.") }
    }

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            let query = HistoryQuery(from: from.flatMap(LocalDate.init(iso:)), to: to.flatMap(LocalDate.init(iso:)), exercise: exercise, text: query,
                                     limit: limit ?? (options.json ? nil : 20), offset: offset)
            let history = HistoryState(analysis, query: query)
            options.emit(history) {
                guard !history.workouts.isEmpty else {
                    return history.total > 0 ? "No workouts past --offset \(offset): \(history.total) match." : "No workouts yet."
                }
                let unit = analysis.unit
                var text = Text.table(
                    ["DATE", "WORKOUT", "NAME", "DURATION", "EXERCISES", "SETS", "REPS", "VOLUME", "+REPS", "+LOAD"],
                    history.workouts.map { w in
                        [w.date.description, w.workout, w.name, Text.duration(w.durationSeconds), "\(w.exerciseCount)", "\(w.setCount)", "\(w.reps)",
                         Text.kilograms(w.volumeKilograms, unit), w.firstTime ? "first" : "+\(w.increasedReps)",
                         w.firstTime ? "first" : "+" + Text.kilograms(w.increasedLoadKilograms, unit)]
                    })
                let shown = offset + history.workouts.count
                if history.total > shown {
                    text += "\n… \(history.total - shown) more (use --offset \(shown) for the next page, or --limit)"
                }
                return text
            }
        }
    }
}
