import JournalStore
import JournalTesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Injected I/O failures on the append path (swift-system's mocking idea): every failed append
/// reports its error, acknowledges nothing, and leaves a journal that reopens with every
/// acknowledged record.
@Suite("Storage faults on append")
struct StorageFaultTests {
    static func line(_ n: Int) -> [UInt8] { Array("{\"n\":\(n)}".utf8) }
    static func records(_ storage: any Storage, _ path: String = "j") throws -> [String] {
        try JournalReader.records(path: path, storage: storage).records.map { String(decoding: $0, as: UTF8.self) }
    }

    static let faults: [(String, MemoryStorage.Fault)] = [
        ("ENOSPC on write", .writeFails(errno: 28)),
        ("EIO on write", .writeFails(errno: 5)),
        ("short write then ENOSPC", .shortWrite(bytes: 7, errno: 28)),
        ("fsync fails with EIO", .syncFails(errno: 5)),
    ]

    @Test("a failed append reports the error, is rolled back, and the writer goes on", arguments: 0..<4)
    func failedAppendRollsBack(_ index: Int) throws {
        let (name, fault) = StorageFaultTests.faults[index]
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: storage)
        try writer.append([StorageFaultTests.line(1)])
        // The rollback cuts the file back to its data: the padding reserve goes too (FORMAT.md §"Appending").
        let dataBefore = Array(storage.contents(of: "j")!.prefix(writer.size))
        storage.inject(fault)
        var caught: StoreError?
        do { try writer.append([StorageFaultTests.line(2)]) } catch let error as StoreError { caught = error }
        #expect(caught != nil, "\(name) was not reported")
        #expect(storage.contents(of: "j")! == dataBefore, "\(name) left bytes behind")
        try writer.append([StorageFaultTests.line(3)])
        writer.close()
        storage.powerLoss(.dropUnsynced)
        #expect(try StorageFaultTests.records(storage) == ["{\"n\":1}", "{\"n\":3}"])
        #expect(try JournalReader.records(path: "j", storage: storage).report.isClean)
    }

    @Test("when the rollback fails too, the writer refuses further appends and the next open repairs the tail")
    func rollbackFails() throws {
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: storage)
        try writer.append([StorageFaultTests.line(1)])
        storage.inject(.shortWrite(bytes: 9, errno: 5))
        storage.inject(.truncateFails(errno: 5))
        #expect(throws: StoreError.self) { try writer.append([StorageFaultTests.line(2)]) }
        var poisoned: StoreError?
        do { try writer.append([StorageFaultTests.line(3)]) } catch let error as StoreError { poisoned = error }
        if case .writerPoisoned = poisoned {} else { Issue.record("expected writerPoisoned, got \(String(describing: poisoned))") }
        writer.close()
        // The half-written frame is still in the file (as if the disk kept it): the next open cuts it.
        do {
            let copy = MemoryStorage()
            copy.setContents(of: "j", to: storage.contents(of: "j")!)
            #expect(try JournalReader.records(path: "j", storage: copy).report.tornTail != nil)
            let reopened = try JournalWriter(path: "j", storage: copy)
            reopened.close()
            #expect(try StorageFaultTests.records(copy) == ["{\"n\":1}"])
            #expect(try JournalReader.records(path: "j", storage: copy).report.isClean)
        }
    }

    @Test("a group commit is all or nothing")
    func groupCommitAllOrNothing() throws {
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: storage)
        storage.inject(.shortWrite(bytes: 30, errno: 28))
        #expect(throws: StoreError.self) { try writer.append((1...3).map(StorageFaultTests.line)) }
        writer.close()
        #expect(try StorageFaultTests.records(storage) == [])
    }
}

/// The same bodies against the in-memory storage and a temporary directory on disk (GRDB style).
@Suite("Store behaviour on both backends")
struct BackendTests {
    enum Backend: String, CaseIterable, Sendable { case memory, disk }

    static func make(_ backend: Backend) -> (storage: any Storage, path: String, scratch: ScratchDirectory?) {
        switch backend {
        case .memory: return (MemoryStorage(), "j", nil)
        case .disk:
            let scratch = ScratchDirectory("backend")
            return (PosixStorage(), scratch.file("j.journal"), scratch)
        }
    }

    @Test("appended records read back in order after reopening, sealed or not", arguments: Backend.allCases)
    func appendSealReopen(_ backend: Backend) throws {
        let (storage, path, scratch) = BackendTests.make(backend)
        defer { scratch?.remove() }
        let writer = try JournalWriter(path: path, storage: storage)
        for n in 1...5 { try writer.append([StorageFaultTests.line(n)]) }
        #expect(try writer.seal())
        for n in 6...7 { try writer.append([StorageFaultTests.line(n)]) }
        writer.close()
        let reopened = try JournalWriter(path: path, storage: storage)
        #expect(reopened.tailRecordCount == 2)
        reopened.close()
        let (records, report) = try JournalReader.records(path: path, storage: storage)
        #expect(records.map { String(decoding: $0, as: UTF8.self) } == (1...7).map { "{\"n\":\($0)}" })
        #expect(report.frames == 3)
        #expect(report.isClean)
    }

    @Test("a second writer on the same journal gets the lock error", arguments: Backend.allCases)
    func secondWriterIsRefused(_ backend: Backend) throws {
        let (storage, path, scratch) = BackendTests.make(backend)
        defer { scratch?.remove() }
        let first = try JournalWriter(path: path, storage: storage)
        defer { first.close() }
        #expect(throws: StoreError.locked(path: path)) { _ = try JournalWriter(path: path, storage: storage) }
    }

    @Test("journal files and quarantined tails are created with mode 0600")
    func filesAre0600() throws {
        let scratch = ScratchDirectory("mode")
        defer { scratch.remove() }
        let path = scratch.file("j.journal")
        let writer = try JournalWriter(path: path, storage: PosixStorage())
        try writer.append([StorageFaultTests.line(1)])
        writer.close()
        // Leave half a frame where the next append goes, as a killed writer would.
        let bytes = readFileBytes(path)!
        writeFileBytes(path, Corrupt.overwriting(bytes, at: writer.size, with: Array(bytes[Layout.headerSize..<(Layout.headerSize + 20)])))
        let reopened = try JournalWriter(path: path, storage: PosixStorage())
        reopened.close()
        for file in [path, reopened.recovery.quarantinePath!] {
            var info = stat()
            #expect(stat(file, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600, "\(file) has mode \(String(info.st_mode & 0o777, radix: 8))")
        }
    }
}
