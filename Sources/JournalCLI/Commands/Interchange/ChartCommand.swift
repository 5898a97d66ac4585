import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WorkoutJournalSync

struct ChartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart", abstract: "Draw an SVG chart: an exercise's history, weekly frequency, or the muscle-group distribution.",
        discussion: "Exactly one of --exercise, --frequency, --muscles. The SVG has no scripts and reads on light and dark backgrounds.")

    @OptionGroup var options: ViewOptions
    @Option(help: "A catalogue id or name: chart this exercise's sessions.") var exercise: String?
    @Option(help: "volume, e1rm, max-weight or reps (with --exercise).") var metric: String = "e1rm"
    @Flag(help: "Weekly workouts as bars.") var frequency = false
    @Flag(help: "Working sets per muscle group as a donut.") var muscles = false
    @Option(name: .shortAndLong, help: "Output SVG file (default: standard output).") var output: String?

    func validate() throws {
        let chosen = [exercise != nil, frequency, muscles].filter { $0 }.count
        if chosen != 1 { throw ValidationError("choose exactly one of --exercise X, --frequency or --muscles") }
        if ChartSeries.Metric(rawValue: metric) == nil {
            throw ValidationError("--metric \"\(metric)\" is not one of volume, e1rm, max-weight, reps")
        }
    }

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            let svg: String
            var data: JSONValue
            var terminal: String?
            if let exercise {
                guard let id = analysis.resolveExercise(exercise) else {
                    throw Failure(message: "no exercise \"\(exercise)\" in the catalogue or in \(options.file) (journal catalog lists ids)")
                }
                let metric = ChartSeries.Metric(rawValue: metric)!
                let points = ChartSeries.points(analysis, exercise: id, metric: metric)
                let label = ChartSeries.label(metric, unit: analysis.unit.rawValue, assisted: analysis.ledger.ranking(of: id).assisted)
                svg = SVGChart.line(points, title: "\(analysis.exerciseName(id)): \(label)", unit: metric == .reps ? "reps" : analysis.unit.rawValue)
                terminal = TerminalCharts.render(points, title: "\(analysis.exerciseName(id)): \(label)", unit: metric == .reps ? "reps" : analysis.unit.rawValue)
                data = ["exercise": .string(id), "metric": .string(metric.rawValue), "unit": .string(metric == .reps ? "reps" : analysis.unit.rawValue),
                        "points": .array(points.map { ["date": .string($0.date.description), "value": .number(($0.value * 100).rounded() / 100), "record": .bool($0.record)] })]
            } else if frequency {
                let weeks = ChartSeries.weekly(analysis)
                svg = SVGChart.bars(weeks, title: "Workouts per week")
                terminal = TerminalCharts.render(weeks.map { SVGChart.Point(date: $0.week, value: Double($0.count)) }, title: "Workouts per week", unit: "workouts")
                data = ["weeks": .array(weeks.map { ["week": .string($0.week.description), "workouts": .int($0.count)] })]
            } else {
                let shares = ProgressState(analysis, range: .all).muscleGroups
                svg = SVGChart.donut(shares.map { ($0.muscle, $0.sets) }, title: "Sets per muscle group")
                data = ["muscles": .array(shares.map { ["muscle": .string($0.muscle), "sets": .int($0.sets)] })]
            }
            if options.json {
                if let output { data = .object(JSONObject([JSONField("file", .string(output))] + (data.objectValue?.fields ?? []))) }
                print(JSONWriter.string(data))
                if let output { try Interchange.write(svg, to: output) }
            } else if output == nil && isatty(STDOUT_FILENO) == 1 {
                // On a terminal, SVG text helps nobody: a compact Unicode chart instead.
                print(terminal ?? "use -o FILE.svg to write the chart")
                print("(an SVG needs -o FILE.svg)")
            } else {
                try Interchange.write(svg, to: output)
                if let output { print("wrote \(output)") }
            }
        }
    }
}
