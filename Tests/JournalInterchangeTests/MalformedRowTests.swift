import JournalEvents
import JournalInterchange
import Testing
import TrainingDomain
import Foundation
import JournalModel

/// The malformed-row corpus: without `--strict` a file is never refused for rows it can understand. A row split by an
/// unquoted separator is joined back when exactly one way reads (or the exercise name is one of them), a row that
/// cannot be read is skipped with its line, column and value, and the rest of the file is imported
/// (INTERCHANGE.md §"Rows repaired or skipped").
@Suite struct MalformedRowTests {
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    static let fitNotesHeader = "Date,Exercise,Category,Weight (lbs),Reps,Distance,Distance Unit,Time\n"

    @Test func aFitNotesNameWithUnquotedCommasIsJoinedBackAndReported() throws {
        let text = Self.fitNotesHeader + """
        2024-03-04,Flat Barbell Bench Press,Chest,185.0,5,,,
        2024-03-04,Press, Machine, Seated,Shoulders,90.0,10,,,
        2024-03-04,6" Box Jump,Legs,0,10,,,

        """
        let parsed = try read(text)
        #expect(sets(parsed.workouts[0]) == ["Flat Barbell Bench Press 185.0lbx5 working", "Press, Machine, Seated 90.0lbx10 working",
                                             "6\" Box Jump 0.0lbx10 working"])
        #expect(parsed.workouts[0].name == "Chest & Shoulders & Legs")
        #expect(parsed.skipped == [])
        #expect(parsed.repaired.map(\.description) == [
            "line 3, column \"Exercise\": \"Press, Machine, Seated\" was split by 2 unquoted commas (the row has 10 fields for a header of 8) and is read as one cell",
            "line 4: a quote inside a cell that does not start with one (6\" Box Jump) is read as a character",
        ])
        // --strict reads the row as written and refuses the file, as before.
        do {
            _ = try read(text.replacingOccurrences(of: "2024-03-04,6\" Box Jump,Legs,0,10,,,\n", with: ""), strict: true)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "in.csv line 3, column \"Weight (lbs)\": \"Seated\" is not a number; fix the cell (e.g. 82.5) or delete the row; nothing was imported")
        }
    }

    /// The journal refuses a blank name, so a set without an exercise name is skipped in every layout (a fuzzed
    /// StrongLifts file once planned an `exercise.created` with an empty name) and the rest is recorded.
    @Test func aRowWithoutAnExerciseNameIsSkippedInEveryLayout() throws {
        let files = [
            Self.fitNotesHeader + "2024-03-04,,Chest,185.0,5,,,\n2024-03-04,Flat Barbell Bench Press,Chest,185.0,5,,,\n",
            "title,start_time,end_time,description,exercise_title,superset_id,exercise_notes,set_index,set_type,weight_kg,reps,distance_km,duration_seconds,rpe\n"
                + "Push,\"4 Mar 2024, 07:12\",\"4 Mar 2024, 08:17\",,  ,,,0,normal,80,8,,,\nPush,\"4 Mar 2024, 07:12\",\"4 Mar 2024, 08:17\",,Bench Press (Barbell),,,1,normal,80,8,,,\n",
            "Date (yyyy/mm/dd),Workout,Workout Name,Exercise,Set 1 (Reps),Set 1 (KG)\n2024/03/04,A,Workout A,,5,100\n2024/03/04,A,Workout A,Squat,5,100\n",
            "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
                + "2024-03-04 07:12:40,Push,1h,,1,80,8,0,0,,,\n2024-03-04 07:12:40,Push,1h,Bench Press (Barbell),1,80,8,0,0,,,\n",
        ]
        for text in files {
            let parsed = try read(text)
            #expect(parsed.skipped.map(\.description) == ["line 2: no exercise name"], "\(parsed.layout)")
            #expect(parsed.workouts.flatMap(\.sets).count == 1, "\(parsed.layout)")
            let events = try record(planner.plan(parsed, file: "in.csv", existing: []).drafts)
            #expect(events.filter { $0.type == "set.completed" }.count == 1, "\(parsed.layout)")
        }
    }

    @Test func aCellThatDoesNotReadSkipsItsRowWithLineColumnAndValue() throws {
        let text = strongClassic.replacingOccurrences(of: "W,40.0,10", with: "W,abc,10")
            .replacingOccurrences(of: "2024-03-06 18:00:00,\"Legs\",47m", with: "2024-03-06 18:00:00,\"Legs\",47 minutes")
        let parsed = try read(text)
        #expect(parsed.skipped.map(\.description) == [
            "line 2, column \"Weight\": \"abc\" is not a number",
            "line 7: a rest-timer row, not a set",
            "line 10, column \"Duration\": \"47 minutes\" is not a duration",
        ])
        #expect(parsed.skipped[0] == SkippedRow(line: 2, reason: "is not a number", column: "Weight", value: "abc"))
        #expect(sets(parsed.workouts[0]) == ["Bench Press (Barbell) 80.0kgx8 working", "Bench Press (Barbell) 80.0kgx0 working",
                                             "Bench Press (Barbell) 60.0kgx12 drop", "Plank 0.0kgx0 working", "Quokka Toss 12.5kgx6 failure"])
        // The workout whose only row was skipped has nothing to import.
        #expect(parsed.workouts.map(\.name) == ["Push A"])
    }

    @Test func quotingErrorsSkipTheRowAndReadingGoesOnWithTheNextLine() throws {
        let header = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps\n"
        let text = header + """
        2024-03-04 07:12:40,"Push"x,1h,"Bench",1,80,8
        2024-03-04 07:12:40,"Push",1h,"Bench",2,80,7
        2024-03-04 07:12:40,"Push",1h,"Bench,3,80,6
        2024-03-04 07:12:40,"Push",1h,"Bench",4,80,5
        2024-03-04 07:12:40,"Push",1h,"Bench,5,80,4

        """
        let parsed = try read(text)
        #expect(parsed.skipped.map(\.description) == [
            "line 2: is not valid CSV: text follows a closing quote (x,1h,\"Bench\"); the row is skipped and reading goes on with the next line",
            "line 4: is not valid CSV: text follows a closing quote (Push\",1h,\"Be); the row is skipped and reading goes on with the next line",
            "line 6: is not valid CSV: the quote opened on line 6 is never closed; the row is skipped and reading goes on with the next line",
        ])
        #expect(parsed.workouts[0].sets.map(\.reps) == [7, 5])
        #expect(parsed.workouts[0].sets.map(\.line) == [3, 5])
        #expect(parsed.rowCount == 5)
    }

    @Test func shortRowsAreReadWhenOnlyOptionalCellsAreMissingAndSkippedOtherwise() throws {
        let text = Self.fitNotesHeader + """
        2024-03-04,Flat Barbell Bench Press,Chest,185.0,5
        2024-03-04,Flat Barbell Bench Press,Chest,185.0
        2024-03-04,Flat Barbell Bench Press,Chest,185.0,3,,,,,,

        """
        let parsed = try read(text)
        #expect(sets(parsed.workouts[0]) == ["Flat Barbell Bench Press 185.0lbx5 working", "Flat Barbell Bench Press 185.0lbx3 working"])
        #expect(parsed.skipped.map(\.description) == ["line 3, column \"Reps\": is missing: the row has 4 fields, the header 8"])
        #expect(parsed.repaired.map(\.description) == [
            "line 2: has 5 fields for a header of 8: \"Distance\", \"Distance Unit\", \"Time\" read as empty",
            "line 4: has 11 fields for a header of 8: the 3 empty trailing fields dropped",
        ])
    }

    @Test func aSplitThatTwoTextCellsCouldTakeIsSkippedAsUnclear() throws {
        let text = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
            + "2024-03-04 07:12:40,Push A,1h,Bench,1,80,8,0,0,felt, good,,\n"
            + "2024-03-04 07:12:40,Push A,1h,Bench,2,80,8,0,0,,,\n"
            + "2024-03-04 07:12:40,Push A,1h,Bench,3,80,8,0,0,,,,x,y\n"
        let parsed = try read(text)
        #expect(parsed.skipped.map(\.description) == [
            "line 2: has 13 fields for a header of 12, and more than one reading reads (the 1 empty trailing field dropped; cells joined back into \"Notes\"; "
                + "cells joined back into \"Workout Notes\"): which one is meant is unclear",
            "line 4: has 14 fields for a header of 12, and no text cell joined back with its neighbours gives a row whose dates, numbers and units read",
        ])
        #expect(parsed.workouts[0].sets.map(\.line) == [3])
    }

    @Test func aWrongUnitSkipsItsRow() throws {
        let text = """
        Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes
        2019-05-02 18:30:00;"Legs";"Squat (Barbell)";1;225;lbs;5;;;;0;"";""
        2019-05-02 18:30:00;"Legs";"Squat (Barbell)";2;16;stone;5;;;;0;"";""

        """
        let parsed = try read(text)
        #expect(parsed.skipped.map(\.description) == ["line 3, column \"Weight Unit\": \"stone\" is not a weight unit"])
        #expect(sets(parsed.workouts[0]) == ["Squat (Barbell) 225.0lbx5 working"])
    }

    @Test func aByteOrderMarkCRLFAndEmptyLinesKeepTheFilesLineNumbers() throws {
        let text = "\u{FEFF}" + Self.fitNotesHeader.replacingOccurrences(of: "\n", with: "\r\n")
            + "2024-03-04,Flat Barbell Bench Press,Chest,185.0,5,,,\r\n\r\n"
            + "2024-03-04,Barbell Curl,Biceps,65.0,10,,,\r\n   \r\n"
            + "2024-03-05,Barbell Curl,Biceps,6S.0,10,,,\r\n"
        let parsed = try read(text)
        #expect(parsed.layout == .fitnotes)
        #expect(parsed.workouts.flatMap(\.sets).map(\.line) == [2, 4])
        #expect(parsed.skipped.map(\.description) == ["line 3: an empty line", "line 5: an empty line",
                                                      "line 6, column \"Weight (lbs)\": \"6S.0\" is not a number"])
        #expect(parsed.repaired == [])
    }

    /// Each data line of each layout damaged in four ways: never refused, never more than that row lost.
    @Test func everyDamagedLineCostsAtMostItsOwnRow() throws {
        let hevy = """
        "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
        "Push","4 Mar 2024, 07:12","4 Mar 2024, 08:17","","Bench Press (Barbell)",,"",0,"warmup",40,10,,,
        "Push","4 Mar 2024, 07:12","4 Mar 2024, 08:17","","Bench Press (Barbell)",,"",1,"normal",80,8,,,8
        "Push","4 Mar 2024, 07:12","4 Mar 2024, 08:17","","Plank",,"",0,"normal",,,,60,

        """
        let fitNotes = Self.fitNotesHeader + "2024-03-04,Flat Barbell Bench Press,Chest,185.0,5,,,\n2024-03-05,Treadmill,Cardio,,,3.0,mi,0:30:00\n"
        var cases = 0
        for original in [strongClassic, hevy, fitNotes] {
            let whole = try read(original).workouts.flatMap(\.sets).count
            var lines = original.components(separatedBy: "\n")
            let count = lines.count
            for index in 1..<count where !lines[index].isEmpty {
                let line = lines[index]
                let middle = line.index(line.startIndex, offsetBy: line.count / 2)
                for damaged in [line[..<middle] + "," + line[middle...], line.replacingOccurrences(of: "\"", with: ""),
                                String(line[..<middle]), "\"" + line] {
                    lines[index] = damaged
                    let parsed = try read(lines.joined(separator: "\n"))
                    #expect(parsed.workouts.flatMap(\.sets).count >= whole - 1, "\(damaged)")
                    for row in parsed.skipped + parsed.repaired { #expect(row.line >= 1 && row.line <= count, "\(row)") }
                    cases += 1
                }
                lines[index] = line
            }
        }
        #expect(cases == 56)
    }

    /// 100,000 rows of FitNotes with a damaged row every thousand: read and planned, each damaged row listed.
    @Test func aHundredThousandRowFileImportsWithItsReport() throws {
        var text = Self.fitNotesHeader
        let names = ["Flat Barbell Bench Press", "Barbell Curl", "Barbell Squat", "Deadlift", "Quokka Toss"]
        for row in 0..<100_000 {
            let day = row / 50
            let date = "\(2000 + day / 336)-" + two(day / 28 % 12 + 1) + "-" + two(day % 28 + 1)
            let name = names[row % 5]
            guard row % 1000 == 999 else { text += "\(date),\(name),Chest,\(100 + row % 10).0,5,,,\n"; continue }
            switch row / 1000 % 4 {
            case 0: text += "\(date),Press, Machine,Shoulders,90.0,10,,,\n"
            case 1: text += "\(date),\(name),Chest,abc,5,,,\n"
            case 2: text += "\n"
            default: text += "\(date),\(name),Chest,100.0\n"
            }
        }
        let parsed = try read(text)
        #expect(parsed.rowCount == 100_000)
        #expect(parsed.workouts.count == 2000)
        #expect(parsed.workouts.flatMap(\.sets).count == 99_925)
        #expect(parsed.repaired.count == 25)
        #expect(parsed.skipped.count == 75)
        #expect(parsed.skipped.filter { $0.reason == "an empty line" }.count == 25)
        #expect(parsed.skipped[0].description == "line 2001, column \"Weight (lbs)\": \"abc\" is not a number")
        let plan = planner.plan(parsed, file: "in.csv", existing: [])
        #expect(plan.summary.sets == 99_925)
        #expect(plan.summary.workouts == 2000)
        #expect(plan.summary.repaired.count == 25)
    }
}

