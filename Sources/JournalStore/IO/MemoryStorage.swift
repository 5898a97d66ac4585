/// An in-memory `Storage` for tests, with the faults real disks have.
///
/// Each file keeps the bytes last made durable by `sync()` beside its current bytes, so
/// `powerLoss(_:)` can model what survives a crash below the process, as SQLite's crash
/// VFS does: unsynced changes dropped, partly written, or garbled. `inject(_:)` queues
/// failures for the next operations: ENOSPC, EIO, short writes and fsync errors.
public final class MemoryStorage: Storage {
    public enum Fault: Equatable, Sendable {
        /// The next write fails with `errno` having written nothing.
        case writeFails(errno: Int32)
        /// The next write stores only its first `bytes` bytes, then fails with `errno`.
        case shortWrite(bytes: Int, errno: Int32)
        /// The next sync fails with `errno` (the data may or may not be durable: treated as not).
        case syncFails(errno: Int32)
        /// The next truncate fails with `errno`.
        case truncateFails(errno: Int32)
    }

    public enum PowerLoss: Sendable {
        /// Nothing unsynced reached the disk.
        case dropUnsynced
        /// Everything written reached the disk, synced or not.
        case keepUnsynced
        /// The unsynced changes reached the disk only up to byte `offset` of the file.
        case keepUnsyncedUpTo(offset: Int)
        /// The unsynced bytes reached the disk with every byte XOR-ed by `pattern` from `offset` on.
        case garbleUnsyncedFrom(offset: Int, pattern: UInt8)
    }

    final class Node {
        var current: [UInt8] = []
        var durable: [UInt8] = []
        var writerLock: ObjectIdentifier?
        var sealExclusive: ObjectIdentifier?
        var sealShared: [ObjectIdentifier: Int] = [:]
    }

    var nodes: [String: Node] = [:]
    var faults: [Fault] = []
    /// Counts of operations, for tests that check how often the store syncs.
    public internal(set) var syncCount = 0
    public internal(set) var writeCount = 0
    /// How many of the syncs were `syncData` (fdatasync), and how many of those followed a change
    /// of the file's size (which only `sync` is sure to make durable on every system).
    public internal(set) var dataSyncCount = 0
    public internal(set) var dataSyncsAfterResize = 0
    /// Bytes returned by reads, for tests that check how much of a file a reader touches.
    public internal(set) var bytesRead = 0

    public init() {}

    public func inject(_ fault: Fault) { faults.append(fault) }

    /// Current bytes of a file, or nil when it does not exist.
    public func contents(of path: String) -> [UInt8]? { nodes[path]?.current }

    /// Replaces a file's bytes (current and durable), creating it.
    public func setContents(of path: String, to bytes: [UInt8]) {
        let node = nodes[path] ?? Node()
        node.current = bytes
        node.durable = bytes
        nodes[path] = node
    }

    public var paths: [String] { nodes.keys.sorted() }

    /// Simulates losing power: every file becomes what the disk holds. Locks are released.
    public func powerLoss(_ mode: PowerLoss) {
        for node in nodes.values {
            let current = node.current, durable = node.durable
            switch mode {
            case .dropUnsynced:
                node.current = durable
            case .keepUnsynced:
                break
            case .keepUnsyncedUpTo(let offset):
                var result = Array(current.prefix(offset))
                if durable.count > offset { result += durable[offset...] }
                node.current = result
            case .garbleUnsyncedFrom(let offset, let pattern):
                var result = current
                let firstDifference = (0..<min(current.count, durable.count)).first(where: { current[$0] != durable[$0] }) ?? min(current.count, durable.count)
                let start = max(offset, firstDifference)
                if start < result.count { for index in start..<result.count { result[index] ^= pattern } }
                node.current = result
            }
            node.durable = node.current
            node.writerLock = nil
            node.sealExclusive = nil
            node.sealShared = [:]
        }
    }

    func takeFault(_ match: (Fault) -> Bool) -> Fault? {
        guard let index = faults.firstIndex(where: match) else { return nil }
        return faults.remove(at: index)
    }

    public func open(_ path: String, create: Bool) throws(StoreError) -> any StorageFile {
        if nodes[path] == nil {
            guard create else { throw StoreError.io(path: path, operation: "open", errno: 2, message: "No such file or directory") }
            nodes[path] = Node()
        }
        return MemoryFile(storage: self, path: path)
    }

    public func openForReading(_ path: String) throws(StoreError) -> any StorageFile {
        guard nodes[path] != nil else { throw StoreError.io(path: path, operation: "open", errno: 2, message: "No such file or directory") }
        return MemoryFile(storage: self, path: path)
    }

    public func exists(_ path: String) -> Bool { nodes[path] != nil }

    public func remove(_ path: String) throws(StoreError) { nodes[path] = nil }

