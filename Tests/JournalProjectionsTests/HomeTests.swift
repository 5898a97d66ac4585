import JournalEvents
import Testing
@testable import JournalProjections
import JournalModel

let programmeEvents: [Event] = [
    ev("account.created", at: "2026-11-02T09:00:00.000+01:00", ["name": "Alex Smith", "email": "alex@example.com"]),
    ev("questionnaire.answered", at: "2026-11-02T09:05:00.000+01:00", ["question": "injuries", "answer": ["knees"]]),
    ev("programme.generated", at: "2026-11-02T10:00:00.000+01:00", ["ruleset": "train", "programme": j("""
        {"split": "Push/Pull/Legs", "days_per_week": 3, "weeks": 8, "session_minutes": "45-60", "priority_muscles": ["chest", "quads"],
         "sessions": [
            {"name": "Push", "exercises": [{"exercise": "bench", "sets": 3, "reps": "8-12", "rest_s": 120}, {"exercise": "ohp", "sets": 3, "reps": "8-12", "rest_s": 90}]},
            {"name": "Pull", "exercises": [{"exercise": "row", "sets": 3, "reps": "8-12", "rest_s": 90}]},
            {"name": "Legs", "exercises": [{"exercise": "squat", "sets": 4, "reps": "6-10", "rest_s": 180, "weight": 80, "unit": "kg"}]}
         ]}
        """)]),
]

