#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JournalStore

/// Writing a snapshot (`<journal>.home-snapshot`) so that no reader ever sees half of one and the journal never pays
/// for it (FORMAT.md §9): `DurableFile`'s temporary file, fsync and rename, and only when the disk keeps room for the
/// journal. Every failure — a read-only directory, a full disk, an I/O error — leaves the old snapshot (or none) and
/// is silent: a snapshot is a cache.
public enum SnapshotFile {
    /// A snapshot file larger than this is not read (it cannot be one of ours; a 5-year ledger is ~10 MB).
    public static let maximumBytes = 1 << 30
    /// Free space kept for the journal: no snapshot is written when the disk would have less than this left, so
    /// the next appends, seals and torn-tail repairs never fail for a cache's sake.
    public static let reservedBytes: UInt64 = 64 << 20

    /// Writes `bytes` to `path` atomically (`DurableFile`); false when it did not (nothing changed then).
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String, storage: any Storage) -> Bool {
        guard hasRoom(for: bytes.count, beside: path, storage: storage) else { return false }
        do { try DurableFile.write(bytes, to: path, storage: storage) } catch { return false }
        return true
    }

    /// Whether writing `count` bytes beside `path` leaves at least `reservedBytes` free (always for test storage).
    static func hasRoom(for count: Int, beside path: String, storage: any Storage) -> Bool {
        guard storage is PosixStorage else { return true }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return false }
        let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        return free >= UInt64(count) + reservedBytes
    }
}
