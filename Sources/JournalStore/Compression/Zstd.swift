// The system library on Linux, zstd's own Swift package on Apple platforms (Package.swift): the same zstd.h.
#if canImport(CZstd)
import CZstd
#else
import libzstd
#endif

/// The parts of libzstd's streaming API the journal uses (FORMAT.md §"Frames").
/// Contexts are reused across calls; a `Zstd` value is not thread-safe, make one per thread.
public final class Zstd {
    /// The four bytes every zstd frame starts with: 28 B5 2F FD.
    public static let frameMagic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
    /// The same four bytes read as a little-endian u32.
    static let dataMagic: UInt32 = 0xFD2F_B528
    /// Largest decompressed frame a reader accepts (guards against hostile headers).
    public static let maximumFrameContent = 64 << 20

    private let cctx: OpaquePointer
    private let dctx: OpaquePointer
    private var output: [UInt8] = []

    public init() {
        cctx = ZSTD_createCCtx()
        dctx = ZSTD_createDCtx()
    }

    deinit {
        ZSTD_freeCCtx(cctx)
        ZSTD_freeDCtx(dctx)
    }

    public static func errorName(_ code: Int) -> String { String(cString: ZSTD_getErrorName(code)) }
    static func isError(_ code: Int) -> Bool { ZSTD_isError(code) != 0 }

    /// One complete frame holding `content`, with its size in the header and a content checksum.
    public func compressFrame(_ content: [UInt8], level: Int32) -> [UInt8] {
        ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters)
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level)
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1)
        ZSTD_CCtx_setPledgedSrcSize(cctx, UInt64(content.count))
        var result = [UInt8](repeating: 0, count: ZSTD_compressBound(content.count))
        var produced = 0
        content.withUnsafeBytes { source in
            result.withUnsafeMutableBytes { destination in
                var input = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: 0)
                var out = ZSTD_outBuffer(dst: destination.baseAddress, size: destination.count, pos: 0)
                while true {
                    let remaining = ZSTD_compressStream2(cctx, &out, &input, ZSTD_e_end)
                    precondition(!Zstd.isError(remaining), "zstd compression failed: \(Zstd.errorName(remaining))")
                    if remaining == 0 { break }
                }
                produced = out.pos
            }
        }
        result.removeLast(result.count - produced)
        return result
    }

    /// Why a frame could not be read.
    public enum FrameProblem: Error, Equatable, Sendable {
        /// The bytes end before the frame does (a torn write, or a truncated file).
        case incomplete(needed: String)
        /// The frame is complete but does not decode, or its checksum is wrong.
        case corrupt(String)
    }

    /// The compressed size of the frame starting at `bytes[0]`, or why it cannot be known.
    public static func frameSize(_ bytes: UnsafeRawBufferPointer) -> Result<Int, FrameProblem> {
        guard bytes.count >= 4 else { return .failure(.incomplete(needed: "a frame header")) }
        let magic = bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self).littleEndian
        guard magic == 0xFD2F_B528 || (magic & 0xFFFF_FFF0) == 0x184D_2A50 else {
            return .failure(.corrupt("no zstd frame magic (found \(hex(bytes.prefix(4))))"))
        }
        if magic == 0xFD2F_B528, bytes.count >= 5 {
            // The frame header descriptor (RFC 8878 §3.1.1.1.1). Every frame of a journal carries
            // the content checksum, and the unused bit is never set: a single flipped bit must not
            // turn the checksum off (the frame would then decode unverified) or go unnoticed.
            let descriptor = bytes[4]
            if descriptor & 0x04 == 0 {
                return .failure(.corrupt("frame header has no content checksum (descriptor byte 0x\(hex([descriptor])))"))
            }
            if descriptor & 0x10 != 0 {
                return .failure(.corrupt("frame header sets bits this format never uses (descriptor byte 0x\(hex([descriptor])))"))
            }
        }
        let size = ZSTD_findFrameCompressedSize(bytes.baseAddress, bytes.count)
        if isError(size) {
            let name = errorName(size)
            // "Src size is incorrect": the input stops inside the frame.
            if name.lowercased().contains("src size") { return .failure(.incomplete(needed: "the rest of the frame")) }
            return .failure(.corrupt(name))
        }
        return .success(size)
    }

    /// True when the frame at `bytes` is a skippable frame (ignored by readers, `zstd -dc` too).
    public static func isSkippable(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 4 && isSkippable(bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self).littleEndian)
    }

    /// True for the magic numbers of skippable frames, 0x184D2A50–0x184D2A5F.
    static func isSkippable(_ magic: UInt32) -> Bool { magic & 0xFFFF_FFF0 == 0x184D_2A50 }

    /// Decompresses exactly one frame and verifies its checksum. The result is valid until the next call.
    public func decompressFrame(_ frame: UnsafeRawBufferPointer) -> Result<UnsafeBufferPointer<UInt8>, FrameProblem> {
        let declared = ZSTD_getFrameContentSize(frame.baseAddress, frame.count)
        var capacity = 1 << 16
        if declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR {
            guard declared <= UInt64(Zstd.maximumFrameContent) else { return .failure(.corrupt("frame declares \(declared) bytes, more than the 64 MiB limit")) }
            capacity = max(Int(declared), 1)
        }
        // The room offered to zstd is `limit`, never the buffer's leftover size from an earlier frame: what a
        // damaged frame is reported as ("Destination buffer is too small", "Data corruption detected") depends on
        // that room, and must depend on the frame alone, whichever frames (or journals, `Zstd.pooled`) came before.
        var limit = capacity
        if output.count < limit { output = [UInt8](repeating: 0, count: limit) }
        ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only)
        var input = ZSTD_inBuffer(src: frame.baseAddress, size: frame.count, pos: 0)
        var produced = 0
        while true {
            if produced == limit {
                guard limit < Zstd.maximumFrameContent else { return .failure(.corrupt("frame content exceeds the 64 MiB limit")) }
                limit += limit
                if output.count < limit { output += [UInt8](repeating: 0, count: limit - output.count) }
            }
            var status = 0
            output.withUnsafeMutableBytes { destination in
                var out = ZSTD_outBuffer(dst: destination.baseAddress! + produced, size: limit - produced, pos: 0)
                status = ZSTD_decompressStream(dctx, &out, &input)
                produced += out.pos
            }
            if Zstd.isError(status) { return .failure(.corrupt(Zstd.errorName(status))) }
            if status == 0 {
                guard input.pos == input.size else { return .failure(.corrupt("bytes after the end of the frame")) }
                break
            }
            if input.pos == input.size && produced < limit {
                return .failure(.incomplete(needed: "the rest of the frame"))
            }
        }
        if declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR && UInt64(produced) != declared {
            return .failure(.corrupt("frame declares \(declared) bytes but holds \(produced)"))
        }
        return .success(output.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[0..<produced]) })
    }
}

/// `0x` and eight hex digits.
func hex32(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}

func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
    bytes.map { byte in
        let text = String(byte, radix: 16, uppercase: true)
        return text.count == 1 ? "0" + text : text
    }.joined(separator: " ")
}
