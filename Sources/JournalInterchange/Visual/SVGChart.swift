import Foundation
import JournalEvents
import JournalModel
import JournalProjections
import TrainingDomain

/// Self-contained SVG charts (INTERCHANGE.md §"Charts"): no scripts, no fonts or images from elsewhere;
/// colours from CSS classes with a `prefers-color-scheme: dark` variant, so a chart reads on light and dark pages.
public enum SVGChart {
    public struct Point: Equatable, Sendable {
        public var date: LocalDate
        public var value: Double
        public var record: Bool
        public init(date: LocalDate, value: Double, record: Bool = false) { self.date = date; self.value = value; self.record = record }
    }

    static let style = """
    <style>
    .bg{fill:#ffffff}.axis{stroke:#9aa3ad;stroke-width:1}.grid{stroke:#e3e7eb;stroke-width:1}
    .label{fill:#4a5561;font:13px system-ui,-apple-system,'Segoe UI',sans-serif}.title{fill:#16202a;font:600 15px system-ui,-apple-system,'Segoe UI',sans-serif}
    .line{fill:none;stroke:#2f6fde;stroke-width:2.5}.area{fill:#2f6fde;fill-opacity:.16}.point{fill:#2f6fde;stroke:#ffffff;stroke-width:1.5}
    .record{fill:#f2b01e;stroke:#8a5a00;stroke-width:1.5}.bar{fill:#2f6fde}.empty{fill:#4a5561;font:14px system-ui,sans-serif}
    @media (prefers-color-scheme: dark){.bg{fill:#15191e}.axis{stroke:#5d6773}.grid{stroke:#262d35}.label{fill:#aeb7c1}.title{fill:#eef2f6}
    .line{stroke:#6ea1ff}.area{fill:#6ea1ff}.point{fill:#6ea1ff;stroke:#15191e}.bar{fill:#6ea1ff}.empty{fill:#aeb7c1}}
    </style>
    """

