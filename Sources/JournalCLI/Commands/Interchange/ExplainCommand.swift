import ArgumentParser
import JournalInterchange
import WorkoutJournalSync

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Show the events behind a number: streak, record EXERCISE, deload EXERCISE, next-workout.",
        discussion: "So support can answer \"why is my streak 0?\" or \"why did my weight drop?\".")

    @OptionGroup var options: ViewOptions
    @Argument(help: "streak, record, deload or next-workout.") var topic: String
    @Argument(help: "The exercise (for record and deload).") var exercise: String?

    func validate() throws {
        guard ["streak", "record", "deload", "next-workout"].contains(topic) else {
            throw ValidationError("\"\(topic)\" is not one of streak, record EXERCISE, deload EXERCISE, next-workout")
        }
        if (topic == "record" || topic == "deload") && exercise == nil { throw ValidationError("explain \(topic) needs an EXERCISE") }
    }

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            let result: Explanation
            switch topic {
            case "streak": result = Explanation.streak(analysis)
            case "record": result = Explanation.record(analysis, exercise: try resolve(analysis), number: Text.number)
            case "deload": result = Explanation.deload(analysis, exercise: try resolve(analysis), number: Text.number)
            default: result = Explanation.nextWorkout(analysis, number: Text.number)
            }
            print(options.json ? JSONWriter.string(result.jsonValue) : result.text)
        }
    }

    func resolve(_ analysis: Analysis) throws -> String {
        guard let exercise, let id = analysis.resolveExercise(exercise) else {
            throw Failure(message: "no exercise \"\(exercise ?? "")\" in the catalogue or in \(options.file)")
        }
        return id
    }
}
