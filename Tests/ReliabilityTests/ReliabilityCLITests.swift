import JournalFile
import JournalEvents
import JournalStore
import JournalTesting
import Testing

/// `journal salvage` and `journal merge` end to end: the real binary, stdout, stderr and exit
/// status pinned (swift-argument-parser's example tests style).
@Suite("journal salvage and journal merge, end to end")
struct ReliabilityCLITests {
    static func run(_ arguments: [String], in scratch: ScratchDirectory) throws -> (status: Int32, stdout: String, stderr: String) {
        try Subprocess.run(try journalBinary(), arguments, scratch: scratch.path)
    }

    @Test("salvage of a journal with its second frame damaged: saves the rest, names seq 6…10 and the bytes dropped")
    func salvageDamagedMiddle() throws {
        let scratch = ScratchDirectory("cli-salvage")
        defer { scratch.remove() }
        let (bytes, map) = CorruptionTests.sample
        let bad = scratch.file("bad.journal"), out = scratch.file("out.journal")
        writeFileBytes(bad, Corrupt.flippingBit(bytes, (map.entries[1].offset + 30) * 8))
        let result = try ReliabilityCLITests.run(["salvage", bad, "-o", out], in: scratch)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == """
            source:   \(bad) (33719 bytes)
            output:   \(out)
            saved:    13 events in 5 intact frames (seq 1…18)
            dropped:  266 bytes in 1 place
              byte 278, 266 bytes: the frame's 254 bytes have CRC-32C 0x53353A25 but its checksum frame holds 0x22E42B8D: lost seq 6…10 (5 events)
            lost:     seq 6…10 (5 events)

            """)
        let verify = try ReliabilityCLITests.run(["verify", out], in: scratch)
        #expect(verify.stdout.contains("damage:           none\n"))
        #expect(verify.stdout.contains("seq:              gap after 5: next is 11\n"))
        // The source is never changed.
        #expect(readFileBytes(bad) == Corrupt.flippingBit(bytes, (map.entries[1].offset + 30) * 8))
    }

    @Test("salvage of a torn journal names what followed the last saved seq")
    func salvageTornTail() throws {
        let scratch = ScratchDirectory("cli-torn")
        defer { scratch.remove() }
        let (bytes, map) = CorruptionTests.sample
        let bad = scratch.file("torn.journal"), out = scratch.file("out.journal")
        writeFileBytes(bad, Corrupt.truncated(bytes, to: map.entries[5].offset + 10))
        let result = try ReliabilityCLITests.run(["salvage", bad, "-o", out, "--json"], in: scratch)
        #expect(result.status == 0)
        let json = try JSONParser.parse(result.stdout.trimmingSuffixNewline())
        #expect(json.objectValue?["events_saved"] == .int(17))
        #expect(json.objectValue?["lost_tail"] == .bool(true))
        #expect(json.objectValue?["lost_seqs"] == .array([]))
        #expect(json.objectValue?["dropped"]?.arrayValue?.first?.objectValue?["offset"] == .int(map.entries[5].offset))
        #expect(json.objectValue?["dropped"]?.arrayValue?.first?.objectValue?["after_seq"] == .int(17))
    }

    @Test("salvage of a journal whose second checksum frame is damaged: the frame is rescued, nothing is lost")
    func salvageRescuesFrame() throws {
        let scratch = ScratchDirectory("cli-rescue")
        defer { scratch.remove() }
        let (bytes, map) = CorruptionTests.sample
        let bad = scratch.file("bad.journal"), out = scratch.file("out.journal")
        // A bit of the CRC-32C value, the last of the frame's checksum frame.
        writeFileBytes(bad, Corrupt.flippingBit(bytes, (map.entries[1].end - 2) * 8 + 6))
        let result = try ReliabilityCLITests.run(["salvage", bad, "-o", out], in: scratch)
        #expect(result.status == 0)
        #expect(result.stdout == """
            source:   \(bad) (33719 bytes)
            output:   \(out)
            saved:    18 events in 6 frames, 1 of them rescued (seq 1…18)
            dropped:  266 bytes in 1 place
              byte 278, 266 bytes: the frame's 254 bytes have CRC-32C 0x22E42B8D but its checksum frame holds 0x22A42B8D: rescued seq 6…10 (5 events: the frame's content still verifies against zstd's own checksum), nothing lost
            lost:     nothing

            """)
        let json = try ReliabilityCLITests.run(["salvage", bad, "-o", scratch.file("out2.journal"), "--json"], in: scratch)
        let report = try JSONParser.parse(json.stdout.trimmingSuffixNewline())
        #expect(report.objectValue?["events_rescued"] == .int(5))
        #expect(report.objectValue?["frames_rescued"] == .int(1))
        #expect(report.objectValue?["events_lost"] == .int(0))
        #expect(report.objectValue?["dropped"]?.arrayValue?.first?.objectValue?["rescued_seqs"] == .object(["from": .int(6), "to": .int(10)]))
        #expect(report.objectValue?["dropped"]?.arrayValue?.first?.objectValue?["fully_rescued"] == .bool(true))
        let verify = try ReliabilityCLITests.run(["verify", out], in: scratch)
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("seq:              1…18, no gaps\n"))
    }

    @Test("salvage refuses to overwrite its output or write over its input")
    func salvageRefusesOverwrite() throws {
        let scratch = ScratchDirectory("cli-overwrite")
        defer { scratch.remove() }
        let path = scratch.file("j.journal")
        writeFileBytes(path, CorruptionTests.sample.bytes)
        let same = try ReliabilityCLITests.run(["salvage", path, "-o", path], in: scratch)
        #expect(same.status == 64)
        #expect(same.stderr.contains("Error: -o \"\(path)\" is the journal being salvaged; write to a new file"))
        let existing = scratch.file("exists.journal")
        writeFileBytes(existing, [1])
        let exists = try ReliabilityCLITests.run(["salvage", path, "-o", existing], in: scratch)
        #expect(exists.status == 1)
        #expect(exists.stderr == "journal: \(existing) already exists; salvage writes a new journal (choose another -o, or remove it first)\n")
        #expect(readFileBytes(existing) == [1])
    }

    @Test("merge of two devices' copies, in either order, gives the same bytes; merging again adds nothing")
    func mergeEndToEnd() throws {
        let scratch = ScratchDirectory("cli-merge")
        defer { scratch.remove() }
        let memory = MemoryStorage()
        _ = try Fixtures.divergedJournals(seed: 3, storage: memory)
        let a = scratch.file("phone.journal"), b = scratch.file("watch.journal")
        writeFileBytes(a, memory.contents(of: "a")!)
        writeFileBytes(b, memory.contents(of: "b")!)
        let ab = try ReliabilityCLITests.run(["merge", a, b, "-o", scratch.file("ab.journal")], in: scratch)
        let ba = try ReliabilityCLITests.run(["merge", b, a, "-o", scratch.file("ba.journal")], in: scratch)
        #expect(ab.status == 0)
        #expect(ba.status == 0)
        #expect(readFileBytes(scratch.file("ab.journal")) == readFileBytes(scratch.file("ba.journal")))
        let again = try ReliabilityCLITests.run(["merge", scratch.file("ab.journal"), b, "-o", scratch.file("again.journal")], in: scratch)
        #expect(readFileBytes(scratch.file("again.journal")) == readFileBytes(scratch.file("ab.journal")))
        #expect(again.stdout.contains(" 0 only in \(b))"))
        let verify = try ReliabilityCLITests.run(["verify", scratch.file("ab.journal")], in: scratch)
        #expect(verify.status == 0)
        print(ab.stdout)
    }

    @Test("merge refuses two different users with exit 1 and both e-mails")
    func mergeDifferentUsers() throws {
        let scratch = ScratchDirectory("cli-users")
        defer { scratch.remove() }
        let a = scratch.file("sam.journal"), b = scratch.file("alex.journal")
        _ = try ReliabilityCLITests.run(["record", a, "--event", #"{"type":"account.created","email":"sam@example.com"}"#], in: scratch)
        _ = try ReliabilityCLITests.run(["record", b, "--event", #"{"type":"account.created","email":"alex@example.com"}"#], in: scratch)
        let result = try ReliabilityCLITests.run(["merge", a, b, "-o", scratch.file("m.journal")], in: scratch)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "journal: \(a) and \(b) belong to different users (\(a): sam@example.com; \(b): alex@example.com); refusing to merge\n")
    }
}

extension String {
    func trimmingSuffixNewline() -> String { hasSuffix("\n") ? String(dropLast()) : self }
}
