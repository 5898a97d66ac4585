/// Where a reader can pick a journal up again: an offset at a frame boundary, the number of
/// lines before it, and a hash that changes when the bytes before it change (as a reader sees
/// them, a pending seal applied). Snapshots (`<journal>.home-snapshot`) are keyed by it.
public struct JournalPosition: Codable, Equatable, Hashable, Sendable {
    public var offset: Int
    public var linesBefore: Int
    /// `JournalReader.positionKey`: in version 2, a hash of the journal's first bytes and of the
    /// checksum frame that ends at `offset`; in version 1, of every byte before `offset`.
    public var prefixHash: UInt64

    public init(offset: Int, linesBefore: Int, prefixHash: UInt64) {
        self.offset = offset
        self.linesBefore = linesBefore
        self.prefixHash = prefixHash
    }
}

/// A 64-bit hash of bytes, the same on every platform and run: eight bytes at a time (read
/// little-endian), multiply-xorshift mixing, length folded in. It detects changed bytes (a
/// rewritten, truncated or replaced journal); it is not a defence against an adversary.
public struct StableHash: Sendable {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var length: UInt64 = 0

    public init() {}

    static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Feeds `bytes`; feeding in pieces gives the same hash only when every piece but the last
    /// is a multiple of 8 bytes long (callers feed whole chunks).
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            state = StableHash.mix(state ^ word) &+ 0x2545_F491_4F6C_DD1D
            index += 8
        }
        if index < bytes.count {
            var word: UInt64 = 0
            for shift in 0..<(bytes.count - index) { word |= UInt64(bytes[index + shift]) << UInt64(8 * shift) }
            state = StableHash.mix(state ^ word ^ 0xFF00_0000_0000_0000)
        }
        length &+= UInt64(bytes.count)
    }

    public var value: UInt64 { StableHash.mix(state ^ length) }

    public static func of(_ bytes: [UInt8]) -> UInt64 {
        var hash = StableHash()
        bytes.withUnsafeBytes { hash.update($0) }
        return hash.value
    }
}

extension JournalReader {
    /// What `read(path:storage:resumingAt:…)` did.
    public struct ResumedRead: Sendable {
        public var report: ScanReport
        /// True when reading started at the given position (its prefix hash still matched).
        public var resumed: Bool
        /// Where a later read could resume: the start of the first frame that a seal may still
        /// rewrite (the last sealed frame, or the unsealed tail; FORMAT.md §"Sealing"), or nil
        /// when the journal is damaged or nothing before that point is stable.
        public var stable: JournalPosition?
    }

    /// Where `read(path:storage:resumingAt:…)` puts the `stable` position it returns.
    public enum StablePoint: Sendable {
        /// The start of the last sealed frame, or of the unsealed tail when there is no sealed frame: a point no seal
        /// of any version rewrites (what snapshots key on).
        case lastSealedFrame
        /// The start of the unsealed tail, or the end of the data when there is none: the current rule's seals
        /// rewrite nothing before it; a journal sealed by the older rule, which could rewrite the last sealed frame,
        /// no longer gives its key, and a read from it starts from the beginning.
        case unsealedTail
    }

