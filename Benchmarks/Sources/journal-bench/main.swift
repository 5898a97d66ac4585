// journal-bench: every ratio of BENCHMARKS.md measured in one run, on the same data, on this machine.
//
//   swift run -c release --package-path Benchmarks journal-bench all
//   … journal-bench replay | append | size | rss | fleet | queries
//   … journal-bench replay-file PATH [--projections]   (used by `rss` and callgrind: one streaming replay,
//                                                      prints events, seconds, peak RSS; --projections folds the Ledger too)
//   … journal-bench home-page JOURNAL [--ledger]   (one home page read, for callgrind)
import BenchSupport
import JournalFile
import Foundation
import JournalEvents
import JournalModel
import JournalSimulator
import JournalStore
import JournalProjections
import WorkoutJournal

lineBufferStandardOutput()

func format(_ value: Double, _ digits: Int = 0) -> String {
    let text = String(format: "%.\(digits)f", value)
    guard digits == 0, value >= 10_000 else { return text }
    var out = ""
    for (index, character) in text.reversed().enumerated() {
        if index > 0 && index % 3 == 0 { out.append(",") }
        out.append(character)
    }
    return String(out.reversed())
}

func machine() -> String {
    let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
        .split(separator: "\n").first { $0.hasPrefix("model name") }?
        .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
    return "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, Linux; release build, single thread unless stated"
}

/// Runs `command` with arguments, stdout to /dev/null, and returns the fastest wall time of `runs`.
func timeCommand(_ command: String, _ arguments: [String], runs: Int) throws -> Double {
    try fastest(runs: runs) { () throws -> Int32 in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }.seconds
}

