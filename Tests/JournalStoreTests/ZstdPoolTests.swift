import Testing
@testable import JournalStore

@Suite("Zstd.pooled: contexts reused, never shared")
struct ZstdPoolTests {
    @Test("a pool gives back the context it was given, keeps at most pooledMaximum, and is empty at first")
    func reuse() {
        let pool = ZstdPool()
        #expect(pool.take() == nil)
        let contexts = (0..<20).map { _ in Zstd() }
        for zstd in contexts { pool.give(zstd) }
        var taken: [Zstd] = []
        while let zstd = pool.take() { taken.append(zstd) }
        #expect(taken.count == 16)
        #expect(Zstd.pooledMaximum == 16)
        #expect(taken.first === contexts[15])
        #expect(taken.last === contexts[0])
    }

    @Test("nested pooled calls get distinct contexts, and each round-trips a frame")
    func nesting() {
        let content: [UInt8] = Array("{\"type\":\"set.completed\"}\n".utf8)
        let (distinct, roundTrip) = Zstd.pooled { outer in
            Zstd.pooled { inner in
                let frame = outer.compressFrame(content, level: 3)
                let decoded = frame.withUnsafeBytes { bytes in inner.decompressFrame(bytes).map { Array($0) } }
                return (outer !== inner, try? decoded.get())
            }
        }
        #expect(distinct)
        #expect(roundTrip == content)
    }
}
