import JournalFile
import JournalEvents
import JournalStore
import JournalTesting
import Testing
import Foundation
import JournalSimulator

/// Damage on purpose, one kind per test (LevelDB log_test.cc style), checked through
/// `JournalVerifier.verify`, the check `journal verify` prints (RELIABILITY.md §"Corruption").
@Suite("Corruption is detected where it is")
struct CorruptionTests {
    /// A small journal made by hand: 3 sealed workouts (one frame each) and an open workout
    /// in 3 one-event frames: 6 frames, 18 events.
    static let sample: (bytes: [UInt8], map: FrameMap) = {
        let storage = MemoryStorage()
        try! Fixtures.smallJournal(at: "sample", storage: storage)
        let bytes = storage.contents(of: "sample")!
        return (bytes, try! FrameMap(journal: bytes))
    }()

    /// Verifies `bytes` as a journal on a fresh in-memory storage.
    static func verify(_ bytes: [UInt8]) throws -> (report: VerifyReport, lines: [[UInt8]]) {
        let storage = MemoryStorage()
        storage.setContents(of: "j", to: bytes)
        let report = try JournalVerifier.verify(path: "j", storage: storage)
        let lines = try JournalReader.records(path: "j", storage: storage).records
        return (report, lines)
    }

    @Test("the hand-made sample has sealed frames and one-event frames")
    func sampleShape() {
        #expect(CorruptionTests.sample.map.entries.map(\.records) == [5, 5, 5, 1, 1, 1])
    }

    @Test("every single-bit flip is either reported at the offset of the frame holding the flipped byte, losing only that frame's events, or changes no event at all")
    func everyBitFlip() throws {
        let (bytes, map) = CorruptionTests.sample
        try CorruptionTests.checkEveryBitFlip(bytes, map, name: "hand-made sample")
    }

    /// Flips every bit of `bytes` in turn: each flip is reported at the offset of the frame holding it,
    /// losing only that frame's events, or changes no event at all (fewer than 1% of bits).
    static func checkEveryBitFlip(_ bytes: [UInt8], _ map: FrameMap, name: String) throws {
        var problems: [String] = []
        var detected = 0
        var harmless: [Int] = []
        let bits = map.offsetsToCheck.flatMap { byte in (byte * 8)..<(byte * 8 + 8) }
        for bit in bits {
            let frame = map.frame(containing: bit / 8)
            let (report, lines) = try CorruptionTests.verify(Corrupt.flippingBit(bytes, bit))
            if !report.isClean, report.scan.damage.first?.offset == frame.offset, lines == map.records(excluding: frame) {
                detected += 1
            } else if report.isClean, lines == map.records {
                // The flip hit a bit zstd's decoder ignores (padding in an entropy table or bitstream):
                // the content decodes byte for byte as before and its checksum matches.
                harmless.append(bit)
            } else {
                problems.append("bit \(bit) (byte \(bit / 8), frame at \(frame.offset)): clean \(report.isClean), damage \(report.scan.damage), \(lines.count) lines")
            }
        }
        #expect(problems == [], "\(name)")
        #expect(detected + harmless.count == bits.count)
        if map.header != nil {
            // Version 2: every data frame is covered by a CRC-32C, so no flip goes unnoticed.
            #expect(harmless == [], "\(name)")
        } else {
            #expect(harmless.count * 100 < bits.count)
        }
        print("\(name): bit flips: \(bits.count) checked, \(detected) detected at the right frame, \(harmless.count) change no event: \(harmless)")
    }

    @Test("every truncation point: a cut inside a frame is a torn tail at that frame's offset, a cut between frames leaves a clean prefix")
    func everyTruncation() throws {
        let (bytes, map) = CorruptionTests.sample
        try CorruptionTests.checkEveryTruncation(bytes, map, name: "hand-made sample")
    }

    /// Cuts `bytes` at every offset: a cut inside a frame is a torn tail at that frame's offset, a cut
    /// between frames leaves a clean prefix, and the lines read are exactly those of the whole frames kept.
    static func checkEveryTruncation(_ bytes: [UInt8], _ map: FrameMap, name: String) throws {
        var problems: [String] = []
        let cuts = map.offsetsToCheck
        for cut in cuts {
            let (report, lines) = try CorruptionTests.verify(Corrupt.truncated(bytes, to: cut))
            if lines != map.records(before: cut) { problems.append("cut at \(cut): \(lines.count) lines") }
            if map.isBoundary(cut) {
                if !report.isClean { problems.append("cut at boundary \(cut) is not clean: \(report.scan.damage)") }
            } else {
                let frame = map.frame(containing: cut)
                let damage = report.scan.damage
                if damage.count != 1 || damage[0].kind != .tornTail || damage[0].offset != frame.offset || damage[0].length != cut - frame.offset {
                    problems.append("cut at \(cut) (frame at \(frame.offset)): \(report.scan.damage)")
                }
            }
        }
        #expect(problems == [], "\(name)")
        print("\(name): truncations: \(cuts.count) cut points checked")
    }

