import Foundation
import JournalEvents
import JournalFile
import JournalSimulator
import JournalStore
import JournalTesting
import Testing
@testable import WorkoutJournal

/// Every write path compresses its frames at the level FORMAT.md §"Compression levels" gives it, and that section
/// states the constants of `CompressionLevel`. zstd is deterministic: a frame written at level L is byte for byte the
/// frame `Zstd.compressFrame` makes of its content at L, so each frame of each path's journal is recompressed at the
/// documented level and compared.
@Suite("Compression levels")
struct CompressionLevelTests {
    /// The data frames of a version-2 journal, in file order (skippable frames left out).
    static func dataFrames(_ path: String) throws -> [[UInt8]] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes.prefix(Layout.headerSize)) == Layout.header)
        var frames: [[UInt8]] = []
        var offset = Layout.headerSize
        while offset < bytes.count {
            let size = try bytes[offset...].withUnsafeBytes { raw in try Zstd.frameSize(raw).get() }
            let isSkippable = bytes[offset...].withUnsafeBytes { Zstd.isSkippable($0) }
            if !isSkippable { frames.append(Array(bytes[offset..<(offset + size)])) }
            offset += size
        }
        return frames
    }

    /// Lines per data frame; fails when a frame is not what `level` (or, for one line, the tail level) makes of it.
    static func linesPerFrame(_ path: String, multiLineLevel level: Int32, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Int] {
        let zstd = Zstd()
        return try dataFrames(path).map { frame in
            let content = try frame.withUnsafeBytes { try zstd.decompressFrame($0).get().map { $0 } }
            let lines = content.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
            let expected = lines == 1 ? CompressionLevel.tail : level
            #expect(zstd.compressFrame(content, level: expected) == frame, "a frame of \(lines) lines is not at level \(expected)",
                    sourceLocation: sourceLocation)
            return lines
        }
    }

    @Test("FORMAT.md states the levels the code uses: tail 3, seal 9, batch 1")
    func documented() throws {
        #expect([CompressionLevel.tail, CompressionLevel.seal, CompressionLevel.batch] == [3, 9, 1])
        let format = try String(contentsOfFile: Self.packageRoot + "/FORMAT.md", encoding: .utf8)
        for (name, level) in [("tail", CompressionLevel.tail), ("seal", CompressionLevel.seal), ("batch", CompressionLevel.batch)] {
            let row = "| `CompressionLevel.\(name)` | \(level) |"
            let stated = format.contains(row)
            #expect(stated, "FORMAT.md's table has no row starting \(row)")
        }
    }

    @Test("a live recording seals each workout at the seal level; its one-line tail frames are at the tail level")
    func liveSeal() throws {
        let path = try temporaryDirectory() + "/live.journal"
        let events = try Fixtures.simulatedJournal(at: path, storage: PosixStorage(), weeks: 1)
        let lines = try Self.linesPerFrame(path, multiLineLevel: CompressionLevel.seal)
        #expect(lines.reduce(0, +) == events.count)
        #expect(lines.count == 6)
    }

    @Test("a batch is written in frames of 512 lines at the batch level, a last lone line joining the frame before it")
    func batch() throws {
        let path = try temporaryDirectory() + "/batch.journal"
        let journal = try EventJournal(path: path, device: "ph", clock: { Fixtures.start })
        let drafts = (0..<25).flatMap { Fixtures.workoutDrafts("w\($0)", sets: 39, at: Fixtures.start.adding(milliseconds: Int64($0) * 86_400_000)) }
        #expect(drafts.count == 1025)
        try journal.record(batch: drafts, framing: .batch)
        try journal.record(batch: Fixtures.workoutDrafts("w99", sets: 1, at: Fixtures.start.adding(milliseconds: 99 * 86_400_000)), framing: .batch)
        journal.close()
        #expect(try Self.linesPerFrame(path, multiLineLevel: CompressionLevel.batch) == [512, 513, 3])
    }

    @Test("merge, salvage, restore's absorb, a re-recorded copy and the bulk simulator write at the batch level")
    func batchPaths() throws {
        let directory = try temporaryDirectory()
        let a = directory + "/a.journal", b = directory + "/b.journal"
        try Fixtures.simulatedJournal(at: a, storage: PosixStorage(), weeks: 2, seed: 1)
        try Fixtures.simulatedJournal(at: b, storage: PosixStorage(), weeks: 2, seed: 2, device: "wt")
        let merged = directory + "/merged.journal"
        _ = try Merge.merge(a: a, b: b, output: merged)
        let mergedLines = try Self.linesPerFrame(merged, multiLineLevel: CompressionLevel.batch)
        #expect(mergedLines == [512, 512, 512, 248])

        let salvaged = directory + "/salvaged.journal"
        _ = try Salvage.salvage(source: a, output: salvaged)
        let salvagedLines = try Self.linesPerFrame(salvaged, multiLineLevel: CompressionLevel.batch)
        #expect(salvagedLines == [512, 394])

        let restored = directory + "/restored.journal"
        _ = try Merge.absorb(try EventReader.events(path: b), into: restored)
        let restoredLines = try Self.linesPerFrame(restored, multiLineLevel: CompressionLevel.batch)
        #expect(restoredLines == [512, 366])

        let copy = directory + "/copy.journal"
        _ = try JournalCopy.write(source: a, reRecording: try EventReader.events(path: a), to: copy)
        let copyLines = try Self.linesPerFrame(copy, multiLineLevel: CompressionLevel.batch)
        #expect(copyLines == [512, 394])

        let bulk = directory + "/bulk.journal"
        let written = try BulkJournalWriter(seed: 1, weeksPerSegment: 2, profile: SimulationProfile.named("ppl")!,
                                            start: LocalDate(iso: "2025-01-06")!).write(path: bulk, minimumEvents: 1)
        #expect(try Self.linesPerFrame(bulk, multiLineLevel: CompressionLevel.batch).reduce(0, +) == written.events)
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}
