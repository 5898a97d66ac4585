import JournalEvents
import JournalInterchange
import JournalModel
import JournalProjections
import Testing

/// The routine document (`journal template export` / `import`): written one exercise per line, read back into the
/// exercises `template.created` holds.
@Suite struct RoutineDocumentTests {
    static let template = Template(id: "t1", name: "Upper A", exercises: [
        Prescription(exercise: "barbell-bench-press", sets: 3, reps: "8-12", restSeconds: 90, superset: "a"),
        Prescription(exercise: "dumbbell-fly", sets: 3, reps: "10-12", superset: "a"),
    ], note: "Mondays", createdAt: Timestamp(rfc3339: "2026-11-01T09:00:00.000+01:00")!)

    static func name(_ id: String) -> String { id == "barbell-bench-press" ? "Barbell Bench Press" : "Dumbbell Fly" }

    @Test("a template's document names each exercise, and reads back into the event's exercises without the names")
    func roundTrip() throws {
        let text = RoutineDocument.text(Self.template, name: Self.name)
        #expect(text == """
            {
              "format": "workout-journal/routine",
              "version": 1,
              "name": "Upper A",
              "note": "Mondays",
              "exercises": [
                {"exercise":"barbell-bench-press","name":"Barbell Bench Press","sets":3,"reps":"8-12","rest_s":90,"superset":"a"},
                {"exercise":"dumbbell-fly","name":"Dumbbell Fly","sets":3,"reps":"10-12","superset":"a"}
              ]
            }

            """)
        let routine = try RoutineDocument.read(Array(text.utf8), path: "upper.json", resolve: { _ in nil })
        #expect(routine.name == "Upper A")
        #expect(routine.note == .string("Mondays"))
        #expect(routine.exercises.map { JSONWriter.string($0) } == [
            #"{"exercise":"barbell-bench-press","sets":3,"reps":"8-12","rest_s":90,"superset":"a"}"#,
            #"{"exercise":"dumbbell-fly","sets":3,"reps":"10-12","superset":"a"}"#,
        ])
    }

    @Test("an exercise given only by name is looked up; --name replaces the document's; problems name the file")
    func namesAndProblems() throws {
        let text = #"{"format": "workout-journal/routine", "version": 1, "name": "X", "exercises": [{"name": "Bench", "sets": 2}]}"#
        let routine = try RoutineDocument.read(Array(text.utf8), path: "x.json", name: "Renamed",
                                               resolve: { $0 == "Bench" ? "barbell-bench-press" : nil })
        #expect(routine.name == "Renamed")
        #expect(routine.exercises.map { JSONWriter.string($0) } == [#"{"exercise":"barbell-bench-press","sets":2}"#])
        #expect(throws: RoutineDocument.Invalid(path: "x.json", problem: #"exercises[0].name "Bench" matches no exercise in the catalogue; give its "exercise" id"#)) {
            try RoutineDocument.read(Array(text.utf8), path: "x.json", resolve: { _ in nil })
        }
        #expect(throws: RoutineDocument.Invalid(path: "y.json", problem: #""extra" is not a key of a routine document (keys: format, version, name, note, exercises)"#)) {
            try RoutineDocument.read(Array(#"{"format": "workout-journal/routine", "version": 1, "extra": 1}"#.utf8), path: "y.json", resolve: { _ in nil })
        }
    }
}