    /// The sample journals of SampleJournals/ (the torn one without its torn tail).
    static func sampleJournal(_ name: String) throws -> (bytes: [UInt8], map: FrameMap) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent("SampleJournals/\(name)")))
        let storage = MemoryStorage()
        storage.setContents(of: "s", to: bytes)
        let report = try JournalVerifier.verify(path: "s", storage: storage)
        if let torn = report.scan.tornTail { bytes = Array(bytes.prefix(torn.offset)) }
        return (bytes, try FrameMap(journal: bytes))
    }

    /// Every flip and every cut of every sample is checked in CI by `DamageCampaignTests`, each read from the
    /// damaged frame on. Here each one is a whole `verify`, which takes hours for the 12-week sample and about a
    /// week for the two-year one: CI runs the smallest sample; `JOURNAL_EXHAUSTIVE_SAMPLES=all` (or a
    /// comma-separated list of file names) with `swift test --filter CorruptionTests` runs more.
    static let exhaustiveSamples: [String] = {
        let all = ["new-user.journal", "torn-tail.journal", "ppl-12-weeks.journal", "upper-lower-2y-lb.journal"]
        switch ProcessInfo.processInfo.environment["JOURNAL_EXHAUSTIVE_SAMPLES"] {
        case nil, "": return ["new-user.journal"]
        case "all"?: return all
        case let list?: return list.split(separator: ",").map(String.init)
        }
    }()

    @Test("every single-bit flip and every truncation point of the sample journals is found where it is", arguments: exhaustiveSamples)
    func everyFlipAndCutOfSamples(sample: String) throws {
        let (bytes, map) = try CorruptionTests.sampleJournal(sample)
        try CorruptionTests.checkEveryBitFlip(bytes, map, name: sample)
        try CorruptionTests.checkEveryTruncation(bytes, map, name: sample)
    }

    @Test("truncating the last frame at every byte offset leaves a torn tail that the next open repairs, keeping every earlier event")
    func lastFrameTruncationRepairs() throws {
        let (bytes, map) = CorruptionTests.sample
        let last = map.entries.last!
        for cut in (last.offset + 1)..<last.end {
            let storage = MemoryStorage()
            storage.setContents(of: "j", to: Corrupt.truncated(bytes, to: cut))
            let journal = try EventJournal(path: "j", storage: storage, device: "ph", clock: { Fixtures.start })
            #expect(journal.recovery.tornTail?.offset == last.offset)
            #expect(journal.recovery.quarantinePath == "j.torn-\(last.offset)")
            journal.close()
            #expect(storage.contents(of: "j.torn-\(last.offset)") == Array(bytes[last.offset..<cut]))
            #expect(try JournalVerifier.verify(path: "j", storage: storage).isClean)
            #expect(try JournalReader.records(path: "j", storage: storage).records == map.records(excluding: last))
        }
    }

    /// A simulated lifter (4 weeks of push/pull/legs), recorded with one frame per workout.
    static let simulated: (bytes: [UInt8], map: FrameMap) = {
        let storage = MemoryStorage()
        try! Fixtures.simulatedJournal(at: "sim", storage: storage, weeks: 4)
        let bytes = storage.contents(of: "sim")!
        return (bytes, try! FrameMap(journal: bytes))
    }()

    @Test("a flipped bit in every frame of a simulated journal is reported at that frame's offset")
    func flipInEveryFrameOfSimulatedJournal() throws {
        let (bytes, map) = CorruptionTests.simulated
        var random = TestRandom(seed: 7)
        var problems: [String] = []
        var harmless = 0
        for frame in map.entries {
            let bit = (frame.offset + random.int(0...(frame.size - 1))) * 8 + random.int(0...7)
            let (report, lines) = try CorruptionTests.verify(Corrupt.flippingBit(bytes, bit))
            if report.isClean && lines == map.records { harmless += 1; continue }
            if report.scan.damage.first?.offset != frame.offset || lines != map.records(excluding: frame) {
                problems.append("bit \(bit) in frame at \(frame.offset): \(report.scan.damage)")
            }
        }
        #expect(map.entries.count > 15)
        #expect(problems == [])
        print("simulated journal: \(bytes.count) bytes, \(map.entries.count) frames, one flip per frame, \(harmless) harmless")
    }

    @Test("a cut inside every frame of a simulated journal is a torn tail at that frame's offset")
    func cutInEveryFrameOfSimulatedJournal() throws {
        let (bytes, map) = CorruptionTests.simulated
        var random = TestRandom(seed: 8)
        for frame in map.entries {
            let cut = frame.offset + random.int(1...(frame.size - 1))
            let (report, lines) = try CorruptionTests.verify(Corrupt.truncated(bytes, to: cut))
            #expect(report.scan.tornTail?.offset == frame.offset)
            #expect(report.scan.corruption.isEmpty)
            #expect(lines == map.records(before: frame.offset))
        }
    }
}
