import Foundation
import Testing
import JournalStore
import JournalFile

/// `DurableFile`: exports, reports and snapshots are written whole through the `Storage` seam, or not at all.
@Suite("Writing a whole file durably")
struct DurableFileTests {
    @Test("the bytes replace the old file and no temporary file is left")
    func replaces() throws {
        let storage = MemoryStorage()
        storage.setContents(of: "/out/report.html", to: [1, 2, 3])
        try DurableFile.write([4, 5], to: "/out/report.html", storage: storage)
        #expect(storage.contents(of: "/out/report.html") == [4, 5])
        #expect(storage.paths == ["/out/report.html"])
    }

    @Test("a failed write leaves the old file as it was, removes the temporary file and says which step failed")
    func failedWrite() throws {
        let storage = MemoryStorage()
        storage.setContents(of: "/out/report.html", to: [1, 2, 3])
        storage.inject(.writeFails(errno: 28))
        do {
            try DurableFile.write([4, 5], to: "/out/report.html", storage: storage)
            Issue.record("the write did not fail")
        } catch {
            #expect(error.path == "/out/report.html")
            #expect(error.step == "pwrite")
        }
        #expect(storage.contents(of: "/out/report.html") == [1, 2, 3])
        #expect(storage.paths == ["/out/report.html"])
    }

    @Test("a directory that does not exist is named with what to do")
    func missingDirectory() throws {
        let path = NSTemporaryDirectory() + "no-such-directory-\(UUID().uuidString)/out.html"
        do {
            try DurableFile.write([1], to: path)
            Issue.record("the write did not fail")
        } catch {
            #expect(error.description
                == "\(path): cannot be written (open: No such file or directory); check that the directory exists and is writable")
        }
    }
}
