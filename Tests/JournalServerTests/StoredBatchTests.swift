import Foundation
import JournalEvents
import JournalFile
@testable import JournalServer
import JournalTesting
import Testing

/// A stored batch's block is a block of the journal's own format (SYNC.md §"Schema"), so the journal's own reader is
/// the reference for the server's line splitter (`StoredBatch.lines`, hand-written for the pull path).
@Suite("journal-server: a stored batch's lines are the journal reader's")
struct StoredBatchTests {
    @Test("the lines of every block, split by the server, equal what the journal's reader hands out from the same blocks")
    func linesMatchTheJournalReader() throws {
        let scratch = ScratchDirectory("stored-batch")
        let events = try recordedEvents(device: "ph", workouts: 2, in: scratch)
        #expect(events.count == 8)
        // Two rows: positions 1–3 and 4–8.
        let rows = StoredBatch.rows(Array(events[..<3])) + StoredBatch.rows(Array(events[3...]), first: 4)
        #expect(rows.map(\.eventCount) == [3, 5])
        let split = try rows.flatMap { try StoredBatch.lines(ofBlock: $0.block) }
        let path = scratch.file("blocks.journal")
        try Data(StoredBatch.journal(blocks: rows.map(\.block))).write(to: URL(fileURLWithPath: path))
        var read: [[UInt8]] = []
        try EventReader.forEachLine(path: path) { line, _ in read.append(Array(line)) }
        #expect(split.count == 8)
        #expect(split == read)
        #expect(try split.map { try EventCodec.decode($0).seq } == Array(1...8))
        #expect(try split.map { try EventCodec.decode($0).id } == events.map(\.id))
    }
}
