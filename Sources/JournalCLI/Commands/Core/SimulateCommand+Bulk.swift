import WorkoutJournalSync
import JournalSimulator

extension SimulateCommand {
    /// `journal simulate --bulk-events N`: a big journal for benchmarks, written by
    /// `BulkJournalWriter` (already sealed, at `--seal-level` when given; one fsync at the end).
    func runBulk(minimumEvents: Int) throws {
        guard minimumEvents >= 1, weeks >= 1, !tornTail else {
            throw Failure(message: "--bulk-events needs a positive count and --weeks of at least 1, and cannot make a torn tail")
        }
        var writer = BulkJournalWriter(seed: seed, weeksPerSegment: weeks, profile: SimulationProfile.named(profile)!,
                                       start: LocalDate(iso: start)!)
        if let sealLevel { writer.level = sealLevel }
        let written = try writer.write(path: output, minimumEvents: minimumEvents)
        printError("wrote \(written.events) events to \(output) (\(written.bytes) bytes in \(written.frames) frames, \(written.plainBytes) bytes of JSONL)")
    }
}
