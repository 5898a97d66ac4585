import Foundation
import Testing
import JournalEvents
import JournalModel
@testable import TrainingDomain

/// Every catalogue exercise carries short instructions and its equipment, and seed 004's category tabs file each
/// exercise under its first primary muscle's group.
@Suite("Exercise instructions and category tabs")
struct InstructionsTests {
    let catalogue = ExerciseCatalogue.builtIn

    @Test("every built-in exercise has a setup, two to four steps, two or three cues, and its equipment")
    func everyExerciseHasInstructions() throws {
        #expect(catalogue.exercises.count == 201)
        for exercise in catalogue.exercises {
            let how = try #require(exercise.instructions, "\(exercise.id) has no instructions")
            #expect(!how.setup.isEmpty && (2...4).contains(how.steps.count) && (2...3).contains(how.cues.count), "\(exercise.id)")
            #expect(!exercise.equipment.isEmpty, "\(exercise.id)")
        }
        let bench = try #require(catalogue.exercise(id: "barbell-bench-press")?.instructions)
        #expect(bench.setup == "Lie on a flat bench with your eyes under the bar, feet planted and shoulder blades squeezed together. Grip the bar a little wider than your shoulders.")
        #expect(bench.steps == ["Lift the bar out of the rack and hold it over your shoulders on straight arms.",
                                "Lower it under control until it touches your mid chest.",
                                "Press it back up to straight arms, then rack it after the last rep."])
        #expect(bench.cues.count == 3)
        #expect(catalogue.exercise(id: "incline-barbell-bench-press")?.instructions?.steps[1] == "Lower it under control until it touches your upper chest.")
    }

    @Test("the instructions are our own words: no step or cue appears in free-exercise-db's instructions",
          .enabled(if: realDataPresent("free-exercise-db.json"), "../shared/realdata/free-exercise-db.json is absent"))
    func ownWords() throws {
        let source = try JSONParser.parse([UInt8](try Data(contentsOf: realDataURL("free-exercise-db.json"))))
        let theirs = Set((source.arrayValue ?? []).flatMap { $0["instructions"]?.stringArray ?? [] }.map { $0.lowercased() })
        #expect(theirs.count > 1000)
        for exercise in catalogue.exercises {
            let copied = ((exercise.instructions?.steps ?? []) + (exercise.instructions?.cues ?? [])).filter { theirs.contains($0.lowercased()) }
            #expect(copied.isEmpty, "\(exercise.id): \(copied)")
        }
    }

    @Test("a category tab lists only the exercises whose first primary muscle is in its group; every exercise has one tab")
    func categoryTabs() {
        #expect(ExerciseCatalogue.categoryTabNames == ["chest", "back", "shoulders", "arms", "legs", "core", "cardio"])
        var counts: [String: Int] = [:]
        for tab in ExerciseCatalogue.categoryTabNames { counts[tab] = catalogue.exercises(inCategory: tab).count }
        #expect(counts == ["chest": 29, "back": 34, "shoulders": 28, "arms": 31, "legs": 52, "core": 21, "cardio": 6])
        #expect(counts.values.reduce(0, +) == 201)
        let chest = catalogue.exercises(inCategory: "Chest").map(\.id)
        #expect(chest.contains("barbell-bench-press") && !chest.contains("triceps-dip") && !chest.contains("close-grip-bench-press"))
        #expect(catalogue.exercises(inCategory: "arms").map(\.id).contains("triceps-dip"))
        #expect(catalogue.exercise(id: "dumbbell-upright-row")?.categoryTab == "back")
        #expect(catalogue.exercise(id: "treadmill-run")?.categoryTab == "cardio")
        for tab in ["chest", "back", "shoulders", "arms", "legs", "core"] {
            for exercise in catalogue.exercises(inCategory: tab) { #expect(!exercise.isCardio && exercise.categoryTab == tab) }
        }
    }
}