    /// Reads `path` from `position` when the bytes before it still hash the same, else from the
    /// start. `onFrame` hears each frame's offset before its lines (callers checkpoint state
    /// there, to save it at `stable`).
    public static func read(path: String, storage: any Storage, resumingAt position: JournalPosition?,
                            stable point: StablePoint = .lastSealedFrame,
                            onFrame: (Int) throws -> Void,
                            onRecord: (UnsafeBufferPointer<UInt8>, RecordLocation) throws -> Void) throws -> ResumedRead {
        let file = try storage.openForReading(path)
        defer { file.close() }
        _ = try file.lock(.seal, exclusive: false, wait: true)
        defer { file.unlock(.seal) }
        let zstd = Zstd()
        let source = try pendingSealView(of: file, path: path, storage: storage, zstd: zstd)
        let size = try source.size()
        var start = 0
        var linesBefore = 0
        var resumed = false
        if let position, position.offset > 0, position.offset <= size,
           try positionKey(source, upTo: position.offset) == position.prefixHash {
            start = position.offset
            linesBefore = position.linesBefore
            resumed = true
        }
        var frameLines: [(offset: Int, linesBefore: Int)] = []
        var lines = linesBefore
        var scanner = try FrameScanner(source: source, zstd: zstd)
        let report = try scanner.scan(from: start, linesBefore: linesBefore, onFrame: { offset in
            frameLines.append((offset, lines))
            try onFrame(offset)
        }, onRecord: { line, location in
            lines = location.lineNumber
            try onRecord(line, location)
        })
        var stable: JournalPosition?
        if report.isClean {
            let tailStart = report.tailRun.first?.offset ?? report.validEnd
            let boundary = switch point {
            case .lastSealedFrame: min(report.lastSealedFrame?.offset ?? report.validEnd, tailStart)
            case .unsealedTail: tailStart
            }
            if boundary > start, let frame = frameLines.last(where: { $0.offset == boundary }) {
                stable = JournalPosition(offset: boundary, linesBefore: frame.linesBefore, prefixHash: try positionKey(source, upTo: boundary))
            } else if point == .unsealedTail, boundary > start, boundary == report.validEnd {
                stable = JournalPosition(offset: boundary, linesBefore: lines, prefixHash: try positionKey(source, upTo: boundary))
            } else if boundary == start, let position, resumed {
                stable = position
            }
        }
        return ResumedRead(report: report, resumed: resumed, stable: stable)
    }

    /// Bytes at the start of a journal that `positionKey` hashes in version 2.
    static let keyedHeadBytes = 4096

    /// The key of the position `end` (a frame boundary), which changes when the bytes before it do.
    ///
    /// Version 2: `StableHash` of the first `min(end, 4096)` bytes (the header and the first events:
    /// the user, the device, the first instants), then the 12-byte checksum frame that ends at `end`
    /// (the CRC-32C of the frame before it, which covers the seq, ids and instants of its events),
    /// then `end` as 8 bytes: two small reads, whatever the journal's length. Only what a seal may
    /// rewrite follows a key's position, and appends only add after it; a journal replaced by
    /// another, or rewritten by salvage or merge, differs in those bytes. (A bit flipped in the
    /// middle of the prefix is not seen here: `verify` and `salvage` never use snapshots.)
    /// Version 1 (no checksums): `prefixHash`, every byte before `end`.
    static func positionKey(_ source: any ByteSource, upTo end: Int) throws -> UInt64 {
        let head = try source.read(at: 0, count: min(end, keyedHeadBytes))
        if end >= Layout.headerSize + Layout.checksumFrameSize, head.starts(with: Layout.header) {
            let checksum = try source.read(at: end - Layout.checksumFrameSize, count: Layout.checksumFrameSize)
            let isChecksumFrame = checksum.count == Layout.checksumFrameSize
                && checksum.withUnsafeBytes { Layout.loadU32($0, 0) == Layout.checksumMagic && Layout.loadU32($0, 4) == 4 }
            if isChecksumFrame {
                return StableHash.of(head + checksum + (0..<8).map { UInt8(truncatingIfNeeded: UInt64(end) >> (8 * $0)) })
            }
        }
        return try prefixHash(source, upTo: end)
    }

    static func prefixHash(_ source: any ByteSource, upTo end: Int) throws -> UInt64 {
        var hash = StableHash()
        var offset = 0
        let chunk = 1 << 20
        while offset < end {
            let bytes = try source.read(at: offset, count: min(chunk, end - offset))
            guard !bytes.isEmpty else { break }
            bytes.withUnsafeBytes { hash.update($0) }
            offset += bytes.count
        }
        return hash.value
    }
}
