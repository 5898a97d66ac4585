#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JournalStore

/// Writing a whole file (a snapshot, an export, a report) so that it is either complete and durable or absent, through
/// the `Storage` seam: a temporary file beside it (mode 0600), fsync, rename over `path`, fsync of the directory.
public enum DurableFile {
    /// Why a file could not be written: the step that failed and the system's reason. `path` is unchanged.
    public struct WriteFailed: Error, Equatable, Sendable, CustomStringConvertible {
        public var path: String
        public var step: String
        public var reason: String
        public var description: String {
            "\(path): cannot be written (\(step): \(reason)); check that the directory exists and is writable"
        }
    }

    /// Writes `bytes` to `path` atomically. On failure the temporary file is removed and `path` is as it was.
    public static func write(_ bytes: [UInt8], to path: String, storage: any Storage = PosixStorage()) throws(WriteFailed) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        func fail(_ step: String, _ error: StoreError) -> WriteFailed {
            try? storage.remove(temporary)
            if case let .io(_, _, _, message) = error { return WriteFailed(path: path, step: step, reason: message) }
            return WriteFailed(path: path, step: step, reason: error.description)
        }
        let file: any StorageFile
        do { file = try storage.open(temporary, create: true) } catch { throw fail("open", error) }
        do {
            try file.truncate(to: 0)
            try file.write(bytes, at: 0)
            try file.sync()
            file.close()
        } catch {
            file.close()
            throw fail("write", error)
        }
        do { try rename(temporary, to: path, storage: storage) } catch { throw fail("rename", error) }
        try? storage.syncDirectory(of: path)
    }

    /// `rename(2)` on the real file system; a move of the bytes in `MemoryStorage` (tests).
    /// (`Storage` has no rename yet; when JournalStore grows one, this goes.)
    static func rename(_ from: String, to: String, storage: any Storage) throws(StoreError) {
        if let memory = storage as? MemoryStorage {
            guard let bytes = memory.contents(of: from) else { throw .io(path: from, operation: "rename", errno: ENOENT, message: "no such file") }
            memory.setContents(of: to, to: bytes)
            try memory.remove(from)
            return
        }
        guard storage is PosixStorage else { throw .io(path: from, operation: "rename", errno: ENOTSUP, message: "this storage cannot rename") }
        #if canImport(Glibc)
        let failed = Glibc.rename(from, to) != 0
        #else
        let failed = Darwin.rename(from, to) != 0
        #endif
        if failed { throw .io(path: from, operation: "rename", errno: errno, message: String(cString: strerror(errno))) }
    }
}
