import Foundation
import JournalEvents
import JournalModel
import JournalProjections
import TrainingDomain

/// `journal report`: one self-contained HTML page (INTERCHANGE.md §"Report"): inline CSS and SVG, no scripts, no
/// network. Home state, the weekly calendar, the workout history with rosettes and +N, each exercise's chart and
/// records, streaks. Laid out for a phone first (one column, wider screens get two).
public enum HTMLReport {
    static func e(_ text: String) -> String { SVGChart.escape(text) }

    /// Inline SVG needs no namespace: dropping it keeps the page free of any http reference.
    static func inline(_ svg: String) -> String { svg.replacingOccurrences(of: " xmlns=\"http://www.w3.org/2000/svg\"", with: "") }

    static func number(_ value: Double) -> String { Rounding.grouped(value) }

    /// In the display unit; totals of 1,000 and more to the whole unit.
    static func kilograms(_ kg: Double, _ unit: WeightUnit) -> String {
        let value = Units.convert(kg, from: .kg, to: unit)
        return number(abs(value) >= 1000 ? value.rounded() : value) + " " + unit.rawValue
    }

    static func duration(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60
        return h > 0 ? "\(h) h \(m) min" : "\(m) min"
    }

    /// Seed 000's rosette, drawn (an emoji would depend on the reader's fonts).
    static let rosette = "<svg class=\"ros\" viewBox=\"0 0 16 18\" aria-label=\"improved on the previous workout\"><path d=\"M4 10 2 17 5.5 15.5 8 18 8 11ZM12 10 14 17 10.5 15.5 8 18 8 11Z\" fill=\"#d9822b\"/><circle cx=\"8\" cy=\"7\" r=\"6\" fill=\"#f2b01e\"/><circle cx=\"8\" cy=\"7\" r=\"3.2\" fill=\"#fff3c4\"/></svg> "

    static let css = """
    :root{color-scheme:light dark;--bg:#f4f6f8;--card:#fff;--text:#16202a;--muted:#5b6672;--line:#e3e7eb;--accent:#2f6fde;--gold:#f2b01e}
    @media (prefers-color-scheme: dark){:root{--bg:#0e1114;--card:#15191e;--text:#eef2f6;--muted:#aeb7c1;--line:#262d35;--accent:#6ea1ff}}
    *{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--text);font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif}
    main{max-width:1100px;margin:0 auto;padding:12px}h1{font-size:22px;margin:8px 4px 2px}h2{font-size:18px;margin:22px 4px 8px}
    h3{font-size:16px;margin:0 0 6px}.sub{color:var(--muted);margin:0 4px 12px;font-size:13px}
    .card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:12px 14px;margin:0 0 10px}
    .stats{display:grid;grid-template-columns:repeat(2,1fr);gap:8px;margin-bottom:10px}.stat{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:10px 12px}
    .stat b{display:block;font-size:22px}.stat span{color:var(--muted);font-size:13px}
    .cal{display:grid;grid-template-columns:auto repeat(7,1fr);gap:4px;font-size:12px;align-items:center}
    .cal i{display:block;aspect-ratio:1;border-radius:4px;background:var(--line)}.cal i.on{background:var(--accent)}.cal i.two{background:var(--gold)}
    .cal .wk{color:var(--muted);padding-right:6px;white-space:nowrap}
    .w{display:flex;justify-content:space-between;gap:8px;flex-wrap:wrap}.muted{color:var(--muted);font-size:13px}
    .ex{margin:6px 0 0;padding:0;list-style:none}.ex li{padding:3px 0;border-top:1px solid var(--line)}
    .plus{color:#2ea56b;font-weight:600}svg.ros{width:14px;height:16px;display:inline-block;vertical-align:-2px}
    svg{width:100%;height:auto;display:block}table{border-collapse:collapse;width:100%;font-size:13px}td,th{text-align:left;padding:3px 4px;border-top:1px solid var(--line)}
    details summary{cursor:pointer;font-weight:600}
    @media (min-width:760px){.stats{grid-template-columns:repeat(4,1fr)}.grid2{display:grid;grid-template-columns:1fr 1fr;gap:10px}}
    """

