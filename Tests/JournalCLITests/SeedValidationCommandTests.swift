import Foundation
import Testing

/// The validation the seeds imply, through the real binary: each refusal names the field and its allowed range, exits
/// with status 1 and leaves the journal byte for byte as it was.
@Suite("journal: the validation the seeds imply", .serialized)
struct SeedValidationCommandTests {
    static let run = """
        {"type":"profile.updated","at":"2026-11-15T07:00:00.000+00:00","name":"Sam","unit":"UNIT"}
        {"type":"workout.started","at":"2026-11-16T07:00:00.000+00:00","workout":"r1","name":"Run","session":null}
        {"type":"cardio.logged","at":"2026-11-16T07:30:00.000+00:00","workout":"r1","exercise":"treadmill-run","minutes":30,"km":5}
        {"type":"set.completed","at":"2026-11-16T07:35:00.000+00:00","workout":"r1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"UNIT","reps":5,"kind":"working"}

        """

    /// Records `line` into a journal holding `run` and expects it refused with `message`, the file unchanged.
    static func expectRefused(_ line: String, unit: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = try SeedFidelityCommandTests.recorded(run.replacingOccurrences(of: "UNIT", with: unit))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try CLI.run(["record", path], stdin: line + "\n")
        #expect(result.status == 1, sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message + "; nothing was written"), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, sourceLocation: sourceLocation)
    }

