import Foundation
import Testing
import JournalEvents
import JournalModel
@testable import TrainingDomain

@Suite("Exercise catalogue")
struct CatalogueTests {
    let catalogue = ExerciseCatalogue.builtIn

    @Test("Ships at least 150 exercises with unique kebab-case ids and known vocabulary")
    func shape() {
        #expect(catalogue.count == 201)
        let ids = catalogue.exercises.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy(EventVocabulary.isSlug))
        let muscles = Set(EventVocabulary.muscles)
        let equipment = catalogue.equipment.knownNames
        for exercise in catalogue.exercises {
            #expect(!exercise.primaryMuscles.isEmpty, "\(exercise.id) has no primary muscle")
            #expect(exercise.allMuscles.allSatisfy(muscles.contains), "\(exercise.id) names an unknown muscle")
            #expect(exercise.equipment.allSatisfy(equipment.contains), "\(exercise.id) names unknown equipment \(exercise.equipment)")
            #expect(exercise.alternatives.allSatisfy { catalogue.exercise(id: $0) != nil && $0 != exercise.id })
            #expect(exercise.isCardio || exercise.pattern != nil, "\(exercise.id) has no movement pattern")
        }
    }

    @Test("Looks exercises up by id with their facts")
    func lookup() throws {
        let bench = try #require(catalogue.exercise(id: "barbell-bench-press"))
        #expect(bench.name == "Barbell Bench Press")
        #expect(bench.primaryMuscles == ["chest"])
        #expect(bench.secondaryMuscles == ["shoulders", "triceps"])
        #expect(bench.equipment == ["barbell", "flat-bench"])
        #expect(bench.mechanic == .compound)
        #expect(bench.pattern == .push)
        #expect(bench.difficulty == .beginner)
        #expect(bench.alternatives == ["decline-barbell-bench-press", "dumbbell-bench-press", "incline-barbell-bench-press", "smith-machine-bench-press"])
        for id in ["barbell-back-squat", "dumbbell-shoulder-press", "lat-pulldown", "romanian-deadlift"] {
            #expect(catalogue.exercise(id: id) != nil, "\(id) missing")
        }
        #expect(catalogue.exercise(id: "no-such-exercise") == nil)
    }

    @Test("Filters: values of one filter are alternatives (OR), muscle and equipment combine (AND)")
    func filter() {
        #expect(catalogue.filter(muscles: ["biceps"], equipment: ["cable"]).map(\.id)
            == ["seated-cable-row", "wide-grip-seated-row", "one-arm-cable-row", "lat-pulldown", "close-grip-lat-pulldown",
                "reverse-grip-lat-pulldown", "one-arm-lat-pulldown", "cable-curl", "rope-hammer-curl"])
        // Chest OR triceps, with dumbbells (the pickers' chips are alternatives).
        #expect(catalogue.filter(muscles: ["chest", "triceps"], equipment: ["dumbbells"]).map(\.id)
            == ["dumbbell-bench-press", "incline-dumbbell-press", "decline-dumbbell-press", "dumbbell-floor-press", "dumbbell-fly",
                "incline-dumbbell-fly", "decline-dumbbell-fly", "dumbbell-pullover", "dumbbell-shoulder-press", "seated-dumbbell-shoulder-press",
                "arnold-press", "dumbbell-overhead-triceps-extension", "lying-dumbbell-triceps-extension", "dumbbell-kickback"])
        #expect(catalogue.filter(equipment: ["dumbbells", "barbell"]).count == 77)
        #expect(catalogue.filter(equipment: ["dumbbells"]).count + catalogue.filter(equipment: ["barbell"]).count == 77)
        #expect(catalogue.filter(muscles: ["biceps"], equipment: ["cable", "barbell"]).count == 17)
        // Seed 004's category tabs: by primary muscles; cardio by kind.
        #expect(catalogue.filter(muscles: ["Arms"]).count == 31)
        #expect(catalogue.filter(muscles: ["legs"]).count == 57)
        #expect(catalogue.filter(muscles: ["core"]).map(\.id).prefix(4) == ["suitcase-carry", "plank", "side-plank", "crunch"])
        #expect(catalogue.filter(muscles: ["cardio"]).map(\.id)
            == ["treadmill-run", "stationary-bike", "rowing-machine", "elliptical-trainer", "stair-climber", "outdoor-run"])
        #expect(catalogue.knowsMuscleFilter("Legs") && catalogue.knowsMuscleFilter("cardio") && !catalogue.knowsMuscleFilter("wings"))
        #expect(catalogue.filter(muscles: ["calves"], equipment: ["pin-loaded-machine"]).map(\.id)
            == ["leg-press", "standing-calf-raise", "seated-calf-raise", "leg-press-calf-raise"])
        #expect(catalogue.filter(muscles: ["Lats"]).count == catalogue.filter(muscles: ["back"]).count)
        #expect(catalogue.filter().count == 201)
    }

    @Test("Search ignores case, punctuation, plurals and word order")
    func search() {
        #expect(catalogue.search("press bench barbell").map(\.id).prefix(3) == ["barbell-bench-press", "incline-barbell-bench-press", "decline-barbell-bench-press"])
        #expect(catalogue.search("LAT PULLDOWN").first?.id == "lat-pulldown")
        #expect(catalogue.search("curls hammer").map(\.id) == ["hammer-curl", "rope-hammer-curl"])
        #expect(catalogue.search("pullup").map(\.id).prefix(2) == ["pull-up", "wide-grip-pull-up"])
        #expect(catalogue.search("rdl").map(\.id) == ["romanian-deadlift", "dumbbell-romanian-deadlift", "single-leg-kettlebell-deadlift"])
        #expect(catalogue.search("zzz").isEmpty)
    }

    @Test("Custom exercises come from exercise.created; favourites and recent use from the model")
    func fromEvents() throws {
        var log = EventLog()
        log.add("exercise.created", ["exercise": "landmine-press", "name": "Landmine Press", "primary_muscles": ["Shoulders"],
                                     "equipment": ["barbell"], "mechanic": "compound"])
        log.add("exercise.created", ["exercise": "barbell-bench-press", "name": "My Bench"])
        log.add("exercise.favourited", ["exercise": "deadlift"])
        log.add("exercise.favourited", ["exercise": "landmine-press"])
        log.add("exercise.favourited", ["exercise": "plank"])
        log.add("exercise.unfavourited", ["exercise": "landmine-press"])
        log.add("workout.started", ["workout": "w1", "name": "A", "session": .null])
        log.add("exercise.added", ["workout": "w1", "exercise": "plank"])
        log.add("set.completed", ["workout": "w1", "exercise": "deadlift", "set": 1, "weight": 100, "unit": "kg", "reps": 5, "kind": "working"])
        log.add("exercise.swapped", ["workout": "w1", "from": "deadlift", "to": "rack-pull"])
        let custom = catalogue.with(customExercisesFrom: log.ledger)
        let landmine = try #require(custom.exercise(id: "landmine-press"))
        #expect(landmine.isCustom)
        #expect(landmine.primaryMuscles == ["shoulders"])
        #expect(custom.count == 202)
        #expect(custom.exercise(id: "barbell-bench-press")?.name == "Barbell Bench Press")
        #expect(custom.search("landmine").map(\.id) == ["landmine-press", "t-bar-row"])   // t-bar-row by its alias "landmine row"
        // One rule (PROJECTIONS.md, DOMAIN.md): at most 10, in the order favourited.
        #expect(log.ledger.favourites == ["deadlift", "plank"])
        // What the workouts hold: deadlift was swapped for rack-pull, so its sets are rack-pull's.
        #expect(ExerciseCatalogue.recentlyUsed(in: log.ledger) == ["rack-pull", "plank"])
        #expect(ExerciseCatalogue.recentlyUsed(in: log.ledger, limit: 1) == ["rack-pull"])
    }

    @Test("Equipment answers expand categories to their items unless items are listed")
    func equipment() {
        let equipment = catalogue.equipment
        #expect(equipment.available(from: ["Dumbbells"]) == ["dumbbells", "flat-bench", "incline-bench", "bodyweight"])
        #expect(equipment.available(from: ["barbell", "squat_rack"]) == ["barbell", "squat-rack", "bodyweight", "pull-up-bar", "dip-station", "back-extension-bench"])
        #expect(equipment.available(from: []) == ["bodyweight"])
        #expect(catalogue.doable(withEquipment: []).map(\.id).prefix(4) == ["push-up", "incline-push-up", "decline-push-up", "handstand-push-up"])
    }
}

