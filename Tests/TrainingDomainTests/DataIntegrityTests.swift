import Foundation
import Testing
import JournalEvents
@testable import TrainingDomain

@Suite("Bundled data")
struct DataIntegrityTests {
    let catalogue = ExerciseCatalogue.builtIn

    @Test("Every rule set loads with its version and engine")
    func ruleSets() {
        #expect(ProgrammeGenerator.ruleSetNames == ["templates", "train", "train-ai"])
        #expect(ProgrammeGenerator.ruleSets.values.map { "\($0.name) v\($0.version) \($0.engine)" }.sorted()
            == ["templates v2 templates", "train v1 slots", "train-ai v1 slots"])
    }

    @Test("Every exercise a rule set or template names is in the catalogue")
    func namedExercisesExist() {
        for (name, rules) in ProgrammeGenerator.ruleSets {
            for template in rules.json["session_templates"]?.objectValue ?? [:] {
                for slot in template.value["slots"]?.arrayValue ?? [] {
                    for id in slot["candidates"]?.stringArray ?? [] {
                        #expect(catalogue.exercise(id: id) != nil, "rule set \(name) template \(template.key) names unknown \(id)")
                    }
                }
            }
        }
        #expect(ProgrammeGenerator.templates.map(\.id) == ["starting-strength", "stronglifts-5x5", "531", "ppl", "upper-lower", "full-body"])
        for template in ProgrammeGenerator.templates {
            for id in template.exerciseIDs { #expect(catalogue.exercise(id: id) != nil, "template \(template.id) names unknown \(id)") }
        }
    }

    @Test("Catalogue facts agree with free-exercise-db for the entries that cite it",
          .enabled(if: realDataPresent("free-exercise-db.json"), "../shared/realdata/free-exercise-db.json is absent"))
    func freeExerciseDB() throws {
        let source = try JSONParser.parse([UInt8](try Data(contentsOf: realDataURL("free-exercise-db.json"))))
        var byName: [String: JSONValue] = [:]
        for entry in source.arrayValue ?? [] { if let name = entry["name"]?.stringValue { byName[name] = entry } }
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/TrainingDomain/Data/catalogue.json")
        let ours = try JSONParser.parse([UInt8](try Data(contentsOf: file)))
        let mapping = ["abdominals": "abs", "quadriceps": "quads", "lats": "back", "middle back": "back", "lower back": "lower-back"]
        var cited = 0, agreeing = 0
        for entry in ours["exercises"]?.arrayValue ?? [] {
            guard let name = entry["source"]?.stringValue else { continue }
            cited += 1
            let original = try #require(byName[name], "cites \(name), which free-exercise-db does not have")
            let primary = (original["primaryMuscles"]?.stringArray ?? []).map { mapping[$0] ?? $0 }
            if Set(primary) == Set(entry["primary"]?.stringArray ?? []) { agreeing += 1 }
        }
        print("catalogue: \(cited) entries cite free-exercise-db; \(agreeing) keep its primary muscles unchanged")
        #expect(cited == 184)
        #expect(agreeing == 180)   // four entries move a primary muscle (floor press to chest; obliques added to three twists and crunches)
    }
}
