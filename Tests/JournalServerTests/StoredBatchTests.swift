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

@Suite("journal-server: open batches merge in tiers")
struct OpenBatchMergeTests {
    @Test("which of a user's last open batches a push rewrites", arguments: [
        ([1, 1, 1, 1, 1, 1], 1, 0),                                   // 7 batches: not yet
        ([1, 1, 1, 1, 1, 1, 1], 1, 7),                                // 8 batches holding 8 events: one
        ([8, 8, 8, 8, 8, 8, 8], 1, 0),                                // 8 batches under 64 hold 57 events: not yet
        ([8, 8, 8, 8, 8, 8, 8, 1, 1, 1, 1, 1, 1, 1], 1, 14),          // 8 of 1 make 8, then 8 of 8 make 64
        ([40, 1, 1, 1, 1, 1, 1, 1], 1, 7),                            // the 8 last make 8; with the 40, 2 under 64
        ([100, 40], 3, 0),
        ([64, 64, 64, 64, 64, 64, 64], 64, 7),                        // 512: sealed
        ([300, 200], 12, 2),                                          // 512: sealed
    ])
    func rewritten(open: [Int], fresh: Int, expected: Int) {
        #expect(StoredBatch.openBatchesRewritten(open: open, fresh: fresh) == expected)
    }

    /// The open batches' event counts after each push of `pushes`, and the events rewritten on the way.
    static func simulate(_ pushes: [Int]) -> (counts: [Int], rewritten: Int, mostOpen: Int) {
        var counts: [Int] = [], rewritten = 0, mostOpen = 0
        for fresh in pushes {
            let open = counts.filter { $0 < StoredBatch.targetEvents }
            let merged = StoredBatch.openBatchesRewritten(open: open, fresh: fresh)
            rewritten += open.suffix(merged).reduce(0, +)
            counts = counts.filter { $0 >= StoredBatch.targetEvents } + open.dropLast(merged)
                + StoredBatch.batches(of: open.suffix(merged).reduce(fresh, +)).map(\.count)
            mostOpen = max(mostOpen, counts.filter { $0 < StoredBatch.targetEvents }.count)
        }
        return (counts, rewritten, mostOpen)
    }

    @Test("a journal pushed one event at a time is rewritten as batches of 8, 64 and 512")
    func oneEventAtATime() {
        #expect(Self.simulate(Array(repeating: 1, count: 64)).counts == [64])
        let almost = Self.simulate(Array(repeating: 1, count: 511))
        #expect(almost.counts == [64, 64, 64, 64, 64, 64, 64, 8, 8, 8, 8, 8, 8, 8, 1, 1, 1, 1, 1, 1, 1])
        #expect(almost.rewritten == 833)
        let sealed = Self.simulate(Array(repeating: 1, count: 512))
        #expect(sealed.counts == [512])
        // Every open batch merged into one at every 8th push rewrote 16,639 events for these 512 (SYNC.md §"Schema").
        #expect(sealed.rewritten == 1_344)
        #expect(sealed.mostOpen == 21)
        #expect(Self.simulate(Array(repeating: 1, count: 600)).counts == [512, 64, 8, 8, 8])
    }
}