func which(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
        let path = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

// MARK: Replay

func benchReplay() throws {
    let fiveYears = try Fixtures.recorded(weeks: 260)
    let million = try Fixtures.bulk(events: 1_000_000, level: 19)
    print("\n## Full replay (decompress, decode, fold `ReplaySummary`, and the `Ledger` as `journal replay` does)\n")
    print("Machine: \(machine()).\n")
    let ours5 = try fastest(runs: 21) { try OurReplay.replay(fiveYears) }
    let events5 = Double(ours5.result.events)
    let projections5 = try fastest(runs: 21) { try OurReplay.replayWithProjections(fiveYears) }
    let foundation5 = try fastest(runs: 2) { try FoundationReplay.replay(fiveYears) }
    precondition(foundation5.result == ours5.result, "Foundation's replay disagrees with ours")
    let foundationProjections5 = try fastest(runs: 2) { try FoundationReplay.replayWithProjections(fiveYears) }
    precondition(foundationProjections5.result == projections5.result, "Foundation's replay with the Ledger disagrees with ours")
    let floor5 = try fastest(runs: 21) { try OurReplay.decompressOnly(fiveYears) }
    let ours1m = try fastest(runs: 9) { try OurReplay.replay(million) }
    let events1m = Double(ours1m.result.events)
    let projections1m = try fastest(runs: 9) { try OurReplay.replayWithProjections(million) }
    let floor1m = try fastest(runs: 9) { try OurReplay.decompressOnly(million) }
    var zstdSeconds = Double.nan
    if let zstd = which("zstd") { zstdSeconds = try timeCommand(zstd, ["-dc", million], runs: 5) }
    print("| journal | what | seconds (best run) | events/s | ratio |")
    print("|---|---|---|---|---|")
    print("| 5 years, \(format(events5)) events, \(Fixtures.size(fiveYears)) bytes | ours: `EventReader.forEach` + `ReplaySummary` | \(format(ours5.seconds, 4)) | \(format(events5 / ours5.seconds)) | 1 |")
    print("| | Foundation `JSONDecoder` (typed Codable event) + same fold | \(format(foundation5.seconds, 4)) | \(format(events5 / foundation5.seconds)) | ours is **\(format(foundation5.seconds / ours5.seconds, 1))x** faster |")
    print("| | ours + the projections' `Ledger` (what `journal replay` folds) | \(format(projections5.seconds, 4)) | \(format(events5 / projections5.seconds)) | 1 |")
    print("| | Foundation `JSONDecoder` + the same two folds | \(format(foundationProjections5.seconds, 4)) | \(format(events5 / foundationProjections5.seconds)) | ours is **\(format(foundationProjections5.seconds / projections5.seconds, 1))x** faster |")
    print("| | floor in-process: read + decompress + split lines | \(format(floor5.seconds, 4)) | \(format(events5 / floor5.seconds)) | ours is \(format(ours5.seconds / floor5.seconds, 2))x the floor, \(format(projections5.seconds / floor5.seconds, 2))x with the `Ledger` |")
    print("| 1,000,000+ events (bulk, level 19), \(Fixtures.size(million)) bytes | ours | \(format(ours1m.seconds, 4)) | \(format(events1m / ours1m.seconds)) | 1 |")
    print("| | ours + the `Ledger` | \(format(projections1m.seconds, 4)) | \(format(events1m / projections1m.seconds)) | |")
    print("| | floor in-process | \(format(floor1m.seconds, 4)) | \(format(events1m / floor1m.seconds)) | ours is \(format(ours1m.seconds / floor1m.seconds, 2))x the floor, \(format(projections1m.seconds / floor1m.seconds, 2))x with the `Ledger` |")
    print("| | floor: `zstd -dc FILE > /dev/null` (a process) | \(format(zstdSeconds, 4)) | \(format(events1m / zstdSeconds)) | ours is **\(format(ours1m.seconds / zstdSeconds, 2))x** `zstd -dc`, **\(format(projections1m.seconds / zstdSeconds, 2))x** with the `Ledger` |")

    let lines = try Fixtures.lines(fiveYears)
    let decodeOurs = try fastest(runs: 21) { try OurReplay.decode(lines) }
    let decodeFoundation = try fastest(runs: 2) { try FoundationReplay.decode(lines) }
    precondition(decodeOurs.result == decodeFoundation.result)
    let reference = try fastest(runs: 3) { () throws -> Int in
        var seqs = 0
        for line in lines { seqs &+= try EventCodec.decodeReference(line).seq }
        return seqs
    }
    print("\nDecoding alone (the 5-year journal's \(format(Double(lines.count))) lines already in memory):\n")
    print("| decoder | seconds | events/s | MB/s | vs JSONDecoder |")
    print("|---|---|---|---|---|")
    let megabytes = Double(lines.reduce(0) { $0 + $1.count + 1 }) / 1e6
    for (name, seconds) in [("ours: `EventCodec.StreamDecoder` (fast path)", decodeOurs.seconds),
                            ("ours: reference path (`JSONParser` tree, then envelope)", reference.seconds),
                            ("Foundation `JSONDecoder`", decodeFoundation.seconds)] {
        print("| \(name) | \(format(seconds, 4)) | \(format(Double(lines.count) / seconds)) | \(format(megabytes / seconds, 0)) | \(format(decodeFoundation.seconds / seconds, 1))x |")
    }
}

// MARK: Queries

func benchQueries() throws {
    let fiveYears = try Fixtures.recorded(weeks: 260)
    let database = try SQLitePeer.imported(from: fiveYears)
    let peer = try SQLitePeer(path: database)
    let exercise = try OurReplay.busiestExercise(fiveYears)
    let ourHome = try fastest(runs: 7) { try OurReplay.home(fiveYears) }
    let theirHome = try fastest(runs: 21) { try peer.home() }
    precondition(ourHome.result == theirHome.result, "home answers differ: \(ourHome.result) vs \(theirHome.result)")
    let ourHistory = try fastest(runs: 7) { try OurReplay.history(fiveYears, exercise: exercise) }
    let theirHistory = try fastest(runs: 21) { try peer.history(exercise: exercise) }
    precondition(ourHistory.result == theirHistory.result, "history answers differ")
    print("\n## Answering a question on open (5-year journal; ours replays the journal, from a snapshot where stated)\n")
    print("| question | ours (ms) | SQLite WAL, indexed SQL (ms) | ratio |")
    print("|---|---|---|---|")
    print("| home page (\(ourHome.result.finished) workouts; last one's sets and volume), full replay of a small fold | \(format(ourHome.seconds * 1000, 2)) | \(format(theirHome.seconds * 1000, 2)) | ours takes \(format(ourHome.seconds / theirHome.seconds, 1))x |")
    // The real home page (`journal home`'s code path), from the whole ledger and from the home snapshot.
    // "Now": a day after the simulated history ends (it runs into the future).
    let now = Timestamp(rfc3339: "2030-01-01T12:00:00.000+00:00")!
    try? FileManager.default.removeItem(atPath: HomePage.snapshotPath(for: fiveYears))
    let fullPage = try fastest(runs: 7) { try OurReplay.homePage(fiveYears, now: now) }
    if fullPage.result.answer != theirHome.result { print("note: ledger answer \(fullPage.result.answer) vs SQLite \(theirHome.result)") }
    // The home page's own snapshot (`HomePage`, what `journal home` reads), written by the first read (a full replay).
    let cold = try fastest(runs: 1) { try OurReplay.homePageFromHomeSnapshot(fiveYears, now: now) }
    let homeWarm = try fastest(runs: 41) { try OurReplay.homePageFromHomeSnapshot(fiveYears, now: now) }
    precondition(homeWarm.result.home.jsonString == fullPage.result.home.jsonString, "the home page from the home snapshot differs from the full replay")
    var homeReplayed = 0
    if case .resumed(let count) = homeWarm.result.outcome { homeReplayed = count } else { print("note: home snapshot not used: \(homeWarm.result.outcome)") }
    let homeBytes = (try? FileManager.default.attributesOfItem(atPath: HomePage.snapshotPath(for: fiveYears))[.size] as? Int) ?? 0
    let homeDecode = try fastest(runs: 41) { try OurReplay.decodeHomeSnapshot(fiveYears) }
    let homeViewOnly = fastest(runs: 41) { OurReplay.homeFromHomeState(homeDecode.result, asOf: now) }
    let ledger = try JournalRead.read(path: fiveYears, asOf: nil, untilSeq: nil, now: now).ledger
    let viewOnly = fastest(runs: 21) { OurReplay.homeFromLedger(ledger) }
    print("| home page as `journal home` computes it (`Analysis` + `HomeState`), full replay | \(format(fullPage.seconds * 1000, 2)) | \(format(theirHome.seconds * 1000, 2)) | ours takes \(format(fullPage.seconds / theirHome.seconds, 1))x |")
    print("| … first read (no home snapshot yet: full replay, writes `<journal>.home-snapshot`) | \(format(cold.seconds * 1000, 2)) | \(format(theirHome.seconds * 1000, 2)) | ours takes \(format(cold.seconds / theirHome.seconds, 1))x |")
    print("| … of which: `Analysis` + `HomeState` over the folded ledger | \(format(viewOnly.seconds * 1000, 2)) | | |")
    print("| home page from its own snapshot (`HomePage`: `<journal>.home-snapshot`, \(homeBytes) bytes, + the \(homeReplayed) events after it), what `journal home` reads | **\(format(homeWarm.seconds * 1000, 2))** | \(format(theirHome.seconds * 1000, 2)) | ours takes **\(format(homeWarm.seconds / theirHome.seconds, 2))x** |")
    print("| … of which: reading and decoding the home snapshot | \(format(homeDecode.seconds * 1000, 2)) | | |")
    print("| … of which: the page from the decoded home state (no event folded) | \(format(homeViewOnly.seconds * 1000, 3)) | | |")
    print("| history of \(exercise) (\(ourHistory.result.count) workouts) | \(format(ourHistory.seconds * 1000, 2)) | \(format(theirHistory.seconds * 1000, 2)) | ours takes \(format(ourHistory.seconds / theirHistory.seconds, 1))x |")
    try peer.close()
}

// MARK: Append

func benchAppend(events count: Int = 600) throws {
    let folder = Fixtures.directory + "/append"
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let simulator = Simulator(seed: 5, weeks: 52, profile: SimulationProfile.named("upper-lower-lb")!, start: LocalDate(iso: "2025-01-06")!)
    let batches = simulator.batches()
    var now = Timestamp(epochMilliseconds: 0, offsetSeconds: 0)

    // One event per acknowledgement.
    let journal = try EventJournal(path: folder + "/single.journal", device: "ph", clock: { now })
    let peer = try SQLitePeer(path: folder + "/single.sqlite")
    var ours: [Double] = []
    var theirs: [Double] = []
    var recorded: [Event] = []
    outer: for batch in batches {
        for draft in batch {
            if let at = draft.objectValue?["at"]?.stringValue, let time = Timestamp(rfc3339: at) { now = time }
            let start = monotonicNanoseconds()
            // The acknowledgement (fsync done) returns before a due seal, as `journal record` does.
            let event = try journal.record(draft, sealNow: false)
            ours.append(Double(monotonicNanoseconds() - start) / 1e6)
            journal.sealIfDue()
            recorded.append(event)
            let start2 = monotonicNanoseconds()
            try peer.insert(event)
            theirs.append(Double(monotonicNanoseconds() - start2) / 1e6)
            if ours.count >= count { break outer }
        }
    }
    journal.close()
    try peer.close()
    ours.sort()
    theirs.sort()
    print("\n## Durable append: one acknowledged event (fsync before returning), \(count) events, same disk, interleaved\n")
    print("| store | p50 (ms) | p99 (ms) | max (ms) |")
    print("|---|---|---|---|")
    print("| ours: `EventJournal.record` (tail frame + fsync; seals after each workout included) | \(format(percentile(ours, 0.5), 3)) | \(format(percentile(ours, 0.99), 3)) | \(format(ours.last!, 3)) |")
    print("| SQLite WAL synchronous=FULL, one INSERT per transaction | \(format(percentile(theirs, 0.5), 3)) | \(format(percentile(theirs, 0.99), 3)) | \(format(theirs.last!, 3)) |")
    print("| ratio (SQLite / ours) | \(format(percentile(theirs, 0.5) / percentile(ours, 0.5), 2))x | \(format(percentile(theirs, 0.99) / percentile(ours, 0.99), 2))x | |")

    // Group commit: one acknowledgement per workout.
    let groupJournal = try EventJournal(path: folder + "/group.journal", device: "ph", clock: { now })
    let groupPeer = try SQLitePeer(path: folder + "/group.sqlite")
    var ourSeconds = 0.0, theirSeconds = 0.0, events = 0
    let group = batches.prefix(120)
    for batch in group {
        if let at = batch.last?.objectValue?["at"]?.stringValue, let time = Timestamp(rfc3339: at) { now = time }
        let start = monotonicNanoseconds()
        let stored = try groupJournal.record(batch: batch)
        ourSeconds += Double(monotonicNanoseconds() - start) / 1e9
        let start2 = monotonicNanoseconds()
        try groupPeer.insert(batch: stored)
        theirSeconds += Double(monotonicNanoseconds() - start2) / 1e9
        events += stored.count
    }
    groupJournal.close()
    try groupPeer.close()
    print("\nGroup commit: \(group.count) batches (one per workout or onboarding), \(events) events, one fsync per batch:\n")
    print("| store | events/s | batches/s |")
    print("|---|---|---|")
    print("| ours: `EventJournal.record(batch:)` (seal included) | \(format(Double(events) / ourSeconds)) | \(format(Double(group.count) / ourSeconds, 1)) |")
    print("| SQLite: one transaction per batch | \(format(Double(events) / theirSeconds)) | \(format(Double(group.count) / theirSeconds, 1)) |")
    print("| ratio (ours / SQLite) | \(format(theirSeconds / ourSeconds, 2))x | |")
}

// MARK: Size

func benchSize() throws {
    print("\n## Size at rest\n")
    print("| journal | events | JSONL bytes | ours (bytes) | SQLite, one row per event + 1 index (bytes) | SQLite / ours |")
    print("|---|---|---|---|---|---|")
    for weeks in [52, 260] {
        let journal = try Fixtures.recorded(weeks: weeks)
        let database = try SQLitePeer.imported(from: journal)
        let peer = try SQLitePeer(path: database)
        let sqlite = try peer.sizeOnDisk()
        try peer.close()
        let lines = try Fixtures.lines(journal)
        let plain = lines.reduce(0) { $0 + $1.count + 1 }
        let ours = Fixtures.size(journal)
        print("| \(weeks / 52) year(s), `journal simulate --profile upper-lower-lb --weeks \(weeks) --seed 7` | \(lines.count) | \(plain) | \(ours) | \(sqlite) | **\(format(Double(sqlite) / Double(ours), 1))x** |")
    }
}

// MARK: Memory

/// `replay-file PATH [--projections]`: one replay in this process (for `rss` and for callgrind); with
/// `--projections` it also folds the projections' `Ledger`, exactly what `journal replay` folds.
func replayFile(_ path: String, projections: Bool) throws {
    let start = monotonicNanoseconds()
    let summary = projections ? try OurReplay.replayWithProjections(path).0 : try OurReplay.replay(path)
    let seconds = Double(monotonicNanoseconds() - start) / 1e9
    print("\(summary.events) \(seconds) \(peakResidentBytes())")
}

func benchRSS() throws {
    let path = try Fixtures.bulk(events: 10_000_000, level: 3)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["replay-file", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    process.waitUntilExit()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ")
    let events = Double(output[0])!, seconds = Double(output[1].trimmingCharacters(in: .whitespacesAndNewlines))!
    let rss = Double(output[2].trimmingCharacters(in: .whitespacesAndNewlines))!
    print("\n## Streaming replay of a 10-million-event journal (a fresh process)\n")
    print("| journal | events | file bytes | seconds | events/s | peak RSS |")
    print("|---|---|---|---|---|---|")
    print("| `journal simulate --profile upper-lower-lb --weeks 520 --seed 11 --bulk-events 10000000 --seal-level 3` | \(format(events)) | \(Fixtures.size(path)) | \(format(seconds, 2)) | \(format(events / seconds)) | **\(format(rss / 1_048_576, 1)) MiB** |")
}

// MARK: Fleet

func benchFleet(users: Int = 10_000) throws {
    let paths = try Fixtures.fleet(users: users)
    let totalEvents = try paths.prefix(64).reduce(0) { $0 + (try OurReplay.replay($1)).events } * (users / 64)
    print("\n## Fleet: replay \(users) user journals (64 distinct lives of 4–30 weeks, ~\(format(Double(totalEvents) / Double(users))) events each)\n")
    print("Wall-clock scaling needs two idle cores; on a shared machine the CPU seconds per user (user + system time of the")
    print("process over the run) show whether a second thread costs extra work (contention) or only waits for a core.\n")
    print("| threads | seconds (best of 3) | users/s | events/s | wall-clock scaling | CPU ms per user | CPU efficiency vs 1 thread |")
    print("|---|---|---|---|---|---|---|")
    var single = 0.0
    var singleCPU = 0.0
    for threads in [1, 2] {
        let cpuBefore = processCPUSeconds()
        let run = try fastest(runs: 3) { () throws -> Int in
            let next = Locked(0)
            let total = Locked(0)
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                var events = 0
                while true {
                    let index = next.withLock { value -> Int in value += 1; return value - 1 }
                    guard index < paths.count else { break }
                    events += (try? OurReplay.replay(paths[index]).events) ?? 0
                }
                total.withLock { $0 += events }
            }
            return total.withLock { $0 }
        }
        let cpuPerUser = (processCPUSeconds() - cpuBefore) / Double(3 * users) * 1000
        if threads == 1 { single = run.seconds; singleCPU = cpuPerUser }
        print("| \(threads) | \(format(run.seconds, 3)) | \(format(Double(users) / run.seconds)) | \(format(Double(run.result) / run.seconds)) | \(format(single / run.seconds, 2))x | \(format(cpuPerUser, 3)) | \(format(singleCPU / cpuPerUser * 100, 0))% |")
    }
}

// @unchecked Sendable: `value` is only read or written inside `withLock`, while holding `lock`.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.lock(); defer { lock.unlock() }; return body(&value) }
}

