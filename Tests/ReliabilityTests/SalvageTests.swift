import JournalFile
import JournalEvents
import JournalStore
import JournalTesting
import Testing
import Foundation

/// `journal salvage` (RELIABILITY.md §"Corruption"): every intact frame recovered, byte for
/// byte, and exactly the lost events named.
@Suite("Salvaging a damaged journal")
struct SalvageTests {
    static let sample = CorruptionTests.sample

    /// Salvages `bytes` on a fresh in-memory storage; returns the report and the saved lines.
    static func salvage(_ bytes: [UInt8]) throws -> (report: Salvage.Report, lines: [[UInt8]], storage: MemoryStorage) {
        let storage = MemoryStorage()
        storage.setContents(of: "bad", to: bytes)
        let report = try Salvage.salvage(source: "bad", output: "out", storage: storage)
        return (report, try JournalReader.records(path: "out", storage: storage).records, storage)
    }

    @Test("an intact journal is copied whole and nothing is reported lost")
    func intact() throws {
        let (report, lines, _) = try SalvageTests.salvage(SalvageTests.sample.bytes)
        #expect(report.nothingLost)
        #expect(lines == SalvageTests.sample.map.records)
        #expect(report.eventsSaved == 18)
        #expect(report.framesSaved == 6)
    }

    @Test("damage in any middle frame: the other frames are saved byte for byte and exactly that frame's seqs are reported lost")
    func damageInEachMiddleFrame() throws {
        let (bytes, map) = SalvageTests.sample
        for frame in map.entries.dropLast() {
            // Byte 12 of each frame is inside its compressed block.
            let (report, lines, storage) = try SalvageTests.salvage(Corrupt.flippingBit(bytes, (frame.offset + 12) * 8))
            let lost = (frame.firstRecord + 1)...(frame.firstRecord + frame.records)
            #expect(lines == map.records(excluding: frame))
            #expect(report.lostSeqs == [lost])
            #expect(report.dropped.map(\.offset) == [frame.offset])
            #expect(report.dropped.map(\.length) == [frame.size])
            #expect(report.dropped.first?.lostSeqs == lost)
            #expect(!report.lostTail)
            // The new journal has no damage; its only gap is the lost range.
            let verify = try JournalVerifier.verify(path: "out", storage: storage)
            #expect(verify.scan.isClean)
            #expect(verify.seqGaps.map { [$0.after, $0.found] } == [[lost.lowerBound - 1, lost.upperBound + 1]])
        }
    }