    /// The page for `analysis`; `title` names the journal; `historyLimit` caps the workout list. `workoutLink`, when
    /// given, makes each workout's name a link to that address (journal-server links each workout's timeline page).
    public static func render(_ analysis: Analysis, title: String, historyLimit: Int = 40,
                              workoutLink: ((String) -> String)? = nil) -> String {
        let unit = analysis.unit
        let home = HomeState(analysis)
        let progress = ProgressState(analysis, range: .all)
        let streak = home.streak
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<title>\(e(title)) — workout report</title>\n<style>\(css)</style>\n</head>\n<body>\n<main>\n"
        html += "<h1>\(e(home.name ?? "Workout journal"))</h1>\n<p class=\"sub\">\(e(title)) · as of \(analysis.asOf.rfc3339) · \(analysis.finished.count) workouts</p>\n"

        // Home state
        let volume = analysis.finished.reduce(0.0) { total, workout in total + workout.sets.filter(\.isWorking).reduce(0) { $0 + $1.volumeKilograms } }
        html += "<section id=\"home\"><div class=\"stats\">\n"
        for (value, label) in [("\(analysis.finished.count)", "workouts"), (kilograms(volume, unit), "total volume"),
                               ("\(streak.currentWeeks) wk", "current streak (longest \(streak.longestWeeks))"),
                               ("\(analysis.records.count)", "personal records")] {
            html += "<div class=\"stat\"><b>\(e(value))</b><span>\(e(label))</span></div>\n"
        }
        html += "</div>\n"
        if let last = home.lastWorkouts.first {
            html += "<div class=\"card\"><h3>Last workout</h3><div class=\"w\"><span>\(e(last.name)) · \(last.date)</span><span class=\"muted\">\(duration(last.durationSeconds)) · \(last.exerciseCount) exercises · \(kilograms(last.volumeKilograms, unit))</span></div></div>\n"
        }
        if let next = home.nextWorkout {
            html += "<div class=\"card\"><h3>Next: \(e(next.name))</h3><ul class=\"ex\">" + next.exercises.map { "<li>\(e($0.name)) — \($0.sets) sets" + ($0.reps.map { " × \(e($0))" } ?? "") + "</li>" }.joined() + "</ul></div>\n"
        }
        if let programme = home.programme {
            html += "<div class=\"card\"><h3>Programme</h3><p class=\"muted\">\(e(programme.split)) · week \(programme.week) of \(programme.weeks) · \(programme.daysPerWeek) days a week</p></div>\n"
        }
        html += "<div class=\"card\"><h3>This week</h3><p class=\"muted\">\(home.week.completed) of \(home.week.target.map(String.init) ?? "–") workouts · \(e(home.message))</p></div>\n</section>\n"

        // Weekly calendar: the last 12 weeks, Monday first.
        html += "<h2>Calendar</h2>\n<section id=\"calendar\" class=\"card\"><div class=\"cal\"><span></span>" + ["M", "T", "W", "T", "F", "S", "S"].map { "<span class=\"muted\">\($0)</span>" }.joined() + "\n"
        var perDay: [Int: Int] = [:]
        for workout in analysis.finished { perDay[workout.day, default: 0] += 1 }
        // Ends at the as-of week, or at the last workout's week for a journal idle over four weeks (as the bars).
        let thisWeek = LocalDate.weekStart(ofDay: analysis.asOf.localDay)
        let lastWeek = analysis.finished.map { LocalDate.weekStart(ofDay: $0.day) }.max() ?? thisWeek
        let endWeek = thisWeek - lastWeek <= 28 ? max(thisWeek, lastWeek) : lastWeek
        for week in stride(from: endWeek - 7 * 11, through: endWeek, by: 7) {
            html += "<span class=\"wk\">\(LocalDate(day: week))</span>"
            for day in week..<(week + 7) {
                let count = perDay[day] ?? 0
                html += "<i class=\"\(count == 0 ? "" : count == 1 ? "on" : "two")\" title=\"\(LocalDate(day: day)): \(count) workouts\"></i>"
            }
            html += "\n"
        }
        html += "</div></section>\n"

        // Streaks
        html += "<h2>Streaks</h2>\n<section id=\"streaks\" class=\"stats\">\n"
        for (value, label) in [("\(streak.currentWeeks)", "weeks in a row (current)"), ("\(streak.longestWeeks)", "weeks in a row (longest)"),
                               ("\(streak.currentDays)", "days in a row (current)"), ("\(streak.longestDays)", "days in a row (longest)")] {
            html += "<div class=\"stat\"><b>\(value)</b><span>\(label)</span></div>\n"
        }
        html += "</section>\n"

        // Frequency and muscles
        html += "<h2>Training</h2>\n<section class=\"grid2\"><div class=\"card\">"
        html += inline(SVGChart.bars(Array(ChartSeries.weekly(analysis).suffix(26)), title: "Workouts per week, last 26 weeks", width: 420, height: 220))
        html += "</div><div class=\"card\">"
        html += inline(SVGChart.donut(progress.muscleGroups.map { ($0.muscle, $0.sets) }, title: "Sets per muscle group", width: 420, height: 290))
        html += "</div></section>\n"

        // History
        html += "<h2>History</h2>\n<section id=\"history\">\n"
        let indices = Array(analysis.finished.indices.reversed().prefix(historyLimit))
        for index in indices {
            html += workoutCard(analysis, index, link: workoutLink.map { $0(analysis.finished[index].id) }) + "\n"
        }
        if analysis.finished.count > historyLimit {
            html += "<p class=\"muted\">… and \(analysis.finished.count - historyLimit) earlier workouts (journal history shows them all).</p>\n"
        }
        html += "</section>\n"

        // Exercises: charts for those with at least 3 sessions, most sessions first; records for all.
        html += "<h2>Exercises</h2>\n<section id=\"exercises\">\n"
        let exercises = analysis.sessionIndices.keys.sorted { (analysis.sessionIndices[$0]!.count, $1) > (analysis.sessionIndices[$1]!.count, $0) }
        for exercise in exercises {
            let view = ExerciseHistoryState(analysis, exercise: exercise)
            guard !view.isEmpty else { continue }
            html += "<details class=\"card\"\(exercise == exercises.first ? " open" : "")><summary>\(e(view.name)) <span class=\"muted\">· \(view.sessions.count) sessions</span></summary>\n"
            // An assisted exercise has no e1RM: its chart is the least assistance per session (SetRanking).
            if view.sessions.count >= 2 {
                let (metric, title) = view.assisted ? (ChartSeries.Metric.maxWeight, "Least assistance (\(unit.rawValue), lower is better)") : (.e1rm, "Estimated 1RM (\(unit.rawValue))")
                html += inline(SVGChart.line(ChartSeries.points(analysis, exercise: exercise, metric: metric), title: title, unit: unit.rawValue, width: 420, height: 240))
            }
            if view.sessions.count >= 3, !view.assisted {
                html += inline(SVGChart.line(ChartSeries.points(analysis, exercise: exercise, metric: .volume), title: "Volume per session (\(unit.rawValue))", unit: unit.rawValue, width: 420, height: 240))
            }
            if let bests = view.bests, view.assisted {
                html += "<p class=\"muted\">Least assistance \(kilograms(bests.heaviestWeightKilograms, unit)) (less is better)</p>"
            } else if let bests = view.bests {
                html += "<p class=\"muted\">Heaviest \(kilograms(bests.heaviestWeightKilograms, unit)) · best e1RM \(kilograms(bests.e1rmKilograms, unit)) · best session volume \(kilograms(bests.sessionVolumeKilograms, unit))</p>"
            }
            let records = view.records.filter { $0.kind != .repsAtWeight }.prefix(5)
            if !records.isEmpty {
                html += "<table><tr><th>date</th><th>record</th><th>value</th></tr>" + records.map {
                    "<tr><td>\($0.date)</td><td>\(e($0.kind.label))</td><td>\($0.kind == .bestSetVolume || $0.kind == .bestSessionVolume || $0.kind == .heaviestWeight || $0.kind == .leastAssistance || $0.kind == .bestE1RM ? kilograms($0.value, unit) : number($0.value))</td></tr>"
                }.joined() + "</table>"
            }
            html += "</details>\n"
        }
        html += "</section>\n<p class=\"sub\">Made by journal report: this page has no scripts and loads nothing from the network.</p>\n</main>\n</body>\n</html>\n"
        return html
    }

