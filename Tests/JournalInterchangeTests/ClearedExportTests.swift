import Foundation
import JournalEvents
import JournalInterchange
import JournalModel
import Testing

/// After "Clear All Data" (`data.cleared`) no export shows the cleared history or name (DOMAIN.md §11).
@Suite("Exports after a clear")
struct ClearedExportTests {
    static func cleared(unit: String) throws -> [Event] {
        try record([
            ["type": "profile.updated", "name": "Secret Sam", "email": "sam@example.com", "unit": .string(unit)],
            ["type": "workout.started", "workout": "old", "name": "Sam's Day", "session": nil],
            ["type": "set.completed", "workout": "old", "exercise": "barbell-bench-press", "set": 1, "weight": 100, "unit": .string(unit), "reps": 5,
             "kind": "working", "note": "felt like Sam"],
            ["type": "workout.finished", "workout": "old"],
            ["type": "data.cleared"],
            ["type": "workout.started", "workout": "new", "name": "Fresh", "session": nil],
            ["type": "set.completed", "workout": "new", "exercise": "barbell-back-squat", "set": 1, "weight": 60, "unit": .string(unit), "reps": 5, "kind": "working"],
            ["type": "workout.finished", "workout": "new"],
        ])
    }

    @Test("JSON and JSONL hold only the events after the last clear, renumbered from seq 1; the CSVs only the workouts after it", arguments: ["kg", "lb"])
    func nothingClearedLeaves(_ unit: String) throws {
        let events = try Self.cleared(unit: unit)
        let visible = Exporters.visible(events)
        #expect(visible.map(\.seq) == [1, 2, 3])
        #expect(visible.map(\.type) == ["workout.started", "set.completed", "workout.finished"])
        #expect(visible.map(\.id) == events.suffix(3).map(\.id))
        for text in [Exporters.jsonl(visible), Exporters.json(visible),
                     Exporters.strongCSV(analysis(events), unit: WeightUnit(unit)!), Exporters.hevyCSV(analysis(events), unit: WeightUnit(unit)!),
                     Exporters.fitNotesCSV(analysis(events), unit: WeightUnit(unit)!)] {
            #expect(!text.contains("Sam") && !text.contains("sam@") && !text.contains("Bench"), "\(text)")
            #expect(text.contains("Fresh") || text.contains("Squat"), "\(text)")
        }
        // Restores into a new journal: the seqs follow on from 1.
        let drafts: [JSONValue] = visible.map { event in
            var object = event.fields
            object["type"] = .string(event.type)
            object["seq"] = .int(event.seq)
            return .object(object)
        }
        #expect(try record(drafts).map(\.seq) == [1, 2, 3])
        // Without a clear, every event as stored.
        let plain = Array(events.prefix(4))
        #expect(Exporters.visible(plain) == plain)
    }
}