    static func n(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Round axis steps: 1, 2, 2.5, 5 × 10^k.
    static func niceStep(_ range: Double, ticks: Int) -> Double {
        guard range > 0 else { return 1 }
        let raw = range / Double(ticks)
        let magnitude = pow(10, floor(log10(raw)))
        for factor in [1.0, 2, 2.5, 5, 10] where factor * magnitude >= raw { return factor * magnitude }
        return 10 * magnitude
    }

    static func open(_ width: Int, _ height: Int, title: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"\(escape(title))\">\n"
            + style + "\n<rect class=\"bg\" width=\"\(width)\" height=\"\(height)\" rx=\"10\"/>\n"
            + "<text class=\"title\" x=\"16\" y=\"24\">\(escape(title))</text>\n"
    }

    static func shortDate(_ date: LocalDate) -> String {
        let c = date.components
        return "\(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][c.month - 1]) \(c.day)" + ""
    }

    /// Seed 000's exercise chart: the area under a smooth line through the sessions, oldest left, newest right, each
    /// point marked, records as larger gold points; the y axis labelled with `unit`.
    public static func line(_ points: [Point], title: String, unit: String, width: Int = 640, height: Int = 300) -> String {
        var svg = open(width, height, title: title)
        let left = 56.0, right = Double(width) - 20, top = 44.0, bottom = Double(height) - 44
        guard !points.isEmpty else {
            return svg + "<text class=\"empty\" x=\"\(width / 2)\" y=\"\(height / 2)\" text-anchor=\"middle\">No history yet</text>\n</svg>\n"
        }
        let values = points.map(\.value)
        // From zero unless the values sit high above it (an e1RM of 95–108 kg): then from just under the lowest.
        var low = values.min()! < 0.4 * values.max()! ? min(0, values.min()!) : values.min()!, high = values.max()!
        if high == low { high = low + 1; low = max(0, low - 1) }
        let step = niceStep(high - low, ticks: 4)
        low = floor(low / step) * step
        high = ceil(high / step) * step
        let firstDay = Double(points.first!.date.day), lastDay = Double(points.last!.date.day)
        func x(_ p: Point, _ i: Int) -> Double {
            points.count == 1 ? (left + right) / 2 : lastDay == firstDay ? left + (right - left) * Double(i) / Double(points.count - 1)
                : left + (right - left) * (Double(p.date.day) - firstDay) / (lastDay - firstDay)
        }
        func y(_ v: Double) -> Double { bottom - (bottom - top) * (v - low) / (high - low) }
        var tick = low
        while tick <= high + step / 2 {
            svg += "<line class=\"grid\" x1=\"\(n(left))\" y1=\"\(n(y(tick)))\" x2=\"\(n(right))\" y2=\"\(n(y(tick)))\"/>"
            svg += "<text class=\"label\" x=\"\(n(left - 6))\" y=\"\(n(y(tick) + 4))\" text-anchor=\"end\">\(n(tick))</text>\n"
            tick += step
        }
        svg += "<line class=\"axis\" x1=\"\(n(left))\" y1=\"\(n(bottom))\" x2=\"\(n(right))\" y2=\"\(n(bottom))\"/>\n"
        svg += "<text class=\"label\" x=\"14\" y=\"\(n((top + bottom) / 2))\" transform=\"rotate(-90 14 \(n((top + bottom) / 2)))\" text-anchor=\"middle\">\(escape(unit))</text>\n"
        let coordinates = points.enumerated().map { (x($1, $0), y($1.value)) }
        // Dates: first, last and one (narrow) or three (wide) between.
        let labelCount = width < 500 ? 3 : 5
        let labelIndices = Set(points.count <= labelCount ? Array(points.indices)
            : (0..<labelCount).map { $0 * (points.count - 1) / (labelCount - 1) })
        for i in labelIndices.sorted() {
            let anchor = i == 0 ? "start" : i == points.count - 1 ? "end" : "middle"
            svg += "<text class=\"label\" x=\"\(n(coordinates[i].0))\" y=\"\(n(bottom + 18))\" text-anchor=\"\(anchor)\">\(shortDate(points[i].date))</text>\n"
        }
        let years = Set(points.map { $0.date.components.year }).sorted()
        svg += "<text class=\"label\" x=\"\(n(right))\" y=\"\(n(bottom + 34))\" text-anchor=\"end\">\(years.count == 1 ? "\(years[0])" : "\(years.first!)–\(years.last!)")</text>\n"
        // Smooth path: Catmull-Rom converted to cubic Béziers.
        var path = "M\(n(coordinates[0].0)),\(n(coordinates[0].1))"
        for i in 0..<(coordinates.count - 1) {
            let p0 = coordinates[max(0, i - 1)], p1 = coordinates[i], p2 = coordinates[i + 1], p3 = coordinates[min(coordinates.count - 1, i + 2)]
            let c1 = (p1.0 + (p2.0 - p0.0) / 6, p1.1 + (p2.1 - p0.1) / 6)
            let c2 = (p2.0 - (p3.0 - p1.0) / 6, p2.1 - (p3.1 - p1.1) / 6)
            path += " C\(n(c1.0)),\(n(min(bottom, c1.1))) \(n(c2.0)),\(n(min(bottom, c2.1))) \(n(p2.0)),\(n(p2.1))"
        }
        svg += "<path class=\"area\" d=\"\(path) L\(n(coordinates.last!.0)),\(n(bottom)) L\(n(coordinates[0].0)),\(n(bottom)) Z\"/>\n"
        svg += "<path class=\"line\" d=\"\(path)\"/>\n"
        for (i, point) in points.enumerated() {
            let (px, py) = coordinates[i]
            svg += "<circle class=\"\(point.record ? "record" : "point")\" cx=\"\(n(px))\" cy=\"\(n(py))\" r=\"\(point.record ? 6 : 3.5)\"><title>\(point.date): \(n(point.value)) \(escape(unit))\(point.record ? " (record)" : "")</title></circle>\n"
        }
        return svg + "</svg>\n"
    }

    /// Weekly workouts as bars, oldest week left.
    public static func bars(_ weeks: [(week: LocalDate, count: Int)], title: String, width: Int = 640, height: Int = 240) -> String {
        var svg = open(width, height, title: title)
        let left = 40.0, right = Double(width) - 16, top = 44.0, bottom = Double(height) - 40
        guard !weeks.isEmpty else { return svg + "<text class=\"empty\" x=\"\(width / 2)\" y=\"\(height / 2)\" text-anchor=\"middle\">No workouts yet</text>\n</svg>\n" }
        let high = Double(max(1, weeks.map(\.count).max()!))
        for tick in 0...Int(high) where Int(high) <= 7 || tick % 2 == 0 {
            let y = bottom - (bottom - top) * Double(tick) / high
            svg += "<line class=\"grid\" x1=\"\(n(left))\" y1=\"\(n(y))\" x2=\"\(n(right))\" y2=\"\(n(y))\"/><text class=\"label\" x=\"\(n(left - 6))\" y=\"\(n(y + 4))\" text-anchor=\"end\">\(tick)</text>\n"
        }
        let slot = (right - left) / Double(weeks.count)
        for (i, week) in weeks.enumerated() {
            let h = (bottom - top) * Double(week.count) / high
            svg += "<rect class=\"bar\" x=\"\(n(left + slot * Double(i) + slot * 0.15))\" y=\"\(n(bottom - h))\" width=\"\(n(slot * 0.7))\" height=\"\(n(h))\" rx=\"2\"><title>week of \(week.week): \(week.count) workouts</title></rect>\n"
        }
        svg += "<line class=\"axis\" x1=\"\(n(left))\" y1=\"\(n(bottom))\" x2=\"\(n(right))\" y2=\"\(n(bottom))\"/>\n"
        svg += "<text class=\"label\" x=\"\(n(left))\" y=\"\(n(bottom + 18))\">week of \(weeks.first!.week)</text>"
        svg += "<text class=\"label\" x=\"\(n(right))\" y=\"\(n(bottom + 18))\" text-anchor=\"end\">week of \(weeks.last!.week)</text>\n"
        svg += "<text class=\"label\" x=\"\(n(left))\" y=\"\(n(bottom + 34))\">workouts per week</text>\n"
        return svg + "</svg>\n"
    }

    static let palette = ["#2f6fde", "#e0534a", "#2ea56b", "#f2b01e", "#8c5bd6", "#1fa7b8", "#e07a2f", "#c2478f", "#6b8e23", "#7a8794"]

    /// Share of working sets per muscle group as a donut with a legend.
    public static func donut(_ shares: [(muscle: String, sets: Int)], title: String, width: Int = 640, height: Int = 300) -> String {
        var svg = open(width, height, title: title)
        let total = shares.reduce(0) { $0 + $1.sets }
        guard total > 0 else { return svg + "<text class=\"empty\" x=\"\(width / 2)\" y=\"\(height / 2)\" text-anchor=\"middle\">No sets yet</text>\n</svg>\n" }
        // At most nine slices; the rest as "other".
        var slices = Array(shares.sorted { ($0.sets, $1.muscle) > ($1.sets, $0.muscle) }.prefix(9))
        let rest = total - slices.reduce(0) { $0 + $1.sets }
        if rest > 0 { slices.append(("other", rest)) }
        let r = min(100.0, (Double(height) - 70) / 2), inner = r * 0.58, cx = 20 + r, cy = Double(height) / 2 + 12
        let legendX = cx + r + 24
        var angle = -Double.pi / 2
        for (i, slice) in slices.enumerated() {
            let sweep = 2 * Double.pi * Double(slice.sets) / Double(total)
            let end = angle + sweep
            let large = sweep > Double.pi ? 1 : 0
            let colour = palette[i % palette.count]
            if slices.count == 1 {
                svg += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n((r + inner) / 2))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(n(r - inner))\"/>\n"
            } else {
                let p = { (a: Double, radius: Double) in "\(n(cx + radius * cos(a))),\(n(cy + radius * sin(a)))" }
                svg += "<path fill=\"\(colour)\" d=\"M\(p(angle, r)) A\(n(r)),\(n(r)) 0 \(large) 1 \(p(end, r)) L\(p(end, inner)) A\(n(inner)),\(n(inner)) 0 \(large) 0 \(p(angle, inner)) Z\"><title>\(escape(slice.muscle)): \(slice.sets) sets</title></path>\n"
            }
            let percent = Int((Double(slice.sets) * 100 / Double(total)).rounded())
            let ly = 56 + Double(i) * 22
            svg += "<rect x=\"\(n(legendX))\" y=\"\(n(ly - 11))\" width=\"12\" height=\"12\" rx=\"2\" fill=\"\(colour)\"/><text class=\"label\" x=\"\(n(legendX + 18))\" y=\"\(n(ly))\">\(escape(slice.muscle)) \(percent)% · \(slice.sets)</text>\n"
            angle = end
        }
        svg += "<text class=\"title\" x=\"\(n(cx))\" y=\"\(n(cy + 5))\" text-anchor=\"middle\">\(total)</text><text class=\"label\" x=\"\(n(cx))\" y=\"\(n(cy + 21))\" text-anchor=\"middle\">sets</text>\n"
        return svg + "</svg>\n"
    }
}

