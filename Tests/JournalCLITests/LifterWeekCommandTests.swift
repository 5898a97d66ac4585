import Foundation
import Testing

/// The lifter's week through the real binary: a rotating programme's home page, a retake mid-week, the logger's rows
/// following the target, and a history edit that would empty a finished workout.
@Suite("journal: the lifter's week", .serialized)
struct LifterWeekCommandTests {
    /// Starting Strength as `programme.generated` records it: two workouts, three days a week.
    static func startingStrength(unit: String) -> String {
        """
        {"type":"profile.updated","at":"2026-11-01T09:00:00.000+00:00","name":"Sam","unit":"\(unit)"}
        {"type":"programme.generated","at":"2026-11-01T10:00:00.000+00:00","ruleset":"templates","ruleset_version":1,"programme":{"split":"Full Body","days_per_week":3,"weeks":12,"sessions":[{"name":"Workout A","exercises":[{"exercise":"barbell-back-squat","sets":3,"reps":"5","rest_s":180},{"exercise":"barbell-bench-press","sets":3,"reps":"5","rest_s":180}]},{"name":"Workout B","exercises":[{"exercise":"barbell-back-squat","sets":3,"reps":"5","rest_s":180},{"exercise":"overhead-press","sets":3,"reps":"5","rest_s":180}]}]}}

        """
    }

