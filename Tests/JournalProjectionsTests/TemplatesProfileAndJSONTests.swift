import JournalEvents
import JournalModel
import Testing
@testable import JournalProjections

@Suite("Templates, profile and JSON keys")
struct TemplatesProfileAndJSONTests {
    let events: [Event] = [
        ev("account.created", at: "2026-10-01T09:00:00.000+01:00", ["name": "Sam", "email": "sam@example.com", "method": "email"]),
        ev("template.created", at: "2026-10-02T09:00:00.000+01:00", ["template": "t1", "name": "Upper A", "exercises": j("""
            [{"exercise": "bench", "sets": [{"weight": 95, "unit": "lb", "reps": 10, "kind": "warmup"}, {"weight": 60, "unit": "kg", "reps": 8}], "superset": "g1"},
             {"exercise": "row", "sets": 3, "reps": "8-12", "superset": "g1"}]
            """)]),
        ev("template.created", at: "2026-10-03T09:00:00.000+01:00", ["template": "t2", "name": "Lower", "exercises": j(#"[{"exercise": "squat", "sets": 3, "reps": "5"}]"#)]),
        ev("template.created", at: "2026-10-04T09:00:00.000+01:00", ["template": "t3", "name": "Old", "exercises": j("[]")]),
        ev("template.updated", at: "2026-10-05T09:00:00.000+01:00", ["template": "t2", "name": "Lower B"]),
        ev("template.deleted", at: "2026-10-05T09:01:00.000+01:00", ["template": "t3"]),
        ev("workout.started", at: "2026-10-06T18:00:00.000+01:00", ["workout": "w1", "name": "Upper A", "session": nil, "template": "t1"]),
        ev("profile.updated", at: "2026-10-07T09:00:00.000+01:00", ["unit": "lb", "body_weight": j(#"{"value": 80, "unit": "kg"}"#)]),
        ev("subscription.started", at: "2026-10-07T09:01:00.000+01:00", ["plan": "annual", "price": 99.99, "currency": "GBP", "next_billing_date": "2027-10-07"]),
        ev("subscription.cancelled", at: "2026-10-08T09:00:00.000+01:00", ["effective_date": "2027-10-07"]),
        ev("settings.changed", at: "2026-10-08T09:01:00.000+01:00", ["key": "rest_default_s", "value": 90]),
        ev("exercise.favourited", at: "2026-10-08T09:02:00.000+01:00", ["exercise": "bench"]),
        ev("exercise.favourited", at: "2026-10-08T09:03:00.000+01:00", ["exercise": "squat"]),
        ev("exercise.unfavourited", at: "2026-10-08T09:04:00.000+01:00", ["exercise": "squat"]),
    ]

    @Test("templates are listed last used first, then newest created, with per-set configurations in the display unit and supersets")
    func templates() {
        let view = TemplatesState(analysis(events, asOf: "2026-10-09T12:00:00.000+01:00", context: muscleContext))
        #expect(view == TemplatesState(templates: [
            .init(template: "t1", name: "Upper A", exercises: [
                .init(exercise: "bench", name: "Bench", sets: 2, reps: nil, setConfigs: [
                    PrescribedSet(weight: 95, unit: .lb, reps: 10, kind: .warmup), PrescribedSet(weight: 132.28, unit: .lb, reps: 8),
                ], superset: "g1"),
                .init(exercise: "row", name: "Row", sets: 3, reps: "8-12", setConfigs: [], superset: "g1"),
            ], muscles: ["chest", "back"], note: nil, createdAt: t("2026-10-02T09:00:00.000+01:00"), lastUsedAt: t("2026-10-06T18:00:00.000+01:00")),
            .init(template: "t2", name: "Lower B", exercises: [.init(exercise: "squat", name: "Squat", sets: 3, reps: "5", setConfigs: [], superset: nil)],
                  muscles: ["quads"], note: nil, createdAt: t("2026-10-03T09:00:00.000+01:00"), lastUsedAt: nil),
        ]))
        // A workout started from a template is prescribed its exercises and keeps its superset.
        let ledger = Projections.ledger(events: journal(events), asOf: t("2026-10-09T12:00:00.000+01:00"))
        #expect(ledger.workout("w1")?.exercises.map(\.exercise) == ["bench", "row"])
        #expect(ledger.workout("w1")?.supersets == [SupersetGroup(group: "g1", exercises: ["bench", "row"])])
    }

    @Test("the profile gathers name, unit, body weight, subscription, settings and favourites")
    func profile() {
        let view = ProfileState(analysis(events, asOf: "2026-10-09T12:00:00.000+01:00"))
        #expect(view.jsonString == #"{"name":"Sam","email":"sam@example.com","member_since":"2026-10-01","unit":"lb","birth_date":null,"gender":null,"height":null,"body_weight":{"value":80,"unit":"kg"},"subscription":{"plan":"annual","status":"cancelled","price":99.99,"currency":"GBP","trial_days":null,"next_billing_date":"2027-10-07","effective_date":"2027-10-07"},"programme":null,"favourites":["bench"],"settings":{"rest_default_s":90},"workouts":0,"exercise_rest":{},"exports":[],"questionnaire":{}}"#)
    }

    @Test("every view's JSON carries the issue's fixed keys")
    func fixedKeys() {
        func keys(_ value: JSONValue?) -> [String] { value?.objectValue?.keys ?? [] }
        let a = analysis(activeEvents, asOf: "2026-11-18T18:15:00.000+01:00", context: muscleContext)
        let home = HomeState(a).jsonValue
        #expect(keys(home) == ["name", "streak", "programme", "week", "next_workout", "upcoming", "planned", "planned_workouts", "recent_prs", "last_workouts", "message", "active_workout"])
        #expect(keys(home.objectValue?["streak"]).prefix(3) == ["current_days", "longest_days", "current_weeks"])
        #expect(keys(home.objectValue?["programme"]) == ["split", "week", "weeks", "days_per_week", "session_minutes", "priority_muscles", "finished", "next_steps"])
        #expect(keys(home.objectValue?["week"]) == ["start", "completed", "target", "workouts", "sessions", "calendar"])
        #expect(keys(home.objectValue?["next_workout"]) == ["session", "name", "exercise_count", "exercises"])
        let history = HistoryState(a).jsonValue.objectValue?["workouts"]?.arrayValue?.first
        #expect(keys(history) == ["workout", "name", "date", "started_at", "finished_at", "duration_s", "exercise_count", "set_count", "reps", "volume_kg",
                                  "first_time", "previous_workout", "increased_reps", "increased_load_kg", "edited", "notes", "exercises"])
        let exercise = history?.objectValue?["exercises"]?.arrayValue?.first
        #expect(keys(exercise) == ["exercise", "name", "rosette", "reps_delta", "volume_delta_kg", "volume_kg", "superset", "cardio", "notes", "sets", "assisted"])
        #expect(keys(exercise?.objectValue?["sets"]?.arrayValue?.first) == ["set", "weight", "unit", "reps", "kind", "plus", "rpe"])
        let bench = ExerciseHistoryState(a, exercise: "bench").jsonValue
        #expect(keys(bench) == ["exercise", "name", "assisted", "empty_message", "best_set", "start_weight", "sessions", "records", "bests", "charts", "charts_unit", "cardio", "how_to"])
        #expect(keys(bench.objectValue?["sessions"]?.arrayValue?.first) == ["workout", "workout_name", "date", "volume_kg", "top_set", "e1rm_kg", "max_weight_kg", "reps", "rosette", "sets", "duration_s"])
        #expect(keys(ProgressState(a).jsonValue) == ["range", "from", "to", "workouts", "workouts_this_month", "total_volume_kg", "day_streak", "record_count",
                                                    "weekly_frequency", "weekly_volume", "weekly_sets", "muscle_groups", "consistency", "strength", "recent_prs"])
        #expect(keys(ActiveWorkoutState(a)?.jsonValue) == ["workout", "name", "started_at", "elapsed_s", "paused", "previous_workout", "can_finish", "sets", "reps", "volume_kg", "rest", "warmup", "exercises"])
        let all = Projections.all(events: journal(activeEvents), asOf: t("2026-11-18T18:15:00.000+01:00"))
        #expect(keys(all.jsonValue) == ["as_of", "event_count", "home", "history", "progress", "active", "exercises", "templates", "profile"])
        #expect(all.eventCount == activeEvents.count)
        #expect(all.exercises.map(\.exercise) == ["bench", "ohp"])
        // Deterministic: the same journal gives the same bytes.
        #expect(all.jsonString == Projections.all(events: journal(activeEvents), asOf: t("2026-11-18T18:15:00.000+01:00")).jsonString)
    }

    @Test("the default as-of is now in the UTC offset of the journal's last event")
    func defaultAsOf() {
        let now = t("2026-11-22T01:00:00.000Z")
        #expect(Projections.defaultAsOf(lastEvent: journal(activeEvents).last, now: now) == t("2026-11-22T02:00:00.000+01:00"))
        #expect(Projections.defaultAsOf(lastEvent: nil, now: now) == now)
    }
}
