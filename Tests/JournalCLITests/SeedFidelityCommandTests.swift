import Foundation
import Testing

/// Seed fidelity through the real binary: what the seed apps' users would hit.
@Suite("journal: seed fidelity", .serialized)
struct SeedFidelityCommandTests {
    static let asOf = "2026-11-18T18:10:00.000+00:00"

    /// A lifter in pounds who benched 135 lb × 5 × 3, then started the next Push with 3 × 5 prescribed.
    static let poundLifter = """
    {"type":"profile.updated","at":"2026-11-16T07:00:00.000+00:00","name":"Sam","unit":"lb"}
    {"type":"workout.started","at":"2026-11-16T18:00:00.000+00:00","workout":"a","name":"Push","session":null}
    {"type":"exercise.added","at":"2026-11-16T18:01:00.000+00:00","workout":"a","exercise":"barbell-bench-press","sets":3,"reps":"5"}
    {"type":"set.completed","at":"2026-11-16T18:05:00.000+00:00","workout":"a","exercise":"barbell-bench-press","set":1,"weight":135,"unit":"lb","reps":5,"kind":"working"}
    {"type":"set.completed","at":"2026-11-16T18:08:00.000+00:00","workout":"a","exercise":"barbell-bench-press","set":2,"weight":135,"unit":"lb","reps":5,"kind":"working"}
    {"type":"set.completed","at":"2026-11-16T18:11:00.000+00:00","workout":"a","exercise":"barbell-bench-press","set":3,"weight":135,"unit":"lb","reps":5,"kind":"working"}
    {"type":"workout.finished","at":"2026-11-16T18:45:00.000+00:00","workout":"a"}
    {"type":"workout.started","at":"2026-11-18T18:00:00.000+00:00","workout":"b","name":"Push","session":null}
    {"type":"exercise.added","at":"2026-11-18T18:01:00.000+00:00","workout":"b","exercise":"barbell-bench-press","sets":3,"reps":"5"}

    """

    static func recorded(_ events: String) throws -> String {
        let path = try CLI.temporaryDirectory() + "/seed.journal"
        let result = try CLI.run(["record", path], stdin: events)
        #expect(result.status == 0, "\(result.stderr)")
        return path
    }