@Suite("Name matcher")
struct NameMatcherTests {
    let matcher = NameMatcher()

    @Test("Maps other apps' names to catalogue ids", arguments: [
        ("Bench Press (Barbell)", "barbell-bench-press", 1.0),
        ("Paused Bench Press", "barbell-bench-press", 0.9),
        ("Squat (Barbell)", "barbell-back-squat", 1.0),
        ("Deadlift (Barbell)", "deadlift", 1.0),
        ("Lat Pulldown (Cable)", "lat-pulldown", 1.0),
        ("Lat Pulldown (Machine)", "lat-pulldown", 1.0),
        ("Bench Press (Dumbbell)", "dumbbell-bench-press", 1.0),
        ("Incline Bench Press (Dumbbell)", "incline-dumbbell-press", 1.0),
        ("Bicep Curl (Cable)", "cable-curl", 1.0),
        ("Overhead Press (Barbell)", "overhead-press", 1.0),
        ("Pull Up (Band)", "band-assisted-pull-up", 1.0),
        ("Seated Calf Raise (Plate Loaded)", "seated-calf-raise", 0.85),
        ("Calf Press on Seated Leg Press", "leg-press-calf-raise", 0.867),
        ("Leg Press Keller", "leg-press", 0.868),
        ("squat barbell back", "barbell-back-squat", 1.0),
    ])
    func matches(name: String, id: String, confidence: Double) throws {
        let match = try #require(matcher.match(name))
        #expect(match.exerciseID == id)
        #expect(match.confidence == confidence)
    }

