import Foundation
import JournalEvents
import JournalModel
import JournalInterchange
import JournalProjections
import Testing
import TrainingDomain

/// An import keeps every name and value the app wrote, so exporting to the same app's layout gives the set
/// rows back exactly (INTERCHANGE.md §"Names given back").
@Suite struct FidelityTests {
    /// The named columns of each set row of a CSV (rest-timer rows left out), as written (a quoted cell's spaces kept),
    /// numbers compared as numbers (`75.0` = `75`), in file order.
    static func setRows(_ text: String, columns: [String]) throws -> [[String]] {
        let table = try CSVTable(text: text, file: "rows.csv")
        let positions = try columns.map { name in try #require(table.column([name]), "no column \(name) in \(table.header)") }
        return table.rows.filter { !$0.isBlank && !$0.cells.joined().lowercased().contains("rest timer") }.map { row in
            positions.map { position in
                let text = row.text(position)
                return Double(row.cell(position)).map { "\($0)" } ?? text
            }
        }
    }

    /// Imports `text` with `unit` as the file's default (`--unit`) and exports it to `app`'s layout in `unit`.
    static func importAndExport(_ text: String, app: String, unit: WeightUnit) throws -> (events: [Event], csv: String) {
        let plan = planner.plan(try read(text, unit: unit), file: "in.csv", existing: [])
        let events = try record(plan.drafts)
        let imported = ImportedRows(events)
        let csv = app == "hevy" ? Exporters.hevyCSV(analysis(events), unit: unit, imported: imported)
            : app == "fitnotes" ? Exporters.fitNotesCSV(analysis(events), unit: unit, imported: imported)
            : Exporters.strongCSV(analysis(events), unit: unit, imported: imported)
        return (events, csv)
    }

    static let strongColumns = ["Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Reps", "Distance", "Seconds",
                                "Notes", "Workout Notes", "RPE"]

    @Test func theRealStrongExportComesBackRowForRow() throws {
        guard let path = realStrongExport else {
            print("skipped: ../shared/realdata/strong-export.csv is not beside the repository")
            return
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let (_, csv) = try FidelityTests.importAndExport(text, app: "strong", unit: .kg)
        let original = try FidelityTests.setRows(text, columns: FidelityTests.strongColumns)
        let back = try FidelityTests.setRows(csv, columns: FidelityTests.strongColumns)
        #expect(original.count == 2078)
        #expect(back.count == original.count)
        for (index, (a, b)) in zip(original, back).enumerated() where a != b {
            Issue.record("row \(index + 2): \(a) came back as \(b)")
            break
        }
        #expect(back == original)
        // 72 names in, 72 out.
        #expect(Set(back.map { $0[3] }).count == 72)
    }

    /// Reading the real export gives the same events, byte for byte, whatever the reader's inner workings: the hash of
    /// the recorded lines (`journal import --unit kg --utc-offset +01:00 --device test`, then `journal cat`).
    @Test func theRealStrongExportRecordsTheSameLines() throws {
        guard let path = realStrongExport else {
            print("skipped: ../shared/realdata/strong-export.csv is not beside the repository")
            return
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let events = try record(planner.plan(try read(text, .strong, unit: .kg), file: "in.csv", existing: []).drafts)
        let lines = events.map { EventCodec.encodeString($0) + "\n" }.joined()
        #expect(events.count == 2349)
        // "Chest Dip (Assisted)" is the one custom exercise created `"assisted":true`.
        #expect(lines.utf8.count == 662_118)
        #expect(StableID.hex(StableID.fnv1a(lines)) == "4b9dce44bee742ee")
    }

    /// Old Strong: semicolons, a unit per row (kilograms and pounds in one workout), a distance unit, no duration.
    static let strongSemicolon = """
        Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes
        2019-05-02 18:30:00;"Legs";"Squat (Barbell)";W;135;lbs;5;;;;0;"";"heavy day"
        2019-05-02 18:30:00;"Legs";"Squat (Barbell)";1;225;lbs;5;8;;;0;"belt";""
        2019-05-02 18:30:00;"Legs";"Squat (Barbell)";2;225;lbs;5;8.5;;;0;"";""
        2019-05-02 18:30:00;"Legs";"Leg Press Keller";1;400;lbs;103;;;;0;"";""
        2019-05-02 18:30:00;"Legs";"Plank";1;0;lbs;0;;;;60;"";""
        2019-05-02 18:30:00;"Legs";"Plank";2;0;lbs;0;;;;45;"";""
        2019-05-04 09:00:00;"Push";"Bench Press (Barbell)";1;185;lbs;5;5;;;0;"";""
        2019-05-04 09:00:00;"Push";"Bench Press (Barbell)";D;135;lbs;8;;;;0;"";""
        2019-05-04 09:00:00;"Push";"Lateral Raise (Dumbbell)";1;20;lbs;12;;;;0;"";""
        2019-05-06 07:00:00;"Mixed";"Deadlift (Barbell)";1;140;kg;5;;;;0;"";""
        2019-05-06 07:00:00;"Mixed";"Deadlift (Barbell)";2;315;lbs;3;;;;0;"";""
        2019-05-06 07:00:00;"Mixed";"Running (Treadmill)";1;0;lbs;0;;1.5;mi;720;"";""
        """

    @Test func theSemicolonLayoutWithUnitsComesBackInItsOwnLayout() throws {
        let (events, csv) = try FidelityTests.importAndExport(FidelityTests.strongSemicolon, app: "strong", unit: .lb)
        // Every column of every row, each weight in the unit it was written in and the treadmill in miles.
        let columns = ["Date", "Workout Name", "Exercise Name", "Set Order", "Weight", "Weight Unit", "Reps", "RPE", "Distance", "Distance Unit",
                       "Seconds", "Notes", "Workout Notes"]
        #expect(csv.hasPrefix("Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes\n"))
        #expect(try FidelityTests.setRows(csv, columns: columns) == FidelityTests.setRows(FidelityTests.strongSemicolon, columns: columns))
        // The 103-rep set is there, RPE 5 too (kept as source_rpe), and the names are the file's.
        #expect(events.contains { $0.int("reps") == 103 && $0.string("source_name") == "Leg Press Keller" })
        #expect(events.filter { $0.type == "workout.started" }.map { $0.string("source_layout") } == ["strong-semicolon", "strong-semicolon", "strong-semicolon"])
        #expect(csv.contains("2019-05-02 18:30:00;\"Legs\";\"Leg Press Keller\";1;400.0;lbs;103;;;;0;\"\";\"\"\n"))
        #expect(csv.contains("2019-05-06 07:00:00;\"Mixed\";\"Deadlift (Barbell)\";1;140.0;kg;5;;;;0;\"\";\"\"\n"))
        #expect(csv.contains("2019-05-06 07:00:00;\"Mixed\";\"Running (Treadmill)\";1;0;lbs;0;;1.5;mi;720;\"\";\"\"\n"))
        // With a workout from a comma file too, one file, one layout: the classic one.
        let classic = try record(planner.plan(try read(FidelityTests.strongExact, unit: .lb), file: "in.csv", existing: events).drafts, onto: events)
        #expect(Exporters.strongCSV(analysis(classic), unit: .lb, imported: ImportedRows(classic)).hasPrefix("Date,Workout Name,Duration,"))
    }

    /// Strong 6.x's layout: every cell quoted, `;`, `Workout #`, `Duration (sec)`, the unit in the weight header,
    /// `Distance (meters)`.
    static let strong6 = """
        "Workout #";"Date";"Workout Name";"Duration (sec)";"Exercise Name";"Set Order";"Weight (kg)";"Reps";"RPE";"Distance (meters)";"Seconds";"Notes";"Workout Notes"
        "1";"2024-03-04 07:12:40";"Push A";"3900";"Bench Press (Barbell)";"W";"40.0";"10";"";"0";"0";"";"felt strong"
        "1";"2024-03-04 07:12:40";"Push A";"3900";"Bench Press (Barbell)";"1";"80.0";"8";"8.5";"0";"0";"belt";""
        "1";"2024-03-04 07:12:40";"Push A";"3900";"Pull Up (Assisted)";"1";"20.0";"8";"";"0";"0";"";""
        "1";"2024-03-04 07:12:40";"Push A";"3900";"Leg Press Keller";"1";"180.0";"12";"";"0";"0";"";""
        "2";"2024-03-06 18:00:00";"Run";"1500";"Running (Treadmill)";"1";"0";"0";"";"5000";"1500";"easy pace";""

        """

    @Test func aStrong6ExportComesBackInItsOwnLayout() throws {
        let (events, csv) = try FidelityTests.importAndExport(FidelityTests.strong6, app: "strong", unit: .kg)
        let columns = ["Workout #", "Date", "Workout Name", "Duration (sec)", "Exercise Name", "Set Order", "Weight (kg)", "Reps", "RPE",
                       "Distance (meters)", "Seconds", "Notes", "Workout Notes"]
        let back = try FidelityTests.setRows(csv, columns: columns)
        let original = try FidelityTests.setRows(FidelityTests.strong6, columns: columns)
        for (a, b) in zip(original, back) where a != b { Issue.record("\(a) came back as \(b)") }
        #expect(back == original)
        #expect(csv.hasPrefix(#""Workout #";"Date";"Workout Name";"Duration (sec)";"Exercise Name";"Set Order";"Weight (kg)";"Reps";"RPE";"Distance (meters)";"Seconds";"Notes";"Workout Notes""# + "\n"))
        #expect(csv.contains(#""2";"2024-03-06 18:00:00";"Run";"1500";"Running (Treadmill)";"1";"0";"0";"";"5000";"1500";"easy pace";"""#))
        #expect(events.filter { $0.type == "workout.started" }.map { $0.string("source_layout") } == ["strong-6", "strong-6"])
        // A journal with workouts from a classic file too is exported in the classic layout (one file, one layout).
        let classic = try FidelityTests.importAndExport(FidelityTests.strongExact, app: "strong", unit: .kg)
        #expect(ImportedRows(events + classic.events).layout(of: "strong") == nil)
        #expect(ImportedRows(events).layout(of: "strong") == "strong-6")
    }

    /// A Hevy export as the app writes it: newest first, set_index from 0, descriptions and exercise notes on every row,
    /// timed rows without weight and reps.
    static let hevy = """
        "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
        "Pull","7 Apr 2026, 18:14","7 Apr 2026, 19:20","","Lat Pulldown (Machine)",3,"",0,"warmup",30,12,,,
        "Pull","7 Apr 2026, 18:14","7 Apr 2026, 19:20","","Lat Pulldown (Machine)",3,"",1,"normal",55,10,,,8
        "Pull","7 Apr 2026, 18:14","7 Apr 2026, 19:20","","Bicep Curl (Dumbbell)",3,"slow negatives",0,"normal",14,12,,,
        "Pull","7 Apr 2026, 18:14","7 Apr 2026, 19:20","","Bicep Curl (Dumbbell)",3,"slow negatives",1,"failure",14,9,,,10
        "Pull","7 Apr 2026, 18:14","7 Apr 2026, 19:20","","Lying Neck Curls (Weighted)",,"",0,"normal",5,20,,,
        "Push","4 Mar 2024, 07:12","4 Mar 2024, 08:17","felt strong","Bench Press (Barbell)",,"",0,"warmup",40,10,,,
        "Push","4 Mar 2024, 07:12","4 Mar 2024, 08:17","felt strong","Bench Press (Barbell)",,"",1,"normal",80,8,,,8.5
        "Push","4 Mar 2024, 07:12","4 Mar 2024, 08:17","felt strong","Bench Press (Barbell)",,"",2,"dropset",60,12,,,
        "Push","4 Mar 2024, 07:12","4 Mar 2024, 08:17","felt strong","Crunch",,"",0,"normal",0,103,,,
        "Push","4 Mar 2024, 07:12","4 Mar 2024, 08:17","felt strong","Plank",,"",0,"normal",,,,60,
        "Push","4 Mar 2024, 07:12","4 Mar 2024, 08:17","felt strong","Plank",,"",1,"normal",,,,45,
        """

    @Test func aHevyExportComesBackRowForRow() throws {
        let (events, csv) = try FidelityTests.importAndExport(FidelityTests.hevy, app: "hevy", unit: .kg)
        let columns = ["title", "start_time", "end_time", "description", "exercise_title", "superset_id", "exercise_notes", "set_index",
                       "set_type", "weight_kg", "reps", "distance_km", "duration_seconds", "rpe"]
        let back = try FidelityTests.setRows(csv, columns: columns)
        let original = try FidelityTests.setRows(FidelityTests.hevy, columns: columns)
        for (a, b) in zip(original, back) where a != b { Issue.record("\(a) came back as \(b)") }
        #expect(back == original)
        // The names the strict matcher could not be sure of are custom exercises, given back by name too.
        #expect(events.filter { $0.type == "exercise.created" }.map { $0.string("name")! } == ["Lat Pulldown (Machine)", "Lying Neck Curls (Weighted)"])
        // superset_id 3 is a superset of the workout, and comes back as 3.
        let link = try #require(events.first { $0.type == "superset.linked" })
        #expect(link.string("group") == "hevy-" + "\(link.string("workout")!.dropFirst(5))-superset-3")
        #expect(link.array("exercises")?.compactMap(\.stringValue) == ["custom-lat-pulldown-machine", "dumbbell-curl"])
    }

    /// Strong's classic layout: names and notes keep their spaces, a workout under a minute its seconds, a timed row its
    /// note, and a distance read in miles (pounds: `--unit lb`) is written back in miles.
    static let strongExact = """
        Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
        2024-03-04 07:12:40,"Push A",45s,"Bench Press (Barbell) ",1,185.0,8,0,0,"felt heavy  ","",
        2024-03-04 07:12:40,"Push A",45s,"Bench Press (Barbell) ",2,185.0,6,0,0," paused","",
        2024-03-05 07:00:00,"Run",20m,"Running (Treadmill)",1,0,0,1.0,1200,"incline 2","",

        """

    @Test func strongNamesNotesShortWorkoutsAndMilesComeBackAsWritten() throws {
        let (events, csv) = try FidelityTests.importAndExport(FidelityTests.strongExact, app: "strong", unit: .lb)
        #expect(try FidelityTests.setRows(csv, columns: FidelityTests.strongColumns) == FidelityTests.setRows(FidelityTests.strongExact, columns: FidelityTests.strongColumns))
        #expect(csv.contains("2024-03-04 07:12:40,\"Push A\",45s,\"Bench Press (Barbell) \",1,185.0,8,0,0,\"felt heavy  \",\"\","))
        #expect(csv.contains(",\"Running (Treadmill)\",1,0,0,1,1200,\"incline 2\","))
        #expect(events.first { $0.type == "cardio.logged" }?.double("km") == 1.609344)
        #expect(events.first { $0.type == "set.completed" }?.string("source_name") == "Bench Press (Barbell) ")
    }

    /// FitNotes' published layout: dates only, a category per row, names with spaces and commas, cardio in miles and
    /// metres with times, comments on weighted and timed rows (a workout's timed rows after its sets, as the journal
    /// records cardio entries after the sets).
    static let fitNotes = """
        Date,Exercise,Category,Weight (lbs),Reps,Distance,Distance Unit,Time,Comment
        2024-03-04,Flat Barbell Bench Press,Chest,185.0,5,,,,
        2024-03-04,Flat Barbell Bench Press,Chest,185.0,4,,,,"grindy, last rep"
        2024-03-04,"Press, Machine ",Shoulders,90.0,10,,,,
        2024-03-04,Barbell Curl,Biceps,65.0,10,,,,
        2024-03-05,Quokka Toss,Custom Things,12.5,6,,,,
        2024-03-05,Treadmill,Cardio,,,3.0,mi,0:30:00,incline 2
        2024-03-05,Rowing Machine,Cardio,,,5000,m,0:21:05,

        """

    @Test func aFitNotesExportComesBackRowForRow() throws {
        let (events, csv) = try FidelityTests.importAndExport(FidelityTests.fitNotes, app: "fitnotes", unit: .lb)
        let columns = ["Date", "Exercise", "Category", "Weight (lbs)", "Reps", "Distance", "Distance Unit", "Time", "Comment"]
        let back = try FidelityTests.setRows(csv, columns: columns)
        let original = try FidelityTests.setRows(FidelityTests.fitNotes, columns: columns)
        for (a, b) in zip(original, back) where a != b { Issue.record("\(a) came back as \(b)") }
        #expect(back == original)
        #expect(events.filter { $0.type == "cardio.logged" }.count == 2)
        // Read back, the export is the same workouts.
        let again = try read(csv, .fitnotes)
        #expect(again.workouts.map(\.name) == ["Chest & Shoulders & Biceps", "Custom Things & Cardio"])
    }

    @Test func anotherAppsLayoutUsesThatAppsNamesForCatalogueExercises() throws {
        let (events, _) = try FidelityTests.importAndExport(FidelityTests.hevy, app: "hevy", unit: .kg)
        let strong = Exporters.strongCSV(analysis(events), unit: .kg, imported: ImportedRows(events))
        let names = Set(try FidelityTests.setRows(strong, columns: ["Exercise Name"]).map { $0[0] })
        // Catalogue exercises by Strong's convention, custom ones by their own name.
        #expect(names == ["Lat Pulldown (Machine)", "Biceps Curl (Dumbbell)", "Lying Neck Curls (Weighted)", "Bench Press (Barbell)", "Crunch", "Plank"])
    }
}
