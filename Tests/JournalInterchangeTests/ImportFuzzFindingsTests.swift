import JournalEvents
import JournalInterchange
import Testing

/// Inputs the importer fuzz target (Fuzz/ImporterFuzz.swift) turned up, and the traps next to them: each is refused
/// with the file, line, column and cell instead of crashing `journal import` or planning an event the journal refuses.
@Suite struct ImportFuzzFindingsTests {
    static let header = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"

    func error(_ text: String, _ source: ExportReader.Source = .auto) -> InterchangeError? {
        do {
            _ = try read(text, source, strict: true)
            return nil
        } catch {
            return error
        }
    }

    /// Found by the fuzz target: a five-digit year was read, and every planned event then failed the journal's
    /// RFC 3339 check, so the import was refused as a whole without naming the cell.
    @Test func aFiveDigitYearIsNotADate() {
        let text = Self.header + "22020-01-12 16:31:00,\"Freitag\",1h,\"Bench Press (Barbell)\",1,75.0,8,0,0,\"\",\"\",\n"
        let error = error(text)
        #expect(error?.description == "in.csv line 2, column \"Date\": \"22020-01-12 16:31:00\" is not a date this importer reads; "
            + "dates like 2024-03-04 07:12:40, 2024/03/04 or 4 Mar 2024, 07:12 are read; fix the cell; nothing was imported")
    }

    @Test func secondsPastFiftyNineAreNotATime() {
        let text = Self.header + "2021-02-10 16:46:9223372036854775807,\"Mittwoch\",1h,\"Bench Press (Barbell)\",1,75.0,8,0,0,\"\",\"\",\n"
        #expect(error(text)?.column == "Date")
        #expect(error(text)?.line == 2)
    }

    @Test func aDurationOfNaNOrMoreThan31DaysIsRefused() throws {
        for duration in ["nan", "inf", "-5", "1e300", "745h", "99999999999999999999h", "1:99999999999999999:00"] {
            let text = Self.header + "2021-02-10 16:46:13,\"Mittwoch\",\(duration),\"Bench Press (Barbell)\",1,75.0,8,0,0,\"\",\"\",\n"
            let error = error(text)
            #expect(error?.line == 2, "\(duration)")
            #expect(error?.column == "Duration", "\(duration)")
            #expect(error?.problem == "is not a duration", "\(duration)")
        }
        let text = Self.header + "2021-02-10 16:46:13,\"Mittwoch\",744h,\"Bench Press (Barbell)\",1,75.0,8,0,0,\"\",\"\",\n"
        #expect(try read(text).workouts.map(\.durationSeconds) == [744 * 3600])
    }

    @Test func hugeNumbersAreRefusedWithTheirCell() {
        let text = Self.header + "2021-02-10 16:46:13,\"Mittwoch\",1h,\"Bench Press (Barbell)\",1,75.0,1e19,0,0,\"\",\"\",\n"
        #expect(error(text)?.description == "in.csv line 2, column \"Reps\": \"1e19\" is not a number this importer reads (above a billion); "
            + "fix the cell or delete the row; nothing was imported")
    }

    @Test func aDurationInSecondsOrHoursBeyond31DaysIsRefused() {
        let strong6 = """
        "Workout #";"Date";"Workout Name";"Duration (sec)";"Exercise Name";"Set Order";"Weight (kg)";"Reps";"RPE";"Distance (meters)";"Seconds";"Notes";"Workout Notes"
        "1";"2023-01-05 09:00:00";"Pull";"999999999";"Deadlift (Barbell)";"1";"140";"5";"";"";"";"";""

        """
        #expect(error(strong6)?.description == "in.csv line 2, column \"Duration (sec)\": \"999999999\" is not a duration from 0 to 31 days; "
            + "fix the cell or empty it; nothing was imported")
        let stronglifts = """
        Date (yyyy/mm/dd),Workout Name,Exercise,Duration (hours),Set 1 (Reps),Set 1 (KG)
        2024/03/04,Workout A,Squat,-2,5,100

        """
        #expect(error(stronglifts)?.column == "Duration (hours)")
        #expect(error(stronglifts)?.line == 2)
    }

    /// Found by the fuzz target: a custom exercise name longer than 200 bytes whose 200th byte falls inside a
    /// character was kept whole, so `exercise.created` was refused and with it the whole import.
    @Test func aLongNonASCIIExerciseNameIsCutAtACharacter() throws {
        let name = "a" + String(repeating: "é", count: 150)
        let text = "Date,Exercise,Category,Weight (kg),Reps\n2024-03-04,\(name),Chest,80,5\n"
        let plan = planner.plan(try read(text), file: "in.csv", existing: [])
        let created = plan.drafts.first { $0.type == .exerciseCreated }?.fields
        #expect(created?["name"]?.stringValue == "a" + String(repeating: "é", count: 99))
        #expect(try record(plan.drafts).map(\.type) == ["exercise.created", "workout.started", "set.completed", "workout.finished"])
    }

    /// Found by the fuzz target: negative reps were read into a set (a negative weight is read as help instead).
    @Test func negativeRepsSkipTheRowWithTheReason() throws {
        let text = "Date,Exercise,Category,Weight (lbs),Reps\n2024-03-04,Flat Barbell Bench Press,Chest,185.0,5\n2024-03-04,Flat Barbell Bench Press,Chest,185.0,-04\n"
        let parsed = try read(text)
        #expect(parsed.skipped == [SkippedRow(line: 3, reason: "negative reps -4: the journal records reps from 0")])
        #expect(sets(parsed.workouts[0]) == ["Flat Barbell Bench Press 185.0lbx5 working"])
    }
}
