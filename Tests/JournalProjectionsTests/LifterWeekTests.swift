import JournalEvents
import JournalModel
import Testing
@testable import JournalProjections

/// A lifter's week as the seeds show it: a rotating programme offers its next session until the week's target is
/// met, a programme ticks only its own workouts, and the logger's planned rows follow the exercise's target.
@Suite("The lifter's week: rotation, a programme's own sessions, rows that follow the target")
struct LifterWeekTests {
    /// Starting Strength's two workouts at three days a week, generated on Sunday 2026-11-01.
    static func alternating(unit: String) -> [Event] {
        [
            ev("profile.updated", at: "2026-11-01T09:00:00.000+01:00", ["name": "Sam", "unit": .string(unit)]),
            ev("programme.generated", at: "2026-11-01T10:00:00.000+01:00", ["ruleset": "templates", "programme": j("""
                {"split": "Full Body", "days_per_week": 3, "weeks": 12,
                 "sessions": [
                    {"name": "Workout A", "exercises": [{"exercise": "squat", "sets": 3, "reps": "5"}, {"exercise": "bench", "sets": 3, "reps": "5"}]},
                    {"name": "Workout B", "exercises": [{"exercise": "squat", "sets": 3, "reps": "5"}, {"exercise": "ohp", "sets": 3, "reps": "5"}]}
                 ]}
                """)]),
        ]
    }

    static func session(_ id: String, _ index: Int, day: String, unit: String) -> [Event] {
        workout(id, index == 0 ? "Workout A" : "Workout B", start: "\(day)T18:00:00.000+01:00", finish: "\(day)T18:45:00.000+01:00", session: index,
                [("squat", 1, 100, unit, 5)])
    }

    static func ticks(_ home: HomeState) -> [String] { home.week.sessions.map { "\($0.name)\($0.completed ? " ✓" : "")" } }

    @Test("a two-session programme at three days keeps offering the next session of the rotation until the week's target is met, and rotates on across weeks",
          arguments: ["kg", "lb"])
    func rotation(_ unit: String) {
        let week1 = Self.alternating(unit: unit) + Self.session("w1", 0, day: "2026-11-02", unit: unit) + Self.session("w2", 1, day: "2026-11-04", unit: unit)
        let midweek = HomeState(analysis(week1, asOf: "2026-11-05T12:00:00.000+01:00"))
        #expect(Self.ticks(midweek) == ["Workout A ✓", "Workout B ✓", "Workout A"])
        #expect(midweek.week.completed == 2 && midweek.week.target == 3)
        #expect(midweek.message == "Keep it up: 1 more this week")
        #expect(midweek.nextWorkout?.session == 0 && midweek.nextWorkout?.name == "Workout A")
        #expect(midweek.upcoming.isEmpty)

        let full = week1 + Self.session("w3", 0, day: "2026-11-06", unit: unit)
        let friday = HomeState(analysis(full, asOf: "2026-11-06T20:00:00.000+01:00"))
        #expect(Self.ticks(friday) == ["Workout A ✓", "Workout B ✓", "Workout A ✓"])
        #expect(friday.week.completed == 3 && friday.nextWorkout == nil && friday.message == "You're killing it this week")

        // Week 2 continues the rotation: B A B.
        let monday = HomeState(analysis(full, asOf: "2026-11-09T08:00:00.000+01:00"))
        #expect(Self.ticks(monday) == ["Workout B", "Workout A", "Workout B"])
        #expect(monday.nextWorkout?.name == "Workout B" && monday.upcoming.map(\.name) == ["Workout A", "Workout B"])
        let week2 = full + Self.session("w4", 1, day: "2026-11-09", unit: unit)
        let tuesday = HomeState(analysis(week2, asOf: "2026-11-10T08:00:00.000+01:00"))
        #expect(Self.ticks(tuesday) == ["Workout B ✓", "Workout A", "Workout B"])
        #expect(tuesday.nextWorkout?.name == "Workout A" && tuesday.message == "Keep it up: 2 more this week")
    }

