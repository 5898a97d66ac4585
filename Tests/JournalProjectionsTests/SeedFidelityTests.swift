import JournalEvents
import JournalModel
import Testing
import TrainingDomain
@testable import JournalProjections

/// What the five seed apps' users would hit (pound arithmetic, planned-row edits, …).
@Suite("seed fidelity: pound lifters and planned rows")
struct SeedFidelityTests {
    /// A lifter in pounds who benched 135 lb × 5 × 3 and has started the next Push with 3 × 5 prescribed.
    static func poundLifter(extra: [Event] = []) -> [Event] {
        [ev("profile.updated", at: "2026-11-16T07:00:00.000+00:00", ["name": "Sam", "unit": "lb"])]
            + workout("a", "Push", start: "2026-11-16T18:00:00.000+00:00", finish: "2026-11-16T18:45:00.000+00:00",
                      [("barbell-bench-press", 1, 135, "lb", 5), ("barbell-bench-press", 2, 135, "lb", 5), ("barbell-bench-press", 3, 135, "lb", 5),
                       ("pull-up", 4, 0, "lb", 8)])
            + [ev("workout.started", at: "2026-11-18T18:00:00.000+00:00", ["workout": "b", "name": "Push", "session": .null]),
               ev("exercise.added", at: "2026-11-18T18:01:00.000+00:00", ["workout": "b", "exercise": "barbell-bench-press", "sets": 3, "reps": "5"]),
               ev("exercise.added", at: "2026-11-18T18:01:00.000+00:00", ["workout": "b", "exercise": "pull-up", "sets": 1, "reps": "8"])]
            + extra
    }

    func active(_ events: [Event], context: ProjectionContext = .trainingDomain) throws -> ActiveWorkoutState {
        try #require(ActiveWorkoutState(analysis(events, asOf: "2026-11-18T18:10:00.000+00:00", context: context)))
    }

