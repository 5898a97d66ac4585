#if os(Linux)   // HTTPClientTransport is the Linux transport (SYNC.md §"HTTP on Linux")
import AsyncHTTPClient
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

    @Test("the proxy comes from the environment as libcurl takes it: https_proxy, http_proxy, no_proxy; HTTP_PROXY ignored")
    func proxyFromEnvironment() throws {
        let https = URL(string: "https://sync.example.com/v1/whoami")!, http = URL(string: "http://sync.example.com:8080/v1/whoami")!
        #expect(try Proxying(environment: [:]).proxy(for: https) == nil)
        let both = Proxying(environment: ["HTTPS_PROXY": "http://proxy.corp:3128", "http_proxy": "plain.corp"])
        #expect(try both.proxy(for: https) == .server(host: "proxy.corp", port: 3128))
        #expect(try both.proxy(for: http) == .server(host: "plain.corp", port: 1080))
        #expect(try Proxying(environment: ["HTTP_PROXY": "proxy.corp:3128"]).proxy(for: http) == nil)
        #expect(try Proxying(environment: ["http_proxy": "proxy.corp:3128"]).proxy(for: https) == nil)
        let signed = Proxying(environment: ["https_proxy": "http://ann%40corp:p%3Ass@proxy.corp:8080"])
        #expect(try signed.proxy(for: https) == .server(host: "proxy.corp", port: 8080, authorization: .basic(username: "ann@corp", password: "p:ss")))
        let except = Proxying(environment: ["https_proxy": "proxy.corp:3128", "no_proxy": "localhost, .example.com"])
        #expect(try except.proxy(for: https) == nil)
        #expect(try except.proxy(for: URL(string: "https://example.com/")!) == nil)
        #expect(try except.proxy(for: URL(string: "https://badexample.com/")!) == .server(host: "proxy.corp", port: 3128))
        #expect(try Proxying(environment: ["https_proxy": "proxy.corp:3128", "NO_PROXY": "*"]).proxy(for: https) == nil)
        #expect(throws: SyncClient.Failure.transport("https_proxy is \"socks5://proxy.corp:1080\", which is not a proxy this client can use ([http://][user:password@]host[:port]); correct it, or unset it to connect directly")) {
            try Proxying(environment: ["https_proxy": "socks5://proxy.corp:1080"]).proxy(for: https)
        }
    }

    @Test("with http_proxy set, a request goes through the proxy, tunnelled (CONNECT host:port)")
    func throughProxy() async throws {
        let proxy = try SilentListener()
        // The proxy: read what the client sends on the first connection, then hang up.
        let received = Task.detached { () -> String in
            let connection = accept(proxy.fd, nil, nil)
            defer { close(connection) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(connection, &buffer, buffer.count)
            return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
        }
        let transport = HTTPClientTransport(environment: ["http_proxy": "127.0.0.1:\(proxy.port)"])
        let request = SyncClient.HTTPRequest(method: "GET", url: URL(string: "http://sync.example.invalid:8080/v1/whoami")!,
                                             headers: [], body: nil, timeoutSeconds: 5)
        await #expect(throws: SyncClient.Failure.transport("GET http://sync.example.invalid:8080/v1/whoami: the server closed the connection before it answered; try again")) {
            _ = try await transport.exchange(request)
        }
        let firstLine = await received.value.split(separator: "\r\n").first.map(String.init)
        #expect(firstLine == "CONNECT sync.example.invalid:8080 HTTP/1.1")
    }

    /// Records each request and answers an empty page.
    final class Recording: SyncTransport, @unchecked Sendable {
        // @unchecked: `urls` is only touched under `lock`.
        let lock = NSLock()
        var urls: [String] = []
        func exchange(_ request: SyncClient.HTTPRequest) async throws -> (status: Int, body: Data) {
            lock.withLock { urls.append(request.url.absoluteString) }
            return (200, Data(SyncBody.page(events: [], cursor: .start, more: false)))
        }
    }

    @Test("a request's URL: the server's path kept once, its query dropped, the path and the query percent-encoded")
    func requestURLs() async throws {
        let recording = Recording()
        for server in ["http://127.0.0.1:9", "http://127.0.0.1:9/", "http://127.0.0.1:9/sync/", "http://127.0.0.1:9/sync?x=1#top"] {
            let client = SyncClient(server: URL(string: server)!, token: "t", transport: recording)
            _ = try await client.pull(user: "u-1", after: .start, limit: 5)
        }
        let client = SyncClient(server: URL(string: "http://127.0.0.1:9")!, token: "t", transport: recording)
        _ = try await client.pull(user: "a b/é", after: .start, limit: 5)
        #expect(recording.urls == [
            "http://127.0.0.1:9/v1/journals/u-1/events?after=0&limit=5",
            "http://127.0.0.1:9/v1/journals/u-1/events?after=0&limit=5",
            "http://127.0.0.1:9/sync/v1/journals/u-1/events?after=0&limit=5",
            "http://127.0.0.1:9/sync/v1/journals/u-1/events?after=0&limit=5",
            "http://127.0.0.1:9/v1/journals/a%20b/%C3%A9/events?after=0&limit=5",
        ])
        #expect(SyncProtocol.percentEncoded("3-1=2&x", keeping: SyncProtocol.unreserved) == "3-1%3D2%26x")
    }
}
#endif
