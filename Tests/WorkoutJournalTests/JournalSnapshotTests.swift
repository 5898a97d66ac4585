import Foundation
import Testing
import JournalStore
import JournalSimulator
import WorkoutJournal

/// `<journal>.snapshot` under every reader (PROJECTIONS.md §"Snapshots"): whatever state the snapshot is in, the
/// answer is the full replay's, byte for byte.
@Suite("Journal snapshots: the same answers as a full replay")
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
    var snapshotPath: String { path + ".snapshot" }
    let now = t("2026-11-22T12:00:00.000-05:00")

    /// Appends `lines` in batches of 1…`batch` lines, sealing the tail after about every `sealEvery` batches, so the
    /// journal has sealed frames and an unsealed tail as a writer leaves them.
    func append(_ storage: MemoryStorage, _ range: Range<Int>, random: inout SplitMix64, batch: Int = 40, sealEvery: Int = 3) throws {
        var options = JournalWriter.Options()
        options.sealTargetBytes = 2048
        let writer = try JournalWriter(path: path, storage: storage, options: options)
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

    /// Everything a reader can print: every projection's JSON and the replay summary.
    func answer(_ read: JournalRead) -> String {
        let projections = AllProjections(Analysis(read.ledger, context: .standard))
        let s = read.summary
        return JSONWriter.string(projections.jsonValue) + "\n\(s.events) \(s.lastSeq) \(s.workoutsFinished) \(s.workingSets) \(s.volumeKg)"
    }

    /// Reads with and without the snapshot, checks the answers are identical, and returns how the snapshot read went.
    @discardableResult
    func compare(_ storage: MemoryStorage, asOf: Timestamp? = nil, untilSeq: Int? = nil,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> SnapshotReplay.Outcome {
        let full = try JournalRead.read(path: path, storage: storage, asOf: asOf, untilSeq: untilSeq, now: now, useSnapshot: false)
        let fast = try JournalRead.read(path: path, storage: storage, asOf: asOf, untilSeq: untilSeq, now: now)
        #expect(fast.ledger == full.ledger, "as of \(asOf?.rfc3339 ?? "now"), until \(untilSeq.map(String.init) ?? "end")", sourceLocation: sourceLocation)
        #expect(answer(fast) == answer(full), "as of \(asOf?.rfc3339 ?? "now"), until \(untilSeq.map(String.init) ?? "end")", sourceLocation: sourceLocation)
        #expect(full.outcome == .fullReplay(because: SnapshotReplay.disabled), sourceLocation: sourceLocation)
        return fast.outcome
    }

    func snapshotBytes(_ storage: MemoryStorage) throws -> [UInt8] { try #require(storage.contents(of: snapshotPath)) }

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

    @Test("property: for random cut points, appends, seals, as-of times and seq limits, snapshot + resume == full fold")
    func randomCutsAndAppends() throws {
        var resumed = 0, refused = 0
        for seed in UInt64(1)...8 {
            var random = SplitMix64(seed: seed)
            let n = 1500
            let first = random.int(60...n / 2 - 1), second = random.int(first...n - 1)
            let storage = MemoryStorage()
            try append(storage, 0..<first, random: &random)
            try compare(storage)                                  // the first read writes the snapshot
            #expect(storage.exists(snapshotPath), "seed \(seed): no snapshot after \(first) lines")
            try append(storage, first..<second, random: &random)  // events (and seals) after the snapshot
            let outcomes = [
                try compare(storage),
                try compare(storage, asOf: Self.at(random.int(0...second - 1))),
                try compare(storage, untilSeq: random.int(1...second)),
                try compare(storage, asOf: Self.at(random.int(first...second - 1)), untilSeq: random.int(first...second)),
                try compare(storage, asOf: Self.at(second - 1)),
                try compare(storage),
            ]
            for outcome in outcomes {
                if case .resumed = outcome { resumed += 1 }
                if outcome == .fullReplay(because: SnapshotReplay.notAccepted) { refused += 1 }
            }
        }
        // Both paths were exercised: resuming, and refusing a snapshot past the requested point.
        #expect(resumed >= 16)
        #expect(refused >= 2)
    }

    @Test("--until-seq before the snapshot or --as-of before its events replays from the start; at or after, it resumes")
    func requestedPointDecides() throws {
        let storage = try journal(0..<1200)
        try compare(storage)
        let snapshot = try ProjectionSnapshot<JournalState>.decode(snapshotBytes(storage), stateVersion: JournalState.stateVersion).get()
        let folded = snapshot.state.maxSeq
        #expect(folded > 100 && folded < 1200)
        #expect(try compare(storage, untilSeq: folded - 1) == .fullReplay(because: SnapshotReplay.notAccepted))
        guard case .resumed = try compare(storage, untilSeq: folded) else { Issue.record("did not resume at the snapshot's seq"); return }
        let latest = Timestamp(epochMilliseconds: try #require(snapshot.state.latestMilliseconds), offsetSeconds: 0)
        #expect(try compare(storage, asOf: latest.adding(milliseconds: -1)) == .fullReplay(because: SnapshotReplay.notAccepted))
        // Resumes, then finds events after the snapshot later than T: replays with the filter.
        #expect(try compare(storage, asOf: latest) == .fullReplay(because: "events later than the as-of time"))
        guard case .resumed = try compare(storage, asOf: Self.at(1199)) else { Issue.record("did not resume as of the last event"); return }
        // Up to a seq without a usable snapshot: only the filtered replay, and no snapshot written.
        try storage.remove(snapshotPath)
        #expect(try compare(storage, untilSeq: 1000) == .fullReplay(because: "no snapshot"))
        #expect(!storage.exists(snapshotPath))
    }

    @Test("a valid snapshot is rewritten only once JournalState.rewriteAfter events follow it")
    func rewritePolicy() throws {
        func position(_ storage: MemoryStorage) throws -> JournalPosition {
            try ProjectionSnapshot<JournalState>.decode(snapshotBytes(storage), stateVersion: JournalState.stateVersion).get().position
        }
        let storage = try journal(0..<300)
        try compare(storage)
        let first = try position(storage)
        var random = SplitMix64(seed: 5)
        try append(storage, 300..<500, random: &random)
        guard case .resumed = try compare(storage) else { Issue.record("did not resume"); return }
        #expect(try position(storage) == first)
        try append(storage, 500..<(500 + JournalState.rewriteAfter + 100), random: &random)
        guard case .resumed(let replayed) = try compare(storage) else { Issue.record("did not resume"); return }
        #expect(replayed > JournalState.rewriteAfter)
        #expect(try position(storage).linesBefore > first.linesBefore + JournalState.rewriteAfter)
    }

    @Test("a corrupt snapshot — a bit flipped anywhere, cut short, another version, another key — gives the full replay's answer")
    func corruptSnapshots() throws {
        let storage = try journal(0..<900)
        try compare(storage)
        let good = try snapshotBytes(storage)
        let decoded = try Self.expectEveryDamageFallsBack(of: good, as: JournalState.self, at: snapshotPath, in: storage,
                                                          version: JournalState.stateVersion, flips: 60, bit: 0x04) { try compare(storage) }
        // A valid snapshot whose key points past the end of the journal.
        var pastTheEnd = decoded
        pastTheEnd.position.offset = try #require(storage.contents(of: path)).count + 10
        storage.setContents(of: snapshotPath, to: try pastTheEnd.encoded())
        #expect(try compare(storage) == .fullReplay(because: "the journal's bytes before the snapshot's position changed"))
        #expect(try ProjectionSnapshot<JournalState>.decode(snapshotBytes(storage), stateVersion: JournalState.stateVersion).get().state == decoded.state)
    }

    @Test("a journal rewritten since the snapshot makes it stale; one sealed since keeps it valid; both answer as a full replay")
    func journalChangedSinceSnapshot() throws {
        let storage = try journal(0..<900)
        try compare(storage)
        // Sealed since: the tail after the snapshot's position is rewritten as one frame and more is appended.
        var random = SplitMix64(seed: 99)
        try append(storage, 900..<1000, random: &random, sealEvery: 1)
        guard case .resumed = try compare(storage) else { Issue.record("a seal after the snapshot invalidated it"); return }
        // Rewritten: another history of the same length (the same lines with the first two swapped).
        let snapshot = try snapshotBytes(storage)
        try storage.remove(path)
        var other = Self.lines
        other.swapAt(3, 4)
        let writer = try JournalWriter(path: path, storage: storage)
        try writer.append(Array(other[0..<1000]))
        try writer.seal()
        writer.close()
        storage.setContents(of: snapshotPath, to: snapshot)
        #expect(try compare(storage) == .fullReplay(because: "the journal's bytes before the snapshot's position changed"))
    }

    @Test("resuming a version-2 journal reads its first 4 KiB and 12 bytes before the position, not the whole prefix; version 1 hashes the prefix")
    func resumeKeyCostDoesNotGrowWithHistory() throws {
        for version in [Layout.Version.v2, .v1] {
            let storage = MemoryStorage()
            var options = JournalWriter.Options()
            options.newJournalVersion = version
            let writer = try JournalWriter(path: path, storage: storage, options: options)
            try writer.append([Self.lines[0]])
            writer.close()
            // The rest in batches with seals between (appending keeps the version of the file).
            var random = SplitMix64(seed: 5)
            try append(storage, 1..<4600, random: &random)
            try compare(storage)
            try append(storage, 4600..<4610, random: &random, batch: 1, sealEvery: 1000)
            let position = try ProjectionSnapshot<JournalState>.decode(snapshotBytes(storage), stateVersion: JournalState.stateVersion).get().position
            let fileSize = try #require(storage.contents(of: path)).count
            let snapshotSize = try snapshotBytes(storage).count
            let before = storage.bytesRead
            let read = try JournalRead.read(path: path, storage: storage, asOf: nil, untilSeq: nil, now: now)
            guard case .resumed(let replayed) = read.outcome, replayed < 200 else {
                Issue.record("\(version): \(read.outcome)")
                continue
            }
            let touched = storage.bytesRead - before
            #expect(position.offset > 40_000, "\(version): the prefix is long (\(position.offset) bytes)")
            if version == .v2 {
                // The snapshot, the file's first 4 KiB and header, 12 bytes before the position, and what follows it.
                #expect(touched <= snapshotSize + 4096 + 16 + 12 + (fileSize - position.offset), "\(touched) bytes read")
            } else {
                #expect(touched >= snapshotSize + fileSize, "\(touched) bytes read")
            }
        }
    }

    @Test("a snapshot that cannot be written (read-only directory, full disk, I/O error) is silently skipped")
    func writeFailuresAreSilent() throws {
        for fault in [MemoryStorage.Fault.writeFails(errno: 30), .shortWrite(bytes: 100, errno: 28), .syncFails(errno: 5)] {
            let storage = try journal(0..<600)
            storage.inject(fault)
            #expect(try compare(storage) == .fullReplay(because: "no snapshot"), "\(fault)")
            #expect(!storage.exists(snapshotPath), "\(fault): a failed snapshot was left")
            #expect(storage.paths == [path], "\(fault): a temporary file was left: \(storage.paths)")
            try compare(storage)   // the next read writes it
            guard case .resumed = try compare(storage) else { Issue.record("\(fault): never recovered"); continue }
        }
    }

    @Test("on disk the snapshot is <journal>.snapshot, mode 0600, written through a temporary file that does not stay")
    func posixFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = directory + "/tom.journal"
        var options = JournalWriter.Options()
        options.sealTargetBytes = 2048
        let writer = try JournalWriter(path: journal, storage: PosixStorage(), options: options)
        for start in stride(from: 0, to: 600, by: 50) {
            try writer.append(Array(Self.lines[start..<start + 50]))
            try writer.seal()
        }
        writer.close()
        let first = try JournalRead.read(path: journal, asOf: nil, untilSeq: nil, now: now)
        #expect(first.outcome == .fullReplay(because: "no snapshot"))
        let attributes = try FileManager.default.attributesOfItem(atPath: journal + ".snapshot")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
                == ["tom.journal", "tom.journal.home-snapshot", "tom.journal.snapshot"])
        let homeAttributes = try FileManager.default.attributesOfItem(atPath: journal + ".home-snapshot")
        #expect((homeAttributes[.posixPermissions] as? Int) == 0o600)
        let second = try JournalRead.read(path: journal, asOf: nil, untilSeq: nil, now: now)
        guard case .resumed(let replayed) = second.outcome else { Issue.record("did not resume: \(second.outcome)"); return }
        #expect(replayed == 50)
        #expect(second.ledger == first.ledger)
    }

    @Test("useSnapshot: false neither reads nor writes the snapshot")
    func disabled() throws {
        let storage = try journal(0..<600)
        let full = try JournalRead.read(path: path, storage: storage, asOf: nil, untilSeq: nil, now: now, useSnapshot: false)
        #expect(full.outcome == .fullReplay(because: "snapshots disabled"))
        #expect(!storage.exists(snapshotPath))
    }

    @Test("the state round-trips through the snapshot's binary form whole")
    func stateRoundTrips() throws {
        let storage = try journal(0..<1500)
        let (state, _, _) = try JournalState.replay(path: path, storage: storage, useSnapshot: false)
        let decoded = try StateCoder.decode(JournalState.self, from: StateCoder.encode(state))
        #expect(decoded == state)
        #expect(decoded.summary.volumeKg == state.summary.volumeKg)
        #expect(answer(JournalRead(ledger: decoded.ledger, summary: decoded.summary, outcome: .resumed(eventsReplayed: 0)))
                == answer(JournalRead(ledger: state.ledger, summary: state.summary, outcome: .resumed(eventsReplayed: 0))))
    }
}

