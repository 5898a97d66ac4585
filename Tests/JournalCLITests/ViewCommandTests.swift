import Foundation
import Testing

@Suite("journal views, end to end", .serialized)
struct ViewCommandTests {
    static let asOf = "2026-11-21T20:00:00.000-05:00"

    func json(_ arguments: [String]) throws -> [String: Any] {
        let result = try CLI.run(arguments + ["--json"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test("home, history, exercise, progress and replay print the issue's fixed JSON keys for a sample")
    func fixedKeys() throws {
        let path = CLI.sample("ppl-12-weeks.journal")
        let home = try json(["home", path, "--as-of", Self.asOf])
        for key in ["name", "streak", "programme", "week", "next_workout", "upcoming", "recent_prs", "last_workouts", "message"] {
            #expect(home[key] != nil, "home lacks \(key)")
        }
        #expect(home["name"] as? String == "Tom Berg")
        let streak = try #require(home["streak"] as? [String: Any])
        #expect(Set(streak.keys).isSuperset(of: ["current_days", "longest_days", "current_weeks"]))
        let week = try #require(home["week"] as? [String: Any])
        #expect((week["calendar"] as? [Any])?.count == 7)
        #expect((home["last_workouts"] as? [Any])?.count == 3)

        let history = try json(["history", path, "--as-of", Self.asOf, "--limit", "2"])
        let workouts = try #require(history["workouts"] as? [[String: Any]])
        #expect(workouts.count == 2)
        for key in ["workout", "name", "started_at", "finished_at", "duration_s", "exercise_count", "set_count", "reps", "volume_kg",
                    "first_time", "increased_reps", "increased_load_kg", "exercises"] {
            #expect(workouts[0][key] != nil, "history lacks \(key)")
        }
        let firstExercise = try #require((workouts[0]["exercises"] as? [[String: Any]])?.first)
        #expect(Set(firstExercise.keys).isSuperset(of: ["exercise", "rosette", "sets"]))
        let set = try #require((firstExercise["sets"] as? [[String: Any]])?.first)
        #expect(Set(set.keys).isSuperset(of: ["set", "weight", "unit", "reps", "kind", "plus"]))

        let exercise = try json(["exercise", path, "barbell-back-squat", "--as-of", Self.asOf])
        for key in ["best_set", "start_weight", "sessions", "records"] { #expect(exercise[key] != nil, "exercise lacks \(key)") }
        let byName = try json(["exercise", path, "Barbell Back Squat", "--as-of", Self.asOf])
        #expect((byName["sessions"] as? [Any])?.count == (exercise["sessions"] as? [Any])?.count)

        let unknown = try CLI.run(["exercise", path, "underwater basket weaving"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "journal: no exercise \"underwater basket weaving\" in the catalogue or in \(path) (`journal catalog --search TEXT` lists ids and names)\n")

        let progress = try json(["progress", path, "--as-of", Self.asOf, "--range", "ALL"])
        #expect(progress["workouts_this_month"] != nil && progress["muscle_groups"] != nil)

        let replay = try json(["replay", path, "--as-of", Self.asOf])
        let projections = try #require(replay["projections"] as? [String: Any])
        for key in ["home", "history", "progress", "active", "exercises", "templates", "profile"] {
            #expect(projections[key] != nil, "replay lacks \(key)")
        }
        #expect((replay["summary"] as? [String: Any])?["workouts"] as? Int == (history["total"] as? Int))
    }

    @Test("a hand-recorded workout shows in history with its totals, and an open one in active")
    func handRecorded() throws {
        let directory = try CLI.temporaryDirectory()
        let path = directory + "/v.journal"
        let events = """
        {"type":"profile.updated","at":"2026-11-16T07:00:00.000+00:00","name":"Ana Lee","unit":"kg"}
        {"type":"workout.started","at":"2026-11-16T18:00:00.000+00:00","workout":"a","name":"Push","session":null}
        {"type":"set.completed","at":"2026-11-16T18:05:00.000+00:00","workout":"a","exercise":"barbell-bench-press","set":1,"weight":40,"unit":"kg","reps":10,"kind":"warmup"}
        {"type":"set.completed","at":"2026-11-16T18:08:00.000+00:00","workout":"a","exercise":"barbell-bench-press","set":2,"weight":60,"unit":"kg","reps":8,"kind":"working"}
        {"type":"set.completed","at":"2026-11-16T18:11:00.000+00:00","workout":"a","exercise":"barbell-bench-press","set":3,"weight":135,"unit":"lb","reps":6,"kind":"working"}
        {"type":"workout.finished","at":"2026-11-16T18:45:00.000+00:00","workout":"a"}
        {"type":"workout.started","at":"2026-11-18T18:00:00.000+00:00","workout":"b","name":"Push","session":null}
        {"type":"set.completed","at":"2026-11-18T18:08:00.000+00:00","workout":"b","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":9,"kind":"working"}

        """
        #expect(try CLI.run(["record", path], stdin: events).status == 0)
        let history = try json(["history", path, "--as-of", "2026-11-18T18:10:00.000+00:00"])
        let workouts = try #require(history["workouts"] as? [[String: Any]])
        #expect(workouts.count == 1)
        #expect(workouts[0]["workout"] as? String == "a")
        #expect(workouts[0]["set_count"] as? Int == 2)
        #expect(workouts[0]["reps"] as? Int == 14)
        #expect(workouts[0]["duration_s"] as? Int == 2700)
        #expect(workouts[0]["first_time"] as? Bool == true)
        // 60 × 8 + 135 lb × 6 = 480 + 367.4103197 kg
        #expect(abs((workouts[0]["volume_kg"] as? Double ?? 0) - 847.41) < 0.01)

        let active = try json(["active", path, "--as-of", "2026-11-18T18:10:00.000+00:00"])
        #expect(active["workout"] as? String == "b")
        #expect(active["elapsed_s"] as? Int == 600)

        let table = try CLI.run(["home", path, "--as-of", "2026-11-18T18:10:00.000+00:00"])
        #expect(table.status == 0)
        #expect(table.stdout.hasPrefix("Hey, Ana\n"))
    }

    @Test("an assisted exercise's sets, last session and target say assistance, and its target is less help")
    func assistedLines() throws {
        let directory = try CLI.temporaryDirectory()
        let path = directory + "/a.journal"
        let events = """
        {"type":"profile.updated","at":"2026-11-16T07:00:00.000+00:00","name":"Ana Lee","unit":"kg"}
        {"type":"workout.started","at":"2026-11-16T18:00:00.000+00:00","workout":"a","name":"Pull","session":null}
        {"type":"set.completed","at":"2026-11-16T18:05:00.000+00:00","workout":"a","exercise":"machine-assisted-pull-up","set":1,"weight":20,"unit":"kg","reps":5,"kind":"working"}
        {"type":"set.completed","at":"2026-11-16T18:08:00.000+00:00","workout":"a","exercise":"machine-assisted-pull-up","set":2,"weight":20,"unit":"kg","reps":5,"kind":"working"}
        {"type":"workout.finished","at":"2026-11-16T18:45:00.000+00:00","workout":"a"}
        {"type":"workout.started","at":"2026-11-17T18:00:00.000+00:00","workout":"a2","name":"Pull","session":null}
        {"type":"set.completed","at":"2026-11-17T18:05:00.000+00:00","workout":"a2","exercise":"machine-assisted-pull-up","set":1,"weight":20,"unit":"kg","reps":7,"kind":"working"}
        {"type":"set.completed","at":"2026-11-17T18:08:00.000+00:00","workout":"a2","exercise":"machine-assisted-pull-up","set":2,"weight":20,"unit":"kg","reps":5,"kind":"working"}
        {"type":"workout.finished","at":"2026-11-17T18:45:00.000+00:00","workout":"a2"}
        {"type":"workout.started","at":"2026-11-18T18:00:00.000+00:00","workout":"b","name":"Pull","session":null}
        {"type":"exercise.added","at":"2026-11-18T18:01:00.000+00:00","workout":"b","exercise":"machine-assisted-pull-up"}

        """
        #expect(try CLI.run(["record", path], stdin: events).status == 0)
        let asOf = ["--as-of", "2026-11-18T18:10:00.000+00:00"]
        let exercise = try CLI.run(["exercise", path, "machine-assisted-pull-up"] + asOf)
        #expect(exercise.stdout.contains("Last session (2026-11-17):\n  Set 1: 20 kg assistance • 7 reps  +2\n  Set 2: 20 kg assistance • 5 reps\n"), "\(exercise.stdout)")
        #expect(exercise.stdout.contains(": Most reps at weight 7 reps at 20 kg assistance\n"), "\(exercise.stdout)")
        let workout = try CLI.run(["workout", path, "a2"] + asOf)
        #expect(workout.stdout.contains("\n  Set 1: 20 kg assistance • 7 reps"), "\(workout.stdout)")
        #expect(workout.stdout.contains(": Most reps at weight 7 reps at 20 kg assistance"), "\(workout.stdout)")
        // Five reps and more passed the default target: 2.5 kg of help less, and no warm-up set (half the help would be harder).
        let active = try CLI.run(["active", path] + asOf)
        #expect(active.stdout.contains("  Target: 17.5 kg assistance\n"), "\(active.stdout)")
        #expect(!active.stdout.contains("warm-up set"))
        let json = try self.json(["active", path] + asOf)
        let first = try #require((json["exercises"] as? [[String: Any]])?.first)
        #expect(first["assisted"] as? Bool == true)
        #expect((first["next_target"] as? [String: Any])?["weight"] as? Double == 17.5)
    }
}

@Suite("journal views with <journal>.home-snapshot", .serialized)
struct SnapshotCommandTests {
    /// A copy of the 12-week sample in a fresh directory (the home snapshot is written beside it).
    func copy() throws -> String {
        let directory = try CLI.temporaryDirectory()
        let path = directory + "/tom.journal"
        try FileManager.default.copyItem(atPath: CLI.sample("ppl-12-weeks.journal"), toPath: path)
        return path
    }

    @Test("every view prints the same bytes with the home snapshot, without it (--no-snapshot, JOURNAL_NO_SNAPSHOT) and from a corrupt one; no snapshot of the whole fold is written")
    func sameBytes() throws {
        let path = try copy()
        let asOf = ["--as-of", ViewCommandTests.asOf]
        let views: [[String]] = [
            ["home", path], ["home", path, "--json"], ["history", path, "--json"], ["workout", path, "w48"], ["calendar", path, "--month", "2026-11"],
            ["exercise", path, "barbell-bench-press", "--json"], ["progress", path, "--range", "ALL"], ["active", path, "--json"],
            ["templates", path], ["profile", path, "--json"], ["replay", path, "--json"], ["home", path, "--until-seq", "4000"],
        ]
        for view in views {
            let full = try CLI.run(view + asOf + ["--no-snapshot"])
            #expect(full.status == 0, "\(view): \(full.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path + ".snapshot"), "--no-snapshot wrote a snapshot")
            #expect(!FileManager.default.fileExists(atPath: path + ".home-snapshot"), "--no-snapshot wrote a home snapshot")
        }
        var expected: [String] = []
        for view in views { expected.append(try CLI.run(view + asOf + ["--no-snapshot"]).stdout) }
        // The first `home` writes the home snapshot; the next ones read it.
        for (view, output) in zip(views, expected) {
            let result = try CLI.run(view + asOf)
            #expect(result.status == 0 && result.stdout == output, "\(view) from the snapshot: \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".snapshot"))
        #expect(FileManager.default.fileExists(atPath: path + ".home-snapshot"))
        for (view, output) in zip(views, expected) {
            #expect(try CLI.run(view + asOf).stdout == output, "\(view) from the snapshot (second run)")
            #expect(try CLI.run(view + asOf, environment: ["JOURNAL_NO_SNAPSHOT": "1"]).stdout == output, "\(view) with JOURNAL_NO_SNAPSHOT")
        }
        // Garbage in the home snapshot: the same answer, no error, and it is rewritten.
        try Data("not a snapshot".utf8).write(to: URL(fileURLWithPath: path + ".home-snapshot"))
        let result = try CLI.run(["home", path] + asOf)
        #expect(result.status == 0 && result.stdout == expected[0] && result.stderr.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".home-snapshot")).count > 1000)
        #expect(try CLI.run(["home", path, "--json"] + asOf).stdout == expected[1])
    }

    @Test("verify never trusts the snapshot: damage in the journal is reported with a valid home snapshot beside it")
    func verifyIgnoresSnapshot() throws {
        let path = try copy()
        #expect(try CLI.run(["home", path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: path + ".home-snapshot"))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[1000] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: path))
        let verify = try CLI.run(["verify", path])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("result:           NOT clean"))
    }
}
