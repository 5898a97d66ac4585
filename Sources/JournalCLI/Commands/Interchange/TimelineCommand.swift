import ArgumentParser
import Foundation
import WorkoutJournalSync
import JournalInterchange

struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline", abstract: "Every action of a workout in order: relative times, rest taken vs planned, gaps, undone sets, anomalies.",
        discussion: "Default: the last workout started. --date D shows every workout started on that local day.")

    @OptionGroup var options: ViewOptions
    @Option(help: "A workout id.") var workout: String?
    @Option(help: "A date YYYY-MM-DD: every workout started that day.") var date: String?
    @Flag(help: "Print a self-contained HTML page (the page journal-server shows support).") var html = false

    func validate() throws {
        if workout != nil && date != nil { throw ValidationError("give --workout or --date, not both") }
        if html && options.json { throw ValidationError("give --html or --json, not both") }
        if let date, LocalDate(iso: date) == nil { throw ValidationError("--date \"\(date)\" is not a date: use YYYY-MM-DD") }
    }

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            let asOf = analysis.asOf
            let events = try JournalLoader.events(path: options.file, untilSeq: options.untilSeq).filter { $0.at <= asOf }
            let ids: [String]
            if let workout { ids = [workout] }
            else if let date { ids = Timeline.workouts(on: LocalDate(iso: date)!, in: events) }
            else { ids = Timeline.lastWorkout(in: events).map { [$0] } ?? [] }
            if ids.isEmpty {
                throw Failure(message: "\(options.file): " + (date.map { "no workout started on \($0)" } ?? "has no workout") + " (journal history lists workouts and dates)")
            }
            var timelines: [Timeline] = []
            for id in ids {
                guard let timeline = Timeline(workout: id, events: events, exerciseName: analysis.exerciseName, isAssisted: analysis.ledger.isAssisted) else {
                    throw Failure(message: "\(options.file): no workout \"\(id)\" (journal history --json lists workout ids)")
                }
                timelines.append(timeline)
            }
            if html {
                print(HTMLReport.timeline(timelines, analysis: analysis, title: (options.file as NSString).lastPathComponent), terminator: "")
            } else if options.json {
                print(JSONWriter.string(date == nil ? timelines[0].jsonValue : .array(timelines.map(\.jsonValue))))
            } else {
                let text = timelines.map(\.text).joined(separator: "\n\n")
                // Anomalies in red, only on a terminal and never with NO_COLOR.
                print(!Interchange.colour ? text : text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    line.contains("anomaly") || line.hasPrefix("  seq ") || line.hasPrefix("  the workout") ? "\u{1B}[31m\(line)\u{1B}[0m" : String(line)
                }.joined(separator: "\n"))
            }
        }
    }
}