@Suite("The app facade opens from the snapshot")
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

    @Test("open writes <user>.journal.snapshot, the next open resumes from it, and both read exactly as a full replay")
    func openResumes() throws {
        let clock = TestClock("2026-11-20T18:00:00.000+01:00")
        let journals = JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { clock.now })
        defer { try? FileManager.default.removeItem(atPath: journals.path) }
        var options = EventJournal.Options()
        options.store.sealTargetBytes = 900   // seal often, so there are stable frames to stand on
        let journal = try journals.open(user: "ana", options: options)
        #expect(journal.openedFrom == .fullReplay(because: "no snapshot"))
        try Self.recordSixPushWorkouts(journal, clock: clock)
        let expected = journal.everything
        journal.close()

        let second = try journals.open(user: "ana", options: options)
        #expect(second.openedFrom == .fullReplay(because: "no snapshot"))   // the first open had nothing stable to save
        #expect(FileManager.default.fileExists(atPath: second.path + ".snapshot"))
        #expect(second.everything == expected)
        second.close()
        let third = try journals.open(user: "ana", options: options)
        guard case .resumed(let replayed) = third.openedFrom else { Issue.record("did not resume: \(third.openedFrom)"); third.close(); return }
        #expect(replayed < 20)
        #expect(third.everything == expected)
        // Appends fold on top of the resumed ledger exactly as on a replayed one.
        let pull = try third.startWorkout(name: "Pull")
        try third.completeSet(pull, exercise: "barbell-row", set: 1, weight: 60, reps: 10)
        let afterAppend = third.everything
        let ledger = third.ledger
        third.close()
        let replayed2 = try journals.open(user: "ana", options: options, useSnapshot: false)
        defer { replayed2.close() }
        #expect(replayed2.ledger == ledger)
        #expect(replayed2.everything == afterAppend)
        #expect(afterAppend.active?.name == "Pull")
    }

    @Test("homePage(user:) reads the home page without opening the journal: the open journal's page, from the home snapshot")
    func homePageWithoutOpening() throws {
        let clock = TestClock("2026-11-20T18:00:00.000+01:00")
        let journals = JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { clock.now })
        defer { try? FileManager.default.removeItem(atPath: journals.path) }
        var options = EventJournal.Options()
        options.store.sealTargetBytes = 900
        let journal = try journals.open(user: "ana", options: options, context: .standard)
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

    @Test("useSnapshot: false opens by a full replay and leaves no snapshot")
    func openWithoutSnapshot() throws {
        let journals = JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { t("2026-11-20T18:00:00.000+01:00") })
        defer { try? FileManager.default.removeItem(atPath: journals.path) }
        let journal = try journals.open(user: "ana", useSnapshot: false)
        defer { journal.close() }
        #expect(journal.openedFrom == .fullReplay(because: "snapshots disabled"))
        #expect(!FileManager.default.fileExists(atPath: journal.path + ".snapshot"))
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
        let full = try JournalRead.read(path: path, storage: storage, asOf: asOf, untilSeq: nil, now: now, useSnapshot: false)
        let expected = HomeView(Analysis(full.ledger, context: .standard))
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
            try compare(storage)                                   // the first read writes both snapshots
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
        // Both snapshots stand at the stable point, before the last sealed frame or the unsealed tail.
        guard case .resumed(let after) = try compare(storage) else { Issue.record("did not answer from the home snapshot"); return }
        #expect(after > 0 && after < 100)
        let before = try HomePage.read(path: path, storage: storage, asOf: nil, now: now, context: .standard).home
        // w1 finished long before the snapshot: a 200 kg incline press set in it (a history edit) needs its body, and
        // takes away the later incline press records the page lists.
        try write(storage, [line(seq: 901, at: 899, "set.edited", #""workout":"w1","exercise":"incline-dumbbell-press","set":2,"weight":200"#)])
        let page = try HomePage.read(path: path, storage: storage, asOf: nil, now: now, context: .standard)
        #expect(page.outcome == .fullReplay(because: HomePage.editsSummarised))
        #expect(page.ledgerOutcome == .resumed(eventsReplayed: after + 1))
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

    @Test("useSnapshot: false reads and writes neither snapshot")
    func disabled() throws {
        let storage = try base.journal(0..<600)
        let page = try HomePage.read(path: path, storage: storage, asOf: nil, now: now, context: .standard, useSnapshot: false)
        #expect(page.outcome == .fullReplay(because: SnapshotReplay.disabled))
        #expect(storage.paths == [path])
    }

    @Test("the home state keeps no finished workout's body: only open workouts stay in its ledger")
    func compacted() throws {
        let storage = try base.journal(0..<1199)
        let (state, _, _) = try JournalState.replay(path: path, storage: storage, useSnapshot: false)
        let home = HomeState(compacting: state.ledger)
        #expect(state.ledger.workouts.count == 13)
        #expect(home.ledger.workouts.map(\.id) == ["w13"])
        // w8 was discarded: neither kept nor summarised, but retired (an event naming it needs the whole ledger).
        #expect(home.finished.map(\.id) == ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w9", "w10", "w11", "w12"])
        var resumed = home
        #expect(!resumed.apply(try EventCodec.decode(line(seq: 1200, at: 1198, "workout.noted", #""workout":"w8","note":"x""#))))
        #expect(resumed.apply(try EventCodec.decode(line(seq: 1200, at: 1198, "workout.noted", #""workout":"w13","note":"x""#))))
    }
}
