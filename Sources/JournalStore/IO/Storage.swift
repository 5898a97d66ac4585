/// The only way the store touches a disk. Every durable write goes through these two
/// protocols, so tests can swap in `MemoryStorage` and inject short writes, ENOSPC, EIO,
/// fsync failures and power loss (unsynced writes dropped, truncated or garbled).
public protocol Storage: AnyObject {
    /// Opens `path` for reading and writing; creates it with mode 0600 when `create` is set.
    func open(_ path: String, create: Bool) throws(StoreError) -> any StorageFile
    /// Opens `path` read-only.
    func openForReading(_ path: String) throws(StoreError) -> any StorageFile
    func exists(_ path: String) -> Bool
    /// Removes `path`; succeeds when it does not exist.
    func remove(_ path: String) throws(StoreError)
    /// Renames `from` to `to` atomically, replacing `to` if it exists (rename(2)); durable after `syncDirectory`.
    func rename(_ from: String, to: String) throws(StoreError)
    /// The names (not paths) of the entries of the directory holding `path`.
    func entries(besides path: String) throws(StoreError) -> [String]
    /// Makes the creation or removal of files in `path`'s directory durable (fsync of the directory).
    func syncDirectory(of path: String) throws(StoreError)
}

/// An open file. Reads and writes are positional; nothing is buffered.
public protocol StorageFile: AnyObject {
    var path: String { get }
    func size() throws(StoreError) -> Int
    /// Reads up to `count` bytes at `offset` (fewer only at the end of the file).
    func read(at offset: Int, count: Int) throws(StoreError) -> [UInt8]
    /// Writes all of `bytes` at `offset` or throws; a throw may leave part of them written.
    func write(_ bytes: [UInt8], at offset: Int) throws(StoreError)
    /// fsync: returns once everything written is durable.
    func sync() throws(StoreError)
    /// fdatasync: returns once the data written is durable, without flushing metadata that is not
    /// needed to read it back (enough after overwriting bytes inside the file; not after growing it).
    func syncData() throws(StoreError)
    func truncate(to size: Int) throws(StoreError)
    /// True while the path this file was opened by still names this file (it was not removed or
    /// replaced since). A writer checks it once it holds the lock (FORMAT.md §"Locking").
    func isStillAtPath() -> Bool
    /// Takes a non-blocking lock on a byte range that is only a token (it need not exist).
    /// Returns false when another open file description holds a conflicting lock.
    func lock(_ range: LockRange, exclusive: Bool, wait: Bool) throws(StoreError) -> Bool
    func unlock(_ range: LockRange)
    func close()
}

/// Lock tokens (FORMAT.md §"Locking"): byte 0 is held exclusively by the one writer for its
/// lifetime; byte 1 is held exclusively while a seal rewrites the tail and shared by readers.
public enum LockRange: Int, Sendable {
    case writer = 0
    case seal = 1
}

extension StorageFile {
    public func syncData() throws(StoreError) { try sync() }

    /// Files that are looked up by path on every operation (in-memory storage) never lose it.
    public func isStillAtPath() -> Bool { true }

    /// The whole file.
    public func readAll() throws(StoreError) -> [UInt8] {
        let total = try size()
        return total == 0 ? [] : try read(at: 0, count: total)
    }
}

extension Storage {
    /// Replaces `path` atomically: writes `bytes` to `temporary` (created mode 0600), fsyncs it, renames it over
    /// `path` and fsyncs the directory, so `path` holds its old bytes or the new ones whatever happens. A failure
    /// before the rename leaves `temporary` behind for the caller to remove or overwrite.
    public func replace(_ path: String, with bytes: [UInt8], through temporary: String) throws(StoreError) {
        let file = try open(temporary, create: true)
        do {
            try file.truncate(to: 0)
            try file.write(bytes, at: 0)
            try file.sync()
            file.close()
        } catch {
            file.close()
            throw error
        }
        try rename(temporary, to: path)
        try syncDirectory(of: path)
    }
}
