import ArgumentParser
import WorkoutJournalSync
import JournalSimulator
import Foundation
import JournalFile

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a deterministic, realistic journal for a simulated user.",
        discussion: """
        Profiles: \(SimulationProfile.names.joined(separator: ", ")). The same seed, weeks, profile and start \
        always give the same bytes. Each workout is recorded as one acknowledged batch and sealed when it ends, \
        as the app would.
        """
    )

    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Option(help: "Weeks of training to simulate.") var weeks: Int = 12
    @Option(help: "Who the user is: \(SimulationProfile.names.joined(separator: ", ")).") var profile: String = "ppl"
    @Option(help: "Monday of the first training week (YYYY-MM-DD).") var start: String = "2025-01-06"
    @Option(name: .shortAndLong, help: "The journal to write (must not exist unless --force).") var output: String
    @Flag(help: "Replace the output file if it exists.") var force = false
    @Flag(help: "End with a torn tail: half of one more event's frame, as if the writer was killed mid-append.") var tornTail = false
    @Option(help: "Bulk mode, for benchmarks: write at least this many events, already sealed, one fsync at the end (chains runs of --weeks).") var bulkEvents: Int?
    @Option(help: "Bulk mode: zstd level of the sealed frames (default: the level of batch writes, FORMAT.md §\"Compression levels\").")
    var sealLevel: Int32?

    func validate() throws {
        guard SimulationProfile.named(profile) != nil else {
            throw ValidationError("--profile \"\(profile)\" is not a profile; use one of: \(SimulationProfile.names.joined(separator: ", "))")
        }
        guard LocalDate(iso: start) != nil else { throw ValidationError("--start \"\(start)\" is not a date YYYY-MM-DD") }
        guard weeks >= 0 && weeks <= 2000 else { throw ValidationError("--weeks \(weeks) must be between 0 and 2000") }
    }

    func run() throws {
        try reportingFailures {
            if FileManager.default.fileExists(atPath: output) {
                guard force else { throw Failure(message: "\(output) already exists; pass --force to replace it") }
                try FileManager.default.removeItem(atPath: output)
            }
            if let bulkEvents { return try runBulk(minimumEvents: bulkEvents) }
            let simulator = Simulator(seed: seed, weeks: weeks, profile: SimulationProfile.named(profile)!, start: LocalDate(iso: start)!)
            var now = Timestamp(epochMilliseconds: 0, offsetSeconds: 0)
            let journal = try EventJournal(path: output, device: "ph", clock: { now })
            var events = 0
            let batches = simulator.batches()
            var bar = ProgressBar("simulate", total: batches.count)
            for (index, batch) in batches.enumerated() {
                bar.update(index)
                if let last = batch.last?.objectValue?["at"]?.stringValue, let time = Timestamp(rfc3339: last) { now = time }
                events += try journal.record(batch: batch).count
            }
            bar.finish()
            journal.seal()
            // A sample is a journal at rest: no reserve for appends at its end (a lone last event
            // stays in its one-event frame, which a seal never merges into the frame before it).
            try journal.releaseReserve()
            let lastSeq = journal.rules.lastSeq
            journal.close()
            if tornTail {
                try TornTail.append(to: output, afterSeq: lastSeq, at: now.adding(milliseconds: 86_400_000))
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            printError("wrote \(events) events to \(output) (\(size) bytes)\(tornTail ? " with a torn tail" : "")")
        }
    }
}
