import Foundation
import JournalStore
import Testing

/// A command whose only input is refused leaves no journal behind, without ever removing a file
/// another writer could be using (`JournalWriter.closeDiscardingIfEmpty`).
@Suite("Discarding a journal created for nothing")
struct DiscardEmptyJournalTests {
    @Test("a journal this writer created and wrote nothing to is removed; one with a record, or one that existed, stays")
    func discardOnlyWhatThisWriterCreatedEmpty() throws {
        let storage = MemoryStorage()
        let created = try JournalWriter(path: "new", storage: storage)
        #expect(storage.contents(of: "new") == Layout.header)
        #expect(created.closeDiscardingIfEmpty())
        #expect(!storage.exists("new"))

        let written = try JournalWriter(path: "one", storage: storage)
        try written.append([Array("{\"n\":1}".utf8)])
        #expect(!written.closeDiscardingIfEmpty())
        #expect(storage.exists("one"))

        storage.setContents(of: "old", to: Layout.header)
        let reopened = try JournalWriter(path: "old", storage: storage)
        #expect(!reopened.closeDiscardingIfEmpty())
        #expect(storage.contents(of: "old") == Layout.header)
    }

    @Test("a writer whose file was removed or replaced after it opened it refuses, as if the journal were locked")
    func fileGoneFromItsPath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("discard-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/j.journal"
        let storage = PosixStorage()
        let file = try storage.open(path, create: true)
        defer { file.close() }
        #expect(file.isStillAtPath())
        try storage.remove(path)
        #expect(!file.isStillAtPath())
        // A new journal at the same path is another file.
        let writer = try JournalWriter(path: path, storage: storage)
        try writer.append([Array("{\"n\":1}".utf8)])
        writer.close()
        #expect(!file.isStillAtPath())
    }
}
