import JournalEvents
import JournalInterchange
import JournalProjections
import Testing
import TrainingDomain
import Foundation
import JournalModel

let strongClassic = """
Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
2024-03-04 07:12:40,"Push A",1h 5m,"Bench Press (Barbell)",W,40.0,10,0,0,"","",
2024-03-04 07:12:40,"Push A",1h 5m,"Bench Press (Barbell)",1,80.0,8,0,0,"felt
heavy","Good day",8.5
2024-03-04 07:12:40,"Push A",1h 5m,"Bench Press (Barbell)",2,80.0,0,0,0,"","",
2024-03-04 07:12:40,"Push A",1h 5m,"Bench Press (Barbell)",D,60.0,12,0,0,"","",
2024-03-04 07:12:40,"Push A",1h 5m,"Rest Timer",Rest Timer,0,0,0,90,"","",
2024-03-04 07:12:40,"Push A",1h 5m,"Plank",1,0,0,0,60,"","",
2024-03-04 07:12:40,"Push A",1h 5m,"Quokka Toss",F,12.5,6,0,0,"","",
2024-03-06 18:00:00,"Legs",47m,"Squat (Barbell)",1,100,5,0,0,"","",

"""

@Suite struct ImportLayoutTests {
    @Test func strongClassicReadsWarmupDropFailureTimedRowsAndMultiLineNotes() throws {
        let parsed = try read(strongClassic)
        #expect(parsed.layout == .strongClassic)
        #expect(parsed.rowCount == 8)
        #expect(parsed.workouts.map(\.name) == ["Push A", "Legs"])
        let push = parsed.workouts[0]
        #expect(push.start.description == "2024-03-04 07:12:40")
        #expect(push.durationSeconds == 3900)
        #expect(push.notes == ["Good day"])
        #expect(sets(push) == ["Bench Press (Barbell) 40.0kgx10 warmup", "Bench Press (Barbell) 80.0kgx8 working",
                               "Bench Press (Barbell) 80.0kgx0 working", "Bench Press (Barbell) 60.0kgx12 drop", "Plank 0.0kgx0 working", "Quokka Toss 12.5kgx6 failure"])
        #expect(push.sets[1].note == "felt\nheavy")
        #expect(push.sets[1].rpe == 8.5)
        #expect(push.sets[1].line == 3)
        #expect(push.sets[4].seconds == 60)
        #expect(parsed.workouts[1].durationSeconds == 47 * 60)
        #expect(parsed.skipped == [SkippedRow(line: 7, reason: "a rest-timer row, not a set")])
    }

    @Test func strongSemicolonKeepsEachRowsUnitAndReadsDecimalCommas() throws {
        let text = """
        Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes
        2019-05-02 18:30:00;"Legs";"Squat (Barbell)";1;225;lbs;5;;;;0;"";""
        2019-05-02 18:30:00;"Legs";"Squat (Barbell)";2;102,5;kg;5;;;;0;"";""
        2019-05-02 18:30:00;"Legs";"Squat (Barbell)";3;100;;5;;;;0;"";""
        """
        let parsed = try read(text, .strong, unit: .lb)
        #expect(parsed.layout == .strongSemicolon)
        #expect(sets(parsed.workouts[0]) == ["Squat (Barbell) 225.0lbx5 working", "Squat (Barbell) 102.5kgx5 working", "Squat (Barbell) 100.0lbx5 working"])
        #expect(parsed.workouts[0].durationSeconds == nil)
        #expect(parsed.assumedUnit == .lb)
    }

    @Test func strong6ReadsUnitsFromHeadersSetsFromZeroAndMetres() throws {
        let text = """
        "Workout #";"Date";"Workout Name";"Duration (sec)";"Exercise Name";"Set Order";"Weight (kg)";"Reps";"RPE";"Distance (meters)";"Seconds";"Notes";"Workout Notes"
        "1";"2023-01-05 09:00:00";"Pull";"3600";"Deadlift (Barbell)";"0";"140";"5";"";"";"";"";""
        "1";"2023-01-05 09:00:00";"Pull";"3600";"Deadlift (Barbell)";"1";"150";"3";"";"";"";"";""
        "1";"2023-01-05 09:00:00";"Pull";"3600";"Rowing (Machine)";"1";"0";"0";"";"2000";"480";"";""
        """
        let parsed = try read(text)
        #expect(parsed.layout == .strong6)
        #expect(parsed.assumedUnit == nil)
        #expect(parsed.workouts[0].durationSeconds == 3600)
        #expect(sets(parsed.workouts[0]) == ["Deadlift (Barbell) 140.0kgx5 working", "Deadlift (Barbell) 150.0kgx3 working", "Rowing (Machine) 0.0kgx0 working"])
        #expect(parsed.workouts[0].sets[2].kilometres == 2)
        let plan = planner.plan(parsed, file: "in.csv", existing: [])
        let completed = plan.drafts.filter { $0.type == .setCompleted }
        #expect(completed.map { $0.fields["set"]?.intValue } == [1, 2])
        let cardio = plan.drafts.first { $0.type == .cardioLogged }?.fields
        #expect(cardio?["minutes"] == 8)
        #expect(cardio?["km"] == 2)
    }

    @Test func hevyReadsLocaleDatesNewestFirstSetTypesAndMultiLineNotes() throws {
        let text = """
        "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
        "Push","7 Apr 2026, 10:14","7 Apr 2026, 11:02","","Bench Press (Barbell)",,"",0,"warmup",40,10,,,
        "Push","7 Apr 2026, 10:14","7 Apr 2026, 11:02","","Bench Press (Barbell)",,"",1,"normal",80,8,,,9
        "Séance","3 févr. 2026, 18:00","3 févr. 2026, 19:00","Bonne
        séance","Squat (Barbell)",,"genou
        ok",0,"dropset",100,5,,,
        """
        let parsed = try read(text)
        #expect(parsed.layout == .hevy)
        #expect(parsed.workouts.map(\.name) == ["Séance", "Push"])
        #expect(parsed.workouts.map(\.start.description) == ["2026-02-03 18:00:00", "2026-04-07 10:14:00"])
        #expect(parsed.workouts.map(\.durationSeconds) == [3600, 2880])
        #expect(parsed.workouts[0].notes == ["Bonne\nséance"])
        #expect(parsed.workouts[0].exerciseNotes.map(\.note) == ["genou\nok"])
        #expect(sets(parsed.workouts[0]) == ["Squat (Barbell) 100.0kgx5 drop"])
        #expect(sets(parsed.workouts[1]) == ["Bench Press (Barbell) 40.0kgx10 warmup", "Bench Press (Barbell) 80.0kgx8 working"])
        #expect(parsed.workouts[1].sets[1].rpe == 9)
        #expect(parsed.workouts[0].sets[0].line == 4)
    }

    @Test func fitNotesMakesOneWorkoutPerDayNamedByCategories() throws {
        let text = """
        Date,Exercise,Category,Weight (lbs),Reps,Distance,Distance Unit,Time
        2024-03-04,Flat Barbell Bench Press,Chest,185.0,5,,,
        2024-03-04,Flat Barbell Bench Press,Chest,185.0,5,,,
        2024-03-04,Barbell Curl,Biceps,65.0,10,,,
        2024-03-05,Treadmill,Cardio,,,3.0,mi,0:30:00
        """
        let parsed = try read(text, .fitnotes)
        #expect(parsed.layout == .fitnotes)
        #expect(parsed.workouts.map(\.name) == ["Chest & Biceps", "Cardio"])
        #expect(parsed.workouts[0].start.description == "2024-03-04 12:00:00")
        #expect(sets(parsed.workouts[0]) == ["Flat Barbell Bench Press 185.0lbx5 working", "Flat Barbell Bench Press 185.0lbx5 working", "Barbell Curl 65.0lbx10 working"])
        #expect(parsed.workouts[1].sets[0].seconds == 1800)
        #expect(abs((parsed.workouts[1].sets[0].kilometres ?? 0) - 4.828032) < 1e-9)
    }

    @Test func theSummarySaysWhichOffsetAndTimeOfDayWereAssumed() throws {
        let fitnotes = """
        Date,Exercise,Category,Weight (lbs),Reps,Distance,Distance Unit,Time
        2024-03-04,Flat Barbell Bench Press,Chest,185.0,5,,,
        """
        var plan = planner.plan(try read(fitnotes, .fitnotes), file: "in.csv", existing: [])
        #expect(plan.summary.assumedTime == "12:00")
        plan.summary.offsetOrigin = "the offset of the journal's last event"
        #expect(plan.summary.text.contains(
            "\ntimes:          wall clock at UTC+01:00 (the offset of the journal's last event; --utc-offset chooses another); the file has dates only, so each workout starts at 12:00\n"))
        #expect(plan.summary.jsonValue.objectValue?["utc_offset"] == .string("+01:00"))
        #expect(plan.summary.jsonValue.objectValue?["assumed_time"] == .string("12:00"))
        #expect(plan.drafts.first { $0.type == .workoutStarted }?.fields["started_at"] == .string("2024-03-04T12:00:00.000+01:00"))
        let hevy = """
        "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
        "Push","4 Mar 2024, 07:12","4 Mar 2024, 08:17","","Bench Press (Barbell)",,"",0,"normal",80,8,,,
        """
        let eastern = ImportPlanner(matcher: NameMatcher(catalogue: .builtIn), offsetSeconds: -18_000).plan(try read(hevy), file: "in.csv", existing: [])
        #expect(eastern.summary.assumedTime == nil)
        #expect(eastern.summary.text.contains("\ntimes:          wall clock at UTC-05:00\n"))
        #expect(eastern.drafts.first { $0.type == .workoutStarted }?.fields["started_at"] == .string("2024-03-04T07:12:00.000-05:00"))
    }

    @Test func strongLiftsTurnsSetColumnPairsIntoSets() throws {
        let text = """
        Date (yyyy/mm/dd),Workout,Workout Name,Program Name,Body Weight (KG),Exercise,Sets×Reps,Sets×Time,Top Set (Reps×KG),e1RM (KG),Reps,Volume (KG),Workout Volume (KG),Duration (hours),Start Time (h:mm),End Time (h:mm),Notes,Set 1 (Reps),Set 1 (KG),Set 2 (Reps),Set 2 (KG),Set 3 (Reps),Set 3 (KG)
        2024/03/04,A,Workout A,StrongLifts 5x5,80,Squat,3×5,,5×100,116.7,15,1500,1500,0.75,7:00,7:45,,5,100,5,100,5,100
        2024/03/04,A,Workout A,StrongLifts 5x5,80,Bench Press,3×5,,5×60,70,13,780,1500,0.75,7:00,7:45,,5,60,5,60,3,60
        """
        let parsed = try read(text)
        #expect(parsed.layout == .stronglifts)
        #expect(parsed.workouts.count == 1)
        #expect(parsed.workouts[0].name == "Workout A")
        #expect(parsed.workouts[0].start.description == "2024-03-04 07:00:00")
        #expect(parsed.workouts[0].durationSeconds == 2700)
        #expect(sets(parsed.workouts[0]) == ["Squat 100.0kgx5 working", "Squat 100.0kgx5 working", "Squat 100.0kgx5 working",
                                             "Bench Press 60.0kgx5 working", "Bench Press 60.0kgx5 working", "Bench Press 60.0kgx3 working"])
    }
}

