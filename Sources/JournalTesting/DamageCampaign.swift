import JournalStore

/// Every single-bit flip and every truncation point of a whole journal, each read the way
/// `journal verify` reads the damaged file, but only from the start of the damaged frame to the
/// first frame boundary after it (RELIABILITY.md §5, "Every flip and cut of every sample").
///
/// Why that is the whole check. The scanner reads frames in order, and whether a frame reads (and
/// what it holds) depends on its own bytes only (for the padding, also on the file's size; for the
/// header, on the first 16 bytes). A flip leaves every byte before the frame holding it unchanged,
/// so the scan reaches that frame in the state it reaches it in the intact file. Damage ends at the
/// first valid data frame after it; when that is the intact file's next data frame, every later
/// frame reads as before. So a flip is found at its frame's offset, losing exactly that frame's
/// events and nothing else, if and only if the scan of the damaged bytes from the frame's offset
/// until the next boundary reports one damaged range starting there and ending at the next data
/// frame (a torn tail to the end of the file when none follows) and hands out no record. A cut
/// keeps every byte before it: the scan from the offset of the frame it falls in must report a torn
/// tail from there to the cut. `DamageCampaignTests` checks this reduction against the whole
/// `JournalVerifier.verify` on a sample of flips and cuts of every journal.
///
/// One flip costs a CRC-32C of one frame and the resync's read of the next: the 3.2 million flips
/// of the two-year sample are most of the 130 s of CPU the whole campaign takes in a debug build,
/// where a whole `verify` of each would take about a week.
public struct DamageCampaign: Sendable {
    /// A part of the file that damage is charged to: the header, one data frame with its checksum
    /// frame, the padding, or the torn tail the journal already had.
    public struct Region: Equatable, Sendable, CustomStringConvertible {
        public enum Kind: String, Sendable { case header, frame, padding, tornTail = "torn tail" }
        public var kind: Kind
        public var offset: Int
        public var end: Int
        /// The records of a data frame (empty for the others).
        public var records: [[UInt8]]
        public var description: String { "\(kind.rawValue) at \(offset)..<\(end)" }
    }

    /// What the flips or cuts of a bit or byte range came to.
    public struct Outcome: Sendable {
        public var checked = 0
        /// Reported at the offset of the region holding the damage, losing that region only.
        public var detected = 0
        /// Flips in a version-1 frame that zstd's decoder does not read: same records, no damage.
        public var harmless: [Int] = []
        /// Anything else, described (at most `maximumProblems` kept).
        public var problems: [String] = []
        public var problemCount = 0
        public static let maximumProblems = 20

        public init() {}

        mutating func problem(_ text: @autoclosure () -> String) {
            problemCount += 1
            if problems.count < Outcome.maximumProblems { problems.append(text()) }
        }
    }

    /// The journal's bytes, torn tail included.
    public let bytes: [UInt8]
    /// Header, data frames, padding and torn tail, in file order, covering every byte.
    public let regions: [Region]
    public let version: Layout.Version
    /// Every record of the intact part, in order.
    public var records: [[UInt8]] { regions.flatMap(\.records) }

    /// Maps `bytes`, a journal that is intact except perhaps for a torn tail.
    public init(journal bytes: [UInt8]) throws {
        let storage = MemoryStorage()
        storage.setContents(of: "j", to: bytes)
        let scan = try JournalReader.read(path: "j", storage: storage) { _, _ in }
        precondition(scan.corruption.isEmpty, "DamageCampaign needs a journal without damage in the middle: \(scan.damage)")
        let intactEnd = scan.tornTail?.offset ?? bytes.count
        let map = try FrameMap(journal: Array(bytes[..<intactEnd]))
        var regions: [Region] = []
        if let header = map.header { regions.append(Region(kind: .header, offset: header.offset, end: header.end, records: [])) }
        for entry in map.entries {
            regions.append(Region(kind: .frame, offset: entry.offset, end: entry.end,
                                  records: Array(map.records[entry.firstRecord..<(entry.firstRecord + entry.records)])))
        }
        if let padding = map.padding { regions.append(Region(kind: .padding, offset: padding.offset, end: padding.end, records: [])) }
        if intactEnd < bytes.count { regions.append(Region(kind: .tornTail, offset: intactEnd, end: bytes.count, records: [])) }
        precondition(regions.first?.offset ?? 0 == 0 && zip(regions, regions.dropFirst()).allSatisfy { $0.end == $1.offset }
                     && (regions.last?.end ?? 0) == bytes.count, "the regions must cover the file")
        self.bytes = bytes
        self.regions = regions
        self.version = scan.version
    }

