import Foundation
import Testing

@Suite("journal import, export, chart, report, timeline, explain, diff, end to end", .serialized)
struct InterchangeCommandTests {
    static let csv = """
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
    2024-03-04 07:12:40,"Push A",1h 5m,"Bench Press (Barbell)",W,40.0,10,0,0,"","",
    2024-03-04 07:12:40,"Push A",1h 5m,"Bench Press (Barbell)",1,80.0,8,0,0,"felt
    heavy","Good day",8.5
    2024-03-04 07:12:40,"Push A",1h 5m,"Rest Timer",Rest Timer,0,0,0,90,"","",
    2024-03-04 07:12:40,"Push A",1h 5m,"Quokka Toss",1,12.5,6,0,0,"","",
    2024-03-06 18:00:00,"Legs",47m,"Squat (Barbell)",1,100,5,0,0,"","",

    """

    static func setUp() throws -> (directory: String, csv: String, journal: String) {
        let directory = try CLI.temporaryDirectory()
        let csv = directory + "/strong.csv"
        try Data(InterchangeCommandTests.csv.utf8).write(to: URL(fileURLWithPath: csv))
        return (directory, csv, directory + "/ana.journal")
    }

    @Test("import prints its summary, and importing the same file again adds nothing")
    func importIsIdempotent() throws {
        let (_, csv, journal) = try InterchangeCommandTests.setUp()
        let first = try CLI.run(["import", journal, "--from", "auto", csv, "--utc-offset", "+01:00"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == """
        file:           \(csv) (strong classic (comma, no unit column), 5 rows)
        workouts:       2 imported
        sets:           4
        dates:          2024-03-04 … 2024-03-06
        times:          wall clock at UTC+01:00 (--utc-offset)
        units:          kg assumed (the file does not say; use --unit lb if the app was set to pounds)
        exercises:      2 matched to the catalogue, 1 new custom exercises
          Bench Press (Barbell) → barbell-bench-press (100%, 2 sets)
          Squat (Barbell) → barbell-back-squat (100%, 1 sets)
          Quokka Toss → custom-quokka-toss (custom, 1 sets)
        rows skipped:   1
          line 5: a rest-timer row, not a set

        """)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: journal))
        let second = try CLI.run(["import", journal, "--from", "strong", csv])
        #expect(second.status == 0)
        #expect(second.stdout.contains("workouts:       0 imported, 2 already in the journal (skipped)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == bytes)
        let history = try CLI.run(["history", journal, "--as-of", "2024-03-07T00:00:00+01:00", "--json"])
        #expect(history.stdout.hasPrefix("{\"total\":2,"))
    }

    @Test("a bad cell names file, line, column and value, and the journal stays as it was")
    func badCellLeavesJournalUnchanged() throws {
        let (directory, csv, journal) = try InterchangeCommandTests.setUp()
        _ = try CLI.run(["import", journal, "--from", "strong", csv])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: journal))
        let bad = directory + "/bad.csv"
        try Data(InterchangeCommandTests.csv.replacingOccurrences(of: "2024-03-06 18:00:00,\"Legs\"", with: "2024-03-09 18:00:00,\"Legs\"")
            .replacingOccurrences(of: "1,100,5", with: "1,1OO,5").utf8).write(to: URL(fileURLWithPath: bad))
        let result = try CLI.run(["import", journal, "--from", "auto", bad, "--strict"])
        #expect(result.status == 1)
        #expect(result.stderr == "journal: \(bad) line 7, column \"Weight\": \"1OO\" is not a number; fix the cell (e.g. 82.5) or delete the row; nothing was imported\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == bytes)
        let fresh = directory + "/fresh.journal"
        _ = try CLI.run(["import", fresh, "--from", "auto", bad, "--strict"])
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test("without --strict a bad cell skips its row, listed with line, column and value, and a split name is joined back")
    func badRowsAreSkippedOrRepairedAndListed() throws {
        let directory = try CLI.temporaryDirectory()
        let csv = directory + "/fitnotes.csv", journal = directory + "/ana.journal"
        try Data("""
        Date,Exercise,Category,Weight (kg),Reps,Distance,Distance Unit,Time
        2024-03-04,Flat Barbell Bench Press,Chest,80.0,5,,,
        2024-03-04,Press, Machine,Shoulders,40.0,10,,,
        2024-03-04,Flat Barbell Bench Press,Chest,8O,5,,,

        """.utf8).write(to: URL(fileURLWithPath: csv))
        let result = try CLI.run(["import", journal, "--from", "auto", csv, "--utc-offset", "+01:00"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("""
        sets:           2
        """))
        #expect(result.stdout.hasSuffix("""
        rows skipped:   1
          line 4, column "Weight (kg)": "8O" is not a number
        rows repaired:  1 (read as shown; --strict refuses such a file instead)
          line 3, column "Exercise": "Press, Machine" was split by 1 unquoted comma (the row has 9 fields for a header of 8) and is read as one cell

        """))
        let json = try CLI.run(["import", directory + "/dry.journal", "--from", "auto", csv, "--dry-run", "--json"])
        #expect(json.stdout.contains(#""skipped":[{"line":4,"reason":"is not a number","column":"Weight (kg)","value":"8O"}]"#), "\(json.stdout)")
        #expect(json.stdout.contains(#""repaired":[{"line":3,"reason":"was split by 1 unquoted comma (the row has 9 fields for a header of 8) and is read as one cell","column":"Exercise","value":"Press, Machine"}]"#))
        let strict = try CLI.run(["import", directory + "/strict.journal", "--from", "auto", csv, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderr == "journal: \(csv) line 3, column \"Weight (kg)\": \"Shoulders\" is not a number; fix the cell (e.g. 82.5) or delete the row; nothing was imported\n")
    }

    @Test("a pound journal exported as Strong CSV imports into a new journal as pounds, and says why")
    func poundsTravel() throws {
        let directory = try CLI.temporaryDirectory()
        let csv = directory + "/strong.csv"
        let export = try CLI.run(["export", CLI.sample("upper-lower-2y-lb.journal"), "--format", "strong-csv", "-o", csv])
        #expect(export.status == 0, "\(export.stderr)")
        let result = try CLI.run(["import", directory + "/new.journal", "--from", "auto", csv, "--dry-run", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""assumed_unit":"lb","assumed_unit_from":"from the weights: all 8534 are in 2.5-lb plate steps and 97% in 5-lb steps, as a pound app writes them""#), "\(result.stdout.prefix(600))")
        // --unit still decides.
        let given = try CLI.run(["import", directory + "/kg.journal", "--from", "auto", csv, "--dry-run", "--json", "--unit", "kg"])
        #expect(given.stdout.contains(#""assumed_unit":"kg","assumed_unit_from":null"#))
    }

    @Test("export --format journal writes a verified copy and never overwrites")
    func exportJournal() throws {
        let directory = try CLI.temporaryDirectory()
        let out = directory + "/backup.journal"
        let result = try CLI.run(["export", CLI.sample("ppl-12-weeks.journal"), "--format", "journal", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("events, verified clean\n"))
        #expect(try CLI.run(["diff", CLI.sample("ppl-12-weeks.journal"), out]).status == 0)
        let again = try CLI.run(["export", CLI.sample("ppl-12-weeks.journal"), "--format", "journal", "-o", out])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already exists"))
        let missing = try CLI.run(["export", CLI.sample("ppl-12-weeks.journal"), "--format", "journal"])
        #expect(missing.status == 64)
    }

    @Test("a JSONL export recorded into a new journal gives the same journal")
    func jsonlRestores() throws {
        let directory = try CLI.temporaryDirectory()
        let sample = CLI.sample("new-user.journal")
        let jsonl = try CLI.run(["export", sample, "--format", "jsonl"])
        #expect(jsonl.stdout == (try CLI.run(["cat", sample])).stdout)
        let restored = directory + "/restored.journal"
        #expect(try CLI.run(["record", restored], stdin: jsonl.stdout).status == 0)
        let diff = try CLI.run(["diff", sample, restored])
        #expect(diff.status == 0)
        #expect(diff.stdout.hasSuffix("are identical (18 events)\n"))
    }

    @Test("redacted exports keep the numbers and drop the notes")
    func redactedExports() throws {
        let (directory, csv, journal) = try InterchangeCommandTests.setUp()
        _ = try CLI.run(["import", journal, "--from", "strong", csv])
        let plain = try CLI.run(["export", journal, "--format", "strong-csv"])
        #expect(plain.stdout.contains("\"felt\nheavy\""))
        let redacted = try CLI.run(["export", journal, "--format", "strong-csv", "--redact"])
        #expect(!redacted.stdout.contains("felt"))
        #expect(!redacted.stdout.contains("Good day"))
        #expect(redacted.stdout.contains(",80.0,8,"))
        let out = directory + "/support.journal"
        let copy = try CLI.run(["export", journal, "--format", "journal", "--redact", "-o", out])
        #expect(copy.stdout.hasSuffix("verified clean, redacted\n"), "\(copy.stderr)")
        let jsonl = try CLI.run(["export", out, "--format", "jsonl"])
        #expect(jsonl.stdout.contains("\"note\":\"[redacted]\""))
        #expect(!jsonl.stdout.contains("felt"))
        let diff = try CLI.run(["diff", journal, out, "--json"])
        #expect(diff.status == 1)
        #expect(diff.stdout.contains("\"identical\":false"))
    }

    @Test("chart writes SVG, report writes one page with nothing from the network")
    func chartAndReport() throws {
        let directory = try CLI.temporaryDirectory()
        let sample = CLI.sample("ppl-12-weeks.journal")
        let svg = directory + "/bench.svg"
        let chart = try CLI.run(["chart", sample, "--exercise", "barbell-bench-press", "--metric", "e1rm", "-o", svg, "--as-of", "2026-11-22T12:00:00-05:00"])
        #expect(chart.status == 0, "\(chart.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.hasPrefix("<svg "))
        #expect(!text.contains("<script"))
        let json = try CLI.run(["chart", sample, "--frequency", "--json", "--as-of", "2026-11-22T12:00:00-05:00"])
        #expect(json.stdout.hasPrefix("{\"weeks\":[{\"week\":\"2026-08-31\","))
        #expect(try CLI.run(["chart", sample]).status == 64)
        let html = directory + "/report.html"
        let report = try CLI.run(["report", sample, "-o", html, "--as-of", "2026-11-22T12:00:00-05:00"])
        #expect(report.status == 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("<script"))
    }

    @Test("timeline, explain and diff answer support's questions")
    func auditCommands() throws {
        let sample = CLI.sample("ppl-12-weeks.journal")
        let timeline = try CLI.run(["timeline", sample, "--workout", "w51"])
        #expect(timeline.stdout.hasPrefix("workout w51 \"Push B\": 96 events\n+0:00     #4633  workout.started     \"Push B\""))
        #expect(timeline.stdout.contains("[rest 3:01 taken, 2:00 planned]"))
        #expect(timeline.stdout.hasSuffix("anomalies: none\n"))
        // --html: the page journal-server shows support, the same rows.
        let page = try CLI.run(["timeline", sample, "--workout", "w51", "--html"])
        #expect(page.stdout.hasPrefix("<!DOCTYPE html>\n"))
        #expect(page.stdout.contains("<title>ppl-12-weeks.journal — workout timeline</title>"))
        #expect(page.stdout.contains("<h1>Push B</h1>\n<p class=\"sub\">ppl-12-weeks.journal · workout w51 · 96 events</p>"))
        #expect(page.stdout.contains("<tr><td>+10:11</td><td>4640</td><td>set.completed</td><td>Dumbbell Bench Press set 3: 17.5 kg × 12</td><td class=\"muted\">rest 3:01 taken, 2:00 planned</td></tr>"))
        #expect(page.stdout.contains("2026-11-20 · 1 h 13 min · 6,055 kg"))
        #expect(page.stdout.components(separatedBy: "<tr><td>+").count - 1 == 96)
        let both = try CLI.run(["timeline", sample, "--workout", "w51", "--html", "--json"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("give --html or --json, not both"))
        let missing = try CLI.run(["timeline", sample, "--workout", "nope"])
        #expect(missing.stderr == "journal: \(sample): no workout \"nope\" (journal history --json lists workout ids)\n")
        let streak = try CLI.run(["explain", sample, "streak", "--as-of", "2026-11-22T12:00:00-05:00"])
        #expect(streak.stdout.contains("week streak: 12 (longest 12)"))
        let deload = try CLI.run(["explain", sample, "deload", "barbell-bench-press", "--as-of", "2026-11-22T12:00:00-05:00"])
        #expect(deload.stdout.contains("w9 on 2026-09-14: 62.5 kg × 11,13,12,10,11 vs 12 reps → deloaded; target 55 kg (failure 3 of 3)"))
        let record = try CLI.run(["explain", sample, "record", "barbell-bench-press", "--json", "--as-of", "2026-11-22T12:00:00-05:00"])
        #expect(record.stdout.hasPrefix("{\"exercise\":\"barbell-bench-press\",\"records\":["))
        #expect(try CLI.run(["explain", sample, "mood"]).status == 64)
    }
}
