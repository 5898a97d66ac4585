import JournalFile
import Foundation
import JournalEvents
import JournalSimulator
import JournalStore

/// The journals the benchmarks read, made once from `journal simulate`'s code at fixed seeds and
/// kept under `Benchmarks/.build/fixtures` (or `$JOURNAL_BENCH_FIXTURES`).
public enum Fixtures {
    public static let directory: String = {
        if let path = ProcessInfo.processInfo.environment["JOURNAL_BENCH_FIXTURES"] { return path }
        // Benchmarks/Sources/BenchSupport/Fixtures.swift → Benchmarks/.build/fixtures
        let here = URL(fileURLWithPath: #filePath)
        return here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/fixtures").path
    }()

    static func prepareDirectory() {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    public static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    public static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0
    }

    /// A journal exactly as the app writes it: each batch recorded and acknowledged through
    /// `EventJournal` (fsync), sealed when a workout ends — what `journal simulate` does.
    public static func recorded(weeks: Int, seed: UInt64 = 7, profile: String = "upper-lower-lb") throws -> String {
        prepareDirectory()
        let path = "\(directory)/recorded-\(profile)-\(weeks)w-seed\(seed).journal"
        if exists(path) { return path }
        let partial = path + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        let simulator = Simulator(seed: seed, weeks: weeks, profile: SimulationProfile.named(profile)!, start: LocalDate(iso: "2025-01-06")!)
        var now = Timestamp(epochMilliseconds: 0, offsetSeconds: 0)
        let journal = try EventJournal(path: partial, device: "ph", clock: { now })
        for batch in simulator.batches() {
            if let last = batch.last?.objectValue?["at"]?.stringValue, let time = Timestamp(rfc3339: last) { now = time }
            try journal.record(batch: batch)
        }
        journal.seal()
        journal.close()
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return path
    }

    /// A big journal from `BulkJournalWriter` (`journal simulate --bulk-events`).
    public static func bulk(events: Int, level: Int32, seed: UInt64 = 11, weeksPerSegment: Int = 520,
                            profile: String = "upper-lower-lb") throws -> String {
        prepareDirectory()
        let path = "\(directory)/bulk-\(profile)-\(events)-level\(level)-seed\(seed).journal"
        if exists(path) { return path }
        let partial = path + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        var writer = BulkJournalWriter(seed: seed, weeksPerSegment: weeksPerSegment, profile: SimulationProfile.named(profile)!,
                                       start: LocalDate(iso: "2025-01-06")!)
        writer.level = level
        _ = try writer.write(path: partial, minimumEvents: events)
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return path
    }

    /// `count` user journals for the fleet benchmark: `distinct` different lives (profiles, seeds,
    /// 4 to 30 weeks each), copied round-robin to `users/<n>.journal`.
    public static func fleet(users count: Int, distinct: Int = 64) throws -> [String] {
        prepareDirectory()
        let folder = "\(directory)/fleet-\(count)"
        let paths = (0..<count).map { "\(folder)/user-\($0).journal" }
        if exists(paths[count - 1]) { return paths }
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var originals: [String] = []
        let profiles = ["ppl", "upper-lower-lb", "full-body"]
        for index in 0..<distinct {
            let path = "\(folder)/life-\(index).journal"
            var writer = BulkJournalWriter(seed: UInt64(1000 + index), weeksPerSegment: 4 + (index * 7) % 27,
                                           profile: SimulationProfile.named(profiles[index % 3])!, start: LocalDate(iso: "2025-01-06")!)
            writer.level = 19
            _ = try writer.write(path: path, minimumEvents: 1)
            originals.append(path)
        }
        for (index, path) in paths.enumerated() {
            try FileManager.default.copyItem(atPath: originals[index % distinct], toPath: path)
        }
        return paths
    }

    /// Every event of a journal, in order.
    public static func events(_ path: String) throws -> [Event] {
        try EventReader.events(path: path)
    }

    /// The plain lines (without newlines) of a journal, decompressed.
    public static func lines(_ path: String) throws -> [[UInt8]] {
        try JournalReader.records(path: path, storage: PosixStorage()).records
    }
}
