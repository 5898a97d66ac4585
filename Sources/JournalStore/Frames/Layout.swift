/// The byte layout of a journal (FORMAT.md §"Grammar" and §"Frames").
///
/// Version 2 (every journal created since 2026-11-22):
///
///     journal := header block* padding?
///     header  := skippable frame, magic 0x184D2A5E, 8 bytes: "WJNL" + u32 LE format version (2)
///     block   := data-frame checksum
///     checksum := skippable frame, magic 0x184D2A51, 4 bytes: CRC-32C of the data frame's bytes (u32 LE)
///     padding := skippable frame, magic 0x184D2A5B, n zero bytes, ending exactly at the end of the file
///
/// Version 1 (journals written before): `data-frame*`, no header, no checksums, no padding.
/// Both decode with `zstd -dc`: skippable frames are skipped by every zstd reader.
public enum Layout {
    /// A file format version this build reads and writes.
    public enum Version: Int, Sendable, Equatable { case v1 = 1, v2 = 2 }

    static let headerMagic: UInt32 = 0x184D_2A5E
    static let checksumMagic: UInt32 = 0x184D_2A51
    static let paddingMagic: UInt32 = 0x184D_2A5B
    static let skippableHeaderSize = 8

    /// The 16 bytes a version-2 journal starts with.
    public static let header: [UInt8] = skippableHeader(headerMagic, size: 8) + Array("WJNL".utf8) + u32(2)
    public static let headerSize = 16
    /// Bytes of the checksum frame that follows every data frame in version 2.
    public static let checksumFrameSize = 12
    /// Bytes of a padding frame's header (its payload is zeros).
    public static let paddingHeaderSize = 8

    static func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    static func skippableHeader(_ magic: UInt32, size: Int) -> [UInt8] { u32(magic) + u32(UInt32(size)) }

    /// The checksum frame of `frame` (the data frame's exact bytes).
    public static func checksumFrame(of frame: [UInt8]) -> [UInt8] {
        skippableHeader(checksumMagic, size: 4) + u32(frame.withUnsafeBytes { CRC32C.checksum($0) })
    }

    /// A data frame followed by its checksum frame: what version 2 stores for each frame.
    public static func block(_ frame: [UInt8], version: Version) -> [UInt8] {
        version == .v2 ? frame + checksumFrame(of: frame) : frame
    }

    /// The header of a padding frame whose payload is `zeros` zero bytes.
    static func paddingHeader(zeros: Int) -> [UInt8] { skippableHeader(paddingMagic, size: zeros) }

    static func loadU32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
    }
}

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, initial value and final xor 0xFFFFFFFF),
/// the checksum of iSCSI, ext4 and LevelDB. Slicing by 8: eight table look-ups per 8 bytes.
public enum CRC32C {
    /// Eight 256-entry tables, one after the other: table k maps a byte to its CRC shifted k bytes on.
    static let table: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            table[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = table[(slice - 1) * 256 + byte]
                table[slice * 256 + byte] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return table
    }()

    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { t in
            var index = 0
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ UInt64(crc)
                crc = t[7 * 256 + Int(word & 0xFF)] ^ t[6 * 256 + Int((word >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((word >> 16) & 0xFF)] ^ t[4 * 256 + Int((word >> 24) & 0xFF)]
                    ^ t[3 * 256 + Int((word >> 32) & 0xFF)] ^ t[2 * 256 + Int((word >> 40) & 0xFF)]
                    ^ t[256 + Int((word >> 48) & 0xFF)] ^ t[Int(word >> 56)]
                index += 8
            }
            while index < bytes.count {
                crc = (crc >> 8) ^ t[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
                index += 1
            }
        }
        return ~crc
    }

    public static func checksum(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { checksum($0) } }

    /// One bit at a time, straight from the definition: the reference the fast path is tested against.
    public static func reference(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }
}
