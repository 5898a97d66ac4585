import Foundation
import Testing
import JournalStore
import JournalSimulator
import WorkoutJournal
import JournalEvents
import JournalFile
import JournalProjections

/// Journals cut from SampleJournals/ppl-12-weeks.journal, written as a recorder writes them (sealed frames and an
/// unsealed tail), for the home snapshot's tests; and the damage every snapshot file must survive.
struct JournalSnapshotTests {
    /// The lines of SampleJournals/ppl-12-weeks.journal (a programme, 49 workouts, edits, a change of offset).
    static let lines: [[UInt8]] = {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleJournals/ppl-12-weeks.journal").path
        var lines: [[UInt8]] = []
        _ = try? JournalReader.read(path: sample, storage: PosixStorage()) { line, _ in
            lines.append(Array(line))
        }
        return lines
    }()
    static func at(_ line: Int) -> Timestamp { try! EventCodec.decode(lines[line]).at }

    let path = "/journals/tom.journal"
    let now = t("2026-11-22T12:00:00.000-05:00")

    /// Appends `lines` in batches of 1…`batch` lines, sealing the tail after about every `sealEvery` batches, so the
    /// journal has sealed frames and an unsealed tail as a writer leaves them.
    func append(_ storage: MemoryStorage, _ range: Range<Int>, random: inout SplitMix64, batch: Int = 40, sealEvery: Int = 3) throws {
        let writer = try JournalWriter(path: path, storage: storage, options: JournalWriter.Options())
        defer { writer.close() }
        var index = range.lowerBound
        while index < range.upperBound {
            let end = min(range.upperBound, index + random.int(1...batch))
            try writer.append(Array(Self.lines[index..<end]))
            index = end
            // A writer seals before its tail reaches 64 one-event frames (FORMAT.md §"Sealing").
            if random.int(0...sealEvery - 1) == 0 || writer.tailRecordCount >= 48 { try writer.seal() }
        }
    }

    func journal(_ lines: Range<Int>, seed: UInt64 = 1) throws -> MemoryStorage {
        let storage = MemoryStorage()
        var random = SplitMix64(seed: seed)
        try append(storage, lines, random: &random)
        return storage
    }

    /// Puts each kind of damage in place of the valid snapshot `good` at `file` — `damaged(_:flips:bit:)`, an older
    /// state version, another prefix hash — and checks that `read` does not trust it, says why, and rewrites it
    /// whole. Returns `good` decoded.
    @discardableResult
    static func expectEveryDamageFallsBack<State: Codable & Sendable & Equatable>(
        of good: [UInt8], as: State.Type, at file: String, in storage: MemoryStorage, version: Int, flips: Int, bit: UInt8,
        sourceLocation: SourceLocation = #_sourceLocation, read: () throws -> SnapshotReplay.Outcome
    ) throws -> ProjectionSnapshot<State> {
        let decoded = try ProjectionSnapshot<State>.decode(good, stateVersion: version).get()
        var older = decoded
        older.stateVersion = version - 1
        var wrongKey = decoded
        wrongKey.position.prefixHash ^= 1
        let cases = damaged(good, flips: flips, bit: bit).map { ($0.bytes, "corrupt snapshot", $0.label) } + [
            (try older.encoded(), "snapshot of state version \(version - 1)", "an older version"),
            (try wrongKey.encoded(), "the journal's bytes before the snapshot's position changed", "another prefix hash"),
        ]
        for (bytes, reason, label) in cases {
            storage.setContents(of: file, to: bytes)
            guard case .fullReplay(let because) = try read() else {
                Issue.record("\(label): trusted a bad snapshot", sourceLocation: sourceLocation)
                continue
            }
            #expect(because.hasPrefix(reason), "\(label): \(because)", sourceLocation: sourceLocation)
            let rewritten = try ProjectionSnapshot<State>.decode(try #require(storage.contents(of: file)), stateVersion: version).get()
            #expect(rewritten.position == decoded.position && rewritten.state == decoded.state, "\(label): not rewritten",
                    sourceLocation: sourceLocation)
        }
        return decoded
    }

