import JournalStore
import JournalTesting
import Testing

/// The byte layout of format version 2 (FORMAT.md §1–§2, §5), its checksum, and the version-1
/// journals written before it.
@Suite("Format version 2: header, checksum frames, padding; version 1 still read and appended")
struct FormatVersionTests {
    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    static func scan(_ bytes: [UInt8]) throws -> (report: ScanReport, records: [String]) {
        try FrameDamageTests.scan(bytes)
    }

    // MARK: CRC-32C

    @Test("CRC-32C of the standard check input \"123456789\" is 0xE3069283; of nothing, 0")
    func crcCheckValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.reference(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([]) == 0)
        // RFC 3720 (iSCSI) B.4 test vectors: 32 bytes of zeros, of 0xFF, ascending 0…31.
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    }

    @Test("the slicing-by-8 CRC agrees with the bit-at-a-time definition on every length 0…600 at every alignment")
    func crcDifferential() {
        // Pseudo-random bytes from Knuth's MMIX linear congruential generator, the same on every run.
        var state: UInt64 = 2026
        let pool: [UInt8] = (0..<608).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        var mismatches: [String] = []
        for start in 0..<8 {
            for length in 0...600 {
                let bytes = Array(pool[start..<(start + length)])
                let fast = pool.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[start..<(start + length)])) }
                if fast != CRC32C.reference(bytes) { mismatches.append("start \(start) length \(length)") }
            }
        }
        #expect(mismatches == [])
    }

    // MARK: Layout of a new journal

    @Test("a new journal starts with the 16-byte header: skippable magic 0x184D2A5E, size 8, \"WJNL\", version 2")
    func headerBytes() throws {
        #expect(Layout.header == [0x5E, 0x2A, 0x4D, 0x18, 8, 0, 0, 0, 0x57, 0x4A, 0x4E, 0x4C, 2, 0, 0, 0])
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: storage)
        writer.close()
        #expect(storage.contents(of: "j") == Layout.header)
        #expect(try FormatVersionTests.scan(Layout.header).report.isClean)
    }

    @Test("each append lands in the padding: data frame, its 12-byte checksum frame, a shorter padding frame; the size stays, fdatasync suffices")
    func appendIntoPadding() throws {
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: storage)
        try writer.append([Array("{\"n\":1}".utf8)])
        let first = storage.contents(of: "j")!
        let frameSize = writer.size - Layout.headerSize - Layout.checksumFrameSize
        // Header, data frame, checksum frame, then the padding frame reserving 32 KiB.
        #expect(Array(first[16..<20]) == [0x28, 0xB5, 0x2F, 0xFD])
        let checksum = 16 + frameSize
        #expect(FormatVersionTests.u32(first, checksum) == 0x184D_2A51)
        #expect(FormatVersionTests.u32(first, checksum + 4) == 4)
        #expect(FormatVersionTests.u32(first, checksum + 8) == CRC32C.checksum(Array(first[16..<checksum])))
        let padding = checksum + 12
        #expect(FormatVersionTests.u32(first, padding) == 0x184D_2A5B)
        #expect(FormatVersionTests.u32(first, padding + 4) == 32 << 10)
        #expect(first.count == padding + 8 + (32 << 10))
        #expect(first[(padding + 8)...].allSatisfy { $0 == 0 })
        #expect(storage.dataSyncCount == 0)

        try writer.append([Array("{\"n\":2}".utf8)])
        let second = storage.contents(of: "j")!
        #expect(second.count == first.count)
        #expect(storage.dataSyncCount == 1)
        #expect(storage.dataSyncsAfterResize == 0)
        #expect(FormatVersionTests.u32(second, writer.size) == 0x184D_2A5B)
        #expect(FormatVersionTests.u32(second, writer.size + 4) == UInt32(second.count - writer.size - 8))
        writer.close()
        let (report, records) = try FormatVersionTests.scan(second)
        #expect(report.isClean)
        #expect(report.version == .v2)
        #expect(report.paddingBytes == second.count - writer.size)
        #expect(records == ["{\"n\":1}", "{\"n\":2}"])
    }

    @Test("when the reserve runs out the append extends the file by a new reserve and uses fsync, never fdatasync")
    func reserveExhausted() throws {
        let storage = MemoryStorage()
        var options = JournalWriter.Options()
        options.paddingReserve = 100
        let writer = try JournalWriter(path: "j", storage: storage, options: options)
        var sizes: [Int] = []
        for n in 1...12 {
            try writer.append([Array("{\"n\":\(n),\"pad\":\"xxxxxxxxxxxxxxxxxxxx\"}".utf8)])
            sizes.append(storage.contents(of: "j")!.count)
            #expect(try FormatVersionTests.scan(storage.contents(of: "j")!).report.isClean, "after append \(n)")
        }
        writer.close()
        #expect(storage.dataSyncsAfterResize == 0)
        #expect(storage.dataSyncCount > 0)
        // Every size change is an extension by the data plus a fresh 100-byte reserve.
        #expect(Set(sizes).count < sizes.count)
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 <= $1 })
        let (report, records) = try FormatVersionTests.scan(storage.contents(of: "j")!)
        #expect(records.count == 12)
        #expect(report.paddingBytes <= 108)
    }

    @Test("a seal rewrites the tail as one frame with its checksum and drops the padding")
    func sealDropsPadding() throws {
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: storage)
        for n in 1...5 { try writer.append([Array("{\"n\":\(n)}".utf8)]) }
        #expect(try writer.seal())
        let bytes = storage.contents(of: "j")!
        #expect(bytes.count == writer.size)
        writer.close()
        let (report, records) = try FormatVersionTests.scan(bytes)
        #expect(report.isClean)
        #expect(report.frames == 1)
        #expect(report.paddingBytes == 0)
        #expect(records == (1...5).map { "{\"n\":\($0)}" })
    }

    // MARK: Damage particular to version 2

    @Test("a non-zero byte in the padding is damage at the padding frame, naming the byte; nothing is lost")
    func paddingNotZero() throws {
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: storage)
        try writer.append([Array("{\"n\":1}".utf8)])
        let end = writer.size
        writer.close()
        var bytes = storage.contents(of: "j")!
        bytes[end + 8 + 1000] = 0x41
        let (report, records) = try FormatVersionTests.scan(bytes)
        #expect(records == ["{\"n\":1}"])
        #expect(report.damage.count == 1)
        #expect(report.damage.first?.offset == end)
        #expect(report.damage.first?.reason == "padding byte \(end + 1008) is 0x41, not zero")
    }

    @Test("a data frame without its checksum frame, or with a wrong CRC, is damage at the data frame")
    func checksumFrameMissingOrWrong() throws {
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: storage)
        for n in 1...3 { try writer.append([Array("{\"n\":\(n)}".utf8)]) }
        writer.close()
        let bytes = storage.contents(of: "j")!
        let map = try FrameMap(journal: bytes)
        let second = map.entries[1]
        let checksumAt = second.end - Layout.checksumFrameSize
        var wrongCRC = bytes
        wrongCRC[checksumAt + 8] ^= 0x01
        let (report, records) = try FormatVersionTests.scan(wrongCRC)
        #expect(records == ["{\"n\":1}", "{\"n\":3}"])
        #expect(report.corruption.map(\.offset) == [second.offset])
        let stored = FormatVersionTests.u32(wrongCRC, checksumAt + 8)
        let computed = CRC32C.checksum(Array(bytes[second.offset..<checksumAt]))
        let hex = { (value: UInt32) -> String in
            let digits = String(value, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
        }
        #expect(report.corruption.first?.reason
            == "the frame's \(checksumAt - second.offset) bytes have CRC-32C \(hex(computed)) but its checksum frame holds \(hex(stored))")

        var wrongMagic = bytes
        wrongMagic[checksumAt] ^= 0x01
        let missing = try FormatVersionTests.scan(wrongMagic)
        #expect(missing.records == ["{\"n\":1}", "{\"n\":3}"])
        #expect(missing.report.corruption.map(\.offset) == [second.offset])
        #expect(missing.report.corruption.first?.reason.hasPrefix("the frame is not followed by its checksum frame (found ") == true)
    }

    @Test("a header naming a newer version is reported at byte 0 with what to do, and a writer refuses the file unchanged")
    func newerVersion() throws {
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: storage)
        for n in 1...2 { try writer.append([Array("{\"n\":\(n)}".utf8)]) }
        writer.close()
        var bytes = storage.contents(of: "j")!
        bytes[12] = 3
        let (report, _) = try FormatVersionTests.scan(bytes)
        #expect(report.damage.first?.offset == 0)
        #expect(report.damage.first?.reason == "the journal header names format version 3; this build reads versions 1 and 2 (a newer journal needs a newer build)")
        storage.setContents(of: "j", to: bytes)
        #expect(throws: StoreError.self) { try JournalWriter(path: "j", storage: storage) }
        #expect(storage.contents(of: "j") == bytes)
    }

    @Test("an unknown skippable frame where a data frame should start is damage in version 2")
    func unknownSkippableFrame() throws {
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: storage)
        try writer.append([Array("{\"n\":1}".utf8)])
        try writer.append([Array("{\"n\":2}".utf8)])
        #expect(try writer.seal())
        writer.close()
        let bytes = storage.contents(of: "j")!
        let foreign: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 2, 0, 0, 0, 0xAB, 0xCD]
        let (report, records) = try FormatVersionTests.scan(bytes + foreign)
        #expect(records == ["{\"n\":1}", "{\"n\":2}"])
        #expect(report.damage.map(\.offset) == [bytes.count])
        #expect(report.damage.first?.reason == "a skippable frame (magic 0x184D2A50) where a data frame should start")
    }

    // MARK: Version 1

    @Test("a version-1 journal (no header, no checksums) is read, and appended to as version 1")
    func versionOneStaysVersionOne() throws {
        let storage = MemoryStorage()
        var v1 = JournalWriter.Options()
        v1.newJournalVersion = .v1
        let old = try JournalWriter(path: "j", storage: storage, options: v1)
        for n in 1...3 { try old.append([Array("{\"n\":\(n)}".utf8)]) }
        old.close()
        let legacy = storage.contents(of: "j")!
        #expect(Array(legacy.prefix(4)) == [0x28, 0xB5, 0x2F, 0xFD])
        #expect(try FormatVersionTests.scan(legacy).report.version == .v1)

        // Today's writer (version 2 for new files) appends to it in its own format.
        let writer = try JournalWriter(path: "j", storage: storage)
        #expect(writer.version == .v1)
        try writer.append([Array("{\"n\":4}".utf8)])
        #expect(try writer.seal())
        writer.close()
        let bytes = storage.contents(of: "j")!
        #expect(Array(bytes.prefix(4)) == [0x28, 0xB5, 0x2F, 0xFD])
        #expect(bytes.count == writer.size)
        let (report, records) = try FormatVersionTests.scan(bytes)
        #expect(report.isClean)
        #expect(report.version == .v1)
        #expect(report.paddingBytes == 0)
        #expect(records == (1...4).map { "{\"n\":\($0)}" })
    }
}
