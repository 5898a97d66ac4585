#if os(Linux)   // HTTPClientTransport is the Linux transport (SYNC.md §"HTTP on Linux")
import Foundation
import JournalLoad
import JournalSync
import Testing

/// The sync client's HTTP on Linux (`HTTPClientTransport`, SYNC.md §"HTTP on Linux"): what a device is told when the
/// server cannot be reached. No server or database: a closed port and a socket that accepts and never answers.
@Suite("journal sync's HTTP transport: failures in words")
struct SyncTransportTests {
    /// A loopback socket that listens (the kernel accepts connections into its backlog) and never answers.
    final class SilentListener {
        let fd: Int32
        let port: Int
        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let listening = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            self.fd = fd
            port = Int(UInt16(bigEndian: address.sin_port))
            try #require(listening)
        }
        deinit { close(fd) }
    }

    func request(port: Int, timeoutSeconds: Double) -> SyncClient.HTTPRequest {
        SyncClient.HTTPRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/v1/whoami")!,
                               headers: [("Authorization", "Bearer x")], body: nil, timeoutSeconds: timeoutSeconds)
    }

    @Test("a closed port: the connection was refused, with the request and what to check")
    func refused() async throws {
        let port = try freePort()
        await #expect(throws: SyncClient.Failure.transport("GET http://127.0.0.1:\(port)/v1/whoami: the connection was refused; check the server URL and that the server is running")) {
            _ = try await HTTPClientTransport().exchange(request(port: port, timeoutSeconds: 5))
        }
    }

    @Test("a server that accepts and never answers: no answer within the request's time, try again later")
    func silent() async throws {
        let listener = try SilentListener()
        await #expect(throws: SyncClient.Failure.transport("GET http://127.0.0.1:\(listener.port)/v1/whoami: no answer within 1 s; try again later")) {
            _ = try await HTTPClientTransport().exchange(request(port: listener.port, timeoutSeconds: 1))
        }
        withExtendedLifetime(listener) {}
    }

    @Test("the SyncClient a device makes without naming a transport speaks through it: its failures read the same")
    func defaultTransport() async throws {
        let port = try freePort()
        let client = SyncClient(server: URL(string: "http://127.0.0.1:\(port)")!, token: "x")
        await #expect(throws: SyncClient.Failure.transport("GET http://127.0.0.1:\(port)/v1/whoami: the connection was refused; check the server URL and that the server is running")) {
            _ = try await client.whoami()
        }
    }
}
#endif