    /// Damaged copies of a snapshot file: `bit` flipped at about `flips` places spread over it and in its last byte,
    /// cut by one byte, cut to 40 bytes (inside the header) and empty.
    static func damaged(_ good: [UInt8], flips: Int, bit: UInt8) -> [(bytes: [UInt8], label: String)] {
        var damaged: [(bytes: [UInt8], label: String)] = []
        for position in stride(from: 0, to: good.count, by: max(1, good.count / flips)) + [good.count - 1] {
            var flipped = good
            flipped[position] ^= bit
            damaged.append((flipped, "bit flip at byte \(position)"))
        }
        damaged.append((Array(good.prefix(good.count - 1)), "cut by one byte"))
        damaged.append((Array(good.prefix(40)), "cut to 40 bytes"))
        damaged.append(([], "empty"))
        return damaged
    }
}

@Suite("The app facade reads the home page from its snapshot")
struct FacadeSnapshotTests {
    /// Ana's profile, then six "Push" workouts a day apart, each three bench sets of 50 + n kg × 9, 10, 11 reps.
    static func recordSixPushWorkouts(_ journal: UserJournal, clock: TestClock) throws {
        try journal.updateProfile(name: "Ana", unit: .kg)
        for index in 1...6 {
            let workout = try journal.startWorkout(name: "Push")
            for set in 1...3 {
                clock.advance(seconds: 120)
                try journal.completeSet(workout, exercise: "barbell-bench-press", set: set, weight: 50 + Double(index), reps: 8 + set)
            }
            try journal.finishWorkout(workout)
            clock.advance(seconds: 86_400)
        }
    }

    @Test("homePage(user:) reads the home page without opening the journal: the open journal's page, from the home snapshot")
    func homePageWithoutOpening() throws {
        let clock = TestClock("2026-11-20T18:00:00.000+01:00")
        let journals = JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { clock.now })
        defer { try? FileManager.default.removeItem(atPath: journals.path) }
        let journal = try journals.open(user: "ana", options: EventJournal.Options(), context: .standard)
        try Self.recordSixPushWorkouts(journal, clock: clock)
        let expected = journal.home
        // The writer holds its lock; reading the page needs none.
        let first = try journals.homePage(user: "ana", context: .standard)
        #expect(first.home.jsonString == expected.jsonString)
        #expect(first.outcome == .fullReplay(because: "no snapshot"))
        let second = try journals.homePage(user: "ana", context: .standard)
        guard case .resumed = second.outcome else { Issue.record("did not read the home snapshot: \(second.outcome)"); journal.close(); return }
        #expect(second.home.jsonString == expected.jsonString)
        #expect(second.home.lastWorkouts.map(\.volumeKilograms) == [1680, 1650, 1620])   // 56, 55, 54 kg × (9 + 10 + 11) reps
        journal.close()
        #expect(throws: UserIDError.self) { try journals.homePage(user: "../x") }
    }
}

/// `<journal>.home-snapshot` and `HomePage` (PROJECTIONS.md §"Snapshots"): the home page from its own small state
/// is the full replay's page, byte for byte, or is not used.
@Suite("The home page from its snapshot: the same page as a full replay")
struct HomeSnapshotTests {
    let base = JournalSnapshotTests()
    var path: String { base.path }
    var homePath: String { path + ".home-snapshot" }
    var now: Timestamp { base.now }

