import JournalInterchange
import WorkoutJournalSync
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unicode charts in the table views, only when standard output is a terminal (pipes get plain numbers).
enum TerminalCharts {
    static var enabled: Bool { isatty(STDOUT_FILENO) == 1 }

    /// A labelled sparkline of a chart series given in kilograms, shown in `unit`.
    static func render(_ series: [ChartPoint], title: String, unit: WeightUnit) -> String {
        let points = series.map { SVGChart.Point(date: $0.date, value: Units.convert($0.value, from: .kg, to: unit)) }
        return TerminalChart.render(points, title: title, unit: unit.rawValue)
    }

    /// A labelled sparkline of `points`, valued in `unit` (a unit's name, "reps", "workouts").
    static func render(_ points: [SVGChart.Point], title: String, unit: String) -> String {
        TerminalChart.render(points, title: title, unit: unit)
    }

    /// The bare sparkline of `values`, one block character each.
    static func sparkline(_ values: [Double]) -> String { TerminalChart.sparkline(values) }
}