    @Test("the week's sessions: the programme's own order when they cover the days, a rotation from the last session otherwise")
    func weekSessions() {
        #expect(HomeState.ProgrammeProgress.weekSessions(count: 3, daysPerWeek: 3, lastBefore: 1) == [0, 1, 2])
        #expect(HomeState.ProgrammeProgress.weekSessions(count: 5, daysPerWeek: 3, lastBefore: 4) == [0, 1, 2, 3, 4])
        #expect(HomeState.ProgrammeProgress.weekSessions(count: 2, daysPerWeek: 3, lastBefore: nil) == [0, 1, 0])
        #expect(HomeState.ProgrammeProgress.weekSessions(count: 2, daysPerWeek: 3, lastBefore: 0) == [1, 0, 1])
        #expect(HomeState.ProgrammeProgress.weekSessions(count: 3, daysPerWeek: 5, lastBefore: 2) == [0, 1, 2, 0, 1])
        #expect(HomeState.ProgrammeProgress.weekSessions(count: 0, daysPerWeek: 3, lastBefore: nil) == [])
    }

    @Test("after a retake mid-week the new programme ticks only workouts started under it; the old one stays in history and streaks",
          arguments: ["kg", "lb"])
    func programmeOwnsItsSessions(_ unit: String) {
        let events = programmeEvents
            + workout("old", "Push", start: "2026-11-16T18:00:00.000+01:00", finish: "2026-11-16T18:40:00.000+01:00", session: 0, [("bench", 1, 60, unit, 8)])
            + [ev("programme.reset", at: "2026-11-17T09:00:00.000+01:00"),
               ev("programme.generated", at: "2026-11-17T09:01:00.000+01:00", ["ruleset": "train", "programme": j("""
                   {"split": "Upper/Lower", "days_per_week": 2, "weeks": 8,
                    "sessions": [{"name": "Upper", "exercises": [{"exercise": "bench", "sets": 3, "reps": "8-12"}]},
                                 {"name": "Lower", "exercises": [{"exercise": "squat", "sets": 3, "reps": "8-12"}]}]}
                   """)])]
        let tuesday = HomeState(analysis(events, asOf: "2026-11-17T12:00:00.000+01:00"))
        #expect(Self.ticks(tuesday) == ["Upper", "Lower"])
        #expect(tuesday.week.completed == 0 && tuesday.week.workouts == 1 && tuesday.week.target == 2)
        #expect(tuesday.nextWorkout?.name == "Upper")
        #expect(tuesday.streak.currentDays == 1 && tuesday.lastWorkouts.map(\.workout) == ["old"])

        let upper = events + workout("new", "Upper", start: "2026-11-17T18:00:00.000+01:00", finish: "2026-11-17T18:40:00.000+01:00", session: 0,
                                     [("bench", 1, 60, unit, 8)])
        let evening = HomeState(analysis(upper, asOf: "2026-11-17T20:00:00.000+01:00"))
        #expect(Self.ticks(evening) == ["Upper ✓", "Lower"])
        #expect(evening.week.sessions[0].workout == "new" && evening.week.completed == 1 && evening.week.workouts == 2)
        #expect(evening.nextWorkout?.name == "Lower" && evening.streak.currentDays == 2)
    }

    // MARK: Rows follow the target

    /// A programme with bench 3 × 5, a finished session (a warm-up and three working sets, every one at 5 reps) and a
    /// new workout of the same session: seed 000's +2.5 kg (5 lb) step.
    static func benchDay(unit: String, weight: Double, warmup: Double) -> [Event] {
        [
            ev("profile.updated", at: "2026-11-01T09:00:00.000+01:00", ["unit": .string(unit)]),
            ev("programme.generated", at: "2026-11-01T10:00:00.000+01:00", ["ruleset": "train", "programme": j("""
                {"split": "Full Body", "days_per_week": 3, "weeks": 8,
                 "sessions": [{"name": "A", "exercises": [{"exercise": "bench", "sets": 3, "reps": "5"}]}]}
                """)]),
        ]
        + workout("w1", "A", start: "2026-11-02T18:00:00.000+01:00", finish: "2026-11-02T18:40:00.000+01:00", session: 0,
                  [("bench", 2, weight, unit, 5), ("bench", 3, weight, unit, 5), ("bench", 4, weight, unit, 5)],
                  warmups: [("bench", 1, warmup, unit, 10)])
        + [ev("workout.started", at: "2026-11-04T18:00:00.000+01:00", ["workout": "w2", "name": "A", "session": 0])]
    }