    @Test("a 135 lb bench passed gives a 140 lb target and an 85 lb warm-up, not 140.51 lb and 82.67 lb")
    func poundTargetAndWarmup() throws {
        let bench = try active(Self.poundLifter()).exercises[0]
        #expect(bench.nextTarget == DisplayWeight(weight: 140, unit: .lb))
        // On the standard 45 lb bar (no inventory recorded): 20 lb a side.
        #expect(bench.warmup == .init(weight: 85, unit: .lb, reps: 10, percent: "50-70%",
                                      plates: try PlateCalculator.load(target: 85, inventory: .standard(.lb))))
        #expect(bench.warmup?.plates?.perSide == [10, 10] && bench.warmup?.plates?.barWeight == 45)
        #expect(bench.rows.map { "\($0.weight.map(Rounding.text) ?? "-")x\($0.reps.map(String.init) ?? "-") \($0.source.rawValue)" }
                == ["140x5 target", "140x5 target", "140x5 target"])
        // The catalogue-free rule of seed 000 steps by 5 lb too, and warms up at 50 % rounded down to 5 lb.
        let standard = try active(Self.poundLifter(), context: .standard).exercises[0]
        #expect(standard.nextTarget == DisplayWeight(weight: 140, unit: .lb))
        #expect(standard.warmup == .init(weight: 70, unit: .lb, reps: 10, percent: "50-70%"))
    }

    @Test("a bodyweight exercise done unloaded gets no +2.5 kg target")
    func bodyweightNoTarget() throws {
        let pullUp = try active(Self.poundLifter()).exercises[1]
        #expect(pullUp.exercise == "pull-up")
        #expect(pullUp.nextTarget == nil)
        #expect(pullUp.warmup == nil)
        #expect(try active(Self.poundLifter(), context: .standard).exercises[1].nextTarget == nil)
    }

    @Test("a kilogram prefill is shown to a pound lifter as the nearest loadable pound weight")
    func loadablePrefill() throws {
        var events = Self.poundLifter()
        // The last session's warm-up was logged in kilograms: 60 kg = 132.28 lb, shown as 130 lb; it comes back as a
        // warm-up before the three working rows, which weigh the 140 lb target.
        events[2] = ev("set.completed", at: "2026-11-16T18:01:00.000+00:00",
                       ["workout": "a", "exercise": "barbell-bench-press", "set": 1, "weight": 60, "unit": "kg", "reps": 5, "kind": "warmup"])
        let bench = try active(events).exercises[0]
        #expect(bench.rows.map { "\($0.weight.map(Rounding.text) ?? "-") \($0.kind.rawValue) \($0.source.rawValue)" }
                == ["130 warmup last_session", "140 working target", "140 working target", "140 working target"])
        #expect(ActiveWorkoutState.suggested(60, from: .kg, in: .lb) == 130)
        #expect(ActiveWorkoutState.suggested(Units.kilograms(135, from: .lb), from: .lb, in: .lb) == 135)
    }

    @Test("editing only the weight of a planned row keeps its reps; only the weight carries to later rows of its kind")
    func plannedRowEdit() throws {
        let events = Self.poundLifter(extra: [
            ev("set.edited", at: "2026-11-18T18:02:00.000+00:00", ["workout": "b", "exercise": "barbell-bench-press", "set": 2, "weight": 140, "unit": "lb"]),
        ])
        let rows = try active(events).exercises[0].rows
        #expect(rows.map { "\($0.weight.map(Rounding.text) ?? "-")x\($0.reps.map(String.init) ?? "-") \($0.source.rawValue)" }
                == ["140x5 target", "140x5 entered", "140x5 propagated"])
        // Then the reps of set 2 alone: the weight entered before stays, and the reps carry on too.
        let more = Self.poundLifter(extra: [
            ev("set.edited", at: "2026-11-18T18:02:00.000+00:00", ["workout": "b", "exercise": "barbell-bench-press", "set": 2, "weight": 140, "unit": "lb"]),
            ev("set.edited", at: "2026-11-18T18:03:00.000+00:00", ["workout": "b", "exercise": "barbell-bench-press", "set": 2, "reps": 3]),
            ev("set.edited", at: "2026-11-18T18:04:00.000+00:00", ["workout": "b", "exercise": "barbell-bench-press", "set": 3, "reps": 4]),
        ])
        #expect(try active(more).exercises[0].rows.map { "\($0.weight.map(Rounding.text) ?? "-")x\($0.reps.map(String.init) ?? "-") \($0.source.rawValue)" }
                == ["140x5 target", "140x3 entered", "140x4 entered"])
    }

    @Test("a completed row whose weight alone was typed carries only its weight")
    func completedRowCarriesTypedField() throws {
        let events = Self.poundLifter(extra: [
            ev("set.edited", at: "2026-11-18T18:02:00.000+00:00", ["workout": "b", "exercise": "barbell-bench-press", "set": 1, "weight": 145, "unit": "lb"]),
            ev("set.completed", at: "2026-11-18T18:03:00.000+00:00",
               ["workout": "b", "exercise": "barbell-bench-press", "set": 1, "weight": 145, "unit": "lb", "reps": 3, "kind": "working"]),
        ])
        #expect(try active(events).exercises[0].rows.map { "\($0.weight.map(Rounding.text) ?? "-")x\($0.reps.map(String.init) ?? "-") \($0.source.rawValue)" }
                == ["145x3 completed", "145x5 propagated", "145x5 propagated"])
    }
}