    /// One finished workout (`analysis.finished[index]`) as the report's history shows it: name, date, duration,
    /// volume, what improved, each exercise's sets. `link` makes the name a link.
    static func workoutCard(_ analysis: Analysis, _ index: Int, link: String? = nil) -> String {
        let unit = analysis.unit
        let summary = analysis.summary(index)
        let name = link.map { "<a href=\"\(e($0))\">\(e(summary.name))</a>" } ?? e(summary.name)
        var html = "<div class=\"card\"><div class=\"w\"><h3>\(name)</h3><span class=\"muted\">\(summary.date) · \(duration(summary.durationSeconds)) · \(kilograms(summary.volumeKilograms, unit))</span></div>"
        if summary.firstTime { html += "<p class=\"muted\">First time completing this workout!</p>" }
        else if summary.increasedReps > 0 || summary.increasedLoadKilograms > 0 {
            html += "<p class=\"muted\">+\(summary.increasedReps) reps · +\(kilograms(summary.increasedLoadKilograms, unit)) on the previous \(e(summary.name))</p>"
        }
        html += "<ul class=\"ex\">"
        for exercise in summary.exercises {
            let sets = exercise.sets.map { set -> String in
                "\(number(set.weight))×\(set.reps)" + (set.kind == .warmup ? "w" : "") + (set.plus > 0 ? " <span class=\"plus\">+\(set.plus)</span>" : "")
            }.joined(separator: ", ") + (exercise.assisted && !exercise.sets.isEmpty ? " (\(unit.rawValue) of assistance)" : "")
            let cardio = exercise.cardio.map { "\(number($0.minutes)) min" + ($0.km.map { " · \(number($0)) km" } ?? "") } ?? ""
            html += "<li>\(exercise.rosette ? rosette : "")<b>\(e(exercise.name))</b> <span class=\"muted\">\(sets)\(cardio)</span></li>"
        }
        return html + "</ul></div>"
    }