    static func rows(_ view: ActiveWorkoutState?, _ exercise: String = "bench") -> [String] {
        view?.exercises.first { $0.exercise == exercise }?.rows.map {
            "\($0.set) \($0.kind.rawValue) \($0.weight.map { "\($0)" } ?? "-") × \($0.reps.map(String.init) ?? "-") \($0.source.rawValue)"
        } ?? []
    }

    @Test("planned rows weigh the next target after a progression step, and the last session's warm-up comes back as a warm-up",
          arguments: [("kg", 60.0, 40.0, 62.5), ("lb", 135.0, 95.0, 140.0)])
    func rowsFollowTheStep(_ unit: String, _ weight: Double, _ warmup: Double, _ target: Double) {
        let view = ActiveWorkoutState(analysis(Self.benchDay(unit: unit, weight: weight, warmup: warmup), asOf: "2026-11-04T18:05:00.000+01:00"))
        let bench = view?.exercises.first
        #expect(bench?.nextTarget?.weight == target && bench?.nextTarget?.unit.rawValue == unit)
        #expect(Self.rows(view) == ["1 warmup \(warmup) × 10 last_session", "2 working \(target) × 5 target",
                                    "3 working \(target) × 5 target", "4 working \(target) × 5 target"])
    }

    @Test("a target set by hand and a deload move the planned rows with the Target line", arguments: ["kg", "lb"])
    func rowsFollowAHandSetTarget(_ unit: String) {
        let events = Self.benchDay(unit: unit, weight: 60, warmup: 40)
            + [ev("progression.configured", at: "2026-11-04T18:01:00.000+01:00", ["exercise": "bench", "target": 70, "unit": .string(unit)])]
        let view = ActiveWorkoutState(analysis(events, asOf: "2026-11-04T18:05:00.000+01:00"))
        #expect(view?.exercises.first?.nextTarget?.weight == 70)
        #expect(Self.rows(view).dropFirst() == ["2 working 70.0 × 5 target", "3 working 70.0 × 5 target", "4 working 70.0 × 5 target"])

        // TrainingDomain's rule: failed sessions at 100 (kg or lb) deload by 10 %, rounded down to the step, and stay there.
        var failing: [Event] = [ev("profile.updated", at: "2026-11-01T09:00:00.000+01:00", ["unit": .string(unit)])]
        for (index, day) in ["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-06"].enumerated() {
            failing += workout("f\(index)", "Legs", start: "\(day)T18:00:00.000+01:00", finish: "\(day)T18:40:00.000+01:00",
                               [("barbell-back-squat", 1, 100, unit, 3), ("barbell-back-squat", 2, 100, unit, 3)])
        }
        failing += [ev("workout.started", at: "2026-11-09T18:00:00.000+01:00", ["workout": "n", "name": "Legs", "session": .null]),
                    ev("exercise.added", at: "2026-11-09T18:01:00.000+01:00", ["workout": "n", "exercise": "barbell-back-squat", "sets": 2, "reps": "5"])]
        let deloaded = ActiveWorkoutState(analysis(failing, asOf: "2026-11-09T18:05:00.000+01:00", context: .trainingDomain))
        let squat = deloaded?.exercises.first
        #expect(squat?.nextTarget?.weight == 90)
        #expect(Self.rows(deloaded, "barbell-back-squat") == ["1 working 90.0 × 3 target", "2 working 90.0 × 3 target"])
    }

    @Test("an exercise added mid-workout gets its prescribed rows, the last session's, or one; Add set copies the last completed set",
          arguments: ["kg", "lb"])
    func addedExerciseAndAddSet(_ unit: String) {
        var events = Self.benchDay(unit: unit, weight: 60, warmup: 40)
        events += [
            ev("exercise.added", at: "2026-11-04T18:01:00.000+01:00", ["workout": "w2", "exercise": "dips", "sets": 2, "reps": "8-12"]),
            ev("exercise.added", at: "2026-11-04T18:01:10.000+01:00", ["workout": "w2", "exercise": "curl"]),
            ev("set.completed", at: "2026-11-04T18:02:00.000+01:00", ["workout": "w2", "exercise": "bench", "set": 2, "weight": 62.5,
                                                                       "unit": .string(unit), "reps": 4, "kind": "working"]),
            ev("set.completed", at: "2026-11-04T18:03:00.000+01:00", ["workout": "w2", "exercise": "bench", "set": 3, "weight": 62.5,
                                                                       "unit": .string(unit), "reps": 3, "kind": "working"]),
            ev("set.added", at: "2026-11-04T18:04:00.000+01:00", ["workout": "w2", "exercise": "bench", "set": 5]),
        ]
        let view = ActiveWorkoutState(analysis(events, asOf: "2026-11-04T18:05:00.000+01:00"))
        #expect(Self.rows(view, "dips") == ["1 working - × - none", "2 working - × - none"])
        #expect(Self.rows(view, "curl") == ["1 working - × - none"])
        let bench = Self.rows(view)
        #expect(bench.count == 5 && bench[4] == "5 working 62.5 × 3 previous_set")

        // Added again in a later workout without a count: as many rows as its last session had.
        let later = events + [
            ev("set.completed", at: "2026-11-04T18:06:00.000+01:00", ["workout": "w2", "exercise": "curl", "set": 1, "weight": 12, "unit": .string(unit), "reps": 10, "kind": "working"]),
            ev("set.completed", at: "2026-11-04T18:07:00.000+01:00", ["workout": "w2", "exercise": "curl", "set": 2, "weight": 12, "unit": .string(unit), "reps": 9, "kind": "working"]),
            ev("workout.finished", at: "2026-11-04T18:30:00.000+01:00", ["workout": "w2"]),
            ev("workout.started", at: "2026-11-06T18:00:00.000+01:00", ["workout": "w3", "name": "Arms", "session": .null]),
            ev("exercise.added", at: "2026-11-06T18:01:00.000+01:00", ["workout": "w3", "exercise": "curl"]),
        ]
        let arms = ActiveWorkoutState(analysis(later, asOf: "2026-11-06T18:05:00.000+01:00"))
        #expect(Self.rows(arms, "curl") == ["1 working 12.0 × 10 target", "2 working 12.0 × 9 target"])
    }
}

