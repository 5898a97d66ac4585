import Foundation
import Testing

/// Seed 001's scheduled days and seed 003's progress metrics through the real binary.
@Suite("journal: scheduled days, sets per week and the 1RM estimate", .serialized)
struct ScheduledDaysCommandTests {
    @Test("after Monday's Workout A, the week shows B on Tuesday and A on Thursday; progress gives the week's sets and the 1RM estimate",
          arguments: [("kg", 100.0, 116.667), ("lb", 225.0, 119.068)])
    func week(_ unit: String, _ squat: Double, _ e1rm: Double) throws {
        let path = try SeedFidelityCommandTests.recorded(LifterWeekCommandTests.startingStrength(unit: unit)
            + LifterWeekCommandTests.session("w1", 0, day: "2026-11-02", unit: unit, squat: squat))
        let asOf = ["--as-of", "2026-11-03T08:00:00Z"]
        let home = try SeedFidelityCommandTests.json(["home", path] + asOf)
        let calendar = try #require((home["week"] as? [String: Any])?["calendar"] as? [[String: Any]])
        #expect(calendar.map { $0["scheduled"] as? [String] ?? ["?"] } == [[], ["Workout B"], [], ["Workout A"], [], [], []])
        let table = try CLI.run(["home", path] + asOf)
        #expect(table.stdout.contains("\n  M T W T F S S\n  ● ○ · ○ · · ·\n"), "\(table.stdout)")

        let progress = try SeedFidelityCommandTests.json(["progress", path] + asOf)
        #expect((progress["weekly_sets"] as? [[String: Any]])?.last?["sets"] as? Int == 3)
        let strength = try #require((progress["strength"] as? [[String: Any]])?.first)
        #expect((strength["e1rm"] as? [[String: Any]])?.map { $0["value"] as? Double } == [e1rm])
    }

    @Test("journal calendar marks the days the week's calendar schedules and dated plans, with the same rule", arguments: [("kg", 100.0), ("lb", 225.0)])
    func month(_ unit: String, _ squat: Double) throws {
        let plan = #"{"type":"workout.planned","at":"2026-11-01T11:00:00.000+00:00","plan":"p1","name":"Legs","date":"2026-11-20","exercises":[{"exercise":"leg-press","sets":3,"reps":"10"}]}"#
        let path = try SeedFidelityCommandTests.recorded(LifterWeekCommandTests.startingStrength(unit: unit) + plan + "\n"
            + LifterWeekCommandTests.session("w1", 0, day: "2026-11-02", unit: unit, squat: squat))
        let asOf = ["--as-of", "2026-11-03T08:00:00Z"]
        let json = try SeedFidelityCommandTests.json(["calendar", path] + asOf)
        #expect((json["days"] as? [[String: Any]])?.map { $0["date"] as? String } == ["2026-11-02"])
        let scheduled = try #require(json["scheduled"] as? [[String: Any]])
        #expect(scheduled.map { $0["date"] as? String ?? "?" } == ["2026-11-03", "2026-11-05", "2026-11-20"])
        #expect(scheduled.map { $0["names"] as? [String] ?? [] } == [["Workout B"], ["Workout A"], ["Legs"]])
        let table = try CLI.run(["calendar", path] + asOf)
        #expect(table.stdout == """
            2026-11
             M  T  W  T  F  S  S
                               1
             ●  ○  4  ○  6  7  8
             9 10 11 12 13 14 15
            16 17 18 19  ○ 21 22
            23 24 25 26 27 28 29
            30
            1 day with workouts
            ○ 2026-11-03: Workout B
            ○ 2026-11-05: Workout A
            ○ 2026-11-20: Legs

            """, "\(table.stdout)")
    }
}
