import JournalEvents
import JournalModel
import Testing
@testable import JournalProjections

/// Seed 003's progress overview: working sets per week beside workouts and volume, and the "1RM Estimate" metric
/// beside the top set of each session.
@Suite("Progress: sets per week and the estimated one-rep max per session")
struct ProgressMetricsTests {
    @Test("working sets per week (warm-ups left out), the top set and the Epley estimate per session, in kilograms", arguments: [
        ("kg", [100.0, 100, 90], 105.0, [116.667, 115.5], [100.0, 105]),
        ("lb", [225.0, 225, 200], 235.0, [119.068, 117.254], [102.058, 106.594]),
    ])
    func weeklySetsAndOneRepMax(_ unit: String, _ week1: [Double], _ week2: Double, _ e1rm: [Double], _ top: [Double]) {
        let events = workout("w1", "Push", start: "2026-11-02T18:00:00.000+00:00", finish: "2026-11-02T18:45:00.000+00:00",
                             [("bench", 1, week1[0], unit, 5), ("bench", 2, week1[1], unit, 5), ("bench", 3, week1[2], unit, 8)])
            + workout("w2", "Push", start: "2026-11-09T18:00:00.000+00:00", finish: "2026-11-09T18:45:00.000+00:00",
                      [("bench", 2, week2, unit, 3)], warmups: [("bench", 1, 40, unit, 10)])
        let view = ProgressState(analysis(events, asOf: "2026-11-10T12:00:00.000+00:00"), range: .all)
        #expect(view.weeklyFrequency.map(\.sets) == [3, 1])
        #expect(view.weeklyFrequency.map(\.workouts) == [1, 1])
        let bench = view.strength.first { $0.exercise == "bench" }
        #expect(bench?.oneRepMax.map(\.value) == e1rm)
        #expect(bench?.points.map(\.value) == top)
        #expect(bench?.oneRepMax.map(\.workout) == ["w1", "w2"])
    }
}