@Suite struct ImportVariantTests {
    @Test func translatedStrongHeadersAreRead() throws {
        let text = """
        Datum,Trainingsname,Dauer,Übungsname,Satzreihenfolge,Gewicht,Wiederholungen,Entfernung,Sekunden,Notizen,Trainingsnotizen,RPE
        2021-02-10 16:46:13,"Mittwoch",2h,"Bench Press (Barbell)",1,75.0,8,0,0,"","",
        """
        let parsed = try read(text)
        #expect(parsed.layout == .strongClassic)
        #expect(parsed.workouts[0].durationSeconds == 7200)
        #expect(sets(parsed.workouts[0]) == ["Bench Press (Barbell) 75.0kgx8 working"])
    }

    @Test func fitNotes2ReadsBothWeightColumnsNotesAndKind() throws {
        let text = """
        Date,Exercise,Category,Weight (kg),Weight (lbs),Reps,Distance,Distance Unit,Time,Notes,Kind
        2024-03-04,Squat,Legs,60.0,132.28,5,,,,"easy",warmup
        2024-03-04,Squat,Legs,100.0,220.46,5,,,,"",
        """
        let parsed = try read(text)
        #expect(parsed.layout == .fitnotes)
        #expect(sets(parsed.workouts[0]) == ["Squat 60.0kgx5 warmup", "Squat 100.0kgx5 working"])
        #expect(parsed.workouts[0].sets[0].note == "easy")
    }

