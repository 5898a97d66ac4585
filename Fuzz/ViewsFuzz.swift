// libFuzzer target: every view and export of an arbitrary journal. The input is read as JSON lines, each decoded as
// the journal's reader decodes a stored line (EventCodec.decode; a line that is not an event is skipped, as `replay`
// skips a bad line), with no recording rule applied: what a file written by another build, another implementation or a
// merge from another device may hold. The events are then folded and shown as `journal replay`, `home`, `history`,
// `progress`, `exercise`, `calendar`, `chart`, `explain`, `report`, `timeline` and `export` show them, at a fixed
// as-of time.
// Built by Fuzz/run.sh from the same instrumented modules as the importer target, plus JournalStore and JournalFile.
//
// Any stored event must be shown, or left out, never crash, hang or allocate without bound (PROJECTIONS.md §"Views are
// total").
import Foundation
import JournalEvents
import JournalFile
import JournalInterchange
import JournalModel
import JournalProjections
import TrainingDomain

let fuzzAsOf = Timestamp(rfc3339: "2026-11-22T10:00:00.000+01:00")!

@_cdecl("LLVMFuzzerTestOneInput")
public func viewsFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var events: [Event] = []
    var start = 0
    for index in 0...size where index == size || data[index] == 0x0A {
        if index > start, let event = try? EventCodec.decode(UnsafeBufferPointer(start: data + start, count: index - start)) {
            events.append(event)
        }
        start = index + 1
    }
    guard !events.isEmpty else { return 0 }
    showEverything(events, asOf: fuzzAsOf)
    return 0
}

/// Every view and export of `events` as of `asOf`, rendered to text (so that every number is formatted).
func showEverything(_ events: [Event], asOf: Timestamp) {
    let summary = ReplaySummary(events: events, asOf: asOf)
    _ = summary.volumeKg.description
    let analysis = Projections.analysis(events: events, asOf: asOf)
    _ = JSONWriter.string(AllProjections(analysis).jsonValue)
    var home = HomeFold(compacting: Ledger(asOf: asOf))
    for event in events where event.at.epochMilliseconds <= asOf.epochMilliseconds { _ = home.apply(event) }
    for range in ProgressRange.allCases { _ = JSONWriter.string(ProgressState(analysis, range: range).jsonValue) }
    _ = JSONWriter.string(CalendarMonth(analysis).jsonValue)
    let number: (Double) -> String = { $0.description }
    _ = Explanation.streak(analysis).text
    _ = Explanation.nextWorkout(analysis, number: number).text
    for exercise in analysis.sessionIndices.keys.sorted().prefix(4) {
        _ = Explanation.record(analysis, exercise: exercise, number: number).text
        _ = Explanation.deload(analysis, exercise: exercise, number: number).text
        for metric in ChartSeries.Metric.allCases {
            let points = ChartSeries.points(analysis, exercise: exercise, metric: metric)
            _ = SVGChart.line(points, title: exercise, unit: analysis.unit.rawValue)
            _ = TerminalChart.render(points, title: exercise, unit: analysis.unit.rawValue)
            _ = TerminalChart.sparkline(points.map(\.value))
        }
    }
    _ = SVGChart.bars(ChartSeries.weekly(analysis), title: "weeks")
    _ = HTMLReport.render(analysis, title: "fuzz")
    let shown = events.filter { $0.at <= asOf }
    if let last = Timeline.lastWorkout(in: shown), let timeline = Timeline(workout: last, events: shown, exerciseName: analysis.exerciseName) {
        _ = JSONWriter.string(timeline.jsonValue)
        _ = HTMLReport.timeline([timeline], analysis: analysis, title: "fuzz")
    }
    _ = Exporters.jsonl(events)
    _ = Exporters.json(events)
    for unit in [WeightUnit.kg, .lb] {
        _ = Exporters.strongCSV(analysis, unit: unit, imported: ImportedRows(events))
        _ = Exporters.hevyCSV(analysis, unit: unit, redact: true)
    }
}

/// Loads the catalogue (a lazily made global) and shows one small journal before fuzzing, so LeakSanitizer does not
/// blame the first input for what lives until exit.
@_cdecl("LLVMFuzzerInitialize")
public func viewsFuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    let lines = Array("""
    {"v":1,"seq":1,"id":"f-1","at":"2026-11-20T18:30:00.000+01:00","type":"workout.started","workout":"w1","name":"Push A","session":0}
    {"v":1,"seq":2,"id":"f-2","at":"2026-11-20T18:36:20.000+01:00","type":"set.completed","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":5,"kind":"working"}
    {"v":1,"seq":3,"id":"f-3","at":"2026-11-20T19:30:00.000+01:00","type":"workout.finished","workout":"w1"}
    """.utf8)
    lines.withUnsafeBufferPointer { _ = viewsFuzz($0.baseAddress!, $0.count) }
    return 0
}
