import Foundation
import Testing
import WorkoutJournal
import JournalEvents

/// Exercise and workout ids as typed values (`ExerciseID`, `WorkoutID`): written as string literals, coded as plain
/// strings, and passed to the typed calls; the calls that took strings still compile (deprecated).
@Suite("typed exercise and workout ids")
struct TypedIDTests {
    struct Row: Codable, Equatable {
        var workout: WorkoutID
        var exercises: [ExerciseID]
    }

    @Test("an id is its string: a literal, Codable as the plain string (JSON unchanged), compared and printed by its text")
    func idIsItsString() throws {
        let row = Row(workout: "w1", exercises: ["barbell-bench-press", ExerciseID("dumbbell-fly")])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(row), as: UTF8.self)
        #expect(json == #"{"exercises":["barbell-bench-press","dumbbell-fly"],"workout":"w1"}"#)
        #expect(try JSONDecoder().decode(Row.self, from: Data(json.utf8)) == row)
        #expect(WorkoutID(rawValue: "w2").description == "w2")
        #expect("\(ExerciseID("squat"))" == "squat")
        #expect([WorkoutID("w10"), "w2", "w1"].sorted() == ["w1", "w10", "w2"])
        #expect(Set<ExerciseID>(["a", "a", "b"]).count == 2)
    }

    @Test("the typed calls take typed ids and literals, record the same events as before, and startWorkout returns a WorkoutID")
    func typedCalls() throws {
        let clock = TestClock("2026-11-20T07:00:00.000+01:00")
        let journal = try JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { clock.now }).open(user: "ana")
        defer { journal.close() }
        let workout: WorkoutID = try journal.startWorkout(name: "Push")
        #expect(workout == "w1")
        let bench: ExerciseID = "barbell-bench-press"
        let set = try journal.completeSet(workout, exercise: bench, set: 1, weight: 60, reps: 8)
        #expect(EventCodec.encodeString(set).hasSuffix(#""type":"set.completed","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":8,"kind":"working"}"#),
                "\(EventCodec.encodeString(set))")
        let custom: ExerciseID = try journal.createExercise(name: "Landmine Rotation")
        #expect(custom == "custom-landmine-rotation")
        try journal.addExercise("dumbbell-fly", to: workout)
        #expect(try journal.linkSuperset([bench, "dumbbell-fly"], in: workout) == "g1")
        #expect(journal.workout(workout) == nil)   // not finished yet
        try journal.finishWorkout(workout)
        #expect(journal.workout(workout)?.summary.name == "Push")
    }

    @Test("a call site that passes ids as String values still compiles and records the same event (the deprecated overloads)")
    @available(*, deprecated, message: "calls the String overloads on purpose")
    func stringCallSites() throws {
        let clock = TestClock("2026-11-20T07:00:00.000+01:00")
        let journal = try JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { clock.now }).open(user: "ana")
        defer { journal.close() }
        let name: String = "barbell-bench-press"
        let workout: String = try journal.startWorkout(name: "Push")
        #expect(workout == "w1")
        let set = try journal.completeSet(workout, exercise: name, set: 1, weight: 60, reps: 8)
        #expect(EventCodec.encodeString(set).hasSuffix(#""workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":8,"kind":"working"}"#))
        let custom: String = try journal.createExercise(name: "Landmine Rotation")
        #expect(custom == "custom-landmine-rotation")
    }
}
