import JournalEvents
import JournalModel
import TrainingDomain
import Testing
@testable import JournalProjections

/// The lifter's projections: finishing, templates, repeat, propagation, rest defaults, retake quiz, edits.
@Suite("Everything else a lifter does")
struct LifterProjectionTests {
    static func set(_ workout: String, _ exercise: String, _ number: Int, _ weight: Double, _ reps: Int, at: String, kind: String = "working") -> Event {
        ev("set.completed", at: at, ["workout": .string(workout), "exercise": .string(exercise), "set": .int(number), "weight": .number(weight),
                                     "unit": "kg", "reps": .int(reps), "kind": .string(kind)])
    }

    @Test("finishing drops incomplete rows, exercises with no completed set and a superset left with one member")
    func finishingDropsTheIncomplete() {
        let events = [
            ev("workout.started", at: "2026-11-20T18:00:00.000+01:00", ["workout": "w1", "name": "Upper", "session": nil]),
            ev("exercise.added", at: "2026-11-20T18:00:10.000+01:00", ["workout": "w1", "exercise": "bench", "sets": 3, "reps": "8"]),
            ev("exercise.added", at: "2026-11-20T18:00:20.000+01:00", ["workout": "w1", "exercise": "fly", "sets": 3]),
            ev("exercise.added", at: "2026-11-20T18:00:30.000+01:00", ["workout": "w1", "exercise": "row"]),
            ev("superset.linked", at: "2026-11-20T18:01:00.000+01:00", ["workout": "w1", "group": "g1", "exercises": ["bench", "fly"]]),
            ev("set.added", at: "2026-11-20T18:02:00.000+01:00", ["workout": "w1", "exercise": "bench", "set": 2, "weight": 60, "unit": "kg", "reps": 8]),
            Self.set("w1", "bench", 1, 60, 8, at: "2026-11-20T18:05:00.000+01:00"),
            ev("cardio.logged", at: "2026-11-20T18:40:00.000+01:00", ["workout": "w1", "exercise": "treadmill-run", "minutes": 10, "km": 1.8]),
            ev("workout.finished", at: "2026-11-20T18:50:00.000+01:00", ["workout": "w1"]),
        ]
        let ledger = Projections.ledger(events: journal(events), asOf: t("2026-11-20T19:00:00.000+01:00"))
        #expect(ledger.workouts == [WorkoutRecord(
            id: "w1", name: "Upper", startedAt: t("2026-11-20T18:00:00.000+01:00"), finishedAt: t("2026-11-20T18:50:00.000+01:00"),
            status: .finished, seq: 1,
            exercises: [WorkoutExercise(exercise: "bench", prescription: Prescription(exercise: "bench", sets: 3, reps: "8")),
                        WorkoutExercise(exercise: "treadmill-run")],
            sets: [LoggedSet(exercise: "bench", set: 1, weight: 60, unit: .kg, reps: 8, at: t("2026-11-20T18:05:00.000+01:00"))],
            cardio: [CardioEntry(exercise: "treadmill-run", minutes: 10, km: 1.8)])])
        // Cardio is shown in history but is no strength session and sets no record.
        let a = Analysis(ledger)
        #expect(a.sessionIndices.keys.sorted() == ["bench"])
        #expect(HistoryState(a).workouts.map { [$0.exerciseCount, $0.setCount] } == [[2, 1]])
    }

    static let template: [Event] = [
        ev("template.created", at: "2026-11-01T09:00:00.000+01:00", ["template": "t1", "name": "Upper A", "exercises": j("""
            [{"exercise": "bench", "sets": [{"reps": 10, "kind": "warmup"}, {"weight": 70, "unit": "kg"}, {"weight": 70, "unit": "kg", "reps": 6}], "superset": "a"},
             {"exercise": "fly", "sets": 2, "superset": "a"},
             {"exercise": "treadmill-run", "minutes": 20, "km": 3.5}]
            """)]),
        ev("template.created", at: "2026-11-02T09:00:00.000+01:00", ["template": "t2", "name": "Legs", "exercises": j(#"[{"exercise": "squat", "sets": 3, "reps": "5", "rest_s": 180}]"#)]),
    ]
    static let lastUpper: [Event] = workout("w1", "Upper A", start: "2026-11-10T18:00:00.000+01:00", finish: "2026-11-10T19:00:00.000+01:00",
                                           [("bench", 1, 40, "kg", 12), ("bench", 2, 65, "kg", 9), ("bench", 3, 65, "kg", 8), ("fly", 1, 14, "kg", 12)])

    @Test("starting from a template prefills its per-set values, falling back to the last session, keeps its superset and updates its last use")
    func startFromTemplate() {
        let events = Self.template + Self.lastUpper + [
            ev("workout.started", at: "2026-11-17T18:00:00.000+01:00", ["workout": "w2", "name": "Upper A", "session": nil, "template": "t1"]),
        ]
        let a = analysis(events, asOf: "2026-11-17T18:01:00.000+01:00", context: muscleContext)
        let active = ActiveWorkoutState(a)
        #expect(active?.exercises.map(\.rows) == [
            [
                // The last session had no warm-up (its 40 kg set was a working set), so the warm-up row has the
                // template's reps only; the working rows weigh the target (the last top weight, 65 kg) with the
                // configured reps, else those of the last session's working set in the same place (its first: 12).
                .init(set: 1, weight: nil, unit: .kg, reps: 10, kind: .warmup, completed: false, source: .template),
                .init(set: 2, weight: 65, unit: .kg, reps: 12, completed: false, source: .target),
                .init(set: 3, weight: 65, unit: .kg, reps: 6, completed: false, source: .target),
            ],
            [
                .init(set: 1, weight: 14, unit: .kg, reps: 12, completed: false, source: .target),
                .init(set: 2, weight: 14, unit: .kg, reps: 12, completed: false, source: .target),
            ],
            [],
        ])
        #expect(active?.exercises.map(\.superset) == ["a", "a", nil])
        // Cardio: the template's minutes and km are the prefill.
        #expect(active?.exercises.map(\.cardioPrefill) == [nil, nil, CardioEntry(exercise: "treadmill-run", minutes: 20, km: 3.5)])
        #expect(active?.exercises.map(\.restSeconds) == [90, 60, 60])
        #expect(TemplatesState(a) == TemplatesState(templates: [
            .init(template: "t1", name: "Upper A", exercises: [
                .init(exercise: "bench", name: "Bench", sets: 3, reps: nil, setConfigs: [
                    PrescribedSet(reps: 10, kind: .warmup), PrescribedSet(weight: 70, unit: .kg), PrescribedSet(weight: 70, unit: .kg, reps: 6),
                ], superset: "a"),
                .init(exercise: "fly", name: "Fly", sets: 2, reps: nil, setConfigs: [], superset: "a"),
                .init(exercise: "treadmill-run", name: "Treadmill Run", sets: 0, reps: nil, setConfigs: [], superset: nil, minutes: 20, km: 3.5),
            ], muscles: ["chest"], note: nil, createdAt: t("2026-11-01T09:00:00.000+01:00"), lastUsedAt: t("2026-11-17T18:00:00.000+01:00")),
            .init(template: "t2", name: "Legs", exercises: [
                .init(exercise: "squat", name: "Squat", sets: 3, reps: "5", setConfigs: [], superset: nil, restSeconds: 180),
            ], muscles: ["quads"], note: nil, createdAt: t("2026-11-02T09:00:00.000+01:00"), lastUsedAt: nil),
        ]))
    }

    @Test("repeating the last finished workout plans its exercises and sets; the plan is listed until started")
    func repeatAsPlan() {
        var events = Self.lastUpper
        events.insert(ev("superset.linked", at: "2026-11-10T18:00:30.000+01:00", ["workout": "w1", "group": "s", "exercises": ["bench", "fly"]]), at: 1)
        events.append(ev("workout.planned", at: "2026-11-12T08:00:00.000+01:00",
                         ["plan": "p1", "name": "Upper A", "exercises": j("[]"), "repeat_of": "w1", "date": "2026-11-13"]))
        let a = analysis(events, asOf: "2026-11-12T09:00:00.000+01:00")
        let copied = [
            Prescription(exercise: "bench", setConfigs: [
                PrescribedSet(weight: 40, unit: .kg, reps: 12), PrescribedSet(weight: 65, unit: .kg, reps: 9), PrescribedSet(weight: 65, unit: .kg, reps: 8),
            ], superset: "s"),
            Prescription(exercise: "fly", setConfigs: [PrescribedSet(weight: 14, unit: .kg, reps: 12)], superset: "s"),
        ]
        #expect(a.ledger.plans == [PlannedWorkout(id: "p1", name: "Upper A", exercises: copied, date: "2026-11-13", repeatOf: "w1",
                                                  plannedAt: t("2026-11-12T08:00:00.000+01:00"))])
        #expect(a.ledger.workout("w1")?.repeatPrescriptions == copied)
        #expect(HomeState(a).planned == ["Upper A"])
        // The copy goes back into a template or plan event as it came.
        #expect(JSONWriter.string(Prescription.eventValue(copied)) ==
            #"[{"exercise":"bench","sets":[{"weight":40,"unit":"kg","reps":12,"kind":"working"},{"weight":65,"unit":"kg","reps":9,"kind":"working"},{"weight":65,"unit":"kg","reps":8,"kind":"working"}],"superset":"s"},{"exercise":"fly","sets":[{"weight":14,"unit":"kg","reps":12,"kind":"working"}],"superset":"s"}]"#)
        #expect(Prescription.parse(Prescription.eventValue(copied)) == copied)

        let started = analysis(events + [ev("workout.started", at: "2026-11-13T18:00:00.000+01:00", ["workout": "w2", "name": "Upper A", "session": nil, "plan": "p1"])],
                               asOf: "2026-11-13T18:01:00.000+01:00")
        #expect(HomeState(started).planned == [])
        #expect(started.ledger.workout("w2")?.supersets == [SupersetGroup(group: "s", exercises: ["bench", "fly"])])
    }

    @Test("an edited value carries to the later incomplete rows of the same kind, also after the row is ticked")
    func propagation() {
        let events = Self.lastUpper + [
            ev("workout.started", at: "2026-11-17T18:00:00.000+01:00", ["workout": "w2", "name": "Upper A", "session": nil, "repeat_of": "w1"]),
            ev("set.edited", at: "2026-11-17T18:01:00.000+01:00", ["workout": "w2", "exercise": "bench", "set": 2, "weight": 67.5]),
            Self.set("w2", "bench", 2, 67.5, 9, at: "2026-11-17T18:03:00.000+01:00"),
            Self.set("w2", "fly", 1, 14, 12, at: "2026-11-17T18:04:00.000+01:00"),
            ev("set.edited", at: "2026-11-17T18:05:00.000+01:00", ["workout": "w2", "exercise": "fly", "set": 1, "reps": 10]),
            ev("set.added", at: "2026-11-17T18:06:00.000+01:00", ["workout": "w2", "exercise": "fly", "set": 2]),
        ]
        let active = ActiveWorkoutState(analysis(events, asOf: "2026-11-17T18:07:00.000+01:00"))
        #expect(active?.exercises.map(\.rows) == [
            [
                // A planned working row weighs the target (65 kg, the last top weight), with the copied reps.
                .init(set: 1, weight: 65, unit: .kg, reps: 12, completed: false, source: .target),
                .init(set: 2, weight: 67.5, unit: .kg, reps: 9, completed: true, source: .completed),
                // Only the typed weight carries (the edited field only); the reps stay the template's.
                .init(set: 3, weight: 67.5, unit: .kg, reps: 8, completed: false, source: .propagated),
            ],
            [
                .init(set: 1, weight: 14, unit: .kg, reps: 10, completed: true, source: .completed),
                .init(set: 2, weight: 14, unit: .kg, reps: 10, completed: false, source: .propagated),
            ],
        ])
    }

    @Test("in-workout edits: toggling a warm-up, duplicating, deleting and rating sets, reordering and notes")
    func inWorkoutEdits() {
        let events = Self.lastUpper + [
            ev("set.edited", at: "2026-11-11T09:00:00.000+01:00", ["workout": "w1", "exercise": "bench", "set": 3, "kind": "warmup"]),
            ev("set.rated", at: "2026-11-11T09:00:10.000+01:00", ["workout": "w1", "exercise": "bench", "set": 2, "rpe": 9]),
            ev("set.noted", at: "2026-11-11T09:00:20.000+01:00", ["workout": "w1", "exercise": "bench", "set": 2, "note": "paused"]),
            ev("exercises.reordered", at: "2026-11-11T09:00:30.000+01:00", ["workout": "w1", "order": ["fly"]]),
            ev("workout.started", at: "2026-11-17T18:00:00.000+01:00", ["workout": "w2", "name": "Upper A", "session": nil]),
            Self.set("w2", "bench", 1, 65, 9, at: "2026-11-17T18:02:00.000+01:00"),
            // "Duplicate" copies the row's values into a new row; a deleted row disappears.
            ev("set.added", at: "2026-11-17T18:03:00.000+01:00", ["workout": "w2", "exercise": "bench", "set": 2, "weight": 65, "unit": "kg", "reps": 9]),
            ev("set.added", at: "2026-11-17T18:03:10.000+01:00", ["workout": "w2", "exercise": "bench", "set": 3]),
            ev("set.removed", at: "2026-11-17T18:03:20.000+01:00", ["workout": "w2", "exercise": "bench", "set": 3]),
            ev("exercise.noted", at: "2026-11-17T18:04:00.000+01:00", ["workout": "w2", "exercise": "bench", "note": "grip wider"]),
        ]
        let a = analysis(events, asOf: "2026-11-17T18:05:00.000+01:00")
        #expect(HistoryState(a).workouts == [WorkoutSummary(
            workout: "w1", name: "Upper A", startedAt: t("2026-11-10T18:00:00.000+01:00"), finishedAt: t("2026-11-10T19:00:00.000+01:00"),
            date: d("2026-11-10"), durationSeconds: 3600, exerciseCount: 2, setCount: 3, reps: 33, volumeKilograms: 1233, firstTime: true,
            exercises: [
                ExerciseSummary(exercise: "fly", name: "Fly", volumeKilograms: 168, sets: [SetSummary(set: 1, weight: 14, unit: .kg, reps: 12)]),
                ExerciseSummary(exercise: "bench", name: "Bench", volumeKilograms: 1065, sets: [
                    SetSummary(set: 1, weight: 40, unit: .kg, reps: 12), SetSummary(set: 2, weight: 65, unit: .kg, reps: 9, rpe: 9),
                    SetSummary(set: 3, weight: 65, unit: .kg, reps: 8, kind: .warmup),
                ], notes: ["paused"]),
            ],
            edited: true)])
        #expect(ActiveWorkoutState(a)?.exercises.map(\.rows) == [[
            .init(set: 1, weight: 65, unit: .kg, reps: 9, completed: true, source: .completed),
            .init(set: 2, weight: 65, unit: .kg, reps: 9, completed: false, source: .entered),
        ]])
        #expect(ActiveWorkoutState(a)?.exercises.map(\.notes) == [["grip wider"]])
    }

    @Test("rest defaults: 90 s compound, 60 s isolation, the settings, and each exercise's own setting (0 = Off)")
    func restDefaults() {
        let start = ev("workout.started", at: "2026-11-17T18:00:00.000+01:00", ["workout": "w1", "name": "Mixed", "session": nil])
        let adds = ["bench", "fly", "row"].enumerated().map { index, id in
            ev("exercise.added", at: "2026-11-17T18:00:0\(index).000+01:00", ["workout": "w1", "exercise": .string(id)])
        }
        func rests(_ extra: [Event]) -> [Int]? {
            ActiveWorkoutState(analysis(extra + [start] + adds, asOf: "2026-11-17T18:01:00.000+01:00", context: muscleContext))?.exercises.map(\.restSeconds)
        }
        #expect(rests([]) == [90, 60, 90])
        #expect(rests([ev("settings.changed", at: "2026-11-01T09:00:00.000+01:00", ["key": "rest_isolation_s", "value": 45]),
                       ev("settings.changed", at: "2026-11-01T09:00:01.000+01:00", ["key": "rest_default_s", "value": 150])]) == [150, 45, 150])
        #expect(rests([ev("rest.configured", at: "2026-11-01T09:00:00.000+01:00", ["exercise": "bench", "seconds": 180]),
                       ev("rest.configured", at: "2026-11-01T09:00:01.000+01:00", ["exercise": "fly", "seconds": 0])]) == [180, 0, 90])
        let ledger = Projections.ledger(events: journal([ev("rest.configured", at: "2026-11-01T09:00:00.000+01:00", ["exercise": "fly", "seconds": 30])]),
                                        asOf: t("2026-11-02T00:00:00.000+01:00"))
        #expect(ledger.restSettings == ["fly": 30])
    }

    @Test("retaking the quiz ends the programme and forgets the old answers")
    func retakeQuiz() {
        let events = programmeEvents + [
            ev("programme.reset", at: "2026-11-10T09:00:00.000+01:00", ["reason": "retake quiz"]),
            ev("questionnaire.answered", at: "2026-11-10T09:01:00.000+01:00", ["question": "days_per_week", "answer": 4]),
        ]
        let a = analysis(events, asOf: "2026-11-10T10:00:00.000+01:00")
        #expect(a.ledger.programme == nil)
        #expect(a.ledger.answers == ["days_per_week": 4])
        #expect(a.streaks.currentTargetWeeks == 0)
    }

    @Test("favourites stop at ten in order, and the profile shows the plan, its next billing date and member since")
    func favouritesAndProfile() {
        let events = [ev("account.created", at: "2026-01-15T09:00:00.000Z", ["name": "Kim"])]
            + (1...11).map { ev("exercise.favourited", at: "2026-02-01T09:00:\(10 + $0).000Z", ["exercise": .string("lift-\($0)")]) }
            + [ev("subscription.started", at: "2026-03-01T09:00:00.000Z", ["plan": "monthly", "price": 9.99, "currency": "USD", "next_billing_date": "2026-04-01"]),
               ev("subscription.renewed", at: "2026-04-01T09:00:00.000Z", ["next_billing_date": "2026-05-01"]),
               ev("rest.configured", at: "2026-04-01T10:00:00.000Z", ["exercise": "lift-2", "seconds": 0]),
               ev("rest.configured", at: "2026-04-01T10:00:01.000Z", ["exercise": "lift-1", "seconds": 120])]
        let view = ProfileState(analysis(events, asOf: "2026-04-02T09:00:00.000Z"))
        #expect(view.favourites == (1...10).map { "lift-\($0)" })
        #expect(view.memberSince == d("2026-01-15"))
        #expect(view.subscriptionStatus == "active")
        #expect(view.exerciseRest.map { "\($0.exercise) \($0.seconds)" } == ["lift-1 120", "lift-2 0"])
        #expect(view.jsonValue.objectValue?["exercise_rest"] == j(#"{"lift-1": 120, "lift-2": 0}"#))
        #expect(view.subscription == Subscription(plan: "monthly", startedAt: t("2026-03-01T09:00:00.000Z"), price: 9.99, currency: "USD",
                                                  nextBillingDate: "2026-05-01"))
    }

    @Test("editing a workout's times moves it in history, streaks, charts and the home page; deleting it removes it")
    func editsReachEveryView() {
        let events = workout("a", "Push", start: "2026-11-16T18:00:00.000+01:00", finish: "2026-11-16T19:00:00.000+01:00", [("bench", 1, 60, "kg", 8)])
            + workout("b", "Push", start: "2026-11-17T18:00:00.000+01:00", finish: "2026-11-17T19:00:00.000+01:00", [("bench", 1, 62.5, "kg", 8)])
        let asOf = "2026-11-18T12:00:00.000+01:00"
        let before = analysis(events, asOf: asOf)
        #expect([before.streaks.currentDays, before.streaks.longestDays] == [2, 2])
        // The lifter logged "a" on the wrong day: it was the Saturday before.
        let moved = events + [ev("workout.edited", at: "2026-11-18T09:00:00.000+01:00",
                                 ["workout": "a", "started_at": "2026-11-14T10:00:00.000+01:00", "finished_at": "2026-11-14T11:15:00.000+01:00"])]
        let after = analysis(moved, asOf: asOf)
        #expect([after.streaks.currentDays, after.streaks.longestDays] == [1, 1])
        #expect(HistoryState(after).workouts.map { [$0.workout, $0.date.description, "\($0.durationSeconds)", $0.edited ? "edited" : ""] } ==
                [["b", "2026-11-17", "3600", ""], ["a", "2026-11-14", "4500", "edited"]])
        #expect(ExerciseHistoryState(after, exercise: "bench").charts.maxWeight.map(\.date) == [d("2026-11-14"), d("2026-11-17")])
        #expect(HomeState(after).week.calendar.map(\.finished) == [false, true, false, false, false, false, false])
        #expect(after.records.map(\.kind) == [.heaviestWeight, .bestE1RM, .bestSetVolume, .bestSessionVolume])

        let deleted = analysis(events + [ev("workout.deleted", at: "2026-11-18T09:00:00.000+01:00", ["workout": "b"])], asOf: asOf)
        #expect(HomeState(deleted).lastWorkouts.map(\.workout) == ["a"])
        #expect(deleted.records == [])
        #expect([deleted.streaks.currentDays, deleted.streaks.longestDays] == [0, 1])
    }
}
