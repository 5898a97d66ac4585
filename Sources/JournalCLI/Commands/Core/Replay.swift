import ArgumentParser
import EventJournal
import JournalEvents

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild state from scratch and print it.",
        discussion: "Folds every event (up to --until-seq, and up to --as-of) into the summary and every projection."
    )

    @Argument(help: "The journal file.") var file: String
    @Option(help: "Show the state as of this time (RFC 3339 with offset). Default: now.") var asOf: String?
    @Option(help: "Show the state as it was after event N.") var untilSeq: Int?
    @Flag(help: "Print as JSON.") var json = false

    func run() throws {
        try reportingFailures {
            let limit = try asOf.map { try parseTime($0, option: "--as-of") }
            var summary = ReplaySummary()
            try EventReader.forEach(path: file, untilSeq: untilSeq) { event in
                if let limit, event.at > limit { return }
                summary.apply(event)
            }
            let value = summaryJSON(summary)
            if json {
                print(JSONWriter.string(value))
                return
            }
            print("events:             \(summary.events) (last seq \(summary.lastSeq))")
            if summary.unknownEvents > 0 { print("unknown events:     \(summary.unknownEvents) (kept, skipped)") }
            print("workouts finished:  \(summary.workoutsFinished)")
            print("workouts discarded: \(summary.workoutsDiscarded)")
            print("working sets:       \(summary.workingSets) (+\(summary.warmupSets) warm-up)")
            print("volume:             \(formatKilograms(summary.volumeKg)) kg")
            print("first activity:     \(summary.firstActivity?.rfc3339 ?? "—")")
            print("last activity:      \(summary.lastActivity?.rfc3339 ?? "—")")
        }
    }

    func summaryJSON(_ s: ReplaySummary) -> JSONValue {
        .object([
            "events": .int(s.events), "last_seq": .int(s.lastSeq), "unknown_events": .int(s.unknownEvents),
            "workouts": .int(s.workoutsFinished), "workouts_discarded": .int(s.workoutsDiscarded),
            "sets": .int(s.workingSets), "warmup_sets": .int(s.warmupSets),
            "volume_kg": .number((s.volumeKg * 100).rounded() / 100),
            "first_activity": s.firstActivity.map { .string($0.rfc3339) } ?? .null,
            "last_activity": s.lastActivity.map { .string($0.rfc3339) } ?? .null,
        ])
    }
}

func formatKilograms(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}