    public func entries(besides path: String) throws(StoreError) -> [String] {
        func directory(_ p: String) -> String { p.lastIndex(of: "/").map { String(p[..<$0]) } ?? "" }
        let wanted = directory(path)
        return nodes.keys.filter { directory($0) == wanted }.map { key in key.lastIndex(of: "/").map { String(key[key.index(after: $0)...]) } ?? key }
    }

    public func rename(_ from: String, to: String) throws(StoreError) {
        guard let node = nodes[from] else { throw StoreError.io(path: from, operation: "rename", errno: 2, message: "No such file or directory") }
        nodes[to] = node
        nodes[from] = nil
    }

    public func syncDirectory(of path: String) throws(StoreError) {}
}

final class MemoryFile: StorageFile {
    let storage: MemoryStorage
    let path: String

    init(storage: MemoryStorage, path: String) {
        self.storage = storage
        self.path = path
    }

    var node: MemoryStorage.Node {
        get throws(StoreError) {
            guard let node = storage.nodes[path] else { throw StoreError.io(path: path, operation: "read", errno: 2, message: "No such file or directory") }
            return node
        }
    }

    func size() throws(StoreError) -> Int { try node.current.count }

    func read(at offset: Int, count: Int) throws(StoreError) -> [UInt8] {
        let bytes = try node.current
        guard offset < bytes.count else { return [] }
        storage.bytesRead += min(bytes.count, offset + count) - offset
        return Array(bytes[offset..<min(bytes.count, offset + count)])
    }

    func write(_ bytes: [UInt8], at offset: Int) throws(StoreError) {
        let node = try node
        storage.writeCount += 1
        var toWrite = bytes
        var failure: Int32?
        if let fault = storage.takeFault({ if case .writeFails = $0 { return true }; if case .shortWrite = $0 { return true }; return false }) {
            switch fault {
            case .writeFails(let code): toWrite = []; failure = code
            case .shortWrite(let keep, let code): toWrite = Array(bytes.prefix(keep)); failure = code
            default: break
            }
        }
        if node.current.count < offset { node.current += [UInt8](repeating: 0, count: offset - node.current.count) }
        let overwritten = min(offset + toWrite.count, node.current.count) - offset
        if overwritten > 0 { node.current.replaceSubrange(offset..<(offset + overwritten), with: toWrite[..<overwritten]) }
        if overwritten < toWrite.count { node.current.append(contentsOf: toWrite[overwritten...]) }
        if let failure { throw StoreError.io(path: path, operation: "pwrite", errno: failure, message: MemoryFile.message(failure)) }
    }

    static func message(_ code: Int32) -> String {
        switch code {
        case 28: return "No space left on device"
        case 5: return "Input/output error"
        default: return "error \(code)"
        }
    }

    func sync() throws(StoreError) {
        let node = try node
        storage.syncCount += 1
        if let fault = storage.takeFault({ if case .syncFails = $0 { return true }; return false }), case .syncFails(let code) = fault {
            throw StoreError.io(path: path, operation: "fsync", errno: code, message: MemoryFile.message(code))
        }
        node.durable = node.current
    }

    func syncData() throws(StoreError) {
        let node = try node
        storage.dataSyncCount += 1
        if node.current.count != node.durable.count { storage.dataSyncsAfterResize += 1 }
        try sync()
    }

    func truncate(to size: Int) throws(StoreError) {
        let node = try node
        if let fault = storage.takeFault({ if case .truncateFails = $0 { return true }; return false }), case .truncateFails(let code) = fault {
            throw StoreError.io(path: path, operation: "ftruncate", errno: code, message: MemoryFile.message(code))
        }
        if size < node.current.count { node.current.removeLast(node.current.count - size) } else {
            node.current += [UInt8](repeating: 0, count: size - node.current.count)
        }
    }

    func lock(_ range: LockRange, exclusive: Bool, wait: Bool) throws(StoreError) -> Bool {
        let node = try node
        let me = ObjectIdentifier(self)
        switch range {
        case .writer:
            if let holder = node.writerLock, holder != me { return false }
            node.writerLock = me
            return true
        case .seal:
            if exclusive {
                if let holder = node.sealExclusive, holder != me { return false }
                if node.sealShared.keys.contains(where: { $0 != me }) { return false }
                node.sealExclusive = me
            } else {
                if let holder = node.sealExclusive, holder != me { return false }
                node.sealShared[me, default: 0] += 1
            }
            return true
        }
    }

    func unlock(_ range: LockRange) {
        guard let node = storage.nodes[path] else { return }
        let me = ObjectIdentifier(self)
        switch range {
        case .writer: if node.writerLock == me { node.writerLock = nil }
        case .seal:
            if node.sealExclusive == me { node.sealExclusive = nil }
            node.sealShared[me] = nil
        }
    }

    func close() {
        unlock(.writer)
        unlock(.seal)
    }
}
