import JournalStore
import JournalTesting
import Testing

/// `journal backup` (FORMAT.md §"Backups"): incremental, verified, crash-safe and idempotent.
@Suite("Incremental backups")
struct BackupTests {
    static func line(_ n: Int) -> [UInt8] { Array("{\"n\":\(n),\"note\":\"set \(n) of the workout\"}".utf8) }

    /// A journal with one sealed frame of 3 records and a tail of 2 one-record frames.
    static func source(_ memory: MemoryStorage, version: Layout.Version = .v2) throws -> JournalWriter {
        var options = JournalWriter.Options()
        options.newJournalVersion = version
        let writer = try JournalWriter(path: "j", storage: memory, options: options)
        try writer.append((1...3).map(line))
        try writer.seal()
        try writer.append([line(4)])
        try writer.append([line(5)])
        return writer
    }

    /// The source's data: its bytes up to the end of its last valid frame (no padding).
    static func data(_ memory: MemoryStorage) throws -> [UInt8] {
        let report = try JournalReader.records(path: "j", storage: memory).report
        return Array(memory.contents(of: "j")!.prefix(report.validEnd))
    }

    @Test("the first backup copies the data without the padding; the next copies nothing, then only what was appended or sealed")
    func incremental() throws {
        let memory = MemoryStorage()
        let writer = try BackupTests.source(memory)
        let first = try JournalBackup.backup(source: "j", destination: "b", storage: memory)
        #expect(first.created)
        #expect(first.copied == first.bytes)
        #expect(first.kept == 0)
        #expect(first.records == 5)
        #expect(memory.contents(of: "b") == (try BackupTests.data(memory)))
        #expect(memory.contents(of: "j")!.count > first.bytes)   // the source keeps its padding; the backup has none
        let sealedBefore = first.sealedEnd

        let again = try JournalBackup.backup(source: "j", destination: "b", storage: memory)
        #expect(again.copied == 0)
        #expect(again.kept == first.bytes)
        #expect(!again.created)

        // One more event: only its frame and checksum frame are copied.
        try writer.append([BackupTests.line(6)])
        let appended = try JournalBackup.backup(source: "j", destination: "b", storage: memory)
        let block = appended.bytes - first.bytes
        #expect(appended.copied == block)
        #expect(appended.kept == first.bytes)
        #expect(appended.records == 6)

        // A seal replaces the tail by one frame: the backup keeps every sealed byte and rewrites its copy of the tail.
        #expect(try writer.seal())
        writer.close()
        let sealed = try JournalBackup.backup(source: "j", destination: "b", storage: memory)
        #expect(sealed.kept >= sealedBefore)
        #expect(sealed.kept < sealedBefore + 8)   // the new frame's first bytes may equal the old tail's
        #expect(sealed.copied == sealed.bytes - sealed.kept)
        #expect(sealed.sealedEnd == sealed.bytes)
        #expect(memory.contents(of: "b") == (try BackupTests.data(memory)))
        let (records, report) = try JournalReader.records(path: "b", storage: memory)
        #expect(records == (1...6).map(BackupTests.line))
        #expect(report.isClean)
        #expect(try JournalBackup.backup(source: "j", destination: "b", storage: memory).copied == 0)
        // Every destination is recorded once beside the journal, for erasure.
        _ = try JournalBackup.backup(source: "j", destination: "b2", storage: memory)
        #expect(try JournalBackup.registeredBackups(of: "j", storage: memory) == ["b", "b2"])
        #expect(memory.contents(of: "j.backups") == Array("b\nb2\n".utf8))
    }

