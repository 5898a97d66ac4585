import JournalEvents
import JournalStore

/// How the server keeps a run of one user's events (SYNC.md §"Schema"): the canonical event lines,
/// newline-terminated, in one zstd frame followed by its CRC-32C checksum frame — exactly a block of
/// the journal's own format (FORMAT.md §"Frames"), so the blocks of a user in position order, after
/// `Layout.header`, are a journal that `journal cat` reads. The ids sit beside it in their own small
/// frame so that a push dedupes without decompressing events.
package enum StoredBatch {
    /// A batch of this many events is sealed; batches with fewer are open, and a compaction
    /// rewrites them (SYNC.md §"Schema").
    static let targetEvents = 512
    /// Compression level of an open batch (rewritten when the user's open batches are compacted), and of a
    /// sealed one (512 events, a batch write's shape): the journal writer's levels (FORMAT.md §"Compression levels").
    static let growingLevel = CompressionLevel.tail
    static let sealedLevel = CompressionLevel.batch

    struct Damaged: Error, CustomStringConvertible {
        var reason: String
        var description: String { "a stored batch is damaged: \(reason)" }
    }

    static func level(eventCount: Int) -> Int32 { eventCount >= targetEvents ? sealedLevel : growingLevel }

    /// Open batches merge in tiers of this many (SYNC.md §"Schema"): 8 batches into one of 8 events or more, 8 of
    /// those into one of 64 or more, and at `targetEvents` (512) into sealed batches.
    static let mergeFanout = 8

    /// How many of a user's last open batches (`open`: their event counts in position order) a push of `fresh`
    /// new events rewrites together with those events, the others staying as they are (SYNC.md §"Schema").
    ///
    /// All of them when they and the new events reach `targetEvents`: they become sealed batches. Otherwise the new
    /// events are one more open batch, and then for each size 8 and 64 in turn (`mergeFanout` and its powers below
    /// `targetEvents`): when the trailing batches smaller than that size are 8 or more and hold that many events
    /// together, they become one. A journal pushed one event at a time is then rewritten as batches of 8, 64 and
    /// 512 events: 1,344 events rewritten for every 512 pushed, where merging every open batch into one at every
    /// 8th push rewrote 16,639; such a user has at most 21 open batches (`OpenBatchMergeTests`).
    static func openBatchesRewritten(open: [Int], fresh: Int) -> Int {
        if open.reduce(fresh, +) >= targetEvents { return open.count }
        var counts = open + [fresh]
        var rewritten = 0
        var size = mergeFanout
        while size < targetEvents {
            // The trailing batches smaller than `size`; of them only the last one holds the new events. The batch a
            // merge makes is `size` or larger, so no merge of a smaller size can follow it.
            let run = counts.reversed().prefix { $0 < size }.count
            let merged = counts.suffix(run).reduce(0, +)
            if run >= mergeFanout, merged >= size {
                counts.removeLast(run)
                counts.append(merged)
                rewritten += run - 1
            }
            size *= mergeFanout
        }
        return rewritten
    }

    /// The block holding `lines` (each without its newline).
    static func block(_ lines: [[UInt8]]) -> [UInt8] {
        var content: [UInt8] = []
        for line in lines { content += line; content.append(0x0A) }
        let frame = Zstd.pooled { $0.compressFrame(content, level: level(eventCount: lines.count)) }
        return Layout.block(frame, version: .v2)
    }

    /// The row of a batch of `lines` from position `first` on, the events `ids`.
    static func row(first: Int64, lines: [[UInt8]], ids: [String]) -> Row {
        Row(first: first, eventCount: lines.count, ids: idsFrame(ids), block: block(lines), ranges: IDRanges(ids: ids))
    }

    /// The ids frame: ids joined by newlines.
    static func idsFrame(_ ids: [String]) -> [UInt8] {
        Zstd.pooled { $0.compressFrame(Array(ids.joined(separator: "\n").utf8), level: level(eventCount: ids.count)) }
    }

    /// The lines of a block (checks its CRC and zstd's own checksum).
    static func lines(ofBlock block: [UInt8]) throws -> [[UInt8]] {
        guard block.count > Layout.checksumFrameSize else { throw Damaged(reason: "block of \(block.count) bytes") }
        let frame = Array(block[..<(block.count - Layout.checksumFrameSize)])
        guard Layout.checksumFrame(of: frame) == Array(block[(block.count - Layout.checksumFrameSize)...]) else {
            throw Damaged(reason: "CRC-32C mismatch")
        }
        // One pass, each line copied once (`split` then `map(Array.init)` made every line twice: 2.5% of a
        // 1,000-device run's server samples).
        let content = try decompress(frame)
        var lines: [[UInt8]] = []
        var start = 0
        for index in content.indices where content[index] == 0x0A {
            if index > start { lines.append(Array(content[start..<index])) }
            start = index + 1
        }
        if start < content.count { lines.append(Array(content[start...])) }
        return lines
    }

    static func ids(ofFrame frame: [UInt8]) throws -> [String] {
        let content = try decompress(frame)
        return content.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func decompress(_ frame: [UInt8]) throws -> [UInt8] {
        switch Zstd.pooled({ zstd in frame.withUnsafeBytes { zstd.decompressFrame($0).map { Array($0) } } }) {
        case .success(let bytes): return bytes
        case .failure(let problem): throw Damaged(reason: "\(problem)")
        }
    }

    /// One row of `journal_batches` as the server writes it (without its user).
    package struct Row: Sendable {
        package var first: Int64
        package var eventCount: Int
        package var ids: [UInt8]
        package var block: [UInt8]
        /// `IDRanges(ids:)`: nil when the ids frame must always be read.
        var ranges: IDRanges?
        /// `journal_batches.id_ranges`.
        package var idRanges: String? { ranges?.text }
        package var last: Int64 { first + Int64(eventCount) - 1 }
    }

    /// The rows holding `events` stored from position `first` on, as consecutive batches of `targetEvents`
    /// (the last one possibly shorter, still growing): what pushes of the same events leave, however they were
    /// split (SYNC.md §"Schema").
    package static func rows(_ events: [Event], first: Int64 = 1) -> [Row] {
        batches(of: events.count).map { range in
            let position = first + Int64(range.lowerBound)
            let lines = events[range].enumerated().map { line($0.element, position: position + Int64($0.offset)) }
            return row(first: position, lines: lines, ids: events[range].map(\.id))
        }
    }

    /// How `count` consecutive events are cut into batches: `targetEvents` at a time, the last one possibly shorter
    /// (the ranges of their offsets). Bulk rows (`rows`), a push's new rows and compactions all cut this way.
    static func batches(of count: Int) -> [Range<Int>] {
        stride(from: 0, to: count, by: targetEvents).map { $0..<min($0 + targetEvents, count) }
    }

    /// A user's journal in the journal's own format: `Layout.header` followed by the user's blocks in position
    /// order (what `journal verify` and `journal cat` read).
    static func journal(blocks: [[UInt8]]) -> [UInt8] {
        var bytes = Layout.header
        bytes.reserveCapacity(blocks.reduce(bytes.count) { $0 + $1.count })
        for block in blocks { bytes += block }
        return bytes
    }

    /// An event as the server stores it: its canonical line with `seq` set to its server position.
    package static func line(_ event: Event, position: Int64) -> [UInt8] {
        var copy = event
        copy.seq = Int(position)
        return EventCodec.encode(copy)
    }
}
