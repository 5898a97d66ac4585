import Foundation
import Testing
import WorkoutJournal

/// Another app's export imported through the facade alone: `JournalImport.plan`, then `UserJournal.record(_:)`.
@Suite("Imports through the facade")
struct JournalImportTests {
    let clock = TestClock("2026-11-20T18:00:00.000+01:00")

    /// Two workouts in Strong's classic layout, which names no unit.
    static let strong = """
        Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
        2024-03-04 07:12:40,"Push A",1h 5m,"Bench Press (Barbell)",1,80.0,8,0,0,"","",
        2024-03-04 07:12:40,"Push A",1h 5m,"Bench Press (Barbell)",2,80.0,6,0,0,"","",
        2024-03-06 18:00:00,"Legs",45m,"Squat (Barbell)",1,102.5,5,0,0,"","",

        """

    func journal() throws -> UserJournal {
        let clock = self.clock
        return try JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { clock.now }).open(user: "ana")
    }

    @Test("a new journal: the file's workouts at the offset of now, in kilograms; importing it again adds nothing")
    func newJournal() throws {
        let journal = try journal()
        defer { journal.close() }
        let plan = try JournalImport.plan(text: Self.strong, file: "strong.csv", existing: try journal.events(), now: clock.now)
        #expect(plan.summary.layout == .strongClassic)
        #expect((plan.summary.workouts, plan.summary.sets, plan.summary.alreadyPresent) == (2, 3, 0))
        #expect((plan.summary.offset, plan.summary.offsetOrigin) == ("+01:00", "this machine's offset now"))
        let recorded = try journal.record(plan)
        #expect(recorded.map(\.type) == ["workout.started", "set.completed", "set.completed", "workout.finished",
                                         "workout.started", "set.completed", "workout.finished"])
        #expect(recorded[0].at.description == "2024-03-04T07:12:40.000+01:00")
        #expect(recorded[5].double("weight") == 102.5 && recorded[5].string("unit") == "kg")
        let again = try JournalImport.plan(text: Self.strong, file: "strong.csv", existing: try journal.events(), now: clock.now)
        #expect(again.drafts.isEmpty && again.summary.alreadyPresent == 2)
        #expect(try journal.events().count == 7)
    }

    @Test("a pound lifter's journal reads the unlabelled weights in pounds, at the offset of its last event")
    func poundJournal() throws {
        let journal = try journal()
        defer { journal.close() }
        try journal.updateProfile(name: "Ana", unit: .lb)
        let plan = try JournalImport.plan(text: Self.strong, file: "strong.csv", existing: try journal.events(),
                                          options: JournalImport.Options(source: .strong), now: t("2026-11-21T09:00:00.000-05:00"))
        #expect((plan.summary.offset, plan.summary.offsetOrigin) == ("+01:00", "the offset of the journal's last event"))
        let sets = try journal.record(plan).filter { $0.type == "set.completed" }
        #expect(sets.map { $0.string("unit") } == ["lb", "lb", "lb"])
        let given = try JournalImport.plan(text: Self.strong, file: "strong.csv", existing: [],
                                           options: JournalImport.Options(unit: .kg, utcOffsetSeconds: -18_000), now: clock.now)
        #expect((given.summary.offset, given.summary.offsetOrigin) == ("-05:00", "--utc-offset"))
    }

    @Test("a file that is no app's export is refused with its file, line and header, and nothing is recorded")
    func refused() throws {
        let journal = try journal()
        defer { journal.close() }
        #expect(throws: InterchangeError.self) {
            try JournalImport.plan(text: "when,what\n2024-03-04,bench\n", file: "notes.csv", existing: [], now: clock.now)
        }
        do {
            _ = try JournalImport.plan(text: "when,what\n2024-03-04,bench\n", file: "notes.csv", existing: [], now: clock.now)
        } catch {
            #expect(error.description == "notes.csv line 1: \"when,what\" is not a header of Strong, Hevy, FitNotes or StrongLifts; pass --from with the app that wrote the file, or check INTERCHANGE.md for the layouts read")
        }
        #expect(try journal.events().isEmpty)
    }
}