    /// A finished programme workout on `day` with three squat sets and, when `warmup` is given, a bench warm-up and
    /// three bench sets at `bench`.
    static func session(_ id: String, _ index: Int, day: String, unit: String, squat: Double, bench: Double? = nil, warmup: Double? = nil) -> String {
        var lines = [#"{"type":"workout.started","at":"\#(day)T18:00:00.000+00:00","workout":"\#(id)","name":"Workout \#(index == 0 ? "A" : "B")","session":\#(index)}"#]
        var minute = 1
        func set(_ exercise: String, _ number: Int, _ weight: Double, _ reps: Int, _ kind: String) {
            lines.append(#"{"type":"set.completed","at":"\#(day)T18:\#(String(format: "%02d", minute)):00.000+00:00","workout":"\#(id)","exercise":"\#(exercise)","set":\#(number),"weight":\#(weight),"unit":"\#(unit)","reps":\#(reps),"kind":"\#(kind)"}"#)
            minute += 1
        }
        for number in 1...3 { set("barbell-back-squat", number, squat, 5, "working") }
        if let bench {
            if let warmup { set("barbell-bench-press", 1, warmup, 10, "warmup") }
            for number in 2...4 { set("barbell-bench-press", number, bench, 5, "working") }
        }
        lines.append(#"{"type":"workout.finished","at":"\#(day)T18:45:00.000+00:00","workout":"\#(id)"}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    static func home(_ path: String, _ asOf: String) throws -> [String: Any] {
        try SeedFidelityCommandTests.json(["home", path, "--as-of", asOf])
    }

    static func ticks(_ home: [String: Any]) -> [String] {
        ((home["week"] as? [String: Any])?["sessions"] as? [[String: Any]] ?? []).map {
            "\($0["name"] as? String ?? "?")\($0["completed"] as? Bool == true ? " ✓" : "")"
        }
    }

    @Test("Starting Strength at 3 days: the home page offers Workout A after A and B, and week 2 starts with B",
          arguments: [("kg", 100.0), ("lb", 225.0)])
    func rotation(_ unit: String, _ squat: Double) throws {
        let path = try SeedFidelityCommandTests.recorded(Self.startingStrength(unit: unit)
            + Self.session("w1", 0, day: "2026-11-02", unit: unit, squat: squat)
            + Self.session("w2", 1, day: "2026-11-04", unit: unit, squat: squat))
        let thursday = try Self.home(path, "2026-11-05T12:00:00.000+00:00")
        #expect(Self.ticks(thursday) == ["Workout A ✓", "Workout B ✓", "Workout A"])
        #expect((thursday["next_workout"] as? [String: Any])?["name"] as? String == "Workout A")
        #expect(thursday["message"] as? String == "Keep it up: 1 more this week")
        let table = try CLI.run(["home", path, "--as-of", "2026-11-05T12:00:00.000+00:00"])
        #expect(table.stdout.contains("This week (from 2026-11-02): 2/3 complete\n  ✓ Workout A\n  ✓ Workout B\n    Workout A\n"), "\(table.stdout)")
        #expect(table.stdout.contains("Next workout: Workout A • 2 exercises\n"), "\(table.stdout)")

        let full = try SeedFidelityCommandTests.recorded(Self.startingStrength(unit: unit)
            + Self.session("w1", 0, day: "2026-11-02", unit: unit, squat: squat)
            + Self.session("w2", 1, day: "2026-11-04", unit: unit, squat: squat)
            + Self.session("w3", 0, day: "2026-11-06", unit: unit, squat: squat))
        let monday = try Self.home(full, "2026-11-09T08:00:00.000+00:00")
        #expect(Self.ticks(monday) == ["Workout B", "Workout A", "Workout B"])
        #expect((monday["next_workout"] as? [String: Any])?["session"] as? Int == 1)
        let explain = try CLI.run(["explain", full, "next-workout", "--as-of", "2026-11-09T08:00:00.000+00:00"])
        #expect(explain.stdout.hasPrefix("next workout: session 1 \"Workout B\""), "\(explain.stdout)")
    }

    @Test("after a retake mid-week the new programme's sessions are unticked; the old workout stays in the week's count and the streak",
          arguments: ["kg", "lb"])
    func retake(_ unit: String) throws {
        let path = try SeedFidelityCommandTests.recorded(Self.startingStrength(unit: unit)
            + Self.session("w1", 0, day: "2026-11-02", unit: unit, squat: 100)
            + """
            {"type":"programme.reset","at":"2026-11-03T09:00:00.000+00:00"}
            {"type":"programme.generated","at":"2026-11-03T09:01:00.000+00:00","ruleset":"train","ruleset_version":1,"programme":{"split":"Upper/Lower","days_per_week":2,"weeks":8,"sessions":[{"name":"Upper","exercises":[{"exercise":"barbell-bench-press","sets":3,"reps":"8-12","rest_s":120}]},{"name":"Lower","exercises":[{"exercise":"barbell-back-squat","sets":3,"reps":"8-12","rest_s":180}]}]}}

            """)
        let home = try Self.home(path, "2026-11-03T12:00:00.000+00:00")
        #expect(Self.ticks(home) == ["Upper", "Lower"])
        let week = try #require(home["week"] as? [String: Any])
        #expect(week["completed"] as? Int == 0 && week["workouts"] as? Int == 1 && week["target"] as? Int == 2)
        #expect((home["next_workout"] as? [String: Any])?["name"] as? String == "Upper")
        #expect((home["streak"] as? [String: Any])?["current_days"] as? Int == 1)
    }

    @Test("the logger's planned rows weigh the target and the last warm-up comes back as a warm-up",
          arguments: [("kg", 60.0, 40.0, "62.5 kg", "40 kg", "  [per side 20, 1.25 on the 20 kg bar]", "  [per side 10 on the 20 kg bar]"),
                      ("lb", 135.0, 95.0, "140 lb", "95 lb", "  [per side 45, 2.5 on the 45 lb bar]", "  [per side 25 on the 45 lb bar]")])
    func rowsFollowTheTarget(_ unit: String, _ bench: Double, _ warmup: Double, _ target: String, _ warm: String, _ plates: String, _ warmPlates: String) throws {
        let path = try SeedFidelityCommandTests.recorded(Self.startingStrength(unit: unit)
            + Self.session("w1", 0, day: "2026-11-02", unit: unit, squat: 100, bench: bench, warmup: warmup)
            + #"{"type":"workout.started","at":"2026-11-04T18:00:00.000+00:00","workout":"w2","name":"Workout A","session":0}"# + "\n")
        let table = try CLI.run(["active", path, "--as-of", "2026-11-04T18:05:00.000+00:00"])
        #expect(table.stdout.contains("  Target: \(target)\n    1  \(warm) • 10 reps (warmup)  (last session)\(warmPlates)\n    2  \(target) • 5 reps  (target)\(plates)\n    3  \(target) • 5 reps  (target)\(plates)\n    4  \(target) • 5 reps  (target)\(plates)\n"),
                "\(table.stdout)")

        // "Add set" after a completed set copies it.
        let added = try SeedFidelityCommandTests.recorded(Self.startingStrength(unit: unit)
            + Self.session("w1", 0, day: "2026-11-02", unit: unit, squat: 100, bench: bench, warmup: warmup)
            + #"{"type":"workout.started","at":"2026-11-04T18:00:00.000+00:00","workout":"w2","name":"Workout A","session":0}"# + "\n"
            + #"{"type":"set.completed","at":"2026-11-04T18:02:00.000+00:00","workout":"w2","exercise":"barbell-back-squat","set":3,"weight":\#(bench),"unit":"\#(unit)","reps":4,"kind":"working"}"# + "\n"
            + #"{"type":"set.added","at":"2026-11-04T18:03:00.000+00:00","workout":"w2","exercise":"barbell-back-squat","set":4}"# + "\n")
        let json = try SeedFidelityCommandTests.json(["active", added, "--as-of", "2026-11-04T18:05:00.000+00:00"])
        let squat = try #require((json["exercises"] as? [[String: Any]])?.first { $0["exercise"] as? String == "barbell-back-squat" })
        let row = try #require((squat["sets"] as? [[String: Any]])?.last)
        #expect(row["set"] as? Int == 4 && row["weight"] as? Double == bench && row["reps"] as? Int == 4 && row["source"] as? String == "previous_set")
    }

    @Test("removing the last set of a finished workout is refused with the rule, and the file keeps every byte", arguments: ["kg", "lb"])
    func editKeepsTheWorkoutWhole(_ unit: String) throws {
        let path = try SeedFidelityCommandTests.recorded("""
            {"type":"workout.started","at":"2026-11-02T18:00:00.000+00:00","workout":"w1","name":"Bench","session":null}
            {"type":"set.completed","at":"2026-11-02T18:05:00.000+00:00","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"\(unit)","reps":5,"kind":"working"}
            {"type":"workout.finished","at":"2026-11-02T18:30:00.000+00:00","workout":"w1"}

            """)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try CLI.run(["record", path], stdin: #"{"type":"set.removed","at":"2026-11-03T09:00:00.000+00:00","workout":"w1","exercise":"barbell-bench-press","set":1}"# + "\n")
        #expect(result.status != 0)
        #expect(result.stderr.contains(#"set.removed: field "set" is 1 but would leave finished workout "w1" with no completed set or cardio entry (a workout cannot be finished without one); delete the workout instead (workout.deleted)"#),
                "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("after a kg ↔ lb switch the target, the rows and the programme's weight are loadable in the new unit; a unit-only edit past the new limit is refused",
          arguments: [("kg", "lb", 100.0, "220 lb", "45 lb", 450.0, "  [per side 45, 35, 5, 2.5 on the 45 lb bar]", "  [per side nothing on the 45 lb bar]"),
                      ("lb", "kg", 225.0, "102.5 kg", "20 kg", 1000.0, "  [per side 25, 15, 1.25 on the 20 kg bar]", "  [per side nothing on the 20 kg bar]")])
    func unitSwitch(_ from: String, _ to: String, _ squat: Double, _ target: String, _ press: String, _ heavy: Double, _ plates: String, _ pressPlates: String) throws {
        let pressWeight = from == "kg" ? 20 : 45
        let path = try SeedFidelityCommandTests.recorded("""
            {"type":"profile.updated","at":"2026-11-01T09:00:00.000+00:00","name":"Sam","unit":"\(from)"}
            {"type":"programme.generated","at":"2026-11-01T10:00:00.000+00:00","ruleset":"templates","ruleset_version":1,"programme":{"split":"Full Body","days_per_week":3,"weeks":12,"sessions":[{"name":"Workout A","exercises":[{"exercise":"barbell-back-squat","sets":3,"reps":"5","rest_s":180},{"exercise":"overhead-press","sets":3,"reps":"5","rest_s":180,"weight":\(pressWeight),"unit":"\(from)"}]}]}}
            {"type":"workout.started","at":"2026-11-02T18:00:00.000+00:00","workout":"w1","name":"Workout A","session":0}
            {"type":"set.completed","at":"2026-11-02T18:01:00.000+00:00","workout":"w1","exercise":"barbell-back-squat","set":1,"weight":\(squat),"unit":"\(from)","reps":5,"kind":"working"}
            {"type":"set.completed","at":"2026-11-02T18:02:00.000+00:00","workout":"w1","exercise":"barbell-back-squat","set":2,"weight":\(squat),"unit":"\(from)","reps":4,"kind":"working"}
            {"type":"set.completed","at":"2026-11-02T18:03:00.000+00:00","workout":"w1","exercise":"deadlift","set":1,"weight":\(heavy),"unit":"\(from)","reps":1,"kind":"working"}
            {"type":"workout.finished","at":"2026-11-02T18:45:00.000+00:00","workout":"w1"}
            {"type":"profile.updated","at":"2026-11-03T09:00:00.000+00:00","unit":"\(to)"}
            {"type":"workout.started","at":"2026-11-04T18:00:00.000+00:00","workout":"w2","name":"Workout A","session":0}

            """)
        let table = try CLI.run(["active", path, "--as-of", "2026-11-04T18:05:00.000+00:00"])
        #expect(table.stdout.contains("  Target: \(target)\n    1  \(target) • 5 reps  (target)\(plates)\n    2  \(target) • 4 reps  (target)\(plates)\n    3  \(target) • 4 reps  (target)\(plates)\n"),
                "\(table.stdout)")
        #expect(table.stdout.contains("  Target: \(press)\n    1  \(press) • 5 reps  (target)\(pressPlates)\n"), "\(table.stdout)")
        let explain = try CLI.run(["explain", path, "deload", "barbell-back-squat", "--as-of", "2026-11-04T18:05:00.000+00:00"])
        #expect(explain.stdout.contains("next target \(target) × 5"), "\(explain.stdout)")

        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let edit = try CLI.run(["record", path], stdin: #"{"type":"set.edited","at":"2026-11-04T18:06:00.000+00:00","workout":"w1","exercise":"deadlift","set":1,"unit":"\#(to)"}"# + "\n")
        guard to == "kg" else {
            // 450 kg is 450 lb: within 1100 lb, so the edit is an ordinary correction.
            #expect(edit.status == 0, "\(edit.stderr)")
            return
        }
        let limit = "500"
        #expect(edit.status != 0)
        #expect(edit.stderr.contains(#"set.edited: field "unit" is "\#(to)" but would make set 1 of deadlift \#(Int(heavy)) \#(to), above the \#(limit) \#(to) limit (0–\#(limit) \#(to)); give the weight in \#(to) with the unit"#),
                "\(edit.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
