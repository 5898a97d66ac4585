import JournalEvents
import JournalModel
import Testing
import TrainingDomain
@testable import JournalProjections

/// One unit rule (DOMAIN.md §"One unit rule"): after a kg ↔ lb switch, targets and prefilled rows are loadable weights
/// of the new unit and the next progression step is that unit's.
@Suite("One unit rule: a lifter who switches kg ↔ lb mid-programme")
struct UnitSwitchTests {
    /// A programme whose session prescribes squat (no weight) and overhead press at 20 kg or 45 lb, one finished
    /// session in `from` with squat sets `reps` at `squat`, then the profile switched to `to` and the next session begun.
    static func switched(from: String, to: String, squat: Double, reps: [Int], press: Double) -> [Event] {
        [ev("profile.updated", at: "2026-11-01T09:00:00.000+00:00", ["name": "Sam", "unit": .string(from)]),
         ev("programme.generated", at: "2026-11-01T10:00:00.000+00:00", ["ruleset": "templates", "programme": j("""
             {"split": "Full Body", "days_per_week": 3, "weeks": 12,
              "sessions": [{"name": "Workout A", "exercises": [
                 {"exercise": "barbell-back-squat", "sets": 3, "reps": "5"},
                 {"exercise": "overhead-press", "sets": 3, "reps": "5", "weight": \(press), "unit": "\(from)"}]}]}
             """)])]
            + workout("w1", "Workout A", start: "2026-11-02T18:00:00.000+00:00", finish: "2026-11-02T18:45:00.000+00:00", session: 0,
                      reps.enumerated().map { ("barbell-back-squat", $0.offset + 1, squat, from, $0.element) })
            + [ev("profile.updated", at: "2026-11-03T09:00:00.000+00:00", ["unit": .string(to)]),
               ev("workout.started", at: "2026-11-04T18:00:00.000+00:00", ["workout": "w2", "name": "Workout A", "session": 0])]
    }

    static func target(_ view: ActiveWorkoutState?, _ exercise: String) -> String {
        view?.exercises.first { $0.exercise == exercise }?.nextTarget?.description ?? "none"
    }

    static func rowWeights(_ view: ActiveWorkoutState?, _ exercise: String) -> [String] {
        view?.exercises.first { $0.exercise == exercise }?.rows.map { "\($0.weight.map(Rounding.text) ?? "-") \($0.unit.rawValue)" } ?? []
    }

    @Test("Units.loadable: as recorded in the same unit, else the nearest multiple of the other unit's step")
    func loadable() {
        #expect(Units.loadable(40, from: .kg, to: .lb) == 90)
        #expect(Units.loadable(100, from: .kg, to: .lb) == 220)
        #expect(Units.loadable(135, from: .lb, to: .kg) == 60)
        #expect(Units.loadable(225, from: .lb, to: .kg) == 102.5)
        #expect(Units.loadable(61.3, from: .kg, to: .kg) == 61.3)
        #expect(Units.loadable(40, from: .kg, to: .lb, step: 2.5) == 87.5)
    }

    @Test("a failed session before the switch: the kept target, the rows and the programme's weight are loadable in the new unit",
          arguments: [("kg", "lb", 100.0, 20.0, "220 lb", "45 lb"), ("lb", "kg", 225.0, 45.0, "102.5 kg", "20 kg")])
    func failedSessionThenSwitch(_ from: String, _ to: String, _ squat: Double, _ press: Double, _ squatTarget: String, _ pressTarget: String) {
        let events = Self.switched(from: from, to: to, squat: squat, reps: [5, 5, 4], press: press)
        let view = ActiveWorkoutState(analysis(events, asOf: "2026-11-04T18:05:00.000+00:00", context: .trainingDomain))
        #expect(Self.target(view, "barbell-back-squat") == squatTarget)
        #expect(Self.rowWeights(view, "barbell-back-squat") == Array(repeating: squatTarget, count: 3))
        #expect(Self.target(view, "overhead-press") == pressTarget)
        #expect(Self.rowWeights(view, "overhead-press") == Array(repeating: pressTarget, count: 3))
        // The history still shows what was lifted, converted: no rounding of the record.
        let input = analysis(events, asOf: "2026-11-04T18:05:00.000+00:00", context: .trainingDomain).progressionInput("barbell-back-squat")
        #expect(ProjectionContext.progressionTarget(input)?.explanation.split(separator: "\n").dropFirst().first.map(String.init)
            == (to == "lb" ? "  w1 on 2026-11-02: 220.462 lb × 5,5,4 vs 5 reps → failed; target 220 lb (failure 1 of 3)"
                           : "  w1 on 2026-11-02: 102.058 kg × 5,5,4 vs 5 reps → failed; target 102.5 kg (failure 1 of 3)"))
    }

    @Test("a passed session before the switch steps by the new unit's increment, and so does the next session in the new unit",
          arguments: [("kg", "lb", 100.0, 225.0, "225 lb", "230 lb"), ("lb", "kg", 225.0, 105.0, "105 kg", "107.5 kg")])
    func passedSessionThenSwitch(_ from: String, _ to: String, _ squat: Double, _ next: Double, _ firstTarget: String, _ secondTarget: String) {
        let events = Self.switched(from: from, to: to, squat: squat, reps: [5, 5, 5], press: 20)
        let first = ActiveWorkoutState(analysis(events, asOf: "2026-11-04T18:05:00.000+00:00", context: .trainingDomain))
        #expect(Self.target(first, "barbell-back-squat") == firstTarget)
        // The lifter lifts the target in the new unit, passes, and the next step is that unit's (5 lb, 2.5 kg).
        let later = events.dropLast()
            + workout("w2", "Workout A", start: "2026-11-04T18:00:00.000+00:00", finish: "2026-11-04T18:45:00.000+00:00", session: 0,
                      (1...3).map { ("barbell-back-squat", $0, next, to, 5) })
            + [ev("workout.started", at: "2026-11-06T18:00:00.000+00:00", ["workout": "w3", "name": "Workout A", "session": 0])]
        let second = ActiveWorkoutState(analysis(Array(later), asOf: "2026-11-06T18:05:00.000+00:00", context: .trainingDomain))
        #expect(Self.target(second, "barbell-back-squat") == secondTarget)
        #expect(Self.rowWeights(second, "barbell-back-squat") == Array(repeating: secondTarget, count: 3))
    }

    @Test("a target set by hand in the old unit starts the new unit's fold from its nearest loadable weight",
          arguments: [("kg", "lb", 70.0, "155 lb"), ("lb", "kg", 155.0, "70 kg")])
    func handSetTargetInTheOldUnit(_ from: String, _ to: String, _ target: Double, _ shown: String) {
        let events = Self.switched(from: from, to: to, squat: 60, reps: [5, 5, 4], press: 20)
            + [ev("progression.configured", at: "2026-11-04T18:01:00.000+00:00",
                  ["exercise": "barbell-back-squat", "target": .number(target), "unit": .string(from)])]
        let view = ActiveWorkoutState(analysis(events, asOf: "2026-11-04T18:05:00.000+00:00", context: .trainingDomain))
        #expect(Self.target(view, "barbell-back-squat") == shown)
    }
}