@Suite("seed fidelity: programme weeks")
struct ProgrammeWeekTests {
    /// An 8-week, 2-day programme generated on Sunday 2026-11-22 at 20:00 local time.
    static let events: [Event] = [
        ev("programme.generated", at: "2026-11-22T20:00:00.000-06:00", ["ruleset": "train", "programme": j(#"""
        {"split": "Full Body", "days_per_week": 2, "weeks": 8, "sessions": [
          {"name": "A", "exercises": [{"exercise": "barbell-bench-press", "sets": 3, "reps": "8-12", "rest_s": 90}]},
          {"name": "B", "exercises": [{"exercise": "barbell-back-squat", "sets": 3, "reps": "8-12", "rest_s": 90}]}]}
        """#)]),
    ]

    func home(_ asOf: String) -> HomeState { HomeState(analysis(Self.events, asOf: asOf, context: .trainingDomain)) }

    @Test("week 1 starts with the programme: onboarding on Sunday is still week 1 on Monday")
    func weekOneStartsWithTheProgramme() {
        #expect(home("2026-11-23T07:00:00.000-06:00").programme?.week == 1)
        #expect(home("2026-11-28T23:59:00.000-06:00").programme?.week == 1)
        #expect(home("2026-11-29T00:00:00.000-06:00").programme?.week == 2)
        #expect(ProgrammeWeekTests.weekOf("2026-12-06") == 3)
    }

    static func weekOf(_ day: String) -> Int {
        HomeState.ProgrammeProgress.week(ofDay: LocalDate(iso: day)!.day, generatedDay: LocalDate(iso: "2026-11-22")!.day)
    }

    @Test("after the last week the programme is finished, with the seeds' next steps, and proposes no session")
    func finishedProgramme() {
        let last = home("2027-01-16T12:00:00.000-06:00")
        #expect(last.programme?.week == 8)
        #expect(last.programme?.finished == false)
        #expect(last.nextWorkout?.name == "A")
        let after = home("2027-01-17T12:00:00.000-06:00")
        #expect(after.programme == HomeState.ProgrammeProgress(split: "Full Body", week: 8, weeks: 8, daysPerWeek: 2, sessionMinutes: nil,
                                                               priorityMuscles: [], finished: true))
        #expect(after.programme?.nextSteps == ["retake", "regenerate"])
        #expect(after.nextWorkout == nil)
        #expect(after.upcoming == [])
        #expect(JSONWriter.string(after.jsonValue.objectValue?["programme"] ?? .null)
                == #"{"split":"Full Body","week":8,"weeks":8,"days_per_week":2,"session_minutes":null,"priority_muscles":[],"finished":true,"next_steps":["retake","regenerate"]}"#)
    }
}

@Suite("seed fidelity: cardio history")
struct CardioHistoryTests {
    static let events: [Event] = [
        ev("workout.started", at: "2026-11-16T07:00:00.000+00:00", ["workout": "r1", "name": "Run", "session": .null]),
        ev("cardio.logged", at: "2026-11-16T07:30:00.000+00:00", ["workout": "r1", "exercise": "treadmill-run", "minutes": 30, "km": 5]),
        ev("workout.finished", at: "2026-11-16T07:31:00.000+00:00", ["workout": "r1"]),
        ev("workout.started", at: "2026-11-18T07:00:00.000+00:00", ["workout": "r2", "name": "Run", "session": .null]),
        ev("cardio.logged", at: "2026-11-18T07:40:00.000+00:00", ["workout": "r2", "exercise": "treadmill-run", "minutes": 40, "km": 7, "calories": 420]),
        ev("workout.finished", at: "2026-11-18T07:41:00.000+00:00", ["workout": "r2"]),
        ev("workout.started", at: "2026-11-19T07:00:00.000+00:00", ["workout": "r3", "name": "Bike", "session": .null]),
        ev("cardio.logged", at: "2026-11-19T07:20:00.000+00:00", ["workout": "r3", "exercise": "treadmill-run", "minutes": 20]),
        ev("workout.finished", at: "2026-11-19T07:21:00.000+00:00", ["workout": "r3"]),
    ]

    @Test("a cardio exercise's history shows its sessions with minutes, km and pace, its bests and charts")
    func cardioHistory() throws {
        let view = ExerciseHistoryState(analysis(Self.events, asOf: "2026-11-20T00:00:00.000+00:00"), exercise: "treadmill-run")
        #expect(!view.isEmpty)
        let cardio = try #require(view.cardio)
        #expect(cardio.sessions.map { "\($0.workout) \(Rounding.text($0.minutes)) min \($0.km.map(Rounding.text) ?? "-") km \($0.paceMinutesPerKm.map(Rounding.text) ?? "-")" }
                == ["r3 20 min - km -", "r2 40 min 7 km 5.71", "r1 30 min 5 km 6"])
        #expect(cardio.bests == CardioHistory.Bests(longestMinutes: 40, longestKm: 7, fastestPaceMinutesPerKm: 5.71))
        #expect(cardio.charts.km.map(\.value) == [5, 7])
        #expect(cardio.charts.minutes.map(\.value) == [30, 40, 20])
        #expect(cardio.charts.pace.map(\.value) == [6, 5.71])
        #expect(ExerciseHistoryState(analysis(Self.events, asOf: "2026-11-20T00:00:00.000+00:00"), exercise: "barbell-bench-press").cardio == nil)
    }
}

@Suite("seed fidelity: history paging")
struct HistoryPagingTests {
    @Test("an offset skips the newest matches; total counts them all")
    func offset() {
        let events = (1...5).flatMap { n in
            workout("w\(n)", "Push", start: "2026-11-0\(n)T18:00:00.000+00:00", finish: "2026-11-0\(n)T19:00:00.000+00:00",
                    [("barbell-bench-press", 1, 60, "kg", 8)])
        }
        let a = analysis(events, asOf: "2026-11-10T00:00:00.000+00:00")
        let page = HistoryState(a, query: HistoryQuery(limit: 2, offset: 2))
        #expect(page.total == 5)
        #expect(page.workouts.map(\.workout) == ["w3", "w2"])
        #expect(HistoryState(a, query: HistoryQuery(offset: 4)).workouts.map(\.workout) == ["w1"])
        #expect(HistoryState(a, query: HistoryQuery(offset: 9)).workouts.isEmpty)
    }
}

@Suite("seed fidelity: profile")
struct ProfileFidelityTests {
    @Test("subscription status follows the trial's end, missed renewals and a cancellation's effective date")
    func subscriptionStatus() {
        let started = ev("subscription.started", at: "2026-11-01T09:00:00.000+00:00",
                         ["plan": "monthly", "price": 9.99, "currency": "GBP", "trial_days": 7, "next_billing_date": "2026-11-08"])
        func status(_ asOf: String, _ extra: [Event] = []) -> String? {
            ProfileState(analysis([started] + extra, asOf: asOf)).subscriptionStatus
        }
        #expect(status("2026-11-07T23:00:00.000+00:00") == "trial")
        #expect(status("2026-11-08T12:00:00.000+00:00") == "active")
        #expect(status("2026-11-09T12:00:00.000+00:00") == "lapsed")
        let renewed = ev("subscription.renewed", at: "2026-11-08T09:00:00.000+00:00", ["next_billing_date": "2026-12-08"])
        #expect(status("2026-12-01T12:00:00.000+00:00", [renewed]) == "active")
        #expect(status("2026-12-09T12:00:00.000+00:00", [renewed]) == "lapsed")
        let cancelled = ev("subscription.cancelled", at: "2026-11-20T09:00:00.000+00:00", ["effective_date": "2026-12-08"])
        #expect(status("2026-12-07T12:00:00.000+00:00", [renewed, cancelled]) == "cancelled")
        #expect(status("2026-12-08T12:00:00.000+00:00", [renewed, cancelled]) == "expired")
    }

    @Test("the questionnaire's answers are in the profile, in the questionnaire's order")
    func answers() {
        let events = [
            ev("questionnaire.answered", at: "2026-11-01T09:00:00.000+00:00", ["question": "weight", "answer": ["value": 80, "unit": "kg"]]),
            ev("questionnaire.answered", at: "2026-11-01T09:01:00.000+00:00", ["question": "age", "answer": 31]),
            ev("questionnaire.answered", at: "2026-11-01T09:02:00.000+00:00", ["question": "primary_goal", "answer": "build_muscle"]),
            ev("questionnaire.answered", at: "2026-11-01T09:03:00.000+00:00", ["question": "favourite_colour", "answer": "blue"]),
        ]
        let view = ProfileState(analysis(events, asOf: "2026-11-02T00:00:00.000+00:00"))
        #expect(view.answers.map(\.key) == ["primary_goal", "age", "weight", "favourite_colour"])
        #expect(JSONWriter.string(view.jsonValue.objectValue?["questionnaire"] ?? .null)
                == #"{"primary_goal":"build_muscle","age":31,"weight":{"value":80,"unit":"kg"},"favourite_colour":"blue"}"#)
    }
}

@Suite("seed fidelity: weekly volume")
struct WeeklyVolumeTests {
    @Test("progress gives each week's working volume (warm-ups left out)")
    func weeklyVolume() {
        let events = workout("a", "Push", start: "2026-11-10T18:00:00.000+00:00", finish: "2026-11-10T19:00:00.000+00:00",
                             [("barbell-bench-press", 2, 60, "kg", 10)], warmups: [("barbell-bench-press", 1, 40, "kg", 10)])
            + workout("b", "Push", start: "2026-11-17T18:00:00.000+00:00", finish: "2026-11-17T19:00:00.000+00:00",
                      [("barbell-bench-press", 1, 135, "lb", 5), ("barbell-bench-press", 2, 60, "kg", 5)])
        let view = ProgressState(analysis(events, asOf: "2026-11-18T12:00:00.000+00:00"), range: .oneMonth)
        // 60 × 10 = 600 kg; 135 lb × 5 = 306.175 kg plus 60 × 5 = 300 kg.
        #expect(view.weeklyFrequency.suffix(2).map(\.volumeKilograms) == [600, 606.175])
        #expect(view.weeklyFrequency.map(\.volumeKilograms).reduce(0, +) == view.totalVolumeKilograms)
    }
}

@Suite("seed fidelity: planner")
struct PlannerTests {
    @Test("home lists the plans not yet started with their dates and exercises, by date")
    func plannedWorkouts() {
        let events = [
            ev("workout.planned", at: "2026-11-10T08:00:00.000+00:00", ["plan": "p1", "name": "Legs", "date": "2026-11-14",
                                                                       "exercises": j(#"[{"exercise": "barbell-back-squat", "sets": 5, "reps": "5"}]"#)]),
            ev("workout.planned", at: "2026-11-10T08:01:00.000+00:00", ["plan": "p2", "name": "Push", "date": "2026-11-12",
                                                                       "exercises": j(#"[{"exercise": "barbell-bench-press", "sets": 3, "reps": "8-12"}, {"exercise": "dumbbell-fly", "sets": 3}]"#)]),
            ev("workout.planned", at: "2026-11-10T08:02:00.000+00:00", ["plan": "p3", "name": "Someday", "exercises": j(#"[{"exercise": "pull-up"}]"#)]),
        ]
        let home = HomeState(analysis(events, asOf: "2026-11-13T08:00:00.000+00:00", context: .trainingDomain))
        #expect(home.planned == ["Legs", "Push", "Someday"])
        #expect(home.plannedWorkouts.map { "\($0.date.map { "\($0)" } ?? "-") \($0.name) \($0.overdue) \($0.exercises.map(\.name).joined(separator: "+"))" }
                == ["2026-11-12 Push true Barbell Bench Press+Dumbbell Fly", "2026-11-14 Legs false Barbell Back Squat", "- Someday false Pull-Up"])
        #expect(home.plannedWorkouts[0].exercises[0] == SessionCard.Exercise(exercise: "barbell-bench-press", name: "Barbell Bench Press", sets: 3, reps: "8-12"))
    }
}

@Suite("seed fidelity: target set by hand")
struct TargetOverrideTests {
    @Test("progression.configured target overrides the automatic target; sessions after it progress from it")
    func override() throws {
        let set = ev("progression.configured", at: "2026-11-17T07:00:00.000+00:00", ["exercise": "barbell-bench-press", "target": 130, "unit": "lb"])
        var events = SeedFidelityTests.poundLifter()
        events.insert(set, at: 6)
        let bench = try #require(ActiveWorkoutState(analysis(events, asOf: "2026-11-18T18:10:00.000+00:00", context: .trainingDomain))).exercises[0]
        #expect(bench.nextTarget == DisplayWeight(weight: 130, unit: .lb))
        let standard = try #require(ActiveWorkoutState(analysis(events, asOf: "2026-11-18T18:10:00.000+00:00"))).exercises[0]
        #expect(standard.nextTarget == DisplayWeight(weight: 130, unit: .lb))
        // A session at 130 lb passed after it: 135 lb next.
        let later = events + workout("c", "Push", start: "2026-11-20T18:00:00.000+00:00", finish: "2026-11-20T19:00:00.000+00:00",
                                     [("barbell-bench-press", 1, 130, "lb", 5), ("barbell-bench-press", 2, 130, "lb", 5), ("barbell-bench-press", 3, 130, "lb", 5)])
        let input = analysis(Array(later.filter { $0.string("workout") != "b" }), asOf: "2026-11-21T00:00:00.000+00:00", context: .trainingDomain)
            .progressionInput("barbell-bench-press")
        let target = try #require(ProjectionContext.progressionTarget(input))
        #expect(target.weight == 135)
        #expect(target.explanation.contains("\n  set by hand to 130 lb; earlier sessions no longer count\n"))
        // The journal path of TrainingDomain agrees.
        let fromEvents = try Progression.nextTarget(exercise: "barbell-bench-press",
                                                    ledger: Ledger(events: journal(Array(later.filter { $0.string("workout") != "b" })), asOf: Ledger.everything),
                                                    base: .trainDefault(unit: .lb))
        #expect(fromEvents.weight == 135)
    }
}

@Suite("seed fidelity: pausing the session timer")
struct PauseTests {
    static let events: [Event] = [
        ev("workout.started", at: "2026-11-18T18:00:00.000+00:00", ["workout": "p", "name": "Push", "session": .null]),
        ev("set.completed", at: "2026-11-18T18:05:00.000+00:00",
           ["workout": "p", "exercise": "barbell-bench-press", "set": 1, "weight": 60, "unit": "kg", "reps": 8, "kind": "working"]),
        ev("workout.paused", at: "2026-11-18T18:10:00.000+00:00", ["workout": "p"]),
        ev("workout.resumed", at: "2026-11-18T18:25:00.000+00:00", ["workout": "p"]),
        ev("workout.paused", at: "2026-11-18T18:40:00.000+00:00", ["workout": "p"]),
    ]

    @Test("paused time is not workout time: elapsed stands still while paused, and the duration leaves it out")
    func pause() throws {
        let paused = try #require(ActiveWorkoutState(analysis(Self.events, asOf: "2026-11-18T18:50:00.000+00:00")))
        #expect(paused.paused)
        #expect(paused.elapsedSeconds == 25 * 60)
        let running = try #require(ActiveWorkoutState(analysis(Array(Self.events.prefix(4)), asOf: "2026-11-18T18:50:00.000+00:00")))
        #expect(!running.paused)
        #expect(running.elapsedSeconds == 35 * 60)
        let finished = analysis(Self.events + [ev("workout.finished", at: "2026-11-18T19:00:00.000+00:00", ["workout": "p"])],
                                asOf: "2026-11-18T20:00:00.000+00:00")
        // 60 minutes, less 15 and 20 paused.
        #expect(finished.finished[0].durationSeconds == 25 * 60)
    }
}
