import Testing
import CZstd
import JournalStore

/// FORMAT.md §7 checks 12–14 and §17 "The 64 KiB doubling": the largest frame a reader accepts is 64 MiB
/// (2^26 bytes) of content, declared or not; one byte more is refused with the check's reason.
@Suite("Frame content limit: exactly 64 MiB is read, one byte more is refused")
struct FrameSizeLimitTests {
    /// One frame of `size` bytes of content (lines of `a`, the last ending in `\n`), with a checksum, declaring its
    /// size in the header or not.
    static func frame(contentSize size: Int, declared: Bool) -> [UInt8] {
        var content = [UInt8](repeating: UInt8(ascii: "a"), count: size)
        for index in stride(from: 1023, to: size, by: 1024) { content[index] = UInt8(ascii: "\n") }
        content[size - 1] = UInt8(ascii: "\n")
        let context = ZSTD_createCCtx()
        defer { ZSTD_freeCCtx(context) }
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, 1)
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, declared ? 1 : 0)
        var frame = [UInt8](repeating: 0, count: ZSTD_compressBound(size))
        let written = content.withUnsafeBytes { source in
            frame.withUnsafeMutableBytes { destination in
                ZSTD_compress2(context, destination.baseAddress, destination.count, source.baseAddress, source.count)
            }
        }
        precondition(ZSTD_isError(written) == 0, Zstd.errorName(written))
        frame.removeLast(frame.count - written)
        return frame
    }

    /// What a reader makes of `frame`: the content's size, or the reason it is refused.
    static func read(_ frame: [UInt8]) -> String {
        let declaredInHeader = frame.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
        let result = frame.withUnsafeBytes { bytes in Zstd().decompressFrame(bytes).map(\.count) }
        let header = declaredInHeader == ZSTD_CONTENTSIZE_UNKNOWN ? "no size declared" : "declares \(declaredInHeader)"
        switch result {
        case .success(let count): return "\(header): read \(count) bytes"
        case .failure(.corrupt(let reason)): return "\(header): \(reason)"
        case .failure(.incomplete(let needed)): return "\(header): incomplete, needs \(needed)"
        }
    }

    @Test("64 MiB of content is read, declared or not; 64 MiB + 1 gives check 12's or check 14's reason")
    func limit() {
        #expect(Zstd.maximumFrameContent == 67_108_864)
        #expect(Self.read(Self.frame(contentSize: 67_108_864, declared: true)) == "declares 67108864: read 67108864 bytes")
        #expect(Self.read(Self.frame(contentSize: 67_108_864, declared: false)) == "no size declared: read 67108864 bytes")
        #expect(Self.read(Self.frame(contentSize: 67_108_865, declared: true))
                == "declares 67108865: frame declares 67108865 bytes, more than the 64 MiB limit")
        #expect(Self.read(Self.frame(contentSize: 67_108_865, declared: false))
                == "no size declared: frame content exceeds the 64 MiB limit")
    }

    @Test("the doubling's steps: content that fills the room exactly, and one byte past it", arguments: [65_536, 131_072, 1_048_576])
    func doublingEdges(room: Int) {
        #expect(Self.read(Self.frame(contentSize: room, declared: false)) == "no size declared: read \(room) bytes")
        #expect(Self.read(Self.frame(contentSize: room + 1, declared: false)) == "no size declared: read \(room + 1) bytes")
    }
}
