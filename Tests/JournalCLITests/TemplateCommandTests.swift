import Foundation
import Testing

@Suite("journal template export and import; history edits")
struct TemplateCommandTests {
    static let routine = """
        {"type":"template.created","at":"2026-11-01T09:00:00.000+01:00","template":"t1","name":"Upper A","note":"Mondays","exercises":[{"exercise":"barbell-bench-press","sets":[{"weight":40,"unit":"kg","reps":12,"kind":"warmup"},{"weight":70,"unit":"kg","reps":8,"kind":"working"}],"superset":"a"},{"exercise":"dumbbell-fly","sets":3,"reps":"10-12","rest_s":60,"superset":"a"},{"exercise":"treadmill-run","minutes":20,"km":3.5}]}

        """

    @Test("a template exports as a routine document and imports into another journal as it was")
    func roundTrip() throws {
        let dir = try CLI.temporaryDirectory()
        let ana = dir + "/ana.journal", bob = dir + "/bob.journal", out = dir + "/upper.json"
        #expect(try CLI.run(["record", ana, "--device", "ph"], stdin: Self.routine).stdout == "1\n")
        let exported = try CLI.run(["template", "export", ana, "t1", "-o", out])
        #expect(exported == CLI.Result(status: 0, stdout: "", stderr: "journal: wrote \"Upper A\" (3 exercises) to \(out)\n"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == """
            {
              "format": "workout-journal/routine",
              "version": 1,
              "name": "Upper A",
              "note": "Mondays",
              "exercises": [
                {"exercise":"barbell-bench-press","name":"Barbell Bench Press","sets":[{"weight":40,"unit":"kg","reps":12,"kind":"warmup"},{"weight":70,"unit":"kg","reps":8,"kind":"working"}],"superset":"a"},
                {"exercise":"dumbbell-fly","name":"Dumbbell Fly","sets":3,"reps":"10-12","rest_s":60,"superset":"a"},
                {"exercise":"treadmill-run","name":"Treadmill Run","minutes":20,"km":3.5}
              ]
            }

            """)
        let imported = try CLI.run(["template", "import", bob, out, "--device", "ph"])
        #expect(imported == CLI.Result(status: 0, stdout: "imported \"Upper A\" as template t1 (3 exercises)\n", stderr: ""))
        let original = try CLI.run(["templates", ana, "--json"]).stdout
        let copy = try CLI.run(["templates", bob, "--json"]).stdout
        func withoutTimes(_ text: String) -> String {
            text.replacingOccurrences(of: #""created_at":"[^"]*""#, with: "", options: .regularExpression)
        }
        #expect(withoutTimes(copy) == withoutTimes(original))
        // Importing again picks the next free id.
        #expect(try CLI.run(["template", "import", bob, out, "--name", "Upper B"]).stdout == "imported \"Upper B\" as template t2 (3 exercises)\n")
    }

    @Test("a routine document is validated with clear errors and nothing is written", arguments: [
        (#"{"format": "workout-journal/routine", "version": 1, "name": "X", "exercises": [{"exercise": "barbell-bench-press", "sets": [{"weight": 650, "unit": "kg", "reps": 5}]}]}"#,
         #"the routine was refused: template.created: field "exercises[0].sets[0].weight" is 650 but must be at most 500 when unit is "kg"; nothing was written"#),
        (#"{"format": "workout-journal/routine", "version": 1, "name": "X", "exercises": [{"exercise": "barbell-bench-press", "superset": "a"}, {"exercise": "barbell-row"}, {"exercise": "dumbbell-fly", "superset": "a"}]}"#,
         #"the routine was refused: template.created: field "exercises[2].superset" is "a" but must be next to the other exercises of superset "a" (a superset links adjacent exercises); nothing was written"#),
        (#"{"format": "workout-journal/routine", "version": 1, "name": "X", "exercises": [{"name": "Flying Unicorn Press"}]}"#,
         #"exercises[0].name "Flying Unicorn Press" matches no exercise in the catalogue; give its "exercise" id"#),
        (#"{"format": "workout-journal/routine", "version": 1, "name": "X", "exercises": [{"exercise": "barbell-bench-press", "weight": 60}]}"#,
         #"exercises[0].weight is not a key of a routine exercise (keys: exercise, km, minutes, name, note, reps, rest_s, sets, superset)"#),
        (#"{"format": "workout-journal/routine", "version": 2, "name": "X", "exercises": []}"#,
         "version 2 is newer than this journal reads (1); update the app"),
        (#"{"name": "X", "exercises": []}"#,
         #""format" must be "workout-journal/routine" (found nothing): not a routine document"#),
        (#"{"format": "workout-journal/routine", "version": 1, "name": "X", "exercises": []}"#,
         #""exercises" is empty: a routine needs at least one exercise"#),
        (#"{"format": "workout-journal/routine", "#, "not JSON: invalid JSON at byte 38 of the line: expected a quoted key, found end of line"),
    ])
    func importErrors(document: String, message: String) throws {
        let dir = try CLI.temporaryDirectory()
        let input = dir + "/in.json"
        try Data(document.utf8).write(to: URL(fileURLWithPath: input))
        let result = try CLI.run(["template", "import", dir + "/new.journal", input])
        #expect(result == CLI.Result(status: 1, stdout: "", stderr: "journal: \(input): \(message)\n"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/new.journal"))
    }

    @Test("an exercise given only by name is found in the catalogue")
    func importByName() throws {
        let dir = try CLI.temporaryDirectory()
        let input = dir + "/in.json", journal = dir + "/n.journal"
        try Data(#"{"format":"workout-journal/routine","version":1,"name":"By name","exercises":[{"name":"Bench Press (Barbell)","sets":3,"reps":"5"},{"name":"Squat (Barbell)","sets":3,"reps":"5"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: input))
        #expect(try CLI.run(["template", "import", journal, input]).stdout == "imported \"By name\" as template t1 (2 exercises)\n")
        #expect(try CLI.run(["templates", journal]).stdout == """
            By name (t1) · 2 exercises
              chest, quads
              Barbell Bench Press: 3 × 5
              Barbell Back Squat: 3 × 5

            """)
    }

    @Test("exporting an unknown template names the ones there are")
    func unknownTemplate() throws {
        let dir = try CLI.temporaryDirectory()
        let ana = dir + "/ana.journal"
        try CLI.run(["record", ana], stdin: Self.routine)
        #expect(try CLI.run(["template", "export", ana, "t9"]) == CLI.Result(status: 1, stdout: "", stderr: "journal: \(ana): no template \"t9\" (templates: t1)\n"))
    }

    @Test("an edited workout shows its corrected sets and times; an edit of a dropped set is refused")
    func editedWorkout() throws {
        let dir = try CLI.temporaryDirectory()
        let tom = dir + "/tom.journal"
        let events = """
            {"type":"workout.started","at":"2026-11-20T18:00:00.000+01:00","workout":"w1","name":"Push","session":null}
            {"type":"exercise.added","at":"2026-11-20T18:00:30.000+01:00","workout":"w1","exercise":"barbell-bench-press","sets":3,"reps":"8-12"}
            {"type":"exercise.added","at":"2026-11-20T18:00:40.000+01:00","workout":"w1","exercise":"dumbbell-fly","sets":2}
            {"type":"set.completed","at":"2026-11-20T18:05:00.000+01:00","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":10,"kind":"working"}
            {"type":"set.completed","at":"2026-11-20T18:08:00.000+01:00","workout":"w1","exercise":"barbell-bench-press","set":2,"weight":60,"unit":"kg","reps":9,"kind":"working"}
            {"type":"workout.finished","at":"2026-11-20T18:50:00.000+01:00","workout":"w1"}
            {"type":"set.edited","at":"2026-11-21T09:00:00.000+01:00","workout":"w1","exercise":"barbell-bench-press","set":2,"reps":11}
            {"type":"set.completed","at":"2026-11-21T09:00:30.000+01:00","workout":"w1","exercise":"barbell-bench-press","set":3,"weight":60,"unit":"kg","reps":8,"kind":"working","edited":true}
            {"type":"workout.edited","at":"2026-11-21T09:01:00.000+01:00","workout":"w1","started_at":"2026-11-20T17:45:00.000+01:00","finished_at":"2026-11-20T18:40:00.000+01:00"}
            {"type":"workout.noted","at":"2026-11-21T09:02:00.000+01:00","workout":"w1","note":"Fixed a typo in set 2"}

            """
        #expect(try CLI.run(["record", tom, "--device", "ph"], stdin: events).stdout == (1...10).map { "\($0)\n" }.joined())
        #expect(try CLI.run(["workout", tom, "w1", "--as-of", "2026-11-21T12:00:00+01:00"]).stdout == """
            Push Workout  55:00
            2026-11-20  2026-11-20T17:45:00.000+01:00 – 2026-11-20T18:40:00.000+01:00  (edited)
            First time completing this workout!
            1 exercises · 3 sets · 29 reps · 1,740 kg

            Barbell Bench Press
              Set 1: 60 kg • 10 reps
              Set 2: 60 kg • 11 reps
              Set 3: 60 kg • 8 reps
            Note: Fixed a typo in set 2

            """)
        let refused = try CLI.run(["record", tom], stdin: #"{"type":"set.edited","workout":"w1","exercise":"dumbbell-fly","set":1,"reps":12}"# + "\n")
        #expect(refused == CLI.Result(status: 1, stdout: "", stderr: """
            journal: \(tom): input line 1 was refused: set.edited: field "set" is 1 but is not a completed set of dumbbell-fly in finished workout "w1" (finishing dropped the incomplete sets); nothing was written

            """))
    }
}