/// The chart series `journal chart` draws, from the projections.
public enum ChartSeries {
    /// Finished workouts per week (Monday first), from the first workout's week to the as-of week, or to the
    /// last workout's week when that is more than four weeks before the as-of time (an old journal).
    public static func weekly(_ analysis: Analysis) -> [(week: LocalDate, count: Int)] {
        guard let first = analysis.finished.first else { return [] }
        var counts: [Int: Int] = [:]
        for workout in analysis.finished { counts[LocalDate.weekStart(ofDay: workout.day), default: 0] += 1 }
        let lastWorkoutWeek = counts.keys.max()!
        let asOfWeek = LocalDate.weekStart(ofDay: analysis.asOf.localDay)
        let end = asOfWeek - lastWorkoutWeek <= 28 ? max(asOfWeek, lastWorkoutWeek) : lastWorkoutWeek
        return stride(from: LocalDate.weekStart(ofDay: first.day), through: end, by: 7).map { (LocalDate(day: $0), counts[$0] ?? 0) }
    }

    public enum Metric: String, Sendable, CaseIterable {
        case volume, e1rm, maxWeight = "max-weight", reps
    }

    /// One point per session of `exercise`, oldest first, in the display unit (kg figures converted); records
    /// marked where the session set a heaviest-weight (least-assistance), best-e1RM or best-session-volume record.
    /// An assisted exercise has no e1RM or volume points (`SetRanking`); its max-weight points are the top set's
    /// assistance.
    public static func points(_ analysis: Analysis, exercise: String, metric: Metric) -> [SVGChart.Point] {
        let view = ExerciseHistoryState(analysis, exercise: exercise)
        if (metric == .e1rm || metric == .volume) && view.assisted { return [] }
        let unit = analysis.unit
        let kinds: Set<PersonalRecord.Kind>
        switch metric {
        case .volume: kinds = [.bestSessionVolume]
        case .e1rm: kinds = [.bestE1RM]
        case .maxWeight: kinds = [.heaviestWeight, .leastAssistance]
        case .reps: kinds = [.repsAtWeight]
        }
        let recordWorkouts = Set(analysis.records.filter { $0.exercise == exercise && kinds.contains($0.kind) }.map(\.workout))
        return view.sessions.reversed().map { session in
            let value: Double
            switch metric {
            case .volume: value = Units.convert(session.volumeKilograms, from: .kg, to: unit)
            case .e1rm: value = Units.convert(session.e1rmKilograms, from: .kg, to: unit)
            case .maxWeight: value = Units.convert(session.maxWeightKilograms, from: .kg, to: unit)
            case .reps: value = Double(session.reps)
            }
            return SVGChart.Point(date: session.date, value: value, record: recordWorkouts.contains(session.workout))
        }
    }

    /// The chart's title after the exercise's name; `assisted`: the exercise's weights are help (`SetRanking`).
    public static func label(_ metric: Metric, unit: String, assisted: Bool = false) -> String {
        switch metric {
        case .volume: return "volume (\(unit))"
        case .e1rm: return assisted ? "no estimated 1RM on an assisted exercise" : "estimated 1RM (\(unit))"
        case .maxWeight: return assisted ? "least assistance (\(unit), lower is better)" : "heaviest set (\(unit))"
        case .reps: return "reps"
        }
    }
}