    @Test("damage in the last frame: everything before it is saved and the loss is reported as after the last saved seq")
    func damageInLastFrame() throws {
        let (bytes, map) = SalvageTests.sample
        let last = map.entries.last!
        let (report, lines, _) = try SalvageTests.salvage(Corrupt.truncated(bytes, to: last.offset + 5))
        #expect(lines == map.records(excluding: last))
        #expect(report.lostSeqs == [])
        #expect(report.lostTail)
        #expect(report.dropped == [Salvage.DroppedBytes(offset: last.offset, length: 5, reason: report.dropped[0].reason,
                                                        atEnd: true, lostSeqs: nil, afterSeq: 17)])
    }

    @Test("two damaged frames give two lost ranges and two dropped byte ranges")
    func twoDamagedFrames() throws {
        let (bytes, map) = SalvageTests.sample
        let first = map.entries[0], third = map.entries[2]
        let damaged = Corrupt.flippingBit(Corrupt.flippingBit(bytes, (first.offset + 20) * 8 + 3), (third.offset + 20) * 8 + 3)
        let (report, lines, _) = try SalvageTests.salvage(damaged)
        #expect(report.lostSeqs == [1...5, 11...15])
        #expect(report.dropped.map(\.offset) == [first.offset, third.offset])
        #expect(lines.count == 8)
        #expect(report.eventsLost == 10)
    }

    @Test("every flip in the second frame: salvage rescues the frame when zstd's own checksum still verifies its content (every checksum-frame bit among them), else loses exactly that frame")
    func everyFlipInOneFrame() throws {
        let (bytes, map) = SalvageTests.sample
        let frame = map.entries[1]
        let lost = (frame.firstRecord + 1)...(frame.firstRecord + frame.records)
        var rescuedBits: [Int] = []
        var problems: [String] = []
        for bit in (frame.offset * 8)..<(frame.end * 8) {
            let (report, lines, storage) = try SalvageTests.salvage(Corrupt.flippingBit(bytes, bit))
            guard report.dropped.count == 1, report.dropped[0].offset == frame.offset, report.dropped[0].length == frame.size else {
                problems.append("bit \(bit): dropped \(report.dropped)")
                continue
            }
            if report.dropped[0].rescuedSeqs != nil {
                rescuedBits.append(bit)
                let clean = try JournalVerifier.verify(path: "out", storage: storage).isClean
                if lines != map.records || !report.nothingLost || report.dropped[0].rescuedSeqs != lost || !report.dropped[0].fullyRescued
                    || report.eventsRescued != 5 || report.framesRescued != 1 || !clean {
                    problems.append("bit \(bit): rescued, but \(report)")
                }
            } else if lines != map.records(excluding: frame) || report.lostSeqs != [lost] || report.eventsRescued != 0 {
                problems.append("bit \(bit): not rescued, and \(report)")
            }
        }
        #expect(problems == [])
        // All 96 bits of the 12-byte checksum frame; in the data frame, the bits zstd's decoder does not
        // read (the same kind of bits that version 1 could not see at all).
        let checksumBits = Array(((frame.end - 12) * 8)..<(frame.end * 8))
        #expect(Array(rescuedBits.suffix(96)) == checksumBits)
        #expect(Array(rescuedBits.dropLast(96)) == [2356, 2357, 2358, 2359, 2362, 3688, 3689, 3737, 3738, 3739, 3740, 3741, 3742, 3743])
        print("second frame: \((frame.end - frame.offset) * 8) flips, \(rescuedBits.count) rescued: \(rescuedBits.prefix(rescuedBits.count - 96)) and the checksum frame's 96")
    }

    @Test("the last frame rescued from a flip in its checksum frame: nothing lost at the end, with the padding after it or without")
    func rescueAtTheEnd() throws {
        let (bytes, map) = SalvageTests.sample
        let last = map.entries.last!
        let (padded, paddedLines, _) = try SalvageTests.salvage(Corrupt.flippingBit(bytes, (last.end - 3) * 8 + 5))
        #expect(padded.dropped.map(\.atEnd) == [true])
        #expect(padded.dropped.map(\.rescuedSeqs) == [18...18])
        #expect(padded.nothingLost && !padded.lostTail)
        #expect(paddedLines == map.records)

        // Sealed (no padding): the flip in the checksum frame that ends the file.
        let sealed = Array(bytes[..<last.end])
        let (report, lines, _) = try SalvageTests.salvage(Corrupt.flippingBit(sealed, (last.end - 1) * 8))
        #expect(report.nothingLost && !report.lostTail)
        #expect(lines == map.records)

        // A frame cut short is never rescued: its events are lost after seq 17.
        let (cut, cutLines, _) = try SalvageTests.salvage(Array(bytes[..<(last.end - 1)]))
        #expect(cut.dropped.map(\.rescuedSeqs) == [nil])
        #expect(cut.lostTail)
        #expect(cutLines == map.records(excluding: last))
    }

    @Test("a frame that decodes but whose events are not the ones missing there is not rescued")
    func rescueNeedsTheMissingSeqs() throws {
        let (bytes, map) = SalvageTests.sample
        let frame = map.entries[1]
        // The same lines with seq 6…10 renumbered 106…110, compressed into a valid frame that keeps the
        // old checksum frame: it decodes with zstd's checksum, but its seqs do not follow seq 5.
        let lines = map.records[frame.firstRecord..<(frame.firstRecord + frame.records)].map { line -> [UInt8] in
            let text = String(decoding: line, as: UTF8.self)
            let seq = text.range(of: #""seq":"#)!.upperBound
            return Array((String(text[..<seq]) + "10" + String(text[seq...])).utf8)
        }
        let replacement = Zstd().compressFrame(Array(lines.joined(separator: [0x0A])) + [0x0A], level: 3)
        let damaged = Array(bytes[..<frame.offset]) + replacement + Array(bytes[(frame.end - 12)...])
        let (report, saved, _) = try SalvageTests.salvage(damaged)
        #expect(report.dropped.map(\.rescuedSeqs) == [nil])
        #expect(report.lostSeqs == [6...10])
        #expect(saved == map.records(excluding: frame))
        #expect(report.badLines.isEmpty)
    }

    @Test("a journal left with a pending seal (the writer died mid-seal) is salvaged whole, through its redo file")
    func pendingSeal() throws {
        let memory = MemoryStorage()
        let scripted = ScriptedStorage(base: memory)
        let journal = try EventJournal(path: "bad", storage: scripted, device: "ph", options: Fixtures.manyFrames, clock: { Fixtures.start })
        let drafts = Fixtures.workoutDrafts("w1", sets: 3)
        for draft in drafts.dropLast() { try journal.record(draft) }
        // The last append is a write and an fsync; the seal then writes its redo file (create,
        // truncate, write, fsync, directory fsync) and rewrites the journal: die at that rewrite.
        scripted.crashAt = scripted.trace.count + 2 + 5
        _ = try? journal.record(drafts.last!)
        journal.close()
        #expect(memory.exists("bad.seal"))
        let report = try Salvage.salvage(source: "bad", output: "out", storage: memory)
        #expect(report.appliedPendingSeal)
        #expect(report.nothingLost)
        #expect(report.eventsSaved == 5)
        #expect(try JournalVerifier.verify(path: "out", storage: memory).isClean)
        #expect(memory.exists("bad.seal"))  // the source and its redo file are left as they were
    }

    @Test("salvage never overwrites: an existing output is refused and the source is not changed")
    func refusesExistingOutput() throws {
        let storage = MemoryStorage()
        storage.setContents(of: "bad", to: SalvageTests.sample.bytes)
        storage.setContents(of: "out", to: [1, 2, 3])
        #expect(throws: JournalError.self) { _ = try Salvage.salvage(source: "bad", output: "out", storage: storage) }
        #expect(storage.contents(of: "out") == [1, 2, 3])
        #expect(storage.contents(of: "bad") == SalvageTests.sample.bytes)
    }
}
