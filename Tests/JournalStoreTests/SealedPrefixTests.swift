import JournalStore
import JournalTesting
import Testing
import JournalSimulator

/// Sealed frames are immutable (FORMAT.md §"Sealing"): over random sequences of appends, seals,
/// reopenings and crashes (with every kind of power loss), the sealed part of the journal as a
/// reader sees it at any moment is a byte prefix of the journal at every later moment.
@Suite("The sealed part of a journal only ever grows")
struct SealedPrefixTests {
    /// What a reader sees: the journal's bytes (a pending seal applied) and where its sealed part ends.
    static func view(_ memory: MemoryStorage, _ path: String) throws -> (bytes: [UInt8], sealedEnd: Int)? {
        guard memory.exists(path) else { return nil }
        return try JournalReader.withView(path: path, storage: memory) { source in
            let bytes = try source.read(at: 0, count: try source.size())
            var scanner = try FrameScanner(source: source, zstd: Zstd())
            let report = try scanner.scan { _, _ in }
            return (bytes, report.sealedEnd)
        }
    }

    /// Tracks the longest sealed prefix seen and checks every later view against it.
    final class Observer {
        let memory: MemoryStorage
        let path: String
        var sealed: [UInt8] = []
        var observations = 0
        var problems: [String] = []
        var label = ""
        init(memory: MemoryStorage, path: String) { self.memory = memory; self.path = path }

        /// Observes the journal unless a live writer holds the seal lock (a reader waits then).
        func observe() {
            guard let probe = try? memory.openForReading(path) else { return }
            defer { probe.close() }
            guard (try? probe.lock(.seal, exclusive: false, wait: false)) == true else { return }
            probe.unlock(.seal)
            do {
                guard let (bytes, sealedEnd) = try SealedPrefixTests.view(memory, path) else { return }
                observations += 1
                if !bytes.starts(with: sealed) {
                    let at = zip(bytes, sealed).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(bytes.count, sealed.count)
                    problems.append("\(label): the \(sealed.count)-byte sealed prefix seen before is not a prefix of the \(bytes.count)-byte journal now (first difference at byte \(at))")
                    sealed = Array(bytes.prefix(sealedEnd))
                } else if sealedEnd > sealed.count {
                    sealed = Array(bytes.prefix(sealedEnd))
                }
            } catch {
                problems.append("\(label): reading failed: \(error)")
            }
        }
    }

    static func record(_ n: Int, _ random: inout TestRandom) -> [UInt8] {
        // Lines of varying length and content, so frames differ in size and compress unevenly.
        let filler = String(repeating: "abcdefghij", count: random.int(0...12))
        return Array("{\"n\":\(n),\"x\":\"\(filler)\(random.int(0...999_999))\"}".utf8)
    }