    @Test("a crash at every step of a backup, whatever the disk kept, is repaired by running it again")
    func crashAtEveryStep() throws {
        // Two situations: a first backup, and bringing an old backup up to date after appends and a seal.
        for update in [false, true] {
            func prepare() throws -> MemoryStorage {
                let memory = MemoryStorage()
                let writer = try BackupTests.source(memory)
                if update {
                    _ = try JournalBackup.backup(source: "j", destination: "b", storage: memory)
                    try writer.append([BackupTests.line(6), BackupTests.line(7)])
                    try writer.seal()
                    try writer.append([BackupTests.line(8)])
                }
                writer.close()
                return memory
            }
            let learn = ScriptedStorage(base: try prepare())
            _ = try JournalBackup.backup(source: "j", destination: "b", storage: learn)
            let operations = learn.trace
            let size = try BackupTests.data(learn.base as! MemoryStorage).count
            #expect(operations.map(\.description) == (update
                ? ["write b [\(operations.first.map { if case .write(_, let offset, _) = $0 { return offset }; return 0 }!), \(size))", "truncate b to \(size)", "fsync b"]
                : ["create b.partial", "truncate b.partial to 0", "write b.partial [0, \(size))", "fsync b.partial", "rename b.partial to b",
                   "fsync directory of b", "create j.backups.partial", "truncate j.backups.partial to 0", "write j.backups.partial [0, 2)",
                   "fsync j.backups.partial", "rename j.backups.partial to j.backups", "fsync directory of j.backups"]))
            var problems: [String] = []
            for step in operations.indices {
                for keep in [0, 1, 20] {
                    for loss in 0..<4 {
                        let memory = try prepare()
                        let scripted = ScriptedStorage(base: memory)
                        scripted.crashAt = step
                        scripted.crashingWriteKeeps = keep
                        _ = try? JournalBackup.backup(source: "j", destination: "b", storage: scripted)
                        let size = memory.contents(of: "b")?.count ?? 0
                        memory.powerLoss([.dropUnsynced, .keepUnsynced, .keepUnsyncedUpTo(offset: size / 2),
                                          .garbleUnsyncedFrom(offset: 0, pattern: 0x5A)][loss])
                        let label = "\(update ? "update" : "first backup"): crash at \(operations[step]) keeping \(keep), loss \(loss)"
                        do {
                            let redo = try JournalBackup.backup(source: "j", destination: "b", storage: memory)
                            if memory.contents(of: "b") != (try BackupTests.data(memory)) { problems.append("\(label): the backup differs") }
                            if redo.records != (update ? 8 : 5) { problems.append("\(label): \(redo.records) events") }
                            if try JournalBackup.backup(source: "j", destination: "b", storage: memory).copied != 0 {
                                problems.append("\(label): a third run copied again")
                            }
                        } catch {
                            problems.append("\(label): running it again failed: \(error)")
                        }
                    }
                }
            }
            #expect(problems == [])
        }
    }

    @Test("a destination that is another journal, or not a journal, or a damaged source, is refused and left as it was")
    func refusals() throws {
        let memory = MemoryStorage()
        try BackupTests.source(memory).close()
        let other = try JournalWriter(path: "other", storage: memory)
        try other.append([Array("{\"n\":1,\"someone\":\"else\"}".utf8), Array("{\"n\":2}".utf8)])
        try other.seal()
        other.close()
        let otherBytes = memory.contents(of: "other")!
        #expect(throws: StoreError.backupRefused(source: "j", destination: "other", reason:
            "its sealed part (bytes 0–\(otherBytes.count - 1)) differs from j at byte 21, so it is another journal or a backup from before an erasure; choose another destination or remove it")) {
            try JournalBackup.backup(source: "j", destination: "other", storage: memory)
        }
        #expect(memory.contents(of: "other") == otherBytes)

        // A journal of only one-event frames has no sealed part to compare: its first event tells.
        let single = try JournalWriter(path: "single", storage: memory)
        try single.append([Array("{\"n\":1,\"someone\":\"else\"}".utf8)])
        single.close()
        let singleBytes = memory.contents(of: "single")!
        #expect(throws: StoreError.backupRefused(source: "j", destination: "single", reason:
            "its first event is not j's first event, so it is another journal; choose another destination or remove it")) {
            try JournalBackup.backup(source: "j", destination: "single", storage: memory)
        }
        #expect(memory.contents(of: "single") == singleBytes)

        memory.setContents(of: "notes.txt", to: Array("shopping list\n".utf8))
        #expect(throws: StoreError.backupRefused(source: "j", destination: "notes.txt", reason:
            "it is not a journal (it starts with neither a journal header nor a zstd frame: 73 68 6F 70 70 69 6E 67)")) {
            try JournalBackup.backup(source: "j", destination: "notes.txt", storage: memory)
        }
        #expect(memory.contents(of: "notes.txt") == Array("shopping list\n".utf8))

        // Damage in the middle of the source: salvage first.
        var damaged = memory.contents(of: "j")!
        damaged[30] ^= 0x10
        memory.setContents(of: "j", to: damaged)
        #expect(throws: StoreError.backupRefused(source: "j", destination: "fresh", reason:
            "j is damaged at byte 16 (the frame's 70 bytes have CRC-32C 0xFEA700CA but its checksum frame holds 0x30851E33); run `journal salvage j -o NEW` and back up NEW")) {
            try JournalBackup.backup(source: "j", destination: "fresh", storage: memory)
        }
        #expect(!memory.exists("fresh"))
    }

    @Test("a torn tail of the source is not copied; a version-1 journal is backed up as it is")
    func tornTailAndVersionOne() throws {
        let memory = MemoryStorage()
        try BackupTests.source(memory).close()
        let clean = try BackupTests.data(memory)
        // Half a frame where the next append would go, and no padding: a writer killed mid-append.
        memory.setContents(of: "j", to: clean + Zstd.frameMagic + [0x24, 0x10, 0x00])
        let outcome = try JournalBackup.backup(source: "j", destination: "b", storage: memory)
        #expect(outcome.sourceTornTail?.offset == clean.count)
        #expect(outcome.sourceTornTail?.length == 7)
        #expect(memory.contents(of: "b") == clean)

        let old = MemoryStorage()
        try BackupTests.source(old, version: .v1).close()
        _ = try JournalBackup.backup(source: "j", destination: "b", storage: old)
        #expect(old.contents(of: "b") == old.contents(of: "j"))
        #expect(old.contents(of: "b")!.starts(with: Zstd.frameMagic))
    }

    @Test("comparing a backup with its source: an earlier state matches; another journal does not, with the byte")
    func compare() throws {
        let memory = MemoryStorage()
        let writer = try BackupTests.source(memory)
        _ = try JournalBackup.backup(source: "j", destination: "b", storage: memory)
        try writer.append([BackupTests.line(6), BackupTests.line(7)])
        try writer.seal()
        writer.close()
        let behind = try JournalBackup.compare(backup: "b", against: "j", storage: memory)
        #expect(behind.matches)
        #expect(behind.backupRecords == 5)
        #expect(behind.matchingRecords == 5)
        #expect(behind.sourceRecords == 7)
        #expect(behind.sealedPartMatches)

        let other = try JournalWriter(path: "other", storage: memory)
        try other.append([Array("{\"n\":1}".utf8), Array("{\"n\":2}".utf8)])
        try other.seal()
        other.close()
        let foreign = try JournalBackup.compare(backup: "other", against: "j", storage: memory)
        #expect(!foreign.matches)
        #expect(foreign.problem == "the backup's sealed part (bytes 0–\(memory.contents(of: "other")!.count - 1)) differs from j at byte 21")
    }
}