    /// `journal timeline --html`: each of `timelines` (INTERCHANGE.md §"Timeline") as a self-contained page, the
    /// workout's history card (when `analysis` has it finished) above its events, one row per event, and its
    /// anomalies. Same style as the report; no scripts, nothing loaded from the network.
    public static func timeline(_ timelines: [Timeline], analysis: Analysis, title: String) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        html += "<title>\(e(title)) — workout timeline</title>\n<style>\(css)</style>\n</head>\n<body>\n<main>\n"
        for timeline in timelines {
            html += "<h1>\(e(timeline.name.isEmpty ? timeline.workout : timeline.name))</h1>\n<p class=\"sub\">\(e(title)) · workout \(e(timeline.workout)) · \(timeline.entries.count) events</p>\n"
            if let index = analysis.finished.firstIndex(where: { $0.id == timeline.workout }) {
                html += workoutCard(analysis, index) + "\n"
            }
            html += "<section class=\"card\" id=\"timeline-\(e(timeline.workout))\"><h3>Timeline</h3><table><tr><th>time</th><th>seq</th><th>event</th><th>detail</th><th>remarks</th></tr>\n"
            for entry in timeline.entries {
                html += "<tr><td>+\(Timeline.clock(entry.offsetMilliseconds))</td><td>\(entry.seq)</td><td>\(e(entry.type))</td><td>\(e(entry.detail))</td><td class=\"muted\">\(e(entry.remarks.joined(separator: "; ")))</td></tr>\n"
            }
            html += "</table>\n<p class=\"muted\">anomalies: \(timeline.anomalies.isEmpty ? "none" : "")</p>"
            if !timeline.anomalies.isEmpty { html += "<ul class=\"ex\">" + timeline.anomalies.map { "<li>\(e($0))</li>" }.joined() + "</ul>" }
            html += "</section>\n"
        }
        html += "<p class=\"sub\">Made by journal timeline: this page has no scripts and loads nothing from the network.</p>\n</main>\n</body>\n</html>\n"
        return html
    }
}