    @Test func hevyInPoundsWithUSDates() throws {
        let text = """
        "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_lbs","reps","distance_miles","duration_seconds","rpe"
        "Legs","Apr 7, 2026, 6:14 PM","Apr 7, 2026, 7:02 PM","","Squat (Barbell)",,"",0,"normal",225,5,,,
        """
        let parsed = try read(text)
        #expect(parsed.workouts[0].start.description == "2026-04-07 18:14:00")
        #expect(sets(parsed.workouts[0]) == ["Squat (Barbell) 225.0lbx5 working"])
    }

    static let beyondManualEntry = """
        Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
        2024-03-04 07:12:40,"Legs",1h,"Leg Press",1,600,10,0,0,"","",
        2024-03-04 07:12:40,"Legs",1h,"Leg Press",2,300,10,0,0,"","",5
        2024-03-04 07:12:40,"Legs",1h,"Crunch",1,0,103,0,0,"","",
        2024-03-04 07:12:40,"Legs",1h,"Leg Press",3,2500,10,0,0,"","",
        2024-03-04 07:12:40,"Legs",1h,"Crunch",2,0,877777,0,0,"","",
        """

    @Test func rowsBeyondManualEntryImportAndOnlyImpossibleOnesAreSkippedWithTheReason() throws {
        let plan = planner.plan(try read(ImportVariantTests.beyondManualEntry), file: "in.csv", existing: [])
        #expect(plan.summary.skipped == [
            SkippedRow(line: 5, reason: "weight 2500 kg is above the sanity limit of 2000 kg for imported sets (no lifter lifted that: a damaged cell?); fix the cell, or pass --keep-out-of-range to keep it"),
            SkippedRow(line: 6, reason: "877777 reps is above the sanity limit of 10000 for imported sets (no lifter did that in one set: a damaged cell?); fix the cell, or pass --keep-out-of-range to keep it"),
        ])
        #expect(plan.summary.warnings == [SkippedRow(line: 3, reason: "RPE 5 kept as source_rpe only (the journal's rpe is 6–10 in steps of 0.5)")])
        #expect(plan.summary.sets == 3)
        // The recording rules take the sanity limits for imported sets: the 600 kg and 103-rep sets are recorded as they were.
        let events = try record(plan.drafts)
        let sets = events.filter { $0.type == "set.completed" }
        #expect(sets.map { "\($0.double("weight")!)x\($0.int("reps")!)" } == ["600.0x10", "300.0x10", "0.0x103"])
        #expect(sets[1]["source_rpe"] == .number(5))
        #expect(sets.allSatisfy { $0.string("source") == "strong" })
    }

    @Test func keepOutOfRangeKeepsEvenImpossibleRowsMarkedAsSuch() throws {
        let keeping = ImportPlanner(matcher: NameMatcher(catalogue: .builtIn), offsetSeconds: 3600, keepOutOfRange: true)
        let plan = keeping.plan(try read(ImportVariantTests.beyondManualEntry), file: "in.csv", existing: [])
        #expect(plan.summary.skipped.isEmpty)
        #expect(plan.summary.sets == 5)
        let events = try record(plan.drafts)
        let kept = events.filter { $0["out_of_range"] == .bool(true) }
        #expect(kept.map { "\($0.double("weight")!)x\($0.int("reps")!)" } == ["2500.0x10", "0.0x877777"])
        #expect(plan.summary.warnings.map(\.line) == [3, 5, 6])
    }

    @Test func manualEntryKeepsItsLimits() {
        let at = Timestamp(rfc3339: "2026-01-01T10:00:00.000+01:00")!
        let typed = Event(seq: 1, id: "ph-1", at: at, type: "set.completed", fields: [
            "workout": "w1", "exercise": "leg-press", "set": 1, "weight": 600, "unit": "kg", "reps": 10, "kind": "working"])
        #expect(SchemaValidator.validate(typed)?.description == #"set.completed: field "weight" is 600 but must be at most 500 when unit is "kg""#)
        var imported = typed
        imported.fields["source"] = "strong"
        #expect(SchemaValidator.validate(imported) == nil)
        imported.fields["weight"] = 2001
        #expect(SchemaValidator.validate(imported)?.description
            == #"set.completed: field "weight" is 2001 but must be at most 2000 when unit is "kg" (the sanity limit of imported sets)"#)
    }
}

