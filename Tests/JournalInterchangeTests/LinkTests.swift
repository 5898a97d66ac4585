import Foundation
import JournalEvents
import JournalModel
import JournalInterchange
import JournalProjections
import Testing
import TrainingDomain

/// A custom or imported exercise linked to a catalogue exercise re-files every view; null undoes it.
@Suite struct LinkTests {
    static let csv = """
        Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
        2024-03-04 07:12:40,"Legs",1h,"Leg Press",1,200,10,0,0,"","",
        2024-03-04 07:12:40,"Legs",1h,"Leg Press",2,200,8,0,0,"","",
        2024-03-04 07:12:40,"Legs",1h,"Leg Press Keller",1,250,10,0,0,"","",
        2024-03-04 07:12:40,"Legs",1h,"Leg Press Keller",2,260,6,0,0,"","",
        2024-03-11 07:00:00,"Legs",1h,"Leg Press Keller",1,270,5,0,0,"","",
        """

    static func link(_ exercise: String, to: String?, onto events: [Event]) throws -> [Event] {
        try record([["type": "exercise.linked", "at": "2024-03-12T10:00:00.000+01:00", "exercise": .string(exercise),
                     "to": to.map { .string($0) } ?? .null]], onto: events)
    }

    @Test func aLinkRefilesHistoryAndRecordsAndNullUndoesIt() throws {
        let plan = planner.plan(try read(LinkTests.csv), file: "in.csv", existing: [])
        #expect(plan.summary.unmatched.map(\.exercise) == ["custom-leg-press-keller"])
        let imported = try record(plan.drafts)
        let before = ExerciseHistoryState(analysis(imported), exercise: "leg-press")
        #expect(before.sessions.count == 1)
        #expect(before.bests?.heaviestWeightKilograms == 200)

        let linked = try LinkTests.link("custom-leg-press-keller", to: "leg-press", onto: imported)
        let after = analysis(linked)
        let history = ExerciseHistoryState(after, exercise: "leg-press")
        #expect(history.sessions.count == 2)
        #expect(history.bests?.heaviestWeightKilograms == 270)
        // Both names' sets in one workout: the linked ones numbered after the catalogue exercise's own.
        #expect(after.finished[0].sets(of: "leg-press").map { "\($0.set):\(Int($0.weight))x\($0.reps)" } == ["1:200x10", "2:200x8", "3:250x10", "4:260x6"])
        #expect(after.finished[0].performedExercises == ["leg-press"])
        #expect(after.records.filter { $0.exercise == "leg-press" }.count > 0)
        #expect(ExerciseHistoryState(after, exercise: "custom-leg-press-keller").sessions.isEmpty)

        let undone = analysis(try LinkTests.link("custom-leg-press-keller", to: nil, onto: linked))
        #expect(ExerciseHistoryState(undone, exercise: "leg-press").sessions.count == 1)
        #expect(ExerciseHistoryState(undone, exercise: "custom-leg-press-keller").sessions.count == 2)
    }

    @Test func theHomePageFollowsALinkToo() throws {
        let imported = try record(planner.plan(try read(LinkTests.csv), file: "in.csv", existing: []).drafts)
        var home = HomeFold(compacting: Ledger(events: imported, asOf: Ledger.everything))
        let linked = try LinkTests.link("custom-leg-press-keller", to: "leg-press", onto: imported)
        // A link moves the records of retired workouts: the compacted home state cannot fold it, the caller reads it all.
        #expect(home.apply(linked.last!) == false)
    }

    @Test func aDryRunShowsWhereANameWillCountAndTheNamesAreListed() throws {
        let imported = try record(planner.plan(try read(LinkTests.csv), file: "in.csv", existing: []).drafts)
        let linked = try LinkTests.link("custom-leg-press-keller", to: "leg-press", onto: imported)
        let again = LinkTests.csv.replacingOccurrences(of: "2024-03-11 07:00:00", with: "2024-03-18 07:00:00")
        let plan = planner.plan(try read(again), file: "in.csv", existing: linked)
        #expect(plan.summary.workouts == 1)
        #expect(plan.summary.unmatched.map(\.linkedTo) == ["leg-press"])
        #expect(plan.summary.text.contains("  Leg Press Keller → custom-leg-press-keller (custom, linked to leg-press, 1 sets)"))
        #expect(ImportedName.list(linked).map(\.text) == [
            "Leg Press (strong) → leg-press (catalogue, 2 sets)",
            "Leg Press Keller (strong) → custom-leg-press-keller (custom, linked to leg-press, 3 sets)",
        ])
    }
}
