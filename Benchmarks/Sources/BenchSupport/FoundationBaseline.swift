import JournalFile
import Foundation
import JournalEvents
import JournalModel
import JournalProjections
import JournalStore

/// The baseline: Foundation's `JSONDecoder` decoding each line into a typed, Codable event (the
/// fields the replay needs; unknown keys ignored — the most favourable shape for it), then the same
/// fold as ours.
public struct FoundationEvent: Codable, Sendable {
    public var v: Int
    public var seq: Int
    public var id: String
    public var at: String
    public var type: String
    public var workout: String?
    public var exercise: String?
    public var set: Int?
    public var weight: Double?
    public var unit: String?
    public var reps: Int?
    public var kind: String?

    /// As our `Event`, so the same `ReplaySummary` folds it.
    public var event: Event? {
        guard let time = Timestamp(rfc3339: at) else { return nil }
        var fields = JSONObject()
        if let workout { fields["workout"] = .string(workout) }
        if let exercise { fields["exercise"] = .string(exercise) }
        if let set { fields["set"] = .int(set) }
        if let weight { fields["weight"] = .number(weight) }
        if let unit { fields["unit"] = .string(unit) }
        if let reps { fields["reps"] = .int(reps) }
        if let kind { fields["kind"] = .string(kind) }
        return Event(v: v, seq: seq, id: id, at: time, type: type, fields: fields)
    }
}

public enum FoundationReplay {
    /// Decompress (same reader as ours), decode each line with `JSONDecoder`, fold.
    public static func replay(_ path: String) throws -> ReplaySummary {
        let decoder = JSONDecoder()
        var summary = ReplaySummary()
        try JournalReader.read(path: path, storage: PosixStorage()) { line, _ in
            let data = Data(buffer: line)
            if let event = try decoder.decode(FoundationEvent.self, from: data).event { summary.apply(event) }
        }
        return summary
    }

    /// The same with the projections' `Ledger` folded too (what `journal replay` folds), as `OurReplay.replayWithProjections`.
    public static func replayWithProjections(_ path: String) throws -> (ReplaySummary, Int) {
        let decoder = JSONDecoder()
        var summary = ReplaySummary()
        var ledger = Ledger(asOf: OurReplay.farFuture)
        try JournalReader.read(path: path, storage: PosixStorage()) { line, _ in
            let data = Data(buffer: line)
            if let event = try decoder.decode(FoundationEvent.self, from: data).event {
                summary.apply(event)
                ledger.apply(event)
            }
        }
        return (summary, ledger.workouts.count)
    }

    /// Decode already-decompressed lines with `JSONDecoder` (the decoder alone).
    public static func decode(_ lines: [[UInt8]]) throws -> Int {
        let decoder = JSONDecoder()
        var seqs = 0
        for line in lines { seqs &+= try decoder.decode(FoundationEvent.self, from: Data(line)).seq }
        return seqs
    }
}
