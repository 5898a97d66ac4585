import Foundation
import JournalEvents
import JournalInterchange
import JournalProjections
import Testing
import TrainingDomain
import JournalModel

@Suite struct RoundTripTests {
    /// Per workout (start, name): the sorted weight × reps of its weighted sets.
    static func weightedSets(_ parsed: ParsedExport) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for workout in parsed.workouts {
            result["\(workout.start) \(workout.name)"] = workout.sets.filter { !$0.isTimed }.map { "\($0.weight)\($0.unit.rawValue)x\($0.reps)" }.sorted()
        }
        return result
    }

    @Test func theRealStrongExportComesBackAsTheSameWorkoutsSetsWeightsAndReps() throws {
        guard let path = realStrongExport else {
            print("skipped: ../shared/realdata/strong-export.csv is not beside the repository")
            return
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let original = try ExportReader.read(text: text, file: path, source: .auto, defaultUnit: .kg)
        #expect(original.layout == .strongClassic)
        #expect(original.rowCount == 2078)
        #expect(original.workouts.count == 129)
        #expect(original.skipped.isEmpty)
        let plan = planner.plan(original, file: path, existing: [])
        #expect(plan.summary.workouts == 129)
        #expect(plan.summary.sets == 2072)
        #expect(plan.summary.cardioEntries == 3)
        // The strict rule (NameMatcher.identify) files 58 names under the catalogue; the 14 it cannot be sure of stay custom.
        #expect(plan.summary.matched.count == 58)
        #expect(plan.summary.unmatched.map(\.name) == [
            "Back Deltoids", "Bent Over Row Machine (Panatta)", "Calf Press on Seated Leg Press", "Chest Dip (Assisted)", "Chest Fly",
            "Chest Fly (Band)", "Lat Pulldown (Machine)", "Leg Press Keller", "Leg Press Technogym (Gelb)", "Low Row", "Lower Back",
            "Overhead Smith Seated", "Seated Row (Machine)", "Triceps Extension",
        ])
        #expect(plan.summary.unmatched.reduce(0) { $0 + $1.sets } == 284)
        let events = try record(plan.drafts)
        let imported = analysis(events)

        // Projections agree with the CSV itself.
        #expect(imported.finished.count == 129)
        let volume = imported.finished.reduce(0.0) { $0 + $1.sets.reduce(0) { $0 + $1.volumeKilograms } }
        #expect(volume == 800_773)
        var heaviest: [String: Double] = [:], least: [String: Double] = [:]
        let matcher = NameMatcher(catalogue: .builtIn)
        for workout in original.workouts {
            for set in workout.sets where !set.isTimed {
                let id = matcher.identify(set.exerciseName).exerciseID ?? ImportPlanner.customID(set.exerciseName)
                heaviest[id] = max(heaviest[id] ?? 0, set.weight)
                least[id] = min(least[id] ?? .infinity, set.weight)
            }
        }
        #expect(heaviest["barbell-bench-press"] == 105)
        #expect(heaviest["deadlift"] == 107)
        // Its three assisted exercises count their least help (DOMAIN.md §"Assisted exercises").
        #expect(heaviest.keys.filter { imported.ledger.ranking(of: $0).assisted }.sorted()
                == ["band-assisted-pull-up", "custom-chest-dip-assisted", "machine-assisted-pull-up"])
        #expect(least["custom-chest-dip-assisted"] == 0 && least["machine-assisted-pull-up"] == 20 && least["band-assisted-pull-up"] == 20)
        for (id, weight) in heaviest {
            let best = imported.ledger.ranking(of: id).assisted ? least[id]! : weight
            #expect(ExerciseHistoryState(imported, exercise: id).bests?.heaviestWeightKilograms == best, "\(id)")
        }

        // Strong CSV out, read back: the same workouts, sets, weights and reps.
        let exported = Exporters.strongCSV(imported, unit: .kg)
        let back = try ExportReader.read(text: exported, file: "out.csv", source: .strong, defaultUnit: .kg)
        #expect(back.workouts.count == 129)
        #expect(back.workouts.map { "\($0.start) \($0.name) \($0.durationSeconds ?? -1)" } == original.workouts.map { "\($0.start) \($0.name) \($0.durationSeconds ?? -1)" })
        #expect(RoundTripTests.weightedSets(back) == RoundTripTests.weightedSets(original))
        // And importing the export into the same journal adds nothing.
        #expect(planner.plan(back, file: "out.csv", existing: events).drafts.isEmpty)
    }

    @Test func hevyExportReadsBackAsHevy() throws {
        let events = try record(planner.plan(try read(strongClassic), file: "in.csv", existing: []).drafts)
        let csv = Exporters.hevyCSV(analysis(events), unit: .kg)
        let back = try read(csv)
        #expect(back.layout == .hevy)
        #expect(back.workouts.map(\.name) == ["Push A", "Legs"])
        #expect(sets(back.workouts[0]).filter { !$0.hasPrefix("Plank") } == ["Bench Press (Barbell) 40.0kgx10 warmup", "Bench Press (Barbell) 80.0kgx8 working",
                                                                              "Bench Press (Barbell) 80.0kgx0 working", "Bench Press (Barbell) 60.0kgx12 drop", "Quokka Toss 12.5kgx6 failure"])
    }

    @Test func redactionReplacesPersonalTextAndKeepsEverythingElse() throws {
        let at = Timestamp(rfc3339: "2026-01-01T10:00:00.000+01:00")!
        let account = Event(seq: 1, id: "ph-1", at: at, type: "account.created", fields: ["name": "Ana Lima", "email": "ana@example.com", "method": "email"])
        let note = Event(seq: 2, id: "ph-2", at: at, type: "workout.noted", fields: ["workout": "w1", "note": "knee hurts"])
        let set = Event(seq: 3, id: "ph-3", at: at, type: "set.completed",
                        fields: ["workout": "w1", "exercise": "squat", "set": 1, "weight": 100, "unit": "kg", "reps": 5, "kind": "working", "note": "pain"])
        #expect(Redaction.redact(account).fields == ["name": "Redacted", "email": "redacted@example.invalid", "method": "email"])
        #expect(Redaction.redact(note).fields == ["workout": "w1", "note": "[redacted]"])
        #expect(Redaction.redact(set).fields["note"] == "[redacted]")
        #expect(Redaction.redact(set).fields["weight"] == 100)
        #expect(Redaction.redact(set).seq == 3)
        let events = try record(planner.plan(try read(strongClassic), file: "in.csv", existing: []).drafts)
        let csv = Exporters.strongCSV(analysis(events), unit: .kg, redact: true)
        #expect(!csv.contains("Good day"))
        #expect(!csv.contains("felt"))
        #expect(Exporters.strongCSV(analysis(events), unit: .kg).contains("\"felt\nheavy\""))
    }

    @Test func jsonAndJSONLHoldEveryEventAsStored() throws {
        let events = try record(planner.plan(try read(strongClassic), file: "in.csv", existing: []).drafts)
        let lines = Exporters.jsonl(events).split(separator: "\n")
        #expect(lines.count == events.count)
        #expect(try lines.map { try EventCodec.decode(String($0)) } == events)
        let document = try JSONParser.parse(Exporters.json(events))
        #expect(document.objectValue?["events"]?.arrayValue?.count == events.count)
    }
}