    /// One random history of `steps` operations on a fresh journal.
    static func run(seed: UInt64, steps: Int) -> (problems: [String], observations: Int, crashes: Int, seals: Int, finalSealed: Int) {
        var random = TestRandom(seed: seed)
        let memory = MemoryStorage()
        let path = "j"
        let observer = Observer(memory: memory, path: path)
        var crashes = 0
        var seals = 0
        var n = 0
        var scripted = ScriptedStorage(base: memory)
        scripted.beforeEachOperation = observer.observe
        var writer: JournalWriter?
        let losses: [(Int) -> MemoryStorage.PowerLoss] = [
            { _ in .dropUnsynced }, { _ in .keepUnsynced }, { .keepUnsyncedUpTo(offset: $0 / 2) },
            { .keepUnsyncedUpTo(offset: max(0, $0 - 7)) }, { .garbleUnsyncedFrom(offset: $0 / 3, pattern: 0xA5) },
        ]
        for step in 0..<steps {
            observer.label = "seed \(seed) step \(step)"
            if writer == nil {
                writer = try? JournalWriter(path: path, storage: scripted)
                observer.observe()
                if writer == nil && !scripted.crashed { observer.problems.append("\(observer.label): reopening failed") }
            }
            switch random.int(0...9) {
            case 0...4:
                let count = random.int(1...4)
                let records = (0..<count).map { _ -> [UInt8] in n += 1; return record(n, &random) }
                _ = try? writer?.append(records)
            case 5...6:
                if (try? writer?.seal()) == true { seals += 1 }
            case 7:
                writer?.close()
                writer = nil
            default:
                // The process dies within the next few operations, whatever it is doing.
                scripted.crashAt = scripted.trace.count + random.int(0...10)
                scripted.crashingWriteKeeps = [0, 1, 20][random.int(0...2)]
                while !scripted.crashed {
                    let count = random.int(1...3)
                    let records = (0..<count).map { _ -> [UInt8] in n += 1; return record(n, &random) }
                    if writer == nil { writer = try? JournalWriter(path: path, storage: scripted) }
                    _ = try? writer?.append(records)
                    if random.chance(0.5) { _ = try? writer?.seal() }
                }
                writer?.close()
                writer = nil
                let size = memory.contents(of: path)?.count ?? 0
                memory.powerLoss(losses[random.int(0...(losses.count - 1))](size))
                crashes += 1
                observer.observe()
                scripted = ScriptedStorage(base: memory)
                scripted.beforeEachOperation = observer.observe
            }
            observer.observe()
        }
        writer?.close()
        // The last open repairs whatever the last crash left; the sealed prefix survives that too.
        observer.label = "seed \(seed) final reopen"
        if let last = try? JournalWriter(path: path, storage: memory) { last.close() } else { observer.problems.append("final reopen failed") }
        observer.observe()
        return (observer.problems, observer.observations, crashes, seals, observer.sealed.count)
    }

    /// Random histories: 20 in CI, 60 with `JOURNAL_CAMPAIGNS=full`.
    static let histories = CampaignSize.ci(20, full: 60)

    @Test("over random histories of 40 operations with crashes (20; 60 in the full campaign), no sealed byte ever changes")
    func sealedPrefixNeverChanges() {
        var problems: [String] = []
        var observations = 0
        var crashes = 0
        var seals = 0
        var grew = 0
        for seed in UInt64(1)...UInt64(Self.histories) {
            let result = SealedPrefixTests.run(seed: seed, steps: 40)
            problems += result.problems
            observations += result.observations
            crashes += result.crashes
            seals += result.seals
            if result.finalSealed > 16 { grew += 1 }
        }
        print("sealed prefix: \(Self.histories) histories, \(observations) observations, \(crashes) crashes, \(seals) seals, 0 changed sealed bytes expected, \(problems.count) found")
        #expect(problems == [])
        // The histories do what they are meant to: many observations, crashes and seals in each.
        #expect(observations > 80 * Self.histories)
        #expect(crashes > 3 * Self.histories / 2)
        #expect(seals > 4 * Self.histories)
        #expect(grew == Self.histories)
    }

    @Test("a seal appends a new frame after the last sealed one; the bytes before it stay as they were")
    func sealAppends() throws {
        let memory = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: memory)
        try writer.append((1...3).map { Array("{\"n\":\($0)}".utf8) })
        #expect(try writer.seal())
        let first = try #require(try SealedPrefixTests.view(memory, "j"))
        #expect(first.sealedEnd == 61)
        try writer.append([Array("{\"n\":4}".utf8)])
        // One record alone is not sealed: it stays a one-record frame in the unsealed tail.
        #expect(try writer.seal() == false)
        try writer.append([Array("{\"n\":5}".utf8)])
        #expect(try writer.seal())
        writer.close()
        let second = try #require(try SealedPrefixTests.view(memory, "j"))
        #expect(Array(second.bytes.prefix(61)) == Array(first.bytes.prefix(61)))
        #expect(second.sealedEnd == second.bytes.count)
        let (records, report) = try JournalReader.records(path: "j", storage: memory)
        #expect(records.map { String(decoding: $0, as: UTF8.self) } == (1...5).map { "{\"n\":\($0)}" })
        #expect(report.frames == 2)
    }
}
