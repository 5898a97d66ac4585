import JournalEvents
import JournalInterchange
import JournalModel
import JournalProjections
import Testing
import TrainingDomain

/// Strong and Hevy write an assisted exercise's help as its weight (`Pull Up (Assisted)`, 20.0): the import keeps it as
/// written, files the exercise as assisted, and the export gives every row back (DOMAIN.md §"Assisted exercises").
@Suite struct AssistedRoundTripTests {
    static let strong = """
        Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
        2021-04-23 18:51:46,"Back",1h 31m,"Pull Up (Assisted)",1,30.0,8,0,0,"",,
        2021-04-23 18:51:46,"Back",1h 31m,"Pull Up (Assisted)",2,30.0,6,0,0,"",,
        2021-04-23 18:51:46,"Back",1h 31m,"Chest Dip (Assisted)",1,20.0,8,0,0,"",,
        2021-04-27 18:00:00,"Back",1h 5m,"Pull Up (Assisted)",1,22.5,8,0,0,"",,
        2021-04-27 18:00:00,"Back",1h 5m,"Pull Up (Assisted)",2,25.0,8,0,0,"",,
        2021-04-27 18:00:00,"Back",1h 5m,"Chest Dip (Assisted)",1,10.0,8,0,0,"",,
        2021-04-27 18:00:00,"Back",1h 5m,"Chest Dip (Assisted)",2,0.0,6,0,0,"",,

        """

