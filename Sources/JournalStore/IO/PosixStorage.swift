#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C library's open(2) and close(2), named apart from `Storage.open` and `StorageFile.close`.
#if canImport(Glibc)
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { Glibc.open(path, flags, mode) }
private func systemClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
#elseif canImport(Darwin)
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { Darwin.open(path, flags, mode) }
private func systemClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
#endif

/// The real file system: open(2) with O_CLOEXEC and mode 0600, pread/pwrite, fsync,
/// ftruncate, and open-file-description locks (fcntl F_OFD_SETLK) on Linux.
public final class PosixStorage: Storage {
    public init() {}

    public func open(_ path: String, create: Bool) throws(StoreError) -> any StorageFile {
        let flags = O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0)
        let fd = retryingEINTR { systemOpen(path, flags, 0o600) }
        guard fd >= 0 else { throw posixError(path, "open") }
        return PosixFile(fd: fd, path: path)
    }

    public func openForReading(_ path: String) throws(StoreError) -> any StorageFile {
        let fd = retryingEINTR { systemOpen(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw posixError(path, "open") }
        return PosixFile(fd: fd, path: path)
    }

    public func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    public func remove(_ path: String) throws(StoreError) {
        if unlink(path) != 0 && errno != ENOENT { throw posixError(path, "unlink") }
    }

    public func rename(_ from: String, to: String) throws(StoreError) {
        #if canImport(Glibc)
        if Glibc.rename(from, to) != 0 { throw posixError(from, "rename to \(to)") }
        #else
        if Darwin.rename(from, to) != 0 { throw posixError(from, "rename to \(to)") }
        #endif
    }

    public func entries(besides path: String) throws(StoreError) -> [String] {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard let handle = opendir(directory) else { throw posixError(directory, "opendir") }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public func syncDirectory(of path: String) throws(StoreError) {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        let fd = retryingEINTR { systemOpen(directory, O_RDONLY | O_CLOEXEC | O_DIRECTORY) }
        guard fd >= 0 else { throw posixError(directory, "open directory") }
        defer { _ = systemClose(fd) }
        if fsync(fd) != 0 { throw posixError(directory, "fsync directory") }
    }
}

func retryingEINTR(_ body: () -> Int32) -> Int32 {
    while true {
        let result = body()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}

func posixError(_ path: String, _ operation: String, _ code: Int32 = errno) -> StoreError {
    .io(path: path, operation: operation, errno: code, message: String(cString: strerror(code)))
}

final class PosixFile: StorageFile {
    let fd: Int32
    let path: String
    private var closed = false

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close() }

    func size() throws(StoreError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw posixError(path, "fstat") }
        return Int(info.st_size)
    }

    func isStillAtPath() -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    func read(at offset: Int, count: Int) throws(StoreError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress! + done, count - done, off_t(offset + done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw posixError(path, "pread")
            }
            if n == 0 { break }
            done += n
        }
        if done < count { buffer.removeLast(count - done) }
        return buffer
    }

    func write(_ bytes: [UInt8], at offset: Int) throws(StoreError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                pwrite(fd, raw.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw posixError(path, "pwrite")
            }
            done += n
        }
    }

    func sync() throws(StoreError) {
        if retryingEINTR({ fsync(fd) }) != 0 { throw posixError(path, "fsync") }
    }

    func syncData() throws(StoreError) {
        #if os(Linux)
        if retryingEINTR({ fdatasync(fd) }) != 0 { throw posixError(path, "fdatasync") }
        #else
        try sync()
        #endif
    }

    func truncate(to size: Int) throws(StoreError) {
        if retryingEINTR({ ftruncate(fd, off_t(size)) }) != 0 { throw posixError(path, "ftruncate") }
    }

    /// F_OFD_SETLK / F_OFD_SETLKW (37 / 38 on Linux): locks owned by this open file
    /// description, so two opens in one process conflict as two processes would.
    func lock(_ range: LockRange, exclusive: Bool, wait: Bool) throws(StoreError) -> Bool {
        #if os(Linux)
        var request = flock()
        request.l_type = Int16(exclusive ? F_WRLCK : F_RDLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(range.rawValue)
        request.l_len = 1
        request.l_pid = 0
        let command: Int32 = wait ? 38 : 37
        while true {
            if fcntl(fd, command, &request) == 0 { return true }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EACCES { return false }
            throw posixError(path, "fcntl(F_OFD_SETLK)")
        }
        #else
        return true
        #endif
    }

    func unlock(_ range: LockRange) {
        #if os(Linux)
        var request = flock()
        request.l_type = Int16(F_UNLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(range.rawValue)
        request.l_len = 1
        _ = fcntl(fd, 37, &request)
        #endif
    }

    /// Releases this description's locks before closing: a child process forked by another thread between the
    /// open and its exec holds a copy of the descriptor (O_CLOEXEC closes it only at the exec), and an OFD lock
    /// lasts until the last copy closes, so the next writer would find the journal locked by nobody.
    func close() {
        if !closed {
            closed = true
            #if os(Linux)
            var request = flock()
            request.l_type = Int16(F_UNLCK)
            request.l_whence = Int16(SEEK_SET)
            request.l_start = 0
            request.l_len = 0
            _ = fcntl(fd, 37, &request)
            #endif
            _ = systemClose(fd)
        }
    }
}
