import JournalStore

/// Helpers that damage bytes on purpose (LevelDB's log_test.cc style): every test names the
/// exact damage it does and the exact report it expects.
public enum Corrupt {
    /// `bytes` with bit `bit` (0 = least significant bit of byte 0) inverted.
    public static func flippingBit(_ bytes: [UInt8], _ bit: Int) -> [UInt8] {
        var copy = bytes
        copy[bit / 8] ^= UInt8(1) << UInt8(bit % 8)
        return copy
    }

    /// The first `count` bytes.
    public static func truncated(_ bytes: [UInt8], to count: Int) -> [UInt8] { Array(bytes.prefix(count)) }

    /// `bytes` with `replacement` written over them from `offset` (growing the array if needed).
    public static func overwriting(_ bytes: [UInt8], at offset: Int, with replacement: [UInt8]) -> [UInt8] {
        var copy = bytes
        if copy.count < offset + replacement.count { copy += [UInt8](repeating: 0, count: offset + replacement.count - copy.count) }
        copy.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
        return copy
    }
}

/// Where each frame of an intact journal lies, and which records it holds: the answer key
/// for damage tests ("a flip at byte b must be reported at the offset of the frame holding b").
/// In a version-2 journal an entry is a data frame with its checksum frame; the header and the
/// padding at the end are kept apart (`header`, `padding`): they hold no records.
public struct FrameMap: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var offset: Int
        public var size: Int
        /// Index (0-based) of the first record in the frame, and how many records it holds.
        public var firstRecord: Int
        public var records: Int
        public var end: Int { offset + size }
    }

    /// The data frames, in order.
    public var entries: [Entry]
    /// The 16-byte header of a version-2 journal.
    public var header: Entry?
    /// The padding frame that ends the file, if any.
    public var padding: Entry?
    public var fileSize: Int
    public var records: [[UInt8]]

    /// Scans `bytes`, which must be an intact journal.
    public init(journal bytes: [UInt8]) throws {
        let storage = MemoryStorage()
        storage.setContents(of: "map", to: bytes)
        var records: [[UInt8]] = []
        var entries: [Entry] = []
        let report = try JournalReader.read(path: "map", storage: storage) { line, location in
            if entries.last?.offset != location.frameOffset {
                entries.append(Entry(offset: location.frameOffset, size: 0, firstRecord: records.count, records: 0))
            }
            entries[entries.count - 1].records += 1
            records.append(Array(line))
        }
        precondition(report.isClean, "FrameMap needs an intact journal: \(report.damage)")
        for index in entries.indices {
            entries[index].size = (index + 1 < entries.count ? entries[index + 1].offset : report.validEnd) - entries[index].offset
        }
        if report.version == .v2 && !bytes.isEmpty {
            header = Entry(offset: 0, size: Layout.headerSize, firstRecord: 0, records: 0)
        }
        if report.paddingBytes > 0 {
            padding = Entry(offset: report.validEnd, size: report.paddingBytes, firstRecord: records.count, records: 0)
        }
        self.entries = entries
        self.fileSize = bytes.count
        self.records = records
    }

    /// Header, data frames and padding, in file order.
    public var all: [Entry] { (header.map { [$0] } ?? []) + entries + (padding.map { [$0] } ?? []) }

    /// The frame holding byte `offset`.
    /// The frame (or header, or padding) holding byte `offset`.
    public func frame(containing offset: Int) -> Entry { all.last(where: { $0.offset <= offset })! }

    /// True when `offset` is where a frame (or the header, or the padding) starts or the file ends.
    public func isBoundary(_ offset: Int) -> Bool { offset == fileSize || all.contains { $0.offset == offset } }

    /// Records of every frame except `excluded`, in order.
    public func records(excluding excluded: Entry) -> [[UInt8]] {
        Array(records[..<excluded.firstRecord] + records[(excluded.firstRecord + excluded.records)...])
    }

    /// The byte offsets an exhaustive flip or cut test visits: every byte of the file, except that inside
    /// the padding frame (up to 32 KiB of zeros the reader checks byte by byte, each byte alike) only its
    /// first and last 64 bytes and every 509th byte between are visited.
    public var offsetsToCheck: [Int] {
        guard let padding else { return Array(0..<fileSize) }
        let interior = (padding.offset + 64)..<(padding.end - 64)
        return (0..<fileSize).filter { !interior.contains($0) || ($0 - interior.lowerBound) % 509 == 0 }
    }

    /// Records of the frames that end at or before `offset`.
    public func records(before offset: Int) -> [[UInt8]] {
        let whole = entries.filter { $0.end <= offset }
        return Array(records.prefix(whole.last.map { $0.firstRecord + $0.records } ?? 0))
    }
}
