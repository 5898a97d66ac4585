import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C library's functions, named apart from this file's methods of the same names.
#if canImport(Glibc)
@discardableResult private func systemClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
@discardableResult private func systemKill(_ pid: pid_t, _ signal: Int32) -> Int32 { Glibc.kill(pid, signal) }
@discardableResult private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Glibc.read(fd, buffer, count) }
@discardableResult private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
#elseif canImport(Darwin)
@discardableResult private func systemClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
@discardableResult private func systemKill(_ pid: pid_t, _ signal: Int32) -> Int32 { Darwin.kill(pid, signal) }
@discardableResult private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Darwin.read(fd, buffer, count) }
@discardableResult private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { Darwin.write(fd, buffer, count) }
#endif

/// A child process with pipes on its standard input and output, started with posix_spawn
/// (no shell). Used to run the real `journal` binary and kill it with SIGKILL.
public final class Subprocess {
    public let pid: pid_t
    /// Write end of the child's standard input (-1 once closed).
    public private(set) var input: Int32
    /// Read end of the child's standard output (-1 once closed).
    public private(set) var output: Int32
    private var status: Int32?
    private var pending: [UInt8] = []

    /// Starts `executable` with `arguments`; standard error goes to `errorPath` (appended).
    public init(_ executable: String, _ arguments: [String], errorPath: String = "/dev/null") throws {
        // pipe2 is not visible from Swift: pipe + FD_CLOEXEC, under one lock so that no other
        // spawn in this process inherits these descriptors in between.
        Subprocess.spawnLock.lock()
        defer { Subprocess.spawnLock.unlock() }
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw SubprocessError.spawn(errno) }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, nil, argv, environ)
        systemClose(toChild[0])
        systemClose(fromChild[1])
        guard result == 0 else {
            systemClose(toChild[1]); systemClose(fromChild[0])
            throw SubprocessError.spawn(result)
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
    }

    deinit {
        if status == nil { _ = systemKill(pid, SIGKILL); _ = wait() }
        closeInput()
        if output >= 0 { systemClose(output) }
    }

    /// Writes all of `text` to the child's standard input (returns false if the child is gone).
    @discardableResult
    public func write(_ text: String) -> Bool { writeBytes(Array(text.utf8)) }

    /// Writes all of `bytes` (which need not be UTF-8) to the child's standard input.
    @discardableResult
    public func writeBytes(_ bytes: [UInt8]) -> Bool {
        var bytes = bytes
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { systemWrite(input, $0.baseAddress! + done, $0.count - done) }
            if n < 0 { if errno == EINTR { continue }; return false }
            done += n
        }
        return true
    }

    public func closeInput() {
        if input >= 0 { systemClose(input); input = -1 }
    }

    /// Reads the next complete line of standard output (without its newline); nil at end of file.
    public func readLine() -> String? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { systemRead(output, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            pending += buffer[..<n]
        }
    }

    /// Every remaining complete line of standard output (a partial last line is not a line).
    public func readAllLines() -> [String] {
        var lines: [String] = []
        while let line = readLine() { lines.append(line) }
        return lines
    }

    /// Sends SIGKILL (the process gets no chance to clean up).
    public func kill() { _ = systemKill(pid, SIGKILL) }

    /// Waits for the child; returns its exit status, or 128 + signal when a signal ended it.
    @discardableResult
    public func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let signal = raw & 0x7F
        let code = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
        status = code
        return code
    }

    /// Runs `executable` to completion with `stdin` as its input; returns (status, stdout, stderr).
    public static func run(_ executable: String, _ arguments: [String], stdin: String = "",
                           scratch: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let errorPath = scratch + "/stderr-\(getpid())-\(counter.next())"
        defer { unlink(errorPath) }
        let child = try Subprocess(executable, arguments, errorPath: errorPath)
        child.write(stdin)
        child.closeInput()
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { systemRead(child.output, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out += buffer[..<n]
        }
        let status = child.wait()
        return (status, String(decoding: out, as: UTF8.self), readFile(errorPath))
    }

    /// `run` on a thread of its own, awaited: the calling task's thread goes back to Swift's cooperative pool while
    /// the child runs. Use it when the child talks to a server in the test's own process: `run` blocks its thread
    /// until the child ends, and two tests blocking both threads of a 2-core machine's pool on children waiting for
    /// an in-process server wait for ever (the server's tasks have no thread left to run on).
    public static func runDetached(_ executable: String, _ arguments: [String], stdin: String = "",
                                   scratch: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try run(executable, arguments, stdin: stdin, scratch: scratch) })
            }
        }
    }

    static let counter = Counter()
    static let spawnLock = Counter()
}

// @unchecked Sendable: `value` is only touched while holding `mutex` (lock()/unlock() bracket callers' own critical sections).
final class Counter: @unchecked Sendable {
    private var value = 0
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func next() -> Int { pthread_mutex_lock(&mutex); defer { pthread_mutex_unlock(&mutex) }; value += 1; return value }
    func lock() { pthread_mutex_lock(&mutex) }
    func unlock() { pthread_mutex_unlock(&mutex) }
}

public enum SubprocessError: Error, CustomStringConvertible {
    case spawn(Int32)
    case notFound(String)
    public var description: String {
        switch self {
        case .spawn(let code): return "posix_spawn failed: \(String(cString: strerror(code)))"
        case .notFound(let what): return what
        }
    }
}

/// Small file helpers for tests that use the real file system.
public func readFile(_ path: String) -> String {
    guard let bytes = readFileBytes(path) else { return "" }
    return String(decoding: bytes, as: UTF8.self)
}

public func readFileBytes(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        out += buffer[..<n]
    }
    return out
}

public func writeFileBytes(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    precondition(fd >= 0, "cannot write \(path)")
    defer { close(fd) }
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
        precondition(n > 0)
        done += n
    }
}

/// A fresh directory under /dev/shm (or /tmp), removed by `remove()`. Sendable: its one stored property is a `let`.
public final class ScratchDirectory: Sendable {
    public let path: String
    public init(_ name: String) {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        var template = Array("\(base)/journal-\(name)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
    public func file(_ name: String) -> String { path + "/" + name }
    /// Removes the directory and everything in it (one level: tests make no subdirectories).
    public func remove() {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(path)
    }
    deinit { remove() }
}

/// The built `journal` executable beside the running test bundle (`.build/<config>/journal`),
/// or `$JOURNAL_BIN` when set.
public func journalBinary() throws -> String { try builtExecutable("journal", override: "JOURNAL_BIN") }

/// The package's executable `name` beside the running test bundle (`.build/<config>/<name>`), or the
/// environment variable `override` when set.
public func builtExecutable(_ name: String, override: String) throws -> String {
    if let path = getenv(override) { return String(cString: path) }
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { throw SubprocessError.notFound("cannot read /proc/self/exe") }
    var directory = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // .build/debug/workout-journalPackageTests.xctest → .build/debug
    while !directory.isEmpty {
        directory = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
        let candidate = directory + "/" + name
        var info = stat()
        if stat(candidate, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG { return candidate }
        if directory.hasSuffix("/.build") { break }
    }
    throw SubprocessError.notFound("the \(name) executable was not found beside the test bundle; run `swift build` or set \(override)")
}