    @Test("strength fields on a cardio exercise and cardio fields on a strength exercise are refused", arguments: ["kg", "lb"])
    func cardioAndStrength(_ unit: String) throws {
        try Self.expectRefused(#"{"type":"set.completed","at":"2026-11-16T07:36:00.000+00:00","workout":"r1","exercise":"treadmill-run","set":1,"weight":10,"unit":"\#(unit)","reps":5,"kind":"working"}"#,
                               unit: unit, #"set.completed: field "weight" is 10 but is a strength field and treadmill-run is a cardio exercise: log minutes (0–1440) and km (0–1000) with cardio.logged"#)
        try Self.expectRefused(#"{"type":"cardio.logged","at":"2026-11-16T07:36:00.000+00:00","workout":"r1","exercise":"barbell-bench-press","minutes":10}"#,
                               unit: unit, #"cardio.logged: field "minutes" is 10 but is a cardio field and barbell-bench-press is a strength exercise: log weight (0–500 kg or 0–1100 lb) and reps (0–100) with set.completed"#)
    }

    @Test("a blank name and a rest setting outside 0–3600 s are refused", arguments: ["kg", "lb"])
    func namesAndRest(_ unit: String) throws {
        try Self.expectRefused(#"{"type":"workout.started","at":"2026-11-17T07:00:00.000+00:00","workout":"r2","name":" ","session":null,"started_at":"2026-11-17T06:00:00.000+00:00"}"#,
                               unit: unit, #"workout.started: field "name" is " " but must not be empty (1–200 bytes of text)"#)
        try Self.expectRefused(#"{"type":"profile.updated","at":"2026-11-17T07:00:00.000+00:00","name":""}"#,
                               unit: unit, #"profile.updated: field "name" is "" but must not be empty (1–200 bytes of text)"#)
        try Self.expectRefused(#"{"type":"settings.changed","at":"2026-11-17T07:00:00.000+00:00","key":"rest_default_s","value":-30}"#,
                               unit: unit, #"settings.changed: field "value" is -30 but must be a whole number of seconds from 0 to 3600 for "rest_default_s" (0 turns the timer off)"#)
    }

    @Test("a 0-minute cardio entry has no pace: the table shows a dash, the JSON null, and the fastest pace ignores it")
    func zeroMinutesNoPace() throws {
        let path = try SeedFidelityCommandTests.twoRuns(second: #""minutes":0,"km":7"#)
        let table = try CLI.run(["exercise", path, "treadmill-run", "--as-of", "2026-11-20T00:00:00Z"])
        #expect(table.stdout == """
        Treadmill Run
        Longest: 30 min · farthest: 7 km · fastest pace: 6 min/km

        DATE        WORKOUT  MINUTES  KM  PACE
        2026-11-18  Run            0   7  –
        2026-11-16  Run           30   5  6 min/km

        Distance per session: 5 → 7 km

        """ + SeedFidelityCommandTests.treadmillHowTo)
        let json = try SeedFidelityCommandTests.json(["exercise", path, "treadmill-run", "--as-of", "2026-11-20T00:00:00Z"])
        let cardio = try #require(json["cardio"] as? [String: Any])
        #expect((cardio["sessions"] as? [[String: Any]])?.first?["pace_min_per_km"] is NSNull)
        #expect((cardio["bests"] as? [String: Any])?["fastest_pace_min_per_km"] as? Double == 6)
    }

    @Test("onboard refuses seed 001's age floor and an “Other” motivation without its text, naming the range, writing nothing",
          arguments: [("kg", #"{"value":80,"unit":"kg"}"#), ("lb", #"{"value":176,"unit":"lb"}"#)])
    func onboardingFloors(_ unit: String, _ weight: String) throws {
        let (path, answers, refused) = try SeedFidelityCommandTests.onboard(
            #"{"primary_goal":"build_muscle","experience":"6-24","equipment":["barbell"],"days_per_week":3,"session_minutes":"45-60","age":17,"weight":\#(weight),"motivations":["structure","other"]}"#,
            ruleset: "train-ai")
        #expect(refused.status == 1)
        #expect(refused.stderr == """
        journal: \(answers): the answers do not fit rule set "train-ai":
          - question "age": answer 17 must be between 18 and 100
          - question "motivation_other": no answer; must be 1–200 characters of text when "motivations" includes "other" (rule set "train-ai")
        ; nothing was written

        """.replacingOccurrences(of: "\n;", with: ";"))
        #expect(!FileManager.default.fileExists(atPath: path))
        // Seed 000's floor is 16: the same answers at 17, with the motivation's text, are a programme.
        let accepted = try SeedFidelityCommandTests.onboard(
            #"{"primary_goal":"build_muscle","experience":"6-24","equipment":["barbell"],"days_per_week":3,"session_minutes":"45-60","age":17,"weight":\#(weight),"motivations":["other"],"motivation_other":"a friend"}"#,
            ruleset: "train", path: path).result
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    @Test("defaults per seed: an exercise nothing times rests 2:00 under a train programme and 90/60 s under templates; days_per_week 7 is a weekly target without a programme",
          arguments: [("train", "kg", 120, 120), ("templates", "lb", 90, 60)])
    func defaultsPerSeed(_ ruleset: String, _ unit: String, _ compound: Int, _ isolation: Int) throws {
        let path = try SeedFidelityCommandTests.recorded("""
            {"type":"profile.updated","at":"2026-11-01T09:00:00.000+00:00","name":"Sam","unit":"\(unit)"}
            {"type":"programme.generated","at":"2026-11-01T10:00:00.000+00:00","ruleset":"\(ruleset)","ruleset_version":1,"programme":{"split":"Full Body","days_per_week":3,"weeks":8,"sessions":[{"name":"Day 1","exercises":[{"exercise":"barbell-bench-press","sets":3,"reps":"5","rest_s":180}]}]}}
            {"type":"workout.started","at":"2026-11-02T18:00:00.000+00:00","workout":"w1","name":"Day 1","session":0}
            {"type":"exercise.added","at":"2026-11-02T18:01:00.000+00:00","workout":"w1","exercise":"barbell-back-squat"}
            {"type":"exercise.added","at":"2026-11-02T18:02:00.000+00:00","workout":"w1","exercise":"barbell-curl"}

            """)
        let active = try SeedFidelityCommandTests.json(["active", path, "--as-of", "2026-11-02T18:05:00.000+00:00"])
        let rests = (active["exercises"] as? [[String: Any]] ?? []).map { "\($0["exercise"] as? String ?? "?") \($0["rest_s"] as? Int ?? -1)" }
        #expect(rests == ["barbell-bench-press 180", "barbell-back-squat \(compound)", "barbell-curl \(isolation)"])

        let target = try SeedFidelityCommandTests.recorded("""
            {"type":"profile.updated","at":"2026-11-01T09:00:00.000+00:00","name":"Sam","unit":"\(unit)"}
            {"type":"questionnaire.answered","at":"2026-11-01T09:01:00.000+00:00","question":"days_per_week","answer":7}

            """)
        let home = try SeedFidelityCommandTests.json(["home", target, "--as-of", "2026-11-03T12:00:00.000+00:00"])
        #expect((home["week"] as? [String: Any])?["target"] as? Int == 7)
        let refused = try CLI.run(["record", target], stdin: #"{"type":"questionnaire.answered","at":"2026-11-01T09:02:00.000+00:00","question":"days_per_week","answer":8}"# + "\n")
        #expect(refused.stderr.contains(#"questionnaire.answered: field "answer" is 8 but must be between 1 and 7 (question "days_per_week")"#), "\(refused.stderr)")
    }

    @Test("exercise instructions: journal exercise shows the How-to with the equipment, with or without history; catalog --instructions and --category",
          arguments: ["kg", "lb"])
    func instructions(_ unit: String) throws {
        let path = try SeedFidelityCommandTests.recorded("""
            {"type":"profile.updated","at":"2026-11-01T09:00:00.000+00:00","name":"Sam","unit":"\(unit)"}

            """)
        let table = try CLI.run(["exercise", path, "barbell-bench-press", "--as-of", "2026-11-02T00:00:00Z"])
        #expect(table.stdout == """
            Barbell Bench Press
            No history yet. Complete your first set!

            How to (barbell, flat-bench):
              Setup: Lie on a flat bench with your eyes under the bar, feet planted and shoulder blades squeezed together. Grip the bar a little wider than your shoulders.
              1. Lift the bar out of the rack and hold it over your shoulders on straight arms.
              2. Lower it under control until it touches your mid chest.
              3. Press it back up to straight arms, then rack it after the last rep.
              Cues: Keep your shoulder blades pinned to the bench. Elbows travel at about 45° from your body, not straight out. Push your feet into the floor for a stable base.

            """)
        let json = try SeedFidelityCommandTests.json(["exercise", path, "barbell-bench-press", "--as-of", "2026-11-02T00:00:00Z"])
        let how = try #require(json["how_to"] as? [String: Any])
        #expect(how["equipment"] as? [String] == ["barbell", "flat-bench"] && (how["steps"] as? [String])?.count == 3 && (how["cues"] as? [String])?.count == 3)

        // Each session of the history carries its workout's duration: 45 minutes less a 5-minute pause.
        let logged = try CLI.run(["record", path], stdin: """
            {"type":"workout.started","at":"2026-11-02T18:00:00.000+00:00","workout":"w1","name":"Push","session":null}
            {"type":"set.completed","at":"2026-11-02T18:05:00.000+00:00","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"\(unit)","reps":5,"kind":"working"}
            {"type":"workout.paused","at":"2026-11-02T18:10:00.000+00:00","workout":"w1"}
            {"type":"workout.resumed","at":"2026-11-02T18:15:00.000+00:00","workout":"w1"}
            {"type":"workout.finished","at":"2026-11-02T18:45:00.000+00:00","workout":"w1"}

            """)
        #expect(logged.status == 0, "\(logged.stderr)")
        let history = try SeedFidelityCommandTests.json(["exercise", path, "barbell-bench-press", "--as-of", "2026-11-03T00:00:00Z"])
        #expect((history["sessions"] as? [[String: Any]])?.map { $0["duration_s"] as? Int } == [2400])

        let catalog = try CLI.run(["catalog", "--search", "skull crusher", "--instructions"])
        #expect(catalog.stdout == """
            ez-bar-skull-crusher  EZ-Bar Skull Crusher  triceps (+forearms)  barbell, flat-bench  isolation
              Setup: Lie on a flat bench holding an EZ bar over your chest on straight arms.
              1. Bend your elbows to lower the weight towards your forehead or just behind your head.
              2. Stop just short of touching.
              3. Straighten your arms to return.
              Cues: Upper arms stay still and vertical. Lower slowly: the weight is over your face. Keep your wrists straight.
            1 of 201 exercises

            """)
        let chest = try CLI.run(["catalog", "--category", "chest", "--search", "dip"])
        #expect(chest.stdout == "chest-dip  Chest Dip  chest (+shoulders, triceps)  dip-station  compound\n1 of 201 exercises\n", "\(chest.stdout)")
        let arms = try CLI.run(["catalog", "--category", "arms", "--search", "dip"])
        #expect(arms.stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) } == ["bench-dip", "triceps-dip", "seated-dip-machine", "3"])
        let catalogJSON = try CLI.run(["catalog", "--category", "cardio", "--json"])
        let cardio = try #require(try JSONSerialization.jsonObject(with: Data(catalogJSON.stdout.utf8)) as? [[String: Any]])
        #expect(cardio.count == 6 && cardio.allSatisfy { $0["category"] as? String == "cardio" && $0["instructions"] is [String: Any] })
        let refused = try CLI.run(["catalog", "--category", "biceps"])
        #expect(refused.status != 0 && refused.stderr.contains(#"--category "biceps" is not a category tab (tabs: chest, back, shoulders, arms, legs, core, cardio)"#), "\(refused.stderr)")
    }

    @Test("the picker's favourites and recently used exercises through catalog --journal", arguments: ["kg", "lb"])
    func favouritesAndRecent(_ unit: String) throws {
        let path = try SeedFidelityCommandTests.recorded("""
            {"type":"exercise.favourited","at":"2026-11-01T09:00:00.000+00:00","exercise":"barbell-curl"}
            {"type":"exercise.favourited","at":"2026-11-01T09:01:00.000+00:00","exercise":"barbell-bench-press"}
            {"type":"workout.started","at":"2026-11-02T18:00:00.000+00:00","workout":"w1","name":"Legs","session":null}
            {"type":"set.completed","at":"2026-11-02T18:05:00.000+00:00","workout":"w1","exercise":"barbell-back-squat","set":1,"weight":100,"unit":"\(unit)","reps":5,"kind":"working"}
            {"type":"set.completed","at":"2026-11-02T18:10:00.000+00:00","workout":"w1","exercise":"leg-press","set":1,"weight":150,"unit":"\(unit)","reps":10,"kind":"working"}
            {"type":"workout.finished","at":"2026-11-02T18:45:00.000+00:00","workout":"w1"}
            {"type":"workout.started","at":"2026-11-04T18:00:00.000+00:00","workout":"w2","name":"Push","session":null}
            {"type":"set.completed","at":"2026-11-04T18:05:00.000+00:00","workout":"w2","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"\(unit)","reps":5,"kind":"working"}
            {"type":"set.completed","at":"2026-11-04T18:10:00.000+00:00","workout":"w2","exercise":"barbell-back-squat","set":1,"weight":100,"unit":"\(unit)","reps":5,"kind":"working"}
            {"type":"workout.finished","at":"2026-11-04T18:45:00.000+00:00","workout":"w2"}

            """)
        func ids(_ arguments: [String]) throws -> [String] {
            let result = try CLI.run(["catalog", "--journal", path] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").dropLast().map { String($0.split(separator: " ")[0]) }
        }
        #expect(try ids(["--favourites"]) == ["barbell-curl", "barbell-bench-press"])
        #expect(try ids(["--recent"]) == ["barbell-bench-press", "barbell-back-squat", "leg-press"])
        #expect(try ids(["--recent", "--category", "legs"]) == ["barbell-back-squat", "leg-press"])
        let refused = try CLI.run(["catalog", "--recent"])
        #expect(refused.status != 0 && refused.stderr.contains("--recent lists a journal's exercises: give --journal FILE"), "\(refused.stderr)")
    }
}