extension LifterWeekTests {
    @Test("a deleted planned row stays deleted, also after the exercise is swapped, until a set names it again")
    func deletedRowsStayDeleted() {
        let events = Self.benchDay(unit: "kg", weight: 60, warmup: 40) + [
            ev("set.removed", at: "2026-11-04T18:01:00.000+01:00", ["workout": "w2", "exercise": "bench", "set": 2]),
            ev("exercise.swapped", at: "2026-11-04T18:02:00.000+01:00", ["workout": "w2", "from": "bench", "to": "dumbbell-bench"]),
        ]
        let view = ActiveWorkoutState(analysis(events, asOf: "2026-11-04T18:05:00.000+01:00"))
        // The swapped-in exercise has no last session: its plan is the three prescribed rows, less the deleted one.
        #expect(Self.rows(view, "dumbbell-bench").map { $0.prefix(1) } == ["1", "3"])
        let back = events + [ev("set.added", at: "2026-11-04T18:03:00.000+01:00", ["workout": "w2", "exercise": "dumbbell-bench", "set": 2])]
        #expect(Self.rows(ActiveWorkoutState(analysis(back, asOf: "2026-11-04T18:05:00.000+01:00")), "dumbbell-bench").map { $0.prefix(1) } == ["1", "2", "3"])
    }
}
