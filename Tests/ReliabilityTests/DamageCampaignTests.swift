import JournalFile
import Foundation
import JournalStore
import JournalTesting
import Testing
import JournalSimulator

/// Single-bit flips (every one with JOURNAL_DAMAGE_CAMPAIGN=full, `bitsToFlip` in CI) and every truncation point of every sample journal (RELIABILITY.md §5),
/// each read from the start of the damaged frame (`DamageCampaign`), and the reduction that makes
/// this affordable checked against the whole `JournalVerifier.verify` on a sample of flips and cuts.
@Suite("Every flip and every cut of every sample journal")
struct DamageCampaignTests {
    /// Every journal under SampleJournals/, as shipped (torn-tail.journal with its torn tail).
    static let sampleFiles = ["new-user.journal", "torn-tail.journal", "ppl-12-weeks.journal", "upper-lower-2y-lb.journal",
                              "format-v1/new-user.journal", "format-v1/ppl-12-weeks.journal"]
    /// The samples are sealed, so none ends in a padding frame: the hand-made journal of
    /// `CorruptionTests` (6 frames and its 32 KiB padding) is checked the same way.
    static let withPadding = "hand-made journal with padding"
    static let samples = sampleFiles + [withPadding]

    static func path(_ sample: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleJournals/\(sample)").path
    }

    static func bytes(_ sample: String) -> [UInt8] {
        sample == withPadding ? CorruptionTests.sample.bytes : [UInt8](FileManager.default.contents(atPath: path(sample))!)
    }

    /// One campaign per journal, made once.
    static let campaigns: [String: DamageCampaign] = {
        var campaigns: [String: DamageCampaign] = [:]
        for sample in samples { campaigns[sample] = try! DamageCampaign(journal: bytes(sample)) }
        return campaigns
    }()

    /// Which bits CI flips. Every bit of every sample is the full campaign (`JOURNAL_DAMAGE_CAMPAIGN=full` or
    /// `JOURNAL_CAMPAIGNS=full`, about 130 s of CPU). CI flips every bit of the samples under 12,000 bytes and, in the
    /// four larger ones, every bit of each region's first 48 and last 24 bytes (headers, frame and block headers,
    /// checksum frames: where a layout mistake would show) and every 127th bit between them (a prime stride, so every
    /// bit position of a byte is hit): RELIABILITY.md §5.
    static let everyBit = ProcessInfo.processInfo.environment["JOURNAL_DAMAGE_CAMPAIGN"] == "full" || CampaignSize.isFull

    static func bitsToFlip(_ sample: String) -> [Int] {
        let campaign = campaigns[sample]!
        let size = campaign.bytes.count
        if everyBit || size < 12_000 { return Array(0..<(size * 8)) }
        var bits: [Int] = []
        for region in campaign.regions {
            let head = min(region.end, region.offset + 48), tail = max(head, region.end - 24)
            bits += (region.offset * 8)..<(head * 8)
            bits += stride(from: head * 8, to: tail * 8, by: 127)
            bits += (tail * 8)..<(region.end * 8)
        }
        return bits
    }

    /// A slice of one sample's bits, so that the parts of the larger samples run in parallel.
    struct Part: Sendable, CustomTestStringConvertible {
        var sample: String
        var bits: ArraySlice<Int>
        var testDescription: String { "\(sample) bits \(bits.first ?? 0)...\(bits.last ?? 0) (\(bits.count))" }
    }

    static let partBits = 1 << 16

    static let parts: [Part] = samples.flatMap { sample -> [Part] in
        let bits = bitsToFlip(sample)
        return stride(from: 0, to: bits.count, by: partBits).map { Part(sample: sample, bits: bits[$0..<min($0 + partBits, bits.count)]) }
    }