/// `--strict`: the first row that cannot be read as written refuses the file (MalformedRowTests: without it).
@Suite struct ImportErrorTests {
    @Test func anUnknownHeaderNamesTheFileLineAndWhatToDo() {
        #expect(throws: InterchangeError(file: "in.csv", line: 1, column: nil, value: "Foo,Bar",
                                         problem: "is not a header of Strong, Hevy, FitNotes or StrongLifts",
                                         advice: "pass --from with the app that wrote the file, or check INTERCHANGE.md for the layouts read")) {
            try read("Foo,Bar\n1,2\n")
        }
    }

    @Test func aBadNumberNamesLineColumnAndValue() {
        let text = strongClassic.replacingOccurrences(of: "W,40.0,10", with: "W,abc,10")
        do {
            _ = try read(text, strict: true)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "in.csv line 2, column \"Weight\": \"abc\" is not a number; fix the cell (e.g. 82.5) or delete the row; nothing was imported")
        }
    }

    @Test func theWrongAppIsNamed() {
        do {
            _ = try read(strongClassic, .hevy)
            Issue.record("expected an error")
        } catch {
            #expect(error.problem == "is not a hevy header (it looks like strong)")
            #expect(error.advice == "use --from strong or --from auto")
        }
    }

    @Test func anUnclosedQuoteIsReportedWithItsLine() {
        let text = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps\n2024-03-04 07:12:40,\"Push\"x,1h,\"Bench\",1,80,8\n"
        do {
            _ = try read(text, strict: true)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 2)
        }
    }

    @Test func aBadDateIsReportedWithItsColumn() {
        let text = strongClassic.replacingOccurrences(of: "2024-03-06 18:00:00", with: "next tuesday")
        do {
            _ = try read(text, strict: true)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 10)
            #expect(error.column == "Date")
            #expect(error.value == "next tuesday")
        }
    }
}

