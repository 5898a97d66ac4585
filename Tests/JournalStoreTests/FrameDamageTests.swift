import JournalStore
import JournalTesting
import Testing

/// One test per damage case, on in-memory bytes (LevelDB log_test.cc style). Records are
/// plain lines: the store knows nothing of events.
@Suite("Frame damage cases")
struct FrameDamageTests {
    /// Three one-record frames written by the real writer.
    static func journal(_ records: [String] = ["{\"n\":1}", "{\"n\":2}", "{\"n\":3}"]) throws -> [UInt8] {
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: storage)
        for record in records { try writer.append([Array(record.utf8)]) }
        writer.close()
        return storage.contents(of: "j")!
    }

    static func scan(_ bytes: [UInt8]) throws -> (report: ScanReport, records: [String]) {
        let storage = MemoryStorage()
        storage.setContents(of: "j", to: bytes)
        let (records, report) = try JournalReader.records(path: "j", storage: storage)
        return (report, records.map { String(decoding: $0, as: UTF8.self) })
    }

    @Test("an intact journal scans clean")
    func intact() throws {
        let (report, records) = try FrameDamageTests.scan(try FrameDamageTests.journal())
        #expect(report.isClean)
        #expect(records == ["{\"n\":1}", "{\"n\":2}", "{\"n\":3}"])
    }

    @Test("a frame whose checksum flag is cleared is damage at that frame's offset, not a shorter valid frame")
    func checksumFlagCleared() throws {
        let bytes = try FrameDamageTests.journal()
        let map = try FrameMap(journal: bytes)
        let second = map.entries[1]
        // Byte 4 of a frame is the frame header descriptor; bit 2 is Content_Checksum_flag.
        let (report, records) = try FrameDamageTests.scan(Corrupt.flippingBit(bytes, (second.offset + 4) * 8 + 2))
        #expect(report.corruption.map(\.offset) == [second.offset])
        #expect(report.corruption.first?.reason == "frame header has no content checksum (descriptor byte 0x20)")
        #expect(records == ["{\"n\":1}", "{\"n\":3}"])
    }

    @Test("a frame whose unused header bit is set is damage at that frame's offset")
    func unusedHeaderBitSet() throws {
        let bytes = try FrameDamageTests.journal()
        let map = try FrameMap(journal: bytes)
        let first = map.entries[0]
        let (report, records) = try FrameDamageTests.scan(Corrupt.flippingBit(bytes, (first.offset + 4) * 8 + 4))
        #expect(report.corruption.map(\.offset) == [first.offset])
        #expect(report.corruption.first?.reason == "frame header sets bits this format never uses (descriptor byte 0x34)")
        #expect(records == ["{\"n\":2}", "{\"n\":3}"])
    }
}