    /// The index of the region holding byte `offset`.
    public func regionIndex(containing offset: Int) -> Int {
        var low = 0, high = regions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if regions[middle].offset <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Where the scan goes on after damage in region `index`: the next data frame, or nil (the
    /// damage then runs to the end of the file as a torn tail).
    public func resumeOffset(afterRegion index: Int) -> Int? {
        regions[(index + 1)...].first { $0.kind == .frame }?.offset
    }

    /// The damage `verify` must report, first, for a flip in region `index`.
    public func expectedDamage(flipIn index: Int) -> (kind: Damage.Kind, offset: Int, length: Int) {
        let region = regions[index]
        if let next = resumeOffset(afterRegion: index) { return (.corrupt, region.offset, next - region.offset) }
        return (.tornTail, region.offset, bytes.count - region.offset)
    }

    /// What the scanner reads of the damaged bytes from `start` (to the first boundary at or after
    /// `until`): its report and the records it handed out.
    static func read(_ source: OverlaySource, _ zstd: Zstd, from start: Int, until: Int = .max) throws -> (report: ScanReport, records: [[UInt8]]) {
        var scanner = try FrameScanner(source: source, zstd: zstd, windowSize: DamageCampaign.windowSize)
        var records: [[UInt8]] = []
        let report = try scanner.scan(from: start, linesBefore: 0, until: until, onFrame: { _ in }) { line, _ in
            records.append(Array(line))
        }
        return (report, records)
    }

    /// The file with bit `bit` flipped, read from the start of the region holding it to the next
    /// boundary: the region's index, the scanner's report and the records it handed out.
    public func readAfterFlip(_ bit: Int) throws -> (region: Int, report: ScanReport, records: [[UInt8]]) {
        try readAfterFlip(bit, OverlaySource(bytes), Zstd())
    }

    func readAfterFlip(_ bit: Int, _ source: OverlaySource, _ zstd: Zstd) throws -> (region: Int, report: ScanReport, records: [[UInt8]]) {
        let index = regionIndex(containing: bit / 8)
        source.flip(bit)
        defer { source.flip(bit) }
        let (report, records) = try DamageCampaign.read(source, zstd, from: regions[index].offset, until: regions[index].offset + 1)
        return (index, report, records)
    }

    /// The file cut to `length` bytes, read from the start of the region the cut falls in (for a
    /// cut between regions: of the region before it) to the end.
    public func readAfterCut(_ length: Int) throws -> (region: Int?, report: ScanReport, records: [[UInt8]]) {
        try readAfterCut(length, OverlaySource(bytes), Zstd())
    }

    func readAfterCut(_ length: Int, _ source: OverlaySource, _ zstd: Zstd) throws -> (region: Int?, report: ScanReport, records: [[UInt8]]) {
        let index = length == 0 ? nil : regionIndex(containing: length - 1)
        source.limit = length
        defer { source.limit = bytes.count }
        let (report, records) = try DamageCampaign.read(source, zstd, from: index.map { regions[$0].offset } ?? 0)
        return (index, report, records)
    }

    /// Flips each bit of `bits` in turn (bit 0 is the least significant bit of byte 0).
    public func flips(_ bits: some Sequence<Int>) throws -> Outcome {
        let source = OverlaySource(bytes)
        let zstd = Zstd()
        var outcome = Outcome()
        for bit in bits {
            let byte = bit / 8
            let (index, report, handedOut) = try readAfterFlip(bit, source, zstd)
            let region = regions[index]
            let expected = expectedDamage(flipIn: index)
            outcome.checked += 1
            if report.damage.count == 1, handedOut.isEmpty,
               report.damage[0].kind == expected.kind, report.damage[0].offset == expected.offset,
               report.damage[0].length == expected.length,
               region.kind != .padding || byte < region.offset + Layout.paddingHeaderSize
                   || report.damage[0].reason.hasPrefix("padding byte \(byte) is ") {
                outcome.detected += 1
            } else if version == .v1, region.kind == .frame, report.damage.isEmpty, report.validEnd == region.end,
                      handedOut == region.records {
                outcome.harmless.append(bit)
            } else {
                outcome.problem("bit \(bit) (byte \(byte), \(region)): expected \(expected.kind.rawValue) at \(expected.offset) (\(expected.length) bytes), found \(report.damage), \(handedOut.count) records handed out")
            }
        }
        return outcome
    }

    /// Cuts the file to each length of `lengths` in turn (0 is the empty file). A cut inside a
    /// region is a torn tail from the region's offset to the cut; a cut between regions leaves the
    /// region before it whole.
    public func cuts(_ lengths: Range<Int>) throws -> Outcome {
        let source = OverlaySource(bytes)
        let zstd = Zstd()
        var outcome = Outcome()
        for length in lengths {
            let (index, report, handedOut) = try readAfterCut(length, source, zstd)
            outcome.checked += 1
            let region = index.map { regions[$0] }
            if let region, region.end > length {
                if report.damage.count == 1, handedOut.isEmpty, report.damage[0].kind == .tornTail,
                   report.damage[0].offset == region.offset, report.damage[0].length == length - region.offset {
                    outcome.detected += 1
                } else {
                    outcome.problem("cut at \(length) (\(region)): expected a torn tail at \(region.offset) (\(length - region.offset) bytes), found \(report.damage), \(handedOut.count) records handed out")
                }
            } else if report.isClean, report.validEnd == length, handedOut == (region?.records ?? []) {
                outcome.detected += 1
            } else {
                outcome.problem("cut at \(length) (after \(region.map(\.description) ?? "nothing")): expected a clean end, found \(report.damage), \(handedOut.count) records")
            }
        }
        return outcome
    }

    /// Reads from the source at a time: a few frames, not the rest of the file, so a flip costs
    /// the bytes of its frame rather than a copy of the journal.
    public static let windowSize = 16 << 10
}

/// The journal's bytes with one bit flipped or a shorter end, without copying the file per flip.
final class OverlaySource: ByteSource {
    var bytes: [UInt8]
    var limit: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        limit = bytes.count
    }

    func flip(_ bit: Int) { bytes[bit / 8] ^= UInt8(1) << UInt8(bit % 8) }
    func size() throws(StoreError) -> Int { limit }
    func read(at offset: Int, count: Int) throws(StoreError) -> [UInt8] {
        Array(bytes[min(offset, limit)..<min(offset + count, limit)])
    }
}
