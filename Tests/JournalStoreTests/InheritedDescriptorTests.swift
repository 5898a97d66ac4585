import Foundation
import JournalStore
import Testing

/// A writer's lock ends when the writer closes, even while a copy of its descriptor lives on: a child process forked
/// by another thread between the open and its exec holds one (O_CLOEXEC closes it only at the exec), and an
/// open-file-description lock lasts until the last copy closes unless it is released first (`PosixFile.close`).
@Suite("A closed writer's lock is released even with a copy of its descriptor open")
struct InheritedDescriptorTests {
    /// The descriptors of this process open on `path` (as a forked child would hold them: copies of the same open
    /// file description).
    static func descriptors(of path: String) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap(Int32.init).filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) == path
        }
    }

    @Test("a copy of the closed writer's descriptor does not keep the next writer out")
    func copyDoesNotHoldTheLock() throws {
        #if os(Linux)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inherited-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/j.journal"
        let first = try JournalWriter(path: path, storage: PosixStorage())
        try first.append([Array("{\"n\":1}".utf8)])
        let open = Self.descriptors(of: path)
        #expect(open.count == 1)
        let copies = open.map { dup($0) }
        defer { for copy in copies { close(copy) } }
        #expect(throws: StoreError.locked(path: path)) { _ = try JournalWriter(path: path, storage: PosixStorage()) }
        first.close()
        let second = try JournalWriter(path: path, storage: PosixStorage())
        second.close()
        #endif
    }
}
