import Foundation
import JournalEvents
import JournalModel
import TrainingDomain

/// Builds events for tests: seq counts from 1, one minute apart, from 2026-11-02T08:00Z.
struct EventLog {
    private(set) var events: [Event] = []

    /// The events as the model folds them (as of the far future).
    var ledger: Ledger { Ledger(events: events, asOf: Ledger.everything) }

    mutating func add(_ type: String, _ fields: JSONObject = [:]) {
        let seq = events.count + 1
        let at = Timestamp(epochMilliseconds: 1_793_606_400_000 + Int64(seq) * 60_000, offsetSeconds: 0)
        events.append(Event(seq: seq, id: "t-\(String(seq, radix: 36))", at: at, type: type, fields: fields))
    }

    /// A finished workout with working sets of `exercise` (weight, reps) each.
    mutating func workout(_ id: String, _ exercise: String, _ sets: [(Double, Int)], unit: String = "kg", reps: String? = nil, prescribedSets: Int? = nil) {
        add("workout.started", ["workout": .string(id), "name": "Session", "session": .null])
        if reps != nil || prescribedSets != nil {
            var fields: JSONObject = ["workout": .string(id), "exercise": .string(exercise)]
            if let reps { fields["reps"] = .string(reps) }
            if let prescribedSets { fields["sets"] = .int(prescribedSets) }
            add("exercise.added", fields)
        }
        for (index, set) in sets.enumerated() {
            add("set.completed", ["workout": .string(id), "exercise": .string(exercise), "set": .int(index + 1),
                                  "weight": .number(set.0), "unit": .string(unit), "reps": .int(set.1), "kind": "working"])
        }
        add("workout.finished", ["workout": .string(id)])
    }
}

/// `<repo>/../shared/realdata/NAME`, resolved from this file's path.
func realDataURL(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/realdata/\(name)")
}

func realDataPresent(_ name: String) -> Bool {
    let present = FileManager.default.fileExists(atPath: realDataURL(name).path)
    if !present { print("skipping: \(realDataURL(name).path) is absent (real data lives in ../shared/realdata)") }
    return present
}

/// One line per session: `Name: id sets×reps/rest, …`.
func summary(_ programme: Programme) -> [String] {
    programme.sessions.map { session in
        "\(session.name): " + session.exercises.map { e in
            "\(e.exercise) \(e.sets)x\(e.reps)/\(e.restSeconds)" + (e.weight.map { " @\(formatted($0))\(e.unit?.rawValue ?? "")" } ?? "")
        }.joined(separator: ", ")
    }
}

func formatted(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