@Suite("Home page and streaks")
struct HomeTests {
    @Test("the home page shows programme week X of Y, this week's sessions, the next workout and the streak")
    func homePage() {
        let events = programmeEvents
            + workout("p1", "Push", start: "2026-11-16T18:00:00.000+01:00", finish: "2026-11-16T18:30:00.000+01:00", session: 0, [("bench", 1, 60, "kg", 8)])
            + workout("a1", "Arms", start: "2026-11-17T18:00:00.000+01:00", finish: "2026-11-17T18:30:00.000+01:00", [("curl", 1, 20, "kg", 10)])
        let home = HomeState(analysis(events, asOf: "2026-11-18T20:00:00.000+01:00"))
        let days = ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22"]
        #expect(home == HomeState(
            name: "Alex Smith",
            streak: Streaks(currentDays: 2, longestDays: 2, currentWeeks: 1, longestWeeks: 1, currentTargetWeeks: 0, lastWorkoutDate: d("2026-11-17")),
            programme: HomeState.ProgrammeProgress(split: "Push/Pull/Legs", week: 3, weeks: 8, daysPerWeek: 3, sessionMinutes: "45-60", priorityMuscles: ["chest", "quads"]),
            week: HomeState.Week(
                start: d("2026-11-16"), completed: 1, target: 3, workouts: 2,
                sessions: [
                    HomeState.SessionStatus(session: 0, name: "Push", completed: true, workout: "p1"),
                    HomeState.SessionStatus(session: 1, name: "Pull", completed: false),
                    HomeState.SessionStatus(session: 2, name: "Legs", completed: false),
                ],
                // Seed 001's scheduled days: the two sessions left, from today (Wednesday) with a rest day between.
                calendar: days.enumerated().map { HomeState.CalendarDay(date: d($1), finished: $0 < 2, workouts: $0 < 2 ? 1 : 0,
                                                                       scheduled: [2: ["Pull"], 4: ["Legs"]][$0] ?? []) }),
            nextWorkout: SessionCard(session: 1, name: "Pull", exercises: [SessionCard.Exercise(exercise: "row", name: "Row", sets: 3, reps: "8-12")]),
            upcoming: [SessionCard(session: 2, name: "Legs", exercises: [SessionCard.Exercise(exercise: "squat", name: "Squat", sets: 4, reps: "6-10")])],
            recentRecords: [],
            lastWorkouts: [
                HomeState.RecentWorkout(workout: "a1", name: "Arms", date: d("2026-11-17"), durationSeconds: 1800, exerciseCount: 1, volumeKilograms: 200),
                HomeState.RecentWorkout(workout: "p1", name: "Push", date: d("2026-11-16"), durationSeconds: 1800, exerciseCount: 1, volumeKilograms: 480),
            ],
            message: "Keep it up: 2 more this week"))
    }

    @Test("programme weeks are clamped to 1…Y and a new week starts on Monday 00:00 local")
    func weekBoundaryOnMonday() {
        let events = programmeEvents
            + workout("p1", "Push", start: "2026-11-22T23:00:00.000+01:00", finish: "2026-11-22T23:59:59.999+01:00", session: 0, [("bench", 1, 60, "kg", 8)])
        let sunday = HomeState(analysis(events, asOf: "2026-11-22T23:59:59.999+01:00"))
        #expect(sunday.week.start == d("2026-11-16"))
        #expect(sunday.week.completed == 1)
        #expect(sunday.week.sessions.map(\.completed) == [true, false, false])
        #expect(sunday.programme?.week == 3)
        let monday = HomeState(analysis(events, asOf: "2026-11-23T00:00:00.000+01:00"))
        #expect(monday.week == HomeState.Week(
            start: d("2026-11-23"), completed: 0, target: 3, workouts: 0,
            sessions: [HomeState.SessionStatus(session: 0, name: "Push", completed: false), HomeState.SessionStatus(session: 1, name: "Pull", completed: false),
                       HomeState.SessionStatus(session: 2, name: "Legs", completed: false)],
            calendar: (0..<7).map { HomeState.CalendarDay(date: LocalDate(day: d("2026-11-23").day + $0), finished: false, workouts: 0,
                                                         scheduled: [0: ["Push"], 2: ["Pull"], 4: ["Legs"]][$0] ?? []) }))
        #expect(monday.nextWorkout?.name == "Push")
        #expect(monday.programme?.week == 4)
        #expect(monday.message == "New week, fresh start")
        // The current week never breaks the weekly streak.
        #expect(monday.streak == Streaks(currentDays: 1, longestDays: 1, currentWeeks: 1, longestWeeks: 1, currentTargetWeeks: 0, lastWorkoutDate: d("2026-11-22")))
        #expect(HomeState(analysis(events, asOf: "2027-06-01T12:00:00.000+01:00")).programme?.week == 8)
        #expect(HomeState(analysis(events, asOf: "2026-11-02T12:00:00.000+01:00")).programme?.week == 1)
    }

    @Test("a workout spanning midnight counts on the day it finished")
    func workoutSpanningMidnight() {
        let events = workout("m1", "Legs", start: "2026-11-21T23:30:00.000+01:00", finish: "2026-11-22T00:40:00.000+01:00", [("squat", 1, 100, "kg", 5)])
        let a = analysis(events, asOf: "2026-11-22T10:00:00.000+01:00")
        #expect(a.streaks == Streaks(currentDays: 1, longestDays: 1, currentWeeks: 1, longestWeeks: 1, lastWorkoutDate: d("2026-11-22")))
        #expect(HistoryState(a).workouts.map { [$0.date.description, "\($0.durationSeconds)"] } == [["2026-11-22", "4200"]])
        #expect(HomeState(a).week.calendar.map(\.finished) == [false, false, false, false, false, false, true])
        #expect(HomeState(a).message == "Nice work this week")
    }

    @Test("a user who changes time zone keeps each workout on its own local day")
    func timeZoneChange() {
        let events = workout("a", "Full Body", start: "2026-11-19T19:00:00.000+01:00", finish: "2026-11-19T20:00:00.000+01:00", [("squat", 1, 100, "kg", 5)])
            // 23:30 in New York is already the 21st in UTC.
            + workout("b", "Full Body", start: "2026-11-20T22:30:00.000-05:00", finish: "2026-11-20T23:30:00.000-05:00", [("squat", 1, 100, "kg", 5)])
            + workout("c", "Full Body", start: "2026-11-21T09:00:00.000-05:00", finish: "2026-11-21T10:00:00.000-05:00", [("squat", 1, 100, "kg", 5)])
        let a = analysis(events, asOf: "2026-11-21T12:00:00.000-05:00")
        #expect(a.finished.map { LocalDate(day: $0.day).description } == ["2026-11-19", "2026-11-20", "2026-11-21"])
        #expect(a.streaks == Streaks(currentDays: 3, longestDays: 3, currentWeeks: 1, longestWeeks: 1, lastWorkoutDate: d("2026-11-21")))
    }

    @Test("the daily streak resets after a missed day and the longest streak stays")
    func streakResetAfterMissedDay() {
        let mon = d("2026-11-16").day
        let days = [mon, mon + 1, mon + 3]
        #expect(Streaks(days: days, today: mon + 3, weeklyTarget: nil) == Streaks(currentDays: 1, longestDays: 2, currentWeeks: 1, longestWeeks: 1, lastWorkoutDate: d("2026-11-19")))
        #expect(Streaks(days: days, today: mon + 4, weeklyTarget: nil).currentDays == 1)
        #expect(Streaks(days: days, today: mon + 5, weeklyTarget: nil).currentDays == 0)
        #expect(Streaks(days: [], today: mon, weeklyTarget: 3) == Streaks(currentDays: 0, longestDays: 0, currentWeeks: 0, longestWeeks: 0, currentTargetWeeks: 0))
    }

    @Test("weekly streaks count consecutive ISO weeks and weeks that met the target")
    func weeklyStreaks() {
        let w1 = d("2026-11-02").day
        // Two workouts in each of three weeks, then one in the fourth.
        let days = [w1, w1 + 2, w1 + 7, w1 + 9, w1 + 14, w1 + 16, w1 + 21]
        #expect(Streaks(days: days, today: w1 + 22, weeklyTarget: 2)
            == Streaks(currentDays: 1, longestDays: 1, currentWeeks: 4, longestWeeks: 4, currentTargetWeeks: 3, lastWorkoutDate: LocalDate(day: w1 + 21)))
        // A whole empty week breaks it.
        #expect(Streaks(days: days, today: w1 + 35, weeklyTarget: 2).currentWeeks == 0)
        #expect(Streaks(days: days, today: w1 + 29, weeklyTarget: 2).currentWeeks == 4)
    }
}