@Suite struct ImportPlanTests {
    @Test func aWorkoutBecomesTheEventsTheAppWouldHaveRecorded() throws {
        let plan = planner.plan(try read(strongClassic), file: "in.csv", existing: [])
        let types = plan.drafts.map(\.type.name)
        #expect(types == ["exercise.created", "workout.started", "workout.noted", "set.completed", "set.completed", "set.completed",
                          "set.completed", "set.completed", "cardio.logged", "workout.finished", "workout.started", "set.completed", "workout.finished"])
        let started = plan.drafts[1].fields
        #expect(started["started_at"] == "2024-03-04T07:12:40.000+01:00")
        #expect(started["source"] == "strong")
        #expect(started["session"] == .null)
        #expect(plan.drafts[9].fields["finished_at"] == "2024-03-04T08:17:40.000+01:00")
        #expect(plan.drafts[0].fields["exercise"] == "custom-quokka-toss")
        #expect(plan.drafts[3].at.rfc3339 == "2024-03-04T07:12:40.000+01:00")
        #expect(plan.summary.workouts == 2)
        #expect(plan.summary.sets == 6)
        #expect(plan.summary.cardioEntries == 1)
        #expect(plan.summary.matched.map(\.exercise) == ["barbell-bench-press", "plank", "barbell-back-squat"])
        #expect(plan.summary.unmatched.map(\.exercise) == ["custom-quokka-toss"])
        #expect(plan.summary.firstDate?.description == "2024-03-04")
        #expect(plan.summary.lastDate?.description == "2024-03-06")
        #expect(plan.summary.skipped.map(\.line) == [7])
        let events = try record(plan.drafts)
        #expect(analysis(events).finished.count == 2)
    }

    @Test func aPlansTypedDraftsRecordAsTheirJSONValuesDo() throws {
        let plan = planner.plan(try read(strongClassic), file: "in.csv", existing: [])
        #expect(try record(plan.drafts) == record(plan.drafts.map(\.jsonValue)))
    }

    @Test func importingTheSameFileTwiceAddsNothing() throws {
        let parsed = try read(strongClassic)
        let events = try record(planner.plan(parsed, file: "in.csv", existing: []).drafts)
        let again = planner.plan(parsed, file: "in.csv", existing: events)
        #expect(again.drafts.isEmpty)
        #expect(again.summary.alreadyPresent == 2)
        #expect(again.summary.workouts == 0)
    }

    @Test func twoWorkoutsWithTheSameStartAndNameGetDistinctIDs() throws {
        let text = """
        "Workout #";"Date";"Workout Name";"Duration (sec)";"Exercise Name";"Set Order";"Weight (kg)";"Reps";"RPE";"Distance (meters)";"Seconds";"Notes";"Workout Notes"
        "1";"2023-01-05 09:00:00";"Pull";"3600";"Deadlift (Barbell)";"1";"140";"5";"";"";"";"";""
        "2";"2023-01-05 09:00:00";"Pull";"3600";"Deadlift (Barbell)";"1";"150";"3";"";"";"";"";""
        """
        let parsed = try read(text)
        let plan = planner.plan(parsed, file: "in.csv", existing: [])
        let ids = plan.drafts.filter { $0.type == .workoutStarted }.map { $0.fields["workout"]!.stringValue! }
        let base = ImportPlanner.workoutID(app: "strong", workout: parsed.workouts[0])
        #expect(ids == [base, base + "-2"])
        let events = try record(plan.drafts)
        #expect(planner.plan(parsed, file: "in.csv", existing: events).summary.alreadyPresent == 2)
    }

    @Test func theSameWorkoutUnderAnotherIDIsRecognisedByStartAndName() throws {
        // Imported from Strong, exported as Hevy CSV (minutes only), imported again: nothing new.
        let events = try record(planner.plan(try read(strongClassic), file: "in.csv", existing: []).drafts)
        let hevy = try read(Exporters.hevyCSV(analysis(events), unit: .kg))
        let again = planner.plan(hevy, file: "hevy.csv", existing: events)
        #expect(again.drafts.isEmpty)
        #expect(again.summary.alreadyPresent == 2)
        // A workout the app recorded (id w1) exported and imported back: nothing new either.
        let app = try record([
            ["type": "workout.started", "at": "2024-05-01T18:00:05.000+01:00", "workout": "w1", "name": "Push", "session": .null],
            ["type": "set.completed", "at": "2024-05-01T18:10:00.000+01:00", "workout": "w1", "exercise": "barbell-bench-press", "set": 1,
             "weight": 80, "unit": "kg", "reps": 8, "kind": "working"],
            ["type": "workout.finished", "at": "2024-05-01T19:00:00.000+01:00", "workout": "w1"],
        ])
        let strong = try read(Exporters.strongCSV(analysis(app), unit: .kg))
        #expect(planner.plan(strong, file: "strong.csv", existing: app).summary.alreadyPresent == 1)
    }

    @Test func workoutIDsDependOnlyOnStartAndName() throws {
        let parsed = try read(strongClassic)
        let other = ImportPlanner(matcher: NameMatcher(catalogue: .builtIn), offsetSeconds: -18000)
        let a = planner.plan(parsed, file: "a.csv", existing: []).drafts[1].fields["workout"]
        let b = other.plan(parsed, file: "b.csv", existing: []).drafts[1].fields["workout"]
        #expect(a == b)
        #expect(a == .string(ImportPlanner.workoutID(app: "strong", workout: parsed.workouts[0])))
    }
}
