/// The redo record of a seal (FORMAT.md §"Sealing"), kept in `<journal>.seal` while the tail
/// is rewritten in place:
///
///     offset  size  field
///     0       8     magic "JSEAL\0\0\x01"
///     8       8     start: where the new frame goes (u64 little-endian)
///     16      8     ~start (bitwise not, guards the header)
///     24      n     the new frame (a zstd frame with content checksum; in version 2 followed by
///                   its checksum frame)
///
/// It is made durable before the journal is touched, so after a crash the rewrite can be
/// completed from it; an intent that does not verify was never acted on and is deleted.
struct SealIntent: Equatable {
    static let magic: [UInt8] = Array("JSEAL".utf8) + [0, 0, 1]
    static let headerSize = 24

    var start: Int
    var frame: [UInt8]

    func encoded() -> [UInt8] {
        var out = SealIntent.magic
        out += littleEndianBytes(UInt64(start))
        out += littleEndianBytes(~UInt64(start))
        out += frame
        return out
    }

    /// Parses and checks an intent file: header, and a frame that decodes with its checksum.
    static func decode(_ bytes: [UInt8], zstd: Zstd) -> SealIntent? {
        guard bytes.count > headerSize, Array(bytes[0..<8]) == magic else { return nil }
        let start = readLittleEndian(bytes, at: 8)
        guard readLittleEndian(bytes, at: 16) == ~start, start < UInt64(Int.max) else { return nil }
        let frame = Array(bytes[headerSize...])
        let ok: Bool = frame.withUnsafeBytes { raw in
            guard case .success(let size) = Zstd.frameSize(raw) else { return false }
            let data = UnsafeRawBufferPointer(rebasing: raw[0..<size])
            if size != raw.count {
                // Version 2: the data frame, then exactly its checksum frame.
                guard size + Layout.checksumFrameSize == raw.count,
                      Array(raw[size...]) == Layout.checksumFrame(of: Array(data)) else { return false }
            }
            if case .success = zstd.decompressFrame(data) { return true }
            return false
        }
        return ok ? SealIntent(start: Int(start), frame: frame) : nil
    }
}

func littleEndianBytes(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt64 {
    (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
}

/// A journal seen as if a pending seal had been applied: `file[0..<start] + frame`.
struct SealedView: ByteSource {
    let file: any StorageFile
    let intent: SealIntent

    func size() throws(StoreError) -> Int { intent.start + intent.frame.count }

    func read(at offset: Int, count: Int) throws(StoreError) -> [UInt8] {
        var out: [UInt8] = []
        let end = min(offset + count, intent.start + intent.frame.count)
        guard offset < end else { return [] }
        if offset < intent.start {
            out = try file.read(at: offset, count: min(end, intent.start) - offset)
        }
        if end > intent.start {
            let from = max(offset, intent.start) - intent.start
            out += intent.frame[from..<(end - intent.start)]
        }
        return out
    }
}
