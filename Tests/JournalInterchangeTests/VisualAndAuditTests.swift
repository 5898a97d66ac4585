import JournalEvents
import JournalInterchange
import JournalProjections
import Testing
import Foundation

func event(_ seq: Int, _ at: String, _ type: String, _ fields: JSONObject) -> Event {
    Event(seq: seq, id: "ph-\(String(seq, radix: 36))", at: Timestamp(rfc3339: "2026-03-02T" + at + ".000+01:00")!, type: type, fields: fields)
}

@Suite struct ChartAndReportTests {
    @Test func theExerciseChartMarksEveryPointAndHighlightsRecords() {
        let points = [SVGChart.Point(date: LocalDate(year: 2026, month: 1, day: 5), value: 100),
                      SVGChart.Point(date: LocalDate(year: 2026, month: 1, day: 12), value: 105, record: true),
                      SVGChart.Point(date: LocalDate(year: 2026, month: 1, day: 19), value: 102.5)]
        let svg = SVGChart.line(points, title: "Squat: estimated 1RM (kg)", unit: "kg")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 640 300\""))
        #expect(svg.components(separatedBy: "<circle class=\"point\"").count - 1 == 2)
        #expect(svg.components(separatedBy: "<circle class=\"record\"").count - 1 == 1)
        #expect(svg.contains("<path class=\"area\""))
        #expect(svg.contains("<path class=\"line\""))
        #expect(svg.contains(">Jan 5</text>"))
        #expect(svg.contains(">Jan 19</text>"))
        #expect(svg.contains(">kg</text>"))
        #expect(svg.contains("prefers-color-scheme: dark"))
        #expect(!svg.contains("<script"))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(SVGChart.line([], title: "t", unit: "kg").contains("No history yet"))
    }

    @Test func barsAndDonutDrawOneShapePerWeekAndMuscle() {
        let bars = SVGChart.bars([(LocalDate(year: 2026, month: 1, day: 5), 3), (LocalDate(year: 2026, month: 1, day: 12), 0)], title: "Workouts per week")
        #expect(bars.components(separatedBy: "<rect class=\"bar\"").count - 1 == 2)
        let donut = SVGChart.donut([("chest", 30), ("back", 10)], title: "Sets per muscle group")
        #expect(donut.contains("chest 75% · 30"))
        #expect(donut.contains("back 25% · 10"))
    }

    @Test func theReportIsOneSelfContainedPage() throws {
        let events = try record(planner.plan(try read(strongClassic), file: "in.csv", existing: []).drafts)
        let html = HTMLReport.render(analysis(events), title: "ana.journal")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("http://"))
        #expect(!html.contains("https://"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("<img"))
        #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        for section in ["id=\"home\"", "id=\"calendar\"", "id=\"streaks\"", "id=\"history\"", "id=\"exercises\""] { #expect(html.contains(section)) }
        #expect(html.contains("<h3>Push A</h3>"))
        #expect(html.contains("<h3>Legs</h3>"))
    }
}

@Suite struct AuditTests {
    static let session: [Event] = [
        event(1, "18:00:00", "workout.started", ["workout": "w1", "name": "Push", "session": .null]),
        event(2, "18:05:00", "set.completed", ["workout": "w1", "exercise": "barbell-bench-press", "set": 1, "weight": 80, "unit": "kg", "reps": 8, "kind": "working"]),
        event(3, "18:05:02", "rest.started", ["workout": "w1", "exercise": "barbell-bench-press", "seconds": 120]),
        event(4, "18:06:00", "rest.skipped", ["workout": "w1", "exercise": "barbell-bench-press", "remaining_s": 62]),
        event(5, "18:06:30", "set.completed", ["workout": "w1", "exercise": "barbell-bench-press", "set": 2, "weight": 80, "unit": "kg", "reps": 7, "kind": "working"]),
        event(6, "18:07:00", "set.uncompleted", ["workout": "w1", "exercise": "barbell-bench-press", "set": 2]),
        event(7, "18:30:00", "set.completed", ["workout": "w1", "exercise": "barbell-bench-press", "set": 2, "weight": 80, "unit": "kg", "reps": 8, "kind": "working"]),
        event(8, "18:31:00", "workout.finished", ["workout": "w1"]),
        event(9, "18:40:00", "set.completed", ["workout": "w1", "exercise": "barbell-bench-press", "set": 3, "weight": 80, "unit": "kg", "reps": 8, "kind": "working"]),
        event(10, "19:00:00", "workout.started", ["workout": "w2", "name": "Pull", "session": .null]),
    ]