    @Test func strongAssistedRowsComeBackAndRankByLeastHelp() throws {
        let (events, csv) = try FidelityTests.importAndExport(Self.strong, app: "strong", unit: .kg)
        let columns = FidelityTests.strongColumns
        #expect(try FidelityTests.setRows(csv, columns: columns) == FidelityTests.setRows(Self.strong, columns: columns))
        #expect(csv.contains("2021-04-27 18:00:00,\"Back\",1h 5m,\"Pull Up (Assisted)\",1,22.5,8,0,0,\"\",\"\","))
        // The catalogue's assisted pull-up; the dip has no catalogue match and is created as an assisted custom exercise.
        let created = try #require(events.first { $0.type == "exercise.created" })
        #expect(created.string("name") == "Chest Dip (Assisted)" && created.bool("assisted") == true)
        #expect(events.filter { $0.type == "set.completed" && $0.string("exercise") == "machine-assisted-pull-up" }.map { $0.double("weight")! }
                == [30, 30, 22.5, 25])
        let a = analysis(events)
        #expect(a.records.map { "\($0.exercise) \($0.kind.rawValue) \($0.value) \($0.previous)" } == [
            "machine-assisted-pull-up least_assistance 22.5 30.0", "custom-chest-dip-assisted least_assistance 0.0 20.0",
        ])
        let view = ExerciseHistoryState(a, exercise: "machine-assisted-pull-up")
        #expect(view.bestSet == SetValue(weight: 22.5, unit: .kg, reps: 8))
        // The chart: no e1RM; the least help per session, the second a record.
        #expect(ChartSeries.points(a, exercise: "machine-assisted-pull-up", metric: .e1rm) == [])
        #expect(ChartSeries.points(a, exercise: "machine-assisted-pull-up", metric: .maxWeight).map { "\($0.value) \($0.record)" } == ["30.0 false", "22.5 true"])
        #expect(ChartSeries.label(.maxWeight, unit: "kg", assisted: true) == "least assistance (kg, lower is better)")
    }

    static let hevy = """
        "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
        "Pull","8 Apr 2026, 18:00","8 Apr 2026, 19:00","","Chin Up (Assisted)",,"",0,"normal",15,8,,,
        "Pull","8 Apr 2026, 18:00","8 Apr 2026, 19:00","","Chin Up (Assisted)",,"",1,"normal",10,6,,,
        "Pull","1 Apr 2026, 18:00","1 Apr 2026, 19:00","","Chin Up (Assisted)",,"",0,"warmup",30,8,,,
        "Pull","1 Apr 2026, 18:00","1 Apr 2026, 19:00","","Chin Up (Assisted)",,"",1,"normal",20,8,,,

        """

    @Test func hevyAssistedRowsComeBackAndRankByLeastHelp() throws {
        let (events, csv) = try FidelityTests.importAndExport(Self.hevy, app: "hevy", unit: .kg)
        let columns = ["title", "start_time", "end_time", "exercise_title", "set_index", "set_type", "weight_kg", "reps"]
        #expect(try FidelityTests.setRows(csv, columns: columns) == FidelityTests.setRows(Self.hevy, columns: columns))
        #expect(events.first { $0.type == "exercise.created" }?.bool("assisted") == true)
        let a = analysis(events)
        #expect(a.records.map { "\($0.kind.rawValue) \($0.value) \($0.previous) \($0.reps ?? 0)" } == ["least_assistance 10.0 20.0 6"])
        #expect(ExerciseHistoryState(a, exercise: "custom-chin-up-assisted").bestSet == SetValue(weight: 10, unit: .kg, reps: 6))
    }

    /// A file (a weight field that takes a minus, or a hand edit) writing an assisted set's help as a negative weight: a name whose rows also carry load keeps those on its own exercise and files the help under the name read as
    /// "<name> (Assisted)"; a custom name whose every weight is help is created assisted.
    static let fitNotes = """
        Date,Exercise,Category,Weight (kg),Reps,Distance,Distance Unit,Time,Comment
        2024-03-04,Pull Up,Back,-20.0,8,,,,
        2024-03-04,Pull Up,Back,-15.0,6,,,,"last one hard"
        2024-03-04,Pull Up,Back,10.0,5,,,,
        2024-03-04,Quokka Dip,Triceps,-25.0,8,,,,
        2024-03-06,Pull Up,Back,-17.5,8,,,,

        """

    @Test func negativeWeightsAreReadAsHelpReportedAndWrittenBackNegative() throws {
        let plan = planner.plan(try read(Self.fitNotes), file: "in.csv", existing: [])
        #expect(plan.summary.skipped == [])
        #expect(plan.summary.warnings.map(\.description) == [
            "line 2: 3 rows of \"Pull Up\" with a negative weight (-15 kg, -17.5 kg, -20 kg) read as the help of an assisted exercise, "
                + "filed under machine-assisted-pull-up (assisted); an export to fitnotes writes them negative again",
            "line 5: 1 row of \"Quokka Dip\" with a negative weight (-25 kg) read as the help of an assisted exercise, "
                + "filed under custom-quokka-dip (custom, assisted); an export to fitnotes writes them negative again",
        ])
        #expect(plan.summary.matched.map { "\($0.name) → \($0.exercise) \($0.sets)" }
                == ["Pull Up → pull-up 1", "Pull Up (negative weights: assistance) → machine-assisted-pull-up 3"])
        let (events, csv) = try FidelityTests.importAndExport(Self.fitNotes, app: "fitnotes", unit: .kg)
        let sets = events.filter { $0.type == "set.completed" }
        #expect(sets.map { "\($0.string("exercise")!) \($0.double("weight")!) \($0.bool("source_negative") == true)" } == [
            "machine-assisted-pull-up 20.0 true", "machine-assisted-pull-up 15.0 true", "pull-up 10.0 false",
            "custom-quokka-dip 25.0 true", "machine-assisted-pull-up 17.5 true",
        ])
        let created = try #require(events.first { $0.type == "exercise.created" })
        #expect(created.string("exercise") == "custom-quokka-dip" && created.bool("assisted") == true)
        // Every row comes back as written, the help negative again.
        let columns = ["Date", "Exercise", "Category", "Weight (kg)", "Reps", "Comment"]
        #expect(try FidelityTests.setRows(csv, columns: columns) == FidelityTests.setRows(Self.fitNotes, columns: columns))
        #expect(csv.contains("2024-03-04,Pull Up,Back,-15.0,6,,,,last one hard\n"))
        // Ranked as help: the least help is the record, and progression takes help away.
        let a = analysis(events)
        #expect(a.records.map { "\($0.exercise) \($0.kind.rawValue) \($0.value)" } == [])
        #expect(ExerciseHistoryState(a, exercise: "machine-assisted-pull-up").bestSet == SetValue(weight: 15, unit: .kg, reps: 6))
    }

    @Test func negativeWeightsComeBackNegativeInStrongAndHevyLayouts() throws {
        let strong = """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
            2021-04-23 18:51:46,"Back",1h 31m,"Chin Up",1,-15.0,8,0,0,"",,
            2021-04-23 18:51:46,"Back",1h 31m,"Chin Up",2,-10.0,6,0,0,"",,

            """
        let (strongEvents, strongCSV) = try FidelityTests.importAndExport(strong, app: "strong", unit: .kg)
        #expect(try FidelityTests.setRows(strongCSV, columns: FidelityTests.strongColumns) == FidelityTests.setRows(strong, columns: FidelityTests.strongColumns))
        // A bodyweight name whose every weight is help: the name read as "Chin Up (Assisted)", created assisted.
        let created = try #require(strongEvents.first { $0.type == "exercise.created" })
        #expect(created.string("exercise") == "custom-chin-up-assisted" && created.string("name") == "Chin Up (Assisted)" && created.bool("assisted") == true)
        let hevy = """
            "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
            "Pull","8 Apr 2026, 18:00","8 Apr 2026, 19:00","","Pull Up (Assisted)",,"",0,"normal",-20,8,,,

            """
        let (hevyEvents, hevyCSV) = try FidelityTests.importAndExport(hevy, app: "hevy", unit: .kg)
        let columns = ["title", "start_time", "end_time", "exercise_title", "set_index", "set_type", "weight_kg", "reps"]
        #expect(try FidelityTests.setRows(hevyCSV, columns: columns) == FidelityTests.setRows(hevy, columns: columns))
        #expect(hevyEvents.filter { $0.type == "set.completed" }.map { "\($0.string("exercise")!) \($0.double("weight")!)" } == ["machine-assisted-pull-up 20.0"])
        // Another app's layout writes the help as the apps' assisted exercises do: positive.
        #expect(Exporters.strongCSV(analysis(hevyEvents), unit: .kg, imported: ImportedRows(hevyEvents)).hasSuffix(",1,20.0,8,0,0,\"\",\"\",\n"))
    }
}
