import JournalStore
import JournalTesting
import Testing

/// A seal that fails part-way must never leave a redo file that a later open would apply over
/// records appended after the failure.
@Suite("Seal failures")
struct SealFailureTests {
    static func records(_ storage: any Storage) throws -> [String] {
        try JournalReader.records(path: "j", storage: storage).records.map { String(decoding: $0, as: UTF8.self) }
    }

    static func line(_ n: Int) -> [UInt8] { Array("{\"n\":\(n)}".utf8) }

    @Test("a seal whose redo file cannot be fsynced leaves no redo file behind, and later appends survive a crash")
    func redoFileSyncFails() throws {
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: "j", storage: storage)
        try writer.append([SealFailureTests.line(1)])
        try writer.append([SealFailureTests.line(2)])
        storage.inject(.syncFails(errno: 5))
        #expect(throws: StoreError.self) { try writer.seal() }
        try writer.append([SealFailureTests.line(3)])
        writer.close()
        storage.powerLoss(.keepUnsynced)
        let reopened = try JournalWriter(path: "j", storage: storage)
        reopened.close()
        #expect(try SealFailureTests.records(storage) == ["{\"n\":1}", "{\"n\":2}", "{\"n\":3}"])
    }

    @Test("a seal whose redo file cannot be removed stops the writer instead of letting appends follow it")
    func redoFileRemovalFails() throws {
        let memory = MemoryStorage()
        let storage = ScriptedStorage(base: memory)
        let writer = try JournalWriter(path: "j", storage: storage)
        try writer.append([SealFailureTests.line(1)])
        try writer.append([SealFailureTests.line(2)])
        // The seal's operations: create, truncate, write, fsync, directory fsync (the redo file),
        // write, truncate, fsync (the journal), unlink, directory fsync.
        let unlink = storage.trace.count + 8
        storage.failures = [unlink: 5]
        #expect(throws: StoreError.self) { try writer.seal() }
        #expect(storage.trace[unlink] == .remove("j.seal"))
        var refused = false
        do { try writer.append([SealFailureTests.line(3)]) } catch { refused = true }
        #expect(refused)
        writer.close()
        let reopened = try JournalWriter(path: "j", storage: memory)
        #expect(reopened.recovery.completedSeal)
        reopened.close()
        #expect(try SealFailureTests.records(memory) == ["{\"n\":1}", "{\"n\":2}"])
        #expect(try JournalReader.records(path: "j", storage: memory).report.frames == 1)
    }

    @Test("after a seal fails before touching the journal, the writer goes on appending at the right place")
    func appendAfterFailedSeal() throws {
        let memory = MemoryStorage()
        let storage = ScriptedStorage(base: memory)
        let writer = try JournalWriter(path: "j", storage: storage)
        try writer.append([SealFailureTests.line(1)])
        try writer.append([SealFailureTests.line(2)])
        storage.failures = [storage.trace.count + 4: 28]  // the directory fsync after the redo file
        #expect(throws: StoreError.self) { try writer.seal() }
        try writer.append([SealFailureTests.line(3)])
        #expect(try writer.seal())
        writer.close()
        #expect(!memory.exists("j.seal"))
        #expect(try SealFailureTests.records(memory) == ["{\"n\":1}", "{\"n\":2}", "{\"n\":3}"])
    }
}