    @Test("the samples' sizes and regions (header, data frames, padding, torn tail) are those the campaign counts on")
    func sampleShapes() {
        func shape(_ sample: String) -> [String] {
            let campaign = DamageCampaignTests.campaigns[sample]!
            let counts = Dictionary(grouping: campaign.regions, by: \.kind.rawValue).mapValues(\.count)
            return ["\(campaign.bytes.count) bytes", "v\(campaign.version.rawValue)"]
                + counts.keys.sorted().map { "\($0) \(counts[$0]!)" }
        }
        #expect(shape("new-user.journal") == ["1101 bytes", "v2", "frame 1", "header 1"])
        #expect(shape("torn-tail.journal") == ["10058 bytes", "v2", "frame 4", "header 1", "torn tail 1"])
        #expect(shape("ppl-12-weeks.journal") == ["62159 bytes", "v2", "frame 26", "header 1"])
        #expect(shape("upper-lower-2y-lb.journal") == ["400348 bytes", "v2", "frame 173", "header 1"])
        #expect(shape("format-v1/new-user.journal") == ["1073 bytes", "v1", "frame 1"])
        #expect(shape("format-v1/ppl-12-weeks.journal") == ["61831 bytes", "v1", "frame 26"])
        #expect(shape(DamageCampaignTests.withPadding) == ["33719 bytes", "v2", "frame 6", "header 1", "padding 1"])
        let bits: Int = DamageCampaignTests.parts.map(\.bits.count).reduce(0, +)
        if DamageCampaignTests.everyBit {
            #expect(bits == 4_562_312) // 8 × (1,101 + 10,058 + 62,159 + 400,348 + 1,073 + 61,831 + 33,719) bytes
        } else {
            #expect(bits == 266_084) // every bit of 1,101 + 10,058 + 1,073 bytes, the chosen bits of the others
        }
    }

    @Test("every single-bit flip is reported at the offset of its frame, losing exactly that frame (version 2: no flip unseen)",
          arguments: parts)
    func everyFlip(part: Part) throws {
        let campaign = DamageCampaignTests.campaigns[part.sample]!
        let outcome = try campaign.flips(part.bits)
        #expect(outcome.checked == part.bits.count)
        #expect(outcome.problemCount == 0, "\(outcome.problems)")
        #expect(outcome.detected + outcome.harmless.count == part.bits.count)
        if campaign.version == .v2 {
            #expect(outcome.harmless == [])
        } else {
            // Version 1 has no checksum over the compressed bytes: a flip in a bit zstd's decoder
            // does not read changes nothing (RELIABILITY.md §5); fewer than 1% of bits are such.
            #expect(outcome.harmless.count * 100 < part.bits.count)
        }
        if part.sample == "format-v1/new-user.journal" {
            // The same bits a whole `verify` of every flip finds unchanged (CorruptionTests.everyFlipAndCutOfSamples
            // with JOURNAL_EXHAUSTIVE_SAMPLES=format-v1/new-user.journal).
            #expect(outcome.harmless == [138, 141, 4832, 4833, 4921, 4987, 4988, 4989, 4990, 4991, 5174, 5175, 5187, 5188, 5189])
        }
        print("\(part.testDescription): \(outcome.checked) flips, \(outcome.detected) detected at the right frame, \(outcome.harmless.count) change no event")
    }

    @Test("every truncation point: a cut inside a region is a torn tail from the region's offset, a cut between regions ends clean",
          arguments: samples)
    func everyCut(sample: String) throws {
        let campaign = DamageCampaignTests.campaigns[sample]!
        let outcome = try campaign.cuts(0..<campaign.bytes.count)
        #expect(outcome.checked == campaign.bytes.count)
        #expect(outcome.problemCount == 0, "\(outcome.problems)")
        #expect(outcome.detected == campaign.bytes.count)
        print("\(sample): \(outcome.checked) cuts, every one where it is")
    }

