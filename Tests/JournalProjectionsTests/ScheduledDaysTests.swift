import JournalEvents
import JournalModel
import Testing
@testable import JournalProjections

/// Seed 001's weekly calendar marks the scheduled days, not only the finished ones: the sessions the week still
/// needs, spread from today over the days without a workout, and dated plans on their day.
@Suite("The week's calendar: scheduled days")
struct ScheduledDaysTests {
    static func scheduled(_ home: HomeState) -> [[String]] { home.week.calendar.map(\.scheduled) }

    @Test("Starting Strength at 3 days: Monday shows A, B, A on Monday, Wednesday and Friday; after Monday's A, B and A on Tuesday and Thursday",
          arguments: ["kg", "lb"])
    func spreadOverTheWeek(_ unit: String) {
        let plan = ev("workout.planned", at: "2026-11-01T11:00:00.000+01:00", ["plan": "p1", "name": "Arms", "date": "2026-11-05",
                                                                               "exercises": j(#"[{"exercise": "curl", "sets": 3, "reps": "10"}]"#)])
        let start = LifterWeekTests.alternating(unit: unit) + [plan]
        let monday = HomeState(analysis(start, asOf: "2026-11-02T08:00:00.000+01:00"))
        #expect(Self.scheduled(monday) == [["Workout A"], [], ["Workout B"], ["Arms"], ["Workout A"], [], []])
        #expect(monday.week.calendar.map(\.finished) == [false, false, false, false, false, false, false])

        let afterA = start + LifterWeekTests.session("w1", 0, day: "2026-11-02", unit: unit)
        let tuesday = HomeState(analysis(afterA, asOf: "2026-11-03T08:00:00.000+01:00"))
        #expect(Self.scheduled(tuesday) == [[], ["Workout B"], [], ["Workout A", "Arms"], [], [], []])
        #expect(tuesday.week.calendar.map(\.finished) == [true, false, false, false, false, false, false])
        // The evening of the first workout: today is trained, so the rest of the week starts tomorrow.
        let mondayEvening = HomeState(analysis(afterA, asOf: "2026-11-02T20:00:00.000+01:00"))
        #expect(Self.scheduled(mondayEvening) == [[], ["Workout B"], [], ["Workout A", "Arms"], [], [], []])
        // Two sessions left on Saturday: back to back; on Sunday only one fits.
        #expect(Self.scheduled(HomeState(analysis(afterA, asOf: "2026-11-07T08:00:00.000+01:00"))) == [[], [], [], ["Arms"], [], ["Workout B"], ["Workout A"]])
        #expect(Self.scheduled(HomeState(analysis(afterA, asOf: "2026-11-08T08:00:00.000+01:00"))) == [[], [], [], ["Arms"], [], [], ["Workout B"]])
    }

    @Test("the month calendar marks what the week's calendar schedules, and dated plans on the month's other days",
          arguments: ["kg", "lb"])
    func month(_ unit: String) {
        func plan(_ id: String, _ name: String, _ date: String) -> Event {
            ev("workout.planned", at: "2026-11-01T11:00:00.000+01:00", ["plan": .string(id), "name": .string(name), "date": .string(date),
                                                                        "exercises": j(#"[{"exercise": "curl", "sets": 3, "reps": "10"}]"#)])
        }
        func day(_ iso: String, _ names: [String]) -> CalendarMonth.ScheduledDay { CalendarMonth.ScheduledDay(date: LocalDate(iso: iso)!, names: names) }
        let events = LifterWeekTests.alternating(unit: unit) + [plan("p1", "Arms", "2026-11-05"), plan("p2", "Legs", "2026-11-20"), plan("p3", "Back", "2026-12-01")]
            + LifterWeekTests.session("w1", 0, day: "2026-11-02", unit: unit)
        let tuesday = analysis(events, asOf: "2026-11-03T08:00:00.000+01:00")
        let november = CalendarMonth(tuesday)
        #expect(november.days == [CalendarMonth.Day(date: LocalDate(iso: "2026-11-02")!, workouts: ["w1"])])
        #expect(november.scheduled == [day("2026-11-03", ["Workout B"]), day("2026-11-05", ["Workout A", "Arms"]), day("2026-11-20", ["Legs"])])
        // The week's days are exactly the home page's.
        let week = HomeState(tuesday).week.calendar.filter { !$0.scheduled.isEmpty }.map { day($0.date.description, $0.scheduled) }
        #expect(week == Array(november.scheduled.prefix(2)))
        #expect(CalendarMonth(tuesday, year: 2026, month: 12).scheduled == [day("2026-12-01", ["Back"])])
        #expect(CalendarMonth(tuesday, year: 2026, month: 10).scheduled == [])

        // A week across two months: Monday 30 November schedules B, then A and B in December, beside the dated plans.
        let lastMonday = analysis(events, asOf: "2026-11-30T08:00:00.000+01:00")
        #expect(CalendarMonth(lastMonday).scheduled == [day("2026-11-05", ["Arms"]), day("2026-11-20", ["Legs"]), day("2026-11-30", ["Workout B"])])
        #expect(CalendarMonth(lastMonday, year: 2026, month: 12).scheduled
            == [day("2026-12-01", ["Back"]), day("2026-12-02", ["Workout A"]), day("2026-12-04", ["Workout B"])])
    }

    @Test("the layout rule: a rest day between sessions when the days allow it, else consecutive days, none past the week")
    func layout() {
        #expect(HomeState.scheduleDays(count: 3, from: 0, to: 6, trained: []) == [0, 2, 4])
        #expect(HomeState.scheduleDays(count: 4, from: 0, to: 6, trained: []) == [0, 2, 4, 6])
        #expect(HomeState.scheduleDays(count: 5, from: 0, to: 6, trained: []) == [0, 1, 2, 3, 4])
        #expect(HomeState.scheduleDays(count: 2, from: 3, to: 6, trained: [4]) == [3, 6])
        #expect(HomeState.scheduleDays(count: 3, from: 5, to: 6, trained: []) == [5, 6])
        #expect(HomeState.scheduleDays(count: 0, from: 0, to: 6, trained: []) == [])
    }
}