    @Test func theTimelineShowsRestGapsUndoneSetsAndAnomalies() throws {
        let timeline = try #require(Timeline(workout: "w1", events: AuditTests.session))
        #expect(timeline.entries.map { "+\(Timeline.clock($0.offsetMilliseconds)) \($0.type) \($0.remarks.joined(separator: "; "))" } == [
            "+0:00 workout.started ",
            "+5:00 set.completed ",
            "+5:02 rest.started ",
            "+6:00 rest.skipped skipped rest",
            "+6:30 set.completed rest 1:28 taken, 2:00 planned (skipped)",
            "+7:00 set.uncompleted undone set",
            "+30:00 set.completed gap of 23:00 since the previous event; 23:30 since the previous set, no rest timer",
            "+31:00 workout.finished ",
            "+40:00 set.completed 10:00 since the previous set, no rest timer; anomaly: after the workout finished",
        ])
        #expect(timeline.anomalies == ["seq 9 set.completed comes after the workout finished (seq 8)"])
        #expect(timeline.entries[1].detail == "barbell-bench-press set 1: 80 kg × 8")
        // An assisted exercise's weight is help, and says so.
        let helped = try #require(Timeline(workout: "w1", events: AuditTests.session, isAssisted: { $0 == "barbell-bench-press" }))
        #expect(helped.entries[1].detail == "barbell-bench-press set 1: 80 kg assistance × 8")
        let open = try #require(Timeline(workout: "w2", events: AuditTests.session))
        #expect(open.anomalies == ["the workout was never finished or discarded"])
        #expect(Timeline(workout: "w9", events: AuditTests.session) == nil)
        #expect(Timeline.workouts(on: LocalDate(year: 2026, month: 3, day: 2), in: AuditTests.session) == ["w1", "w2"])
    }

    @Test func diffFindsTheFirstDivergenceAndWhatEachSideHas() {
        let a = Array(AuditTests.session.prefix(8))
        var b = Array(AuditTests.session.prefix(5))
        b.append(event(6, "18:09:00", "workout.discarded", ["workout": "w1"]))
        let diff = JournalDiff(a, b)
        #expect(!diff.identical)
        #expect(diff.commonThrough == 5)
        #expect(diff.changed.map(\.a.id) == ["ph-6"])
        #expect(diff.onlyA.map(\.seq) == [7, 8])
        #expect(diff.onlyB.isEmpty)
        #expect(JournalDiff(a, a).identical)
        #expect(JournalDiff(a, a).text(nameA: "a", nameB: "b") == "a and b are identical (8 events)")
    }
}

@Suite struct TerminalChartTests {
    @Test func aSparklineScalesBetweenTheSeriesMinimumAndMaximum() {
        #expect(TerminalChart.sparkline([1, 2, 3, 4, 5, 6, 7, 8]) == "▁▂▃▄▅▆▇█")
        #expect(TerminalChart.sparkline([5, 5]) == "▄▄")
        #expect(TerminalChart.sparkline([]) == "")
        #expect(TerminalChart.sparkline([0, 10, 20], width: 2) == "▁█")
        let points = [SVGChart.Point(date: LocalDate(year: 2026, month: 1, day: 5), value: 100),
                      SVGChart.Point(date: LocalDate(year: 2026, month: 1, day: 12), value: 107.5)]
        #expect(TerminalChart.render(points, title: "Squat", unit: "kg") == "Squat\n▁█\n2026-01-05 100 kg → 2026-01-12 107.5 kg (min 100, max 107.5, 2 points)")
    }
}
