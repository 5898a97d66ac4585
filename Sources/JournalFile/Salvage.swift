import JournalEvents
import JournalStore

/// `journal salvage`: copies every event of every intact frame of a damaged journal into a new
/// journal, byte for byte and with its seq unchanged, and says exactly what could not be saved.
///
/// Events are numbered 1, 2, 3… with no gaps, so the seqs missing between two saved events are
/// exactly the events lost in the damage between them. Events in a damaged tail can only be
/// counted from below: "everything after seq N", because nothing after it says where they end.
///
/// A damaged version-2 frame whose content zstd's own content checksum still verifies (its
/// checksum frame was hit, or bits zstd does not read) is rescued: its events are saved with the
/// others, when their seqs fill the gap they belong in (`FrameScanner.rescuesFrames`).
public enum Salvage {
    /// Bytes that did not decode and were left out.
    public struct DroppedBytes: Equatable, Sendable {
        public var offset: Int
        public var length: Int
        public var reason: String
        /// True when the bytes run to the end of the file (a torn tail or damage in the last frame).
        public var atEnd: Bool
        /// The seqs that were in these bytes, when the events on both sides tell (nil at the end).
        public var lostSeqs: ClosedRange<Int>?
        /// The seq of the last event saved before these bytes (0 when none).
        public var afterSeq: Int
        /// The seqs saved from a rescued frame at the start of these bytes.
        public var rescuedSeqs: ClosedRange<Int>?
        /// True when the rescued frame was all there was in these bytes (beside a valid padding):
        /// nothing in them is lost, at the end of the file too.
        public var fullyRescued: Bool

        public init(offset: Int, length: Int, reason: String, atEnd: Bool, lostSeqs: ClosedRange<Int>?, afterSeq: Int,
                    rescuedSeqs: ClosedRange<Int>? = nil, fullyRescued: Bool = false) {
            self.offset = offset
            self.length = length
            self.reason = reason
            self.atEnd = atEnd
            self.lostSeqs = lostSeqs
            self.afterSeq = afterSeq
            self.rescuedSeqs = rescuedSeqs
            self.fullyRescued = fullyRescued
        }
    }

    public struct Report: Equatable, Sendable {
        public var source: String
        public var output: String
        public var sourceBytes = 0
        public var framesSaved = 0
        public var eventsSaved = 0
        public var firstSeq: Int?
        public var lastSeq: Int?
        public var dropped: [DroppedBytes] = []
        /// Every run of seqs missing below the last saved event, damage or not.
        public var lostSeqs: [ClosedRange<Int>] = []
        /// Lines inside intact frames that are not events (kept out of the new journal).
        public var badLines: [EventReader.BadLine] = []
        /// True when a redo file of an unfinished seal was applied while reading.
        public var appliedPendingSeal = false

        /// Events known to be lost (those in a damaged tail cannot be counted).
        public var eventsLost: Int { lostSeqs.reduce(0) { $0 + $1.count } }
        /// Events saved from rescued frames (counted in `eventsSaved` too).
        public var eventsRescued: Int { dropped.reduce(0) { $0 + ($1.rescuedSeqs?.count ?? 0) } }
        /// Frames rescued (counted in `framesSaved` too).
        public var framesRescued: Int { dropped.filter { $0.rescuedSeqs != nil }.count }
        public var lostTail: Bool { dropped.contains { $0.atEnd && !$0.fullyRescued } }
        public var nothingLost: Bool { dropped.allSatisfy(\.fullyRescued) && lostSeqs.isEmpty && badLines.isEmpty }
    }

    /// Reads `source` (never changing it) and writes every intact event to `output`, which must not exist.
    public static func salvage(source: String, output: String, storage: any Storage = PosixStorage()) throws(JournalError) -> Report {
        var report = Report(source: source, output: output)
        report.appliedPendingSeal = storage.exists(JournalWriter.sealPath(source))
        var saved: [(seq: Int, offset: Int, line: [UInt8])] = []
        var frames = Set<Int>()
        let scan: ScanReport
        do {
            scan = try JournalReader.read(path: source, storage: storage, rescuingFrames: true) { line, location in
                do {
                    let event = try EventCodec.decode(line)
                    saved.append((event.seq, location.frameOffset, Array(line)))
                    frames.insert(location.frameOffset)
                } catch let error as EventCodec.DecodingError {
                    report.badLines.append(EventReader.BadLine(line: location.lineNumber, frameOffset: location.frameOffset, problem: error))
                }
            }
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.io(path: source, operation: "read", errno: 0, message: "\(error)"))
        }
        let rescued = Dictionary(uniqueKeysWithValues: scan.rescued.map { ($0.frame.offset, $0) })
        for damage in scan.damage {
            let before = saved.last(where: { $0.offset < damage.offset })?.seq ?? 0
            let after = saved.first(where: { $0.offset > damage.offset })?.seq
            let atEnd = damage.offset + damage.length >= scan.fileSize
            var entry = DroppedBytes(offset: damage.offset, length: damage.length, reason: damage.reason,
                                     atEnd: atEnd, lostSeqs: nil, afterSeq: before)
            var low = before
            if let frame = rescued[damage.offset] {
                // Saved only when its events are the ones missing here: seqs that follow on from
                // the last event before the damage, one after another, below the first after it.
                let seqs = saved.filter { $0.offset == damage.offset }.map(\.seq)
                let followOn = !seqs.isEmpty && seqs.first! == before + 1 && zip(seqs, seqs.dropFirst()).allSatisfy { $1 == $0 + 1 }
                if followOn && after.map({ seqs.last! < $0 }) ?? true {
                    entry.rescuedSeqs = seqs.first!...seqs.last!
                    entry.fullyRescued = frame.coversDamage
                    low = seqs.last!
                } else {
                    saved.removeAll { $0.offset == damage.offset }
                    frames.remove(damage.offset)
                    report.badLines.removeAll { $0.frameOffset == damage.offset }
                }
            }
            if let after, after > low + 1 { entry.lostSeqs = (low + 1)...(after - 1) }
            report.dropped.append(entry)
        }
        report.sourceBytes = scan.fileSize
        report.framesSaved = frames.count
        report.eventsSaved = saved.count
        report.firstSeq = saved.first?.seq
        report.lastSeq = saved.last?.seq
        var expected = 1
        for entry in saved {
            if entry.seq > expected { report.lostSeqs.append(expected...(entry.seq - 1)) }
            expected = max(expected, entry.seq + 1)
        }

        var out = try NewJournal(path: output, storage: storage)
        for entry in saved { out.append(entry.line) }
        try out.finish()
        return report
    }
}