    /// `verify` of the whole damaged file, as `journal verify` runs it.
    static func verifyWhole(_ bytes: [UInt8]) throws -> (report: VerifyReport, lines: [[UInt8]]) {
        let storage = MemoryStorage()
        storage.setContents(of: "j", to: bytes)
        let report = try JournalVerifier.verify(path: "j", storage: storage)
        return (report, try JournalReader.records(path: "j", storage: storage).records)
    }

    /// What a whole scan of `bytes` (the intact sample) reports from `offset` on.
    static func damage(of campaign: DamageCampaign, from offset: Int) throws -> [Damage] {
        let storage = MemoryStorage()
        storage.setContents(of: "j", to: campaign.bytes)
        return try JournalReader.read(path: "j", storage: storage) { _, _ in }.damage.filter { $0.offset >= offset }
    }

    /// Flips and cuts for the reduction check, in every region of a journal with at most 12 regions and
    /// in 5 (first, last, and 3 seeded between; 12 with 10 between in the full campaign) of the larger ones (the 12-week and two-year samples): a
    /// seeded random bit of the region, a random bit of its first byte, and a random cut inside it or at its end.
    static func probes(_ campaign: DamageCampaign, seed: UInt64) -> (bits: [Int], cuts: [Int]) {
        var random = TestRandom(seed: seed)
        var chosen = Array(campaign.regions.indices)
        if chosen.count > 12 {
            chosen = [chosen.first!, chosen.last!] + (0..<(everyBit ? 10 : 3)).map { _ in random.int(1...(campaign.regions.count - 2)) }
        }
        var bits: [Int] = [], cuts: [Int] = []
        for index in chosen {
            let region = campaign.regions[index]
            bits.append(region.offset * 8 + random.int(0...((region.end - region.offset) * 8 - 1)))
            bits.append(region.offset * 8 + random.int(0...7))
            cuts.append(region.offset + random.int(1...(region.end - region.offset)))
        }
        return (bits, cuts)
    }

    @Test("reading from the damaged frame gives what verify of the whole damaged file gives (damage, reasons, records)",
          arguments: samples)
    func reductionAgreesWithWholeVerify(sample: String) throws {
        let campaign = DamageCampaignTests.campaigns[sample]!
        let (bits, cuts) = DamageCampaignTests.probes(campaign, seed: UInt64(sample.utf8.count))
        let records = campaign.records
        for bit in bits {
            let (index, step, stepRecords) = try campaign.readAfterFlip(bit)
            let region = campaign.regions[index]
            let whole = try DamageCampaignTests.verifyWhole(Corrupt.flippingBit(campaign.bytes, bit))
            // The frames before the region read as in the intact file; the region gives what the step
            // found; the scan goes on where the step stopped, as in the intact file.
            let resume = step.damage.last.map { $0.offset + $0.length } ?? step.validEnd
            let expectedDamage = step.damage + (resume < campaign.bytes.count ? try DamageCampaignTests.damage(of: campaign, from: resume) : [])
            #expect(whole.report.scan.damage == expectedDamage, "bit \(bit) in \(region)")
            let first = campaign.regions[..<index].reduce(0) { $0 + $1.records.count }
            let expectedLines = Array(records[..<first]) + stepRecords + Array(records[(first + region.records.count)...])
            #expect(whole.lines == expectedLines, "bit \(bit) in \(region)")
            #expect(whole.report.isClean == (step.isClean && campaign.regions.last!.kind != .tornTail), "bit \(bit) in \(region)")
        }
        for cut in cuts {
            let (index, step, stepRecords) = try campaign.readAfterCut(cut)
            let whole = try DamageCampaignTests.verifyWhole(Corrupt.truncated(campaign.bytes, to: cut))
            #expect(whole.report.scan.damage == step.damage, "cut at \(cut)")
            let first = campaign.regions[..<(index ?? 0)].reduce(0) { $0 + $1.records.count }
            #expect(whole.lines == Array(records[..<first]) + stepRecords, "cut at \(cut)")
        }
        print("\(sample): \(bits.count) flips and \(cuts.count) cuts read whole agree with the campaign's reading")
    }
}