    /// The page through the home snapshot and the full replay's page; checks they are the same JSON and returns how
    /// the home snapshot was used.
    @discardableResult
    func compare(_ storage: MemoryStorage, asOf: Timestamp? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> SnapshotReplay.Outcome {
        let full = try JournalRead.read(path: path, storage: storage, asOf: asOf, untilSeq: nil, now: now)
        let expected = HomeState(Analysis(full.ledger, context: .standard))
        let page = try HomePage.read(path: path, storage: storage, asOf: asOf, now: now, context: .standard)
        #expect(page.home.jsonString == expected.jsonString, "as of \(asOf?.rfc3339 ?? "now"): \(page.outcome)", sourceLocation: sourceLocation)
        #expect(page.unit == full.ledger.displayUnit, sourceLocation: sourceLocation)
        return page.outcome
    }

    /// One event line with the next seq, at the time of line `at` of the sample.
    func line(seq: Int, at: Int, _ type: String, _ fields: String) -> [UInt8] {
        Array(#"{"v":1,"seq":\#(seq),"id":"t-\#(seq)","at":"\#(JournalSnapshotTests.at(at).rfc3339)","type":"\#(type)",\#(fields)}"#.utf8)
    }

    func write(_ storage: MemoryStorage, _ lines: [[UInt8]]) throws {
        let writer = try JournalWriter(path: path, storage: storage)
        defer { writer.close() }
        try writer.append(lines)
        try writer.seal()
    }

    @Test("property: for random cut points, appends, seals and as-of times, the page from the home snapshot == the full replay's")
    func randomCutsAndAppends() throws {
        var fromHome = 0
        var reasons: Set<String> = []
        for seed in UInt64(1)...8 {
            var random = SplitMix64(seed: seed)
            let n = JournalSnapshotTests.lines.count
            let first = random.int(60...n / 2 - 1), second = random.int(first...n - 1)
            let storage = MemoryStorage()
            try base.append(storage, 0..<first, random: &random)
            try compare(storage)                                   // the first read writes the home snapshot
            #expect(storage.exists(homePath), "seed \(seed): no home snapshot after \(first) lines")
            try base.append(storage, first..<second, random: &random)
            let outcomes = [
                try compare(storage),
                try compare(storage, asOf: JournalSnapshotTests.at(random.int(0...second - 1))),
                try compare(storage, asOf: JournalSnapshotTests.at(random.int(first...second - 1))),
                try compare(storage, asOf: JournalSnapshotTests.at(second - 1)),
                try compare(storage),
            ]
            for outcome in outcomes {
                switch outcome {
                case .resumed: fromHome += 1
                case .fullReplay(let because): reasons.insert(because)
                }
            }
        }
        // The home snapshot answered most pages; it was refused for T before its events, and for history edits.
        #expect(fromHome >= 20)
        #expect(reasons.contains(SnapshotReplay.notAccepted))
        #expect(reasons.contains(HomePage.editsSummarised))
    }

    @Test("a history edit after the home snapshot falls back to the ledger; once sealed past, the home snapshot is rewritten and used")
    func historyEditFallsBack() throws {
        let storage = try base.journal(0..<900)
        try compare(storage)
        // The home snapshot stands at the stable point, before the last sealed frame or the unsealed tail.
        guard case .resumed(let after) = try compare(storage) else { Issue.record("did not answer from the home snapshot"); return }
        #expect(after > 0 && after < 100)
        let before = try HomePage.read(path: path, storage: storage, asOf: nil, now: now, context: .standard).home
        // w1 finished long before the snapshot: a 200 kg incline press set in it (a history edit) needs its body, and
        // takes away the later incline press records the page lists.
        try write(storage, [line(seq: 901, at: 899, "set.edited", #""workout":"w1","exercise":"incline-dumbbell-press","set":2,"weight":200"#)])
        let page = try HomePage.read(path: path, storage: storage, asOf: nil, now: now, context: .standard)
        #expect(page.outcome == .fullReplay(because: HomePage.editsSummarised))
        #expect(before.recentRecords.map(\.exercise)
                == ["dumbbell-fly", "dumbbell-lateral-raise", "dumbbell-lateral-raise", "incline-dumbbell-press", "incline-dumbbell-press"])
        #expect(page.home.recentRecords.filter { $0.exercise == "incline-dumbbell-press" }.count < 2)
        try compare(storage)
        // More events sealed after the note move the stable point past it: the fallback rewrote the home snapshot there.
        var random = SplitMix64(seed: 3)
        try base.append(storage, 900..<960, random: &random, sealEvery: 1)
        _ = try HomePage.read(path: path, storage: storage, asOf: nil, now: now, context: .standard)
        guard case .resumed = try compare(storage) else { Issue.record("the home snapshot was not rewritten past the edit"); return }
    }

    @Test("a workout finished after the home snapshot that starts before its last workout (backdated) falls back to the ledger")
    func backdatedWorkoutFallsBack() throws {
        let storage = try base.journal(0..<900)
        try compare(storage)
        let early = JournalSnapshotTests.at(10).rfc3339
        try write(storage, [
            line(seq: 901, at: 899, "workout.started", #""workout":"late-1","name":"Forgotten","started_at":"\#(early)""#),
            line(seq: 902, at: 899, "set.completed", #""workout":"late-1","exercise":"barbell-back-squat","set":1,"weight":200,"unit":"kg","reps":5,"kind":"working""#),
            line(seq: 903, at: 899, "workout.finished", #""workout":"late-1""#),
        ])
        #expect(try compare(storage) == .fullReplay(because: HomePage.backdated))
    }

    @Test("a workout finished after the home snapshot adds its records to the page, as the full replay does")
    func newRecordsAfterTheSnapshot() throws {
        let storage = try base.journal(0..<900)
        try compare(storage)
        guard case .resumed(let after) = try compare(storage) else { Issue.record("did not answer from the home snapshot"); return }
        try write(storage, [
            line(seq: 901, at: 899, "workout.started", #""workout":"big","name":"Heavy day""#),
            line(seq: 902, at: 899, "set.completed", #""workout":"big","exercise":"barbell-back-squat","set":1,"weight":300,"unit":"kg","reps":5,"kind":"working""#),
            line(seq: 903, at: 899, "workout.finished", #""workout":"big""#),
        ])
        #expect(try compare(storage) == .resumed(eventsReplayed: after + 3))
        let page = try HomePage.read(path: path, storage: storage, asOf: nil, now: now, context: .standard)
        #expect(page.home.lastWorkouts.first?.workout == "big")
        #expect(page.home.lastWorkouts.first?.volumeKilograms == 1500)
        #expect(page.home.recentRecords.first?.workout == "big")
        #expect(page.home.recentRecords.first?.exercise == "barbell-back-squat")
    }

    @Test("a corrupt home snapshot — a bit flipped anywhere, cut short, another version, another key — gives the full replay's page and is rewritten")
    func corruptHomeSnapshots() throws {
        let storage = try base.journal(0..<900)
        try compare(storage)
        let good = try #require(storage.contents(of: homePath))
        let decoded = try JournalSnapshotTests.expectEveryDamageFallsBack(of: good, as: HomeSnapshotState.self, at: homePath, in: storage,
                                                                          version: HomeSnapshotState.stateVersion, flips: 40, bit: 0x10) {
            try compare(storage)
        }
        try storage.remove(homePath)
        #expect(try compare(storage) == .fullReplay(because: "no snapshot"))
        #expect(try ProjectionSnapshot<HomeSnapshotState>.decode(try #require(storage.contents(of: homePath)),
                                                                 stateVersion: HomeSnapshotState.stateVersion).get().state == decoded.state)
    }

    @Test("useSnapshot: false neither reads nor writes the home snapshot")
    func disabled() throws {
        let storage = try base.journal(0..<600)
        let page = try HomePage.read(path: path, storage: storage, asOf: nil, now: now, context: .standard, useSnapshot: false)
        #expect(page.outcome == .fullReplay(because: SnapshotReplay.disabled))
        #expect(storage.paths == [path])
    }

    @Test("the home state keeps no finished workout's body: only open workouts stay in its ledger")
    func compacted() throws {
        let storage = try base.journal(0..<1199)
        let state = try JournalState.replay(path: path, storage: storage)
        let home = HomeFold(compacting: state.ledger)
        #expect(state.ledger.workouts.count == 13)
        #expect(home.ledger.workouts.map(\.id) == ["w13"])
        // w8 was discarded: neither kept nor summarised, but retired (an event naming it needs the whole ledger).
        #expect(home.finished.map(\.id) == ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w9", "w10", "w11", "w12"])
        var resumed = home
        #expect(!resumed.apply(try EventCodec.decode(line(seq: 1200, at: 1198, "workout.noted", #""workout":"w8","note":"x""#))))
        #expect(resumed.apply(try EventCodec.decode(line(seq: 1200, at: 1198, "workout.noted", #""workout":"w13","note":"x""#))))
    }
}
