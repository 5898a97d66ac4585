import JournalStore

/// A `Storage` wrapper that numbers every operation that changes something (open with create,
/// write, truncate, sync, remove, directory sync) and can, at a chosen operation:
///
/// - **crash**: the operation does not happen (a write may happen in part) and every later
///   operation, reads included, throws: the process is gone, nothing it would have done to
///   clean up runs. Follow with `MemoryStorage.powerLoss` to model what the disk kept.
/// - **fail**: the operation throws an I/O error (ENOSPC, EIO…) and has no effect; later
///   operations run normally, so the caller's error handling is exercised.
///
/// Run a scenario once with nothing scripted to learn its `trace`, then once per operation
/// index: this is how the tests reach every step of `append`, `seal` and recovery.
public final class ScriptedStorage: Storage {
    public enum Operation: Equatable, Sendable, CustomStringConvertible {
        case create(String), write(String, offset: Int, count: Int), truncate(String, size: Int), sync(String)
        case remove(String), syncDirectory(String), rename(String, to: String)
        public var description: String {
            switch self {
            case .create(let p): return "create \(p)"
            case .write(let p, let o, let c): return "write \(p) [\(o), \(o + c))"
            case .truncate(let p, let s): return "truncate \(p) to \(s)"
            case .sync(let p): return "fsync \(p)"
            case .remove(let p): return "unlink \(p)"
            case .syncDirectory(let p): return "fsync directory of \(p)"
            case .rename(let p, let q): return "rename \(p) to \(q)"
            }
        }
    }

    public let base: any Storage
    public private(set) var trace: [Operation] = []
    /// Index (0-based, in `trace` order) of the operation at which the process dies.
    public var crashAt: Int?
    /// When crashing at a write, how many of its bytes reach the file first.
    public var crashingWriteKeeps = 0
    /// Operations that fail with an errno and have no effect.
    public var failures: [Int: Int32] = [:]
    public private(set) var crashed = false
    /// Called before each changing operation (so it sees the state every earlier one left), while
    /// the process is alive: tests observe the files at every step through it.
    public var beforeEachOperation: (() -> Void)?

    public init(base: any Storage) { self.base = base }

    /// Called before each changing operation; throws when it must not happen.
    func step(_ operation: Operation, partial: (() throws(StoreError) -> Void)? = nil) throws(StoreError) {
        if crashed { throw ScriptedStorage.deadError }
        beforeEachOperation?()
        let index = trace.count
        trace.append(operation)
        if index == crashAt {
            crashed = true
            try? partial?()
            throw ScriptedStorage.deadError
        }
        if let code = failures[index] {
            throw StoreError.io(path: "\(operation)", operation: "scripted failure", errno: code, message: code == 28 ? "No space left on device" : "Input/output error")
        }
    }

    func alive() throws(StoreError) { if crashed { throw ScriptedStorage.deadError } }

    static let deadError = StoreError.io(path: "-", operation: "anything", errno: 0, message: "the process has crashed")

    public func open(_ path: String, create: Bool) throws(StoreError) -> any StorageFile {
        try alive()
        if create && !base.exists(path) { try step(.create(path)) }
        return ScriptedFile(storage: self, file: try base.open(path, create: create))
    }

    public func openForReading(_ path: String) throws(StoreError) -> any StorageFile {
        try alive()
        return ScriptedFile(storage: self, file: try base.openForReading(path))
    }

    public func exists(_ path: String) -> Bool { base.exists(path) }

    public func remove(_ path: String) throws(StoreError) {
        try step(.remove(path))
        try base.remove(path)
    }

    public func entries(besides path: String) throws(StoreError) -> [String] {
        try alive()
        return try base.entries(besides: path)
    }

    public func rename(_ from: String, to: String) throws(StoreError) {
        try step(.rename(from, to: to))
        try base.rename(from, to: to)
    }

    public func syncDirectory(of path: String) throws(StoreError) {
        try step(.syncDirectory(path))
        try base.syncDirectory(of: path)
    }
}

final class ScriptedFile: StorageFile {
    let storage: ScriptedStorage
    let file: any StorageFile
    init(storage: ScriptedStorage, file: any StorageFile) { self.storage = storage; self.file = file }

    var path: String { file.path }
    func isStillAtPath() -> Bool { file.isStillAtPath() }
    func size() throws(StoreError) -> Int { try storage.alive(); return try file.size() }
    func read(at offset: Int, count: Int) throws(StoreError) -> [UInt8] { try storage.alive(); return try file.read(at: offset, count: count) }
    func write(_ bytes: [UInt8], at offset: Int) throws(StoreError) {
        let keep = storage.crashingWriteKeeps
        try storage.step(.write(path, offset: offset, count: bytes.count)) { () throws(StoreError) in
            if keep > 0 { try self.file.write(Array(bytes.prefix(keep)), at: offset) }
        }
        try file.write(bytes, at: offset)
    }
    func sync() throws(StoreError) { try storage.step(.sync(path)); try file.sync() }
    func truncate(to size: Int) throws(StoreError) { try storage.step(.truncate(path, size: size)); try file.truncate(to: size) }
    func lock(_ range: LockRange, exclusive: Bool, wait: Bool) throws(StoreError) -> Bool {
        try storage.alive()
        return try file.lock(range, exclusive: exclusive, wait: wait)
    }
    func unlock(_ range: LockRange) { file.unlock(range) }
    func close() { file.close() }
}