    static func json(_ arguments: [String]) throws -> [String: Any] {
        let result = try CLI.run(arguments + ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test("a pound lifter's bench: target 140 lb, warm-up 85 lb, pound plates; charts name their unit")
    func poundArithmetic() throws {
        let path = try Self.recorded(Self.poundLifter)
        let table = try CLI.run(["active", path, "--as-of", Self.asOf])
        #expect(table.stdout.contains("  Suggested warm-up set: 85 lb (50-70%) • 10 reps  [per side 10, 10 on the 45 lb bar]\n  Target: 140 lb\n"), "\(table.stdout)")
        let active = try Self.json(["active", path, "--as-of", Self.asOf])
        let bench = try #require((active["exercises"] as? [[String: Any]])?.first)
        let target = try #require(bench["next_target"] as? [String: Any])
        #expect(target["weight"] as? Double == 140 && target["unit"] as? String == "lb")
        let warmup = try #require(bench["warmup_set"] as? [String: Any])
        #expect(warmup["weight"] as? Double == 85 && warmup["unit"] as? String == "lb" && warmup["reps"] as? Int == 10)

        let plates = try CLI.run(["plates", "140", "--journal", path])
        #expect(plates.stdout == "140 lb: bar 45 lb + per side 45, 2.5\n")

        let explain = try Self.json(["explain", path, "deload", "barbell-bench-press", "--as-of", Self.asOf])
        #expect(explain["target"] as? Double == 140)
        #expect(explain["unit"] as? String == "lb")

        let exercise = try Self.json(["exercise", path, "barbell-bench-press", "--as-of", Self.asOf])
        #expect(exercise["charts_unit"] as? String == "kg")
        let progress = try Self.json(["progress", path, "--as-of", Self.asOf])
        #expect((progress["strength"] as? [[String: Any]])?.first?["unit"] as? String == "kg")
    }

    @Test("editing the weight of a planned row keeps its reps and carries only the weight")
    func plannedRowEdit() throws {
        let path = try Self.recorded(Self.poundLifter + """
        {"type":"set.edited","at":"2026-11-18T18:02:00.000+00:00","workout":"b","exercise":"barbell-bench-press","set":1,"weight":140,"unit":"lb"}

        """)
        let table = try CLI.run(["active", path, "--as-of", Self.asOf])
        let plates = "  [per side 45, 2.5 on the 45 lb bar]"
        #expect(table.stdout.contains("    1  140 lb • 5 reps  (entered)\(plates)\n    2  140 lb • 5 reps  (propagated)\(plates)\n    3  140 lb • 5 reps  (propagated)\(plates)\n"),
                "\(table.stdout)")
    }

    @Test("record refuses a misspelt exercise, a self-swap and a second open workout, naming field, value and rule, and changes no byte")
    func references() throws {
        let path = try Self.recorded(Self.poundLifter)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let cases = [
            (#"{"type":"set.completed","at":"2026-11-18T18:05:00.000+00:00","workout":"b","exercise":"barbel-bench-pres","set":1,"weight":135,"unit":"lb","reps":5,"kind":"working"}"#,
             #"set.completed: field "exercise" is "barbel-bench-pres" but is neither a catalogue exercise nor a custom exercise of this journal (check the spelling with `journal catalog --search TEXT`, or record an exercise.created for it first)"#),
            (#"{"type":"exercise.swapped","at":"2026-11-18T18:05:00.000+00:00","workout":"b","from":"barbell-bench-press","to":"barbell-bench-press"}"#,
             #"exercise.swapped: field "to" is "barbell-bench-press" but is the exercise being swapped ("from"); swap onto another exercise"#),
            (#"{"type":"exercise.submitted","at":"2026-11-18T18:05:00.000+00:00","workout":"b","exercise":"barbell-bench-press"}"#,
             #"exercise.submitted: field "exercise" is "barbell-bench-press" but has no completed set in workout "b" (complete at least one set before submitting it)"#),
            (#"{"type":"workout.started","at":"2026-11-18T18:05:00.000+00:00","workout":"c","name":"Pull","session":null}"#,
             #"workout.started: field "workout" is "c" but cannot start while workout "b" is open (one active workout at a time, as in the seed apps: finish or discard "b" first)"#),
            (#"{"type":"set.completed","at":"2026-11-18T18:05:00.000+00:00","workout":"b","exercise":"barbell-bench-press","set":1,"weight":135,"unit":"lb","reps":0,"kind":"working"}"#,
             #"set.completed: field "reps" is 0 but must be at least 1 on a working set (seed 000: a positive whole number; log a failed attempt as kind "failure")"#),
        ]
        for (line, message) in cases {
            let result = try CLI.run(["record", path], stdin: line + "\n")
            #expect(result.status == 1)
            #expect(result.stderr == "journal: \(path): input line 1 was refused: \(message); nothing was written\n")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
        #expect(try CLI.run(["verify", path]).stdout.hasSuffix("result:           clean\n"))
    }

    @Test("the sample journals verify clean with the reference rules")
    func samplesVerify() throws {
        for sample in ["new-user.journal", "ppl-12-weeks.journal", "upper-lower-2y-lb.journal"] {
            let result = try CLI.run(["verify", CLI.sample(sample)])
            #expect(result.status == 0, "\(sample): \(result.stdout)")
            #expect(result.stdout.contains("rule violations:  none\n"), "\(sample)")
        }
    }

    @Test("catalog: repeated --equipment are alternatives; seed 004's tabs filter")
    func catalogFilters() throws {
        let both = try CLI.run(["catalog", "--equipment", "dumbbells", "--equipment", "barbell"])
        #expect(both.stdout.hasSuffix("\n77 of 201 exercises\n"))
        #expect(both.stdout.hasPrefix("barbell-bench-press  ") && both.stdout.contains("\ndumbbell-bench-press  "))
        #expect(try CLI.run(["catalog", "--muscle", "arms"]).stdout.hasSuffix("\n31 of 201 exercises\n"))
        let cardio = try CLI.run(["catalog", "--muscle", "cardio", "--json"])
        let ids = try #require(try JSONSerialization.jsonObject(with: Data(cardio.stdout.utf8)) as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(ids == ["treadmill-run", "stationary-bike", "rowing-machine", "elliptical-trainer", "stair-climber", "outdoor-run"])
        let wrong = try CLI.run(["catalog", "--muscle", "wings"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.hasPrefix("Error: --muscle \"wings\" is not a muscle group (known: shoulders, chest, back, abs, triceps, biceps, glutes, quads, hamstrings, calves, forearms, traps, lats, lower-back, obliques, adductors, abductors, neck; tabs: arms, legs, core, cardio)\n"))
    }

    @Test("home: a programme generated on Sunday is in week 1 on Monday, and finished after its last week")
    func programmeWeeks() throws {
        let path = try Self.recorded("""
        {"type":"programme.generated","at":"2026-11-22T20:00:00.000-06:00","ruleset":"train","programme":{"split":"Full Body","days_per_week":2,"weeks":8,"sessions":[{"name":"A","exercises":[{"exercise":"barbell-bench-press","sets":3,"reps":"8-12","rest_s":90}]},{"name":"B","exercises":[{"exercise":"barbell-back-squat","sets":3,"reps":"8-12","rest_s":90}]}]}}

        """)
        let monday = try CLI.run(["home", path, "--as-of", "2026-11-23T07:00:00-06:00"])
        #expect(monday.stdout.contains("\nProgramme: Full Body · Week 1 of 8 · 2 days/week\n"), "\(monday.stdout)")
        let after = try CLI.run(["home", path, "--as-of", "2027-01-17T07:00:00-06:00"])
        #expect(after.stdout.contains("\nProgramme: Full Body · finished (8 weeks): retake the questionnaire or regenerate the programme · 2 days/week\n"),
                "\(after.stdout)")
        #expect(!after.stdout.contains("Next workout"))
        let json = try Self.json(["home", path, "--as-of", "2027-01-17T07:00:00-06:00"])
        let programme = try #require(json["programme"] as? [String: Any])
        #expect(programme["finished"] as? Bool == true && programme["next_steps"] as? [String] == ["retake", "regenerate"])
    }

    /// Two finished runs on the treadmill: 30 min over 5 km on 2026-11-16, then `second` (the `cardio.logged` fields
    /// after `exercise`) on 2026-11-18.
    static func twoRuns(second: String) throws -> String {
        try recorded("""
        {"type":"workout.started","at":"2026-11-16T07:00:00.000+00:00","workout":"r1","name":"Run","session":null}
        {"type":"cardio.logged","at":"2026-11-16T07:30:00.000+00:00","workout":"r1","exercise":"treadmill-run","minutes":30,"km":5}
        {"type":"workout.finished","at":"2026-11-16T07:31:00.000+00:00","workout":"r1"}
        {"type":"workout.started","at":"2026-11-18T07:00:00.000+00:00","workout":"r2","name":"Run","session":null}
        {"type":"cardio.logged","at":"2026-11-18T07:40:00.000+00:00","workout":"r2","exercise":"treadmill-run",\(second)}
        {"type":"workout.finished","at":"2026-11-18T07:41:00.000+00:00","workout":"r2"}

        """)
    }

    /// What `journal exercise` prints last for the treadmill run: the catalogue's How-to.
    static let treadmillHowTo = """

        How to (treadmill):
          Setup: Step onto the treadmill, clip the safety key to your clothing and start at a walk.
          1. Raise the speed to your running pace.
          2. Run for the planned time or distance.
          3. Slow to a walk for a few minutes to cool down.
          Cues: Stay near the front of the belt. Relaxed shoulders and short strides. Hold the rails only to get on and off.

        """

    @Test("exercise: a cardio exercise shows its sessions (minutes, km, pace), bests and chart")
    func cardioHistory() throws {
        let path = try Self.twoRuns(second: #""minutes":40,"km":7,"calories":420"#)
        let table = try CLI.run(["exercise", path, "Treadmill Run", "--as-of", "2026-11-20T00:00:00Z"])
        #expect(table.stdout == """
        Treadmill Run
        Longest: 40 min · farthest: 7 km · fastest pace: 5.71 min/km

        DATE        WORKOUT  MINUTES  KM  PACE
        2026-11-18  Run           40   7  5.71 min/km
        2026-11-16  Run           30   5     6 min/km

        Distance per session: 5 → 7 km

        """ + Self.treadmillHowTo)
        let json = try Self.json(["exercise", path, "treadmill-run", "--as-of", "2026-11-20T00:00:00Z"])
        let cardio = try #require(json["cardio"] as? [String: Any])
        let bests = try #require(cardio["bests"] as? [String: Any])
        #expect(bests["fastest_pace_min_per_km"] as? Double == 5.71 && bests["longest_km"] as? Double == 7)
        #expect((cardio["sessions"] as? [[String: Any]])?.first?["pace_min_per_km"] as? Double == 5.71)
    }

    /// `journal onboard` of a new journal with `answers` (written to a file) by `ruleset`: the journal's and the
    /// answers file's paths, and what the binary said.
    static func onboard(_ answers: String, ruleset: String, path: String? = nil) throws -> (path: String, answers: String, result: CLI.Result) {
        let directory = try CLI.temporaryDirectory()
        let file = directory + "/answers.json"
        try answers.write(toFile: file, atomically: true, encoding: .utf8)
        let path = path ?? directory + "/o.journal"
        return (path, file, try CLI.run(["onboard", path, "--ruleset", ruleset, "--answers", file]))
    }

    @Test("onboard refuses seed 000's out-of-range answers naming question, value and rule, writing nothing; seed 002's words pass")
    func questionnaire() throws {
        let (path, answers, refused) = try Self.onboard(
            #"{"primary_goal":"build_muscle","experience":"6-24","days_per_week":3,"session_minutes":"45-60","gender":"robot","height":{"value":230,"unit":"cm"},"weight":{"value":80,"unit":"lbs"}}"#,
            ruleset: "train")
        #expect(refused.status == 1)
        #expect(refused.stderr == """
        journal: \(answers): the answers do not fit rule set "train":
          - question "gender": answer "robot" must be one of "male", "female", "other"
          - question "height": answer {"value":230,"unit":"cm"} must be within 140–220 cm or 55–86 in (rule set "train")
          - question "weight": answer {"value":80,"unit":"lbs"} must be within 40–200 kg or 88–440 lb (rule set "train")
        ; nothing was written

        """.replacingOccurrences(of: "\n;", with: ";"))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try Self.onboard(#"{"primary_goal":"powerlifting","experience":"intermediate","days_per_week":4}"#, ruleset: "templates", path: path).result.status == 0)
    }

    @Test("import takes --utc-offset -06:00 as written; the imported workouts start at that offset")
    func negativeOffset() throws {
        let (_, csv, journal) = try InterchangeCommandTests.setUp()
        let result = try CLI.run(["import", journal, "--from", "auto", csv, "--utc-offset", "-06:00"])
        #expect(result.status == 0, "\(result.stderr)")
        let history = try Self.json(["history", journal, "--as-of", "2024-03-07T00:00:00-06:00"])
        let workouts = try #require(history["workouts"] as? [[String: Any]])
        #expect(workouts.compactMap { $0["started_at"] as? String } == ["2024-03-06T18:00:00.000-06:00", "2024-03-04T07:12:40.000-06:00"])
        #expect(try CLI.run(["verify", journal]).stdout.hasSuffix("result:           clean\n"))
    }

    @Test("history pages with --offset (seed 003 load more)")
    func historyOffset() throws {
        let sample = CLI.sample("ppl-12-weeks.journal")
        let asOf = "2026-11-21T20:00:00-05:00"
        let page = try CLI.run(["history", sample, "--as-of", asOf, "--limit", "2", "--offset", "2"])
        #expect(page.stdout.hasSuffix("\n… 45 more (use --offset 4 for the next page, or --limit)\n"), "\(page.stdout)")
        let json = try Self.json(["history", sample, "--as-of", asOf, "--limit", "2", "--offset", "2"])
        #expect(json["total"] as? Int == 49)
        #expect((json["workouts"] as? [[String: Any]])?.compactMap { $0["workout"] as? String } == ["w49", "w48"])
        #expect(try CLI.run(["history", sample, "--as-of", asOf, "--offset", "60"]).stdout == "No workouts past --offset 60: 49 match.\n")
    }

    @Test("profile shows the questionnaire's answers and the subscription's status as of T")
    func profile() throws {
        let sample = CLI.sample("ppl-12-weeks.journal")
        let table = try CLI.run(["profile", sample, "--as-of", "2026-09-02T12:00:00+01:00"])
        #expect(table.stdout.contains("\nPlan: annual (trial) · next billing 2026-09-06\n"), "\(table.stdout)")
        #expect(table.stdout.contains("\nQuestionnaire: primary_goal \"build_muscle\" · experience \"6-24\" · "), "\(table.stdout)")
        let json = try Self.json(["profile", sample, "--as-of", "2026-11-21T20:00:00-05:00"])
        #expect((json["subscription"] as? [String: Any])?["status"] as? String == "lapsed")
        #expect((json["questionnaire"] as? [String: Any])?["age"] as? Int == 31)
    }

    @Test("progress shows the volume and the working sets of each week, and the estimated 1RM per session")
    func weeklyVolume() throws {
        let sample = CLI.sample("ppl-12-weeks.journal")
        let table = try CLI.run(["progress", sample, "--as-of", "2026-11-22T12:00:00-05:00"])
        #expect(table.stdout.contains("""

        Working sets per week:
          2026-10-19  59
          2026-10-26  118
          2026-11-02  118
          2026-11-09  118
          2026-11-16  116

        Estimated 1RM per session (Epley):
          Barbell Bench Press: 89.58 → 89.58 → 89.58 → 93.17

        """), "\(table.stdout)")
        #expect(table.stdout.contains("""

        Volume per week:
          2026-10-19  14,340 kg
          2026-10-26  35,055 kg
          2026-11-02  36,670 kg
          2026-11-09  53,215 kg
          2026-11-16  50,210 kg

        """), "\(table.stdout)")
        let json = try Self.json(["progress", sample, "--as-of", "2026-11-22T12:00:00-05:00"])
        #expect((json["weekly_volume"] as? [[String: Any]])?.compactMap { $0["volume_kg"] as? Double } == [14340, 35055, 36670, 53215, 50210])
    }

    @Test("home shows the planner's workouts with dates and exercises")
    func planner() throws {
        let path = try Self.recorded("""
        {"type":"workout.planned","at":"2026-11-10T08:00:00.000+00:00","plan":"p1","name":"Legs","date":"2026-11-14","exercises":[{"exercise":"barbell-back-squat","sets":5,"reps":"5"}]}
        {"type":"workout.planned","at":"2026-11-10T08:01:00.000+00:00","plan":"p2","name":"Push","date":"2026-11-12","exercises":[{"exercise":"barbell-bench-press","sets":3,"reps":"8-12"}]}

        """)
        let home = try CLI.run(["home", path, "--as-of", "2026-11-13T08:00:00+00:00"])
        #expect(home.stdout.contains("""
        Planned:
          2026-11-12  Push • 1 exercise (overdue): Barbell Bench Press
          2026-11-14  Legs • 1 exercise: Barbell Back Squat

        """), "\(home.stdout)")
        let json = try Self.json(["home", path, "--as-of", "2026-11-13T08:00:00+00:00"])
        #expect((json["planned_workouts"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == ["2026-11-12", "2026-11-14"])
    }

    @Test("a target set by hand (progression.configured target) replaces the automatic one")
    func targetByHand() throws {
        let path = try Self.recorded(Self.poundLifter + """
        {"type":"progression.configured","at":"2026-11-18T18:02:00.000+00:00","exercise":"barbell-bench-press","target":130,"unit":"lb"}

        """)
        #expect(try CLI.run(["active", path, "--as-of", Self.asOf]).stdout.contains("  Target: 130 lb\n"))
        let explain = try Self.json(["explain", path, "deload", "barbell-bench-press", "--as-of", Self.asOf])
        #expect(explain["target"] as? Double == 130)
    }

    @Test("active: a paused workout says so and its timer stands still")
    func pausedTimer() throws {
        let path = try Self.recorded(Self.poundLifter + """
        {"type":"workout.paused","at":"2026-11-18T18:04:00.000+00:00","workout":"b"}

        """)
        let table = try CLI.run(["active", path, "--as-of", Self.asOf])
        #expect(table.stdout.hasPrefix("Push Workout  04:00 (paused)  (0 sets · 0 reps · 0 lb)\n"), "\(table.stdout)")
        let json = try Self.json(["active", path, "--as-of", Self.asOf])
        #expect(json["paused"] as? Bool == true && json["elapsed_s"] as? Int == 240)
    }
}