// MARK: Main

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first ?? "all" {
    case "replay": try benchReplay()
    case "queries": try benchQueries()
    case "home-page":   // … JOURNAL [--ledger]: one home page read in this process, for callgrind (`--ledger`: JournalRead + Analysis)
        let now = Timestamp(rfc3339: "2030-01-01T12:00:00.000+00:00")!
        if arguments.dropFirst(2).contains("--ledger") {
            let page = try OurReplay.homePage(arguments[1], now: now)
            print("home page through the ledger: \(page.home.lastWorkouts.count) last workouts")
        } else {
            let page = try OurReplay.homePageFromHomeSnapshot(arguments[1], now: now)
            print("home page: \(page.outcome), \(page.home.lastWorkouts.count) last workouts")
        }
    case "append": try benchAppend()
    case "size": try benchSize()
    case "rss": try benchRSS()
    case "fleet": try benchFleet(users: arguments.count > 1 ? Int(arguments[1])! : 10_000)
    case "replay-file": try replayFile(arguments[1], projections: arguments.dropFirst(2).contains("--projections"))
    case "fixtures":
        for weeks in [52, 260] { _ = try Fixtures.recorded(weeks: weeks) }
        _ = try Fixtures.bulk(events: 1_000_000, level: 19)
        _ = try Fixtures.bulk(events: 10_000_000, level: 3)
        _ = try Fixtures.fleet(users: 10_000)
    case "all":
        print("# journal-bench (\(machine()))")
        try benchReplay()
        try benchQueries()
        try benchSize()
        try benchAppend()
        try benchRSS()
        try benchFleet()
    default:
        print("usage: journal-bench [all|replay|queries|append|size|rss|fleet|fixtures|replay-file PATH [--projections]]")
        exit(64)
    }
} catch {
    print("journal-bench: \(error)")
    exit(1)
}
