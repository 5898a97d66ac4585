import Foundation
import Testing

/// Seed 002's equipment through the real binary: the logger's rows land on the lifter's dumbbells, show the plates
/// per side on the exercise's own bar and the routine's target RPE; `journal plates --exercise` loads that bar; the
/// built-in templates are listed; a machine whose stack is upside down is refused with the file unchanged.
@Suite("journal: equipment, plates in the logger, built-in templates", .serialized)
struct EquipmentCommandTests {
    static func events(unit: String, ezBar: Double, olympic: Double, dumbbells: String, squat: Double, press: Double) -> String {
        var lines = [
            #"{"type":"profile.updated","at":"2026-11-01T09:00:00.000+00:00","unit":"\#(unit)"}"#,
            #"{"type":"equipment.updated","at":"2026-11-01T09:01:00.000+00:00","unit":"\#(unit)","bars":[{"name":"EZ curl bar","weight":\#(ezBar),"exercises":["ez-bar-curl"]},{"name":"Olympic bar","weight":\#(olympic)}],"dumbbells":\#(dumbbells)}"#,
            #"{"type":"template.created","at":"2026-11-01T09:02:00.000+00:00","template":"t1","name":"Gym Day","exercises":[{"exercise":"barbell-back-squat","sets":2,"reps":"5","rpe":8},{"exercise":"dumbbell-bench-press","sets":2,"reps":"10"}]}"#,
            #"{"type":"workout.started","at":"2026-11-02T18:00:00.000+00:00","workout":"w1","name":"Gym Day","session":null,"template":"t1"}"#,
        ]
        for (minute, (exercise, weight, reps)) in [("barbell-back-squat", squat, 5), ("barbell-back-squat", squat, 5),
                                                   ("dumbbell-bench-press", press, 10), ("dumbbell-bench-press", press, 10)].enumerated() {
            let number = minute % 2 + 1
            lines.append(#"{"type":"set.completed","at":"2026-11-02T18:0\#(minute + 1):00.000+00:00","workout":"w1","exercise":"\#(exercise)","set":\#(number),"weight":\#(weight),"unit":"\#(unit)","reps":\#(reps),"kind":"working"}"#)
        }
        lines.append(#"{"type":"workout.finished","at":"2026-11-02T18:45:00.000+00:00","workout":"w1"}"#)
        lines.append(#"{"type":"workout.started","at":"2026-11-04T18:00:00.000+00:00","workout":"w2","name":"Gym Day","session":null,"template":"t1"}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("journal active: rows on the lifter's dumbbell pairs, plates per side on the squat's bar, the target RPE",
          arguments: [
            ("kg", 10.0, 20.0, "[10,12,14,16,18,20,24,28]", 100.0, 20.0,
             "  Target: 102.5 kg\n    1  102.5 kg • 5 reps @ RPE 8  (target)  [per side 25, 15, 1.25 on the 20 kg bar]\n",
             "  Target: 24 kg\n    1  24 kg • 10 reps  (target)\n", [25.0, 15, 1.25], 24.0),
            ("lb", 25.0, 45.0, "[20,30,40,50,60]", 225.0, 40.0,
             "  Target: 230 lb\n    1  230 lb • 5 reps @ RPE 8  (target)  [per side 45, 45, 2.5 on the 45 lb bar]\n",
             "  Target: 50 lb\n    1  50 lb • 10 reps  (target)\n", [45, 45, 2.5], 50),
          ])
    func active(_ unit: String, _ ezBar: Double, _ olympic: Double, _ dumbbells: String, _ squat: Double, _ press: Double,
                _ squatText: String, _ pressText: String, _ perSide: [Double], _ pressTarget: Double) throws {
        let path = try SeedFidelityCommandTests.recorded(Self.events(unit: unit, ezBar: ezBar, olympic: olympic, dumbbells: dumbbells, squat: squat, press: press))
        let text = try CLI.run(["active", path, "--as-of", "2026-11-04T18:05:00Z"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains(squatText), "\(text.stdout)")
        #expect(text.stdout.contains(pressText), "\(text.stdout)")
        let json = try SeedFidelityCommandTests.json(["active", path, "--as-of", "2026-11-04T18:05:00Z"])
        let exercises = try #require(json["exercises"] as? [[String: Any]])
        let squatRows = try #require(exercises.first?["sets"] as? [[String: Any]])
        let plates = try #require(squatRows.first?["plates"] as? [String: Any])
        #expect(plates["per_side"] as? [Double] == perSide && plates["bar"] as? Double == olympic && plates["exact"] as? Bool == true)
        #expect(squatRows.map { $0["target_rpe"] as? Double } == [8, 8])
        let pressRows = try #require(exercises.last?["sets"] as? [[String: Any]])
        #expect(pressRows.map { $0["weight"] as? Double } == [pressTarget, pressTarget])
        #expect(pressRows.allSatisfy { $0["plates"] is NSNull && $0["target_rpe"] is NSNull })

        // The standalone calculator loads the bar the exercise uses.
        let curl = try CLI.run(["plates", String(ezBar + 20), "--journal", path, "--exercise", "ez-bar-curl"])
        #expect(curl.stdout == "\(Int(ezBar + 20)) \(unit): bar \(Int(ezBar)) \(unit) + per side 10\n", "\(curl.stdout)\(curl.stderr)")
        let squatBar = try CLI.run(["plates", String(olympic + 20), "--journal", path, "--exercise", "barbell-back-squat"])
        #expect(squatBar.stdout == "\(Int(olympic + 20)) \(unit): bar \(Int(olympic)) \(unit) + per side 10\n", "\(squatBar.stdout)\(squatBar.stderr)")
    }

    @Test("journal active: a barbell warm-up starts from the exercise's own bar and shows its plates", arguments: [
        ("kg", 10.0, 30.0, "  Suggested warm-up set: 17.5 kg (50-70%) • 10 reps  [per side 2.5, 1.25 on the 10 kg bar]\n  Target: 30 kg\n", [2.5, 1.25]),
        ("lb", 25.0, 65.0, "  Suggested warm-up set: 40 lb (50-70%) • 10 reps  [per side 5, 2.5 on the 25 lb bar]\n  Target: 65 lb\n", [5, 2.5]),
    ])
    func warmupOnOwnBar(_ unit: String, _ ezBar: Double, _ curl: Double, _ text: String, _ perSide: [Double]) throws {
        let lines = [
            #"{"type":"profile.updated","at":"2026-11-01T09:00:00.000+00:00","unit":"\#(unit)"}"#,
            #"{"type":"equipment.updated","at":"2026-11-01T09:01:00.000+00:00","unit":"\#(unit)","bars":[{"name":"EZ curl bar","weight":\#(ezBar),"exercises":["ez-bar-curl"]}]}"#,
            #"{"type":"template.created","at":"2026-11-01T09:02:00.000+00:00","template":"t1","name":"Arms","exercises":[{"exercise":"ez-bar-curl","sets":2,"reps":"10"}]}"#,
            #"{"type":"workout.started","at":"2026-11-02T18:00:00.000+00:00","workout":"w1","name":"Arms","session":null,"template":"t1"}"#,
            #"{"type":"set.completed","at":"2026-11-02T18:01:00.000+00:00","workout":"w1","exercise":"ez-bar-curl","set":1,"weight":\#(curl),"unit":"\#(unit)","reps":8,"kind":"working"}"#,
            #"{"type":"workout.finished","at":"2026-11-02T18:45:00.000+00:00","workout":"w1"}"#,
            #"{"type":"workout.started","at":"2026-11-04T18:00:00.000+00:00","workout":"w2","name":"Arms","session":null,"template":"t1"}"#,
        ]
        let path = try SeedFidelityCommandTests.recorded(lines.joined(separator: "\n") + "\n")
        let table = try CLI.run(["active", path, "--as-of", "2026-11-04T18:05:00Z"])
        #expect(table.stdout.contains(text), "\(table.stdout)\(table.stderr)")
        let json = try SeedFidelityCommandTests.json(["active", path, "--as-of", "2026-11-04T18:05:00Z"])
        let warmup = try #require((json["exercises"] as? [[String: Any]])?.first?["warmup_set"] as? [String: Any])
        let plates = try #require(warmup["plates"] as? [String: Any])
        #expect(plates["bar"] as? Double == ezBar && plates["per_side"] as? [Double] == perSide && plates["exact"] as? Bool == true)
    }

    @Test("journal onboard and programme generate --journal: a dumbbells-only inventory gets no barbell programme", arguments: [
        ("kg", "[10,12,14,16,18,20]"), ("lb", "[20,25,30,35,40,45]"),
    ])
    func generatorUsesTheInventory(_ unit: String, _ dumbbells: String) throws {
        let path = try SeedFidelityCommandTests.recorded(
            #"{"type":"profile.updated","at":"2026-11-01T09:00:00.000+00:00","unit":"\#(unit)"}"# + "\n"
            + #"{"type":"equipment.updated","at":"2026-11-01T09:01:00.000+00:00","unit":"\#(unit)","plates":[],"dumbbells":\#(dumbbells)}"# + "\n")
        let answers = #"{"primary_goal":"get_stronger","experience":"0","days_per_week":3,"equipment":["barbell","dumbbells"]}"#
        let (_, file, onboarded) = try SeedFidelityCommandTests.onboard(answers, ruleset: "templates", path: path)
        #expect(onboarded.status == 0, "\(onboarded.stderr)")
        let home = try SeedFidelityCommandTests.json(["home", path])
        #expect((home["next_workout"] as? [String: Any])?["name"] as? String == "Full Body A", "\(home)")

        let plain = try CLI.run(["programme", "generate", "--ruleset", "templates", "--answers", file])
        #expect(plain.stdout.contains("template starting-strength"), "\(plain.stdout)\(plain.stderr)")
        let owned = try CLI.run(["programme", "generate", "--ruleset", "templates", "--answers", file, "--journal", path])
        #expect(owned.stdout.contains("template full-body"), "\(owned.stdout)\(owned.stderr)")
        #expect(!owned.stdout.contains("Barbell"))
        #expect(owned.stdout.contains("; equipment from your answer and your inventory (dumbbells), which has no plates for a barbell"))
    }

    @Test("journal active names the cable attachment each exercise needs and says when the inventory lacks it")
    func attachments() throws {
        let path = try SeedFidelityCommandTests.recorded([
            #"{"type":"equipment.updated","at":"2026-11-01T09:01:00.000+00:00","attachments":["Tricep rope","D-handle"]}"#,
            #"{"type":"template.created","at":"2026-11-01T09:02:00.000+00:00","template":"t1","name":"Cables","exercises":[{"exercise":"face-pull","sets":2,"reps":"15"},{"exercise":"lat-pulldown","sets":2,"reps":"10"},{"exercise":"dumbbell-curl","sets":2,"reps":"10"}]}"#,
            #"{"type":"workout.started","at":"2026-11-02T18:00:00.000+00:00","workout":"w1","name":"Cables","session":null,"template":"t1"}"#,
        ].joined(separator: "\n") + "\n")
        let table = try CLI.run(["active", path, "--as-of", "2026-11-02T18:05:00Z"])
        #expect(table.stdout.contains("○ Face Pull  2 sets • 15 reps  rest 60s\n  Attachment: rope\n"), "\(table.stdout)\(table.stderr)")
        #expect(table.stdout.contains("  Attachment: lat-bar (not in your equipment)\n"), "\(table.stdout)")
        let json = try SeedFidelityCommandTests.json(["active", path, "--as-of", "2026-11-02T18:05:00Z"])
        let exercises = try #require(json["exercises"] as? [[String: Any]])
        #expect(exercises.map { ($0["attachment"] as? [String: Any])?["name"] as? String } == ["rope", "lat-bar", nil])
        #expect(exercises.map { ($0["attachment"] as? [String: Any])?["owned"] as? Bool } == [true, false, nil])
        #expect(exercises[2]["attachment"] is NSNull)
    }

    @Test("journal plates --exercise without --journal is a usage error")
    func exerciseNeedsJournal() throws {
        let result = try CLI.run(["plates", "100", "--exercise", "ez-bar-curl"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--exercise needs --journal (the journal whose bars say which bar it uses)"), "\(result.stderr)")
    }

    @Test("a machine whose stack tops out below its start is refused, naming the field, and the file stays byte-identical")
    func upsideDownStack() throws {
        let path = try SeedFidelityCommandTests.recorded(Self.events(unit: "kg", ezBar: 10, olympic: 20, dumbbells: "[10]", squat: 100, press: 20))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try CLI.run(["record", path], stdin: #"{"type":"equipment.updated","machines":[{"name":"Leg Press","min_weight":100,"max_weight":20,"increment":5}]}"# + "\n")
        #expect(result.status != 0)
        #expect(result.stderr.contains(#"equipment.updated: field "machines[0].max_weight" is 20 but must be at least min_weight (100)"#), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("journal programme templates lists the six built-in templates in rank order")
    func builtInTemplates() throws {
        let text = try CLI.run(["programme", "templates"])
        #expect(text.status == 0, "\(text.stderr)")
        let ids = text.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") && $0 != "6 templates" }.map { String($0.split(separator: " ").first ?? "") }
        #expect(ids == ["starting-strength", "stronglifts-5x5", "531", "ppl", "upper-lower", "full-body"], "\(text.stdout)")
        #expect(text.stdout.hasPrefix("starting-strength  Starting Strength  beginner  3 days  12 weeks  Workout A, Workout B\n"
            + "  three barbell lifts per session, alternating two workouts, adding weight every session\n"), "\(text.stdout)")
        #expect(text.stdout.contains("\nppl  Push/Pull/Legs  beginner/intermediate/advanced  3, 5, 6 days  8 weeks  Push, Pull, Legs\n"))
        #expect(text.stdout.hasSuffix("\nfull-body  Full Body  beginner/intermediate  2–3 days  8 weeks  Full Body A, Full Body B\n"
            + "  the whole body every session with one lift per movement pattern\n6 templates\n"))
        let json = try CLI.run(["programme", "templates", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 6)
        #expect(list.first?["sessions"] as? [String] == ["Workout A", "Workout B"])
    }
}
