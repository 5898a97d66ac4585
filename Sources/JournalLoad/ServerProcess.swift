import Foundation
import JournalServerBench

public struct ServerProcessFailure: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// `journal-server serve` as a child process on a free loopback port, stopped with SIGTERM.
public final class ServerProcess {
    let process = Process()
    public let url: URL
    public var pid: pid_t { process.processIdentifier }

    /// `logLevel`: the server's `--log-level`; its log goes to this process's standard error.
    public init(binary: String, database: String, design: StoreDesign, logLevel: String = "error") throws {
        let port = try freePort()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--database", database, "--listen", "127.0.0.1:\(port)", "--store", design.rawValue, "--log-level", logLevel]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        url = URL(string: "http://127.0.0.1:\(port)")!
        for _ in 0..<600 {
            if let data = try? Data(contentsOf: url.appendingPathComponent("health")), data == Data("ok\n".utf8) { return }
            guard process.isRunning else { break }
            usleep(100_000)
        }
        stop()
        throw ServerProcessFailure("journal-server did not answer /health on \(url) within 60 s")
    }

    /// SIGTERM (graceful shutdown), then SIGKILL when it has not exited within 15 s.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<150 where process.isRunning { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

public func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ServerProcessFailure("cannot open a socket to find a free port") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw ServerProcessFailure("cannot bind a loopback socket to find a free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}
