#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JournalStore

/// Writing a whole file (a snapshot, an export, a report) so that it is either complete and durable or absent, through
/// the `Storage` seam: a temporary file beside it (mode 0600), fsync, rename over `path`, fsync of the directory.
public enum DurableFile {
    /// Why a file could not be written: the step (the system call) that failed and the system's reason. `path` is unchanged.
    public struct WriteFailed: Error, Equatable, Sendable, CustomStringConvertible {
        public var path: String
        public var step: String
        public var reason: String
        public var description: String {
            "\(path): cannot be written (\(step): \(reason)); check that the directory exists and is writable"
        }
    }

    /// Writes `bytes` to `path` atomically (`Storage.replace`). On failure the temporary file is removed and `path` is
    /// as it was.
    public static func write(_ bytes: [UInt8], to path: String, storage: any Storage = PosixStorage()) throws(WriteFailed) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        do {
            try storage.replace(path, with: bytes, through: temporary)
        } catch {
            try? storage.remove(temporary)
            if case let .io(_, operation, _, message) = error { throw WriteFailed(path: path, step: operation, reason: message) }
            throw WriteFailed(path: path, step: "write", reason: error.description)
        }
    }
}