    @Test("Names with nothing in common are not matched")
    func noMatch() {
        #expect(matcher.match("Zumba") == nil)
        #expect(matcher.match("(Barbell)") == nil)
        #expect(!matcher.accepts("Burpee Broad Jump"))
    }

    @Test("Hit rate on the distinct exercise names of a real Strong export",
          .enabled(if: realDataPresent("strong-export.csv"), "../shared/realdata/strong-export.csv is absent"))
    func strongExportHitRate() throws {
        let text = try String(contentsOf: realDataURL("strong-export.csv"), encoding: .utf8)
        var names: [String] = []
        for line in text.split(separator: "\n").dropFirst() {
            let fields = csvFields(String(line))
            if fields.count > 3, !names.contains(fields[3]) { names.append(fields[3]) }
        }
        let hits = names.filter(matcher.accepts)
        let rate = Double(hits.count) / Double(names.count)
        print("NameMatcher hit rate on strong-export.csv: \(hits.count) of \(names.count) distinct names (\(Int((rate * 1000).rounded()) / 10)%) at confidence ≥ \(NameMatcher.acceptThreshold)")
        for name in names where !matcher.accepts(name) { print("  no match: \(name)") }
        #expect(names.count == 72)
        #expect(rate >= 0.95)
    }
}

/// Splits one CSV line (double-quoted fields may hold commas; `""` is a quote).
func csvFields(_ line: String) -> [String] {
    var fields: [String] = []
    var current = ""
    var quoted = false
    var previousQuote = false
    for character in line {
        if quoted {
            if character == "\"" { quoted = false; previousQuote = true } else { current.append(character) }
        } else if character == "\"" {
            if previousQuote { current.append("\"") }
            quoted = true
        } else if character == "," {
            fields.append(current); current = ""; previousQuote = false
        } else {
            current.append(character); previousQuote = false
        }
    }
    fields.append(current)
    return fields
}

/// FORMAT.md §10 "The catalogue" names the file and the version of the ids `journal verify` and every recording
/// command accept besides custom ones; those ids are `ExerciseCatalogue.builtInIDs` (the CLI's `Journal.catalogue`,
/// `UserJournal`'s default `EventJournal.Options.catalogue`).
@Suite("The catalogue FORMAT.md names is the one verify checks against")
struct PublishedCatalogueTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("FORMAT.md's path and version are the file's, and its ids are exactly builtInIDs")
    func namedFile() throws {
        let format = try String(contentsOf: Self.root.appendingPathComponent("FORMAT.md"), encoding: .utf8)
        let named = try #require(format.firstMatch(of: /\[`([^`]+catalogue\.json)`\]\([^)]*\), catalogue\s+version (\d+)/))
        #expect(named.1 == "Sources/TrainingDomain/Data/catalogue.json")
        let data = try Data(contentsOf: Self.root.appendingPathComponent(String(named.1)))
        let file = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(file["version"] as? Int == Int(named.2))
        #expect(file["version"] as? Int == 1)
        let ids = try #require(file["exercises"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(Set(ids) == ExerciseCatalogue.builtInIDs)
        #expect(ids.count == ExerciseCatalogue.builtInIDs.count)
    }

    @Test("DOMAIN.md's data table gives the catalogue's size")
    func documentedSize() throws {
        let domain = try String(contentsOf: Self.root.appendingPathComponent("DOMAIN.md"), encoding: .utf8)
        #expect(domain.contains("| `catalogue.json` | the built-in exercises (\(ExerciseCatalogue.builtIn.count)) |"))
    }
}