/// A file without units (Strong's classic layout) says its unit by its plate steps (INTERCHANGE.md §"Units").
@Suite struct PlateStepTests {
    static func strong(_ weights: [Double]) -> String {
        "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
            + weights.enumerated().map { "2024-03-04 07:12:40,\"Push\",1h,\"Bench Press (Barbell)\",\($0.offset + 1),\($0.element),5,0,0,\"\",\"\"," }
                .joined(separator: "\n") + "\n"
    }

    @Test func poundStepsAreReadAsPoundsAndSaySo() throws {
        let pounds = [45.0, 95, 135, 185, 225, 135, 185, 205, 225, 245, 275, 315, 25, 30, 35, 40, 50, 60, 70, 47.5]
        let parsed = try ExportReader.read(text: Self.strong(pounds), file: "in.csv", source: .auto, defaultUnit: .kg, guessUnit: true)
        #expect(parsed.assumedUnit == .lb)
        #expect(parsed.assumedUnitReason == "from the weights: all 20 are in 2.5-lb plate steps and 95% in 5-lb steps, as a pound app writes them")
        #expect(Set(parsed.workouts.flatMap(\.sets).map(\.unit)) == [.lb])
        let summary = planner.plan(parsed, file: "in.csv", existing: []).summary
        #expect(summary.text.contains("units:          lb assumed from the weights: all 20 are in 2.5-lb plate steps and 95% in 5-lb steps, "
            + "as a pound app writes them (the file does not say; use --unit kg if the app was set to kilograms)"))
        // Without guessing (--unit given, or a journal with its own unit), the default stands.
        #expect(try ExportReader.read(text: Self.strong(pounds), file: "in.csv", source: .auto, defaultUnit: .kg).assumedUnit == .kg)
    }

    @Test func kilogramStepsFewWeightsAndMixedStepsKeepTheDefault() throws {
        let kilograms = [20.0, 40, 60, 62.5, 65, 67.5, 70, 72.5, 22, 24, 12, 14, 16, 100, 102.5, 105, 107.5, 110, 60, 60]
        for weights in [kilograms, Array(repeating: 100, count: 19), kilograms.map { $0 + 1.25 }] {
            let parsed = try ExportReader.read(text: Self.strong(weights), file: "in.csv", source: .auto, defaultUnit: .kg, guessUnit: true)
            #expect(parsed.assumedUnit == .kg)
            #expect(parsed.assumedUnitReason == nil)
        }
    }

    @Test func theRealKilogramExportStaysInKilograms() throws {
        guard let path = realStrongExport else { return }
        let parsed = try ExportReader.read(text: try String(contentsOfFile: path, encoding: .utf8), file: path, source: .auto, defaultUnit: .kg, guessUnit: true)
        #expect(parsed.assumedUnit == .kg)
        #expect(parsed.assumedUnitReason == nil)
    }
}
