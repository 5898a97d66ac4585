#if os(Linux)   // the only platform JournalSync links AsyncHTTPClient on (Package.swift)
import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// `SyncTransport` on AsyncHTTPClient (SwiftNIO; TLS from swift-nio-ssl): the default on Linux, where Foundation's
/// URLSession keeps a core busy while it waits for an answer (SYNC.md §"HTTP on Linux"). One client per proxy (most
/// processes need one) for the whole process: it keeps connections alive between requests and is never shut down.
///
/// A proxy comes from the environment as libcurl (under URLSession) took it: `https_proxy`/`HTTPS_PROXY` for an
/// `https` server, `http_proxy` for an `http` one, none for a host `no_proxy`/`NO_PROXY` names (`Proxying`). Every
/// request through a proxy is tunnelled (`CONNECT host:port`, AsyncHTTPClient's only way), `http` ones too.
public struct HTTPClientTransport: SyncTransport {
    let proxying: Proxying
    /// A file of PEM certificate authorities to trust instead of the system's, from `SSL_CERT_FILE` as OpenSSL and
    /// curl read it (a server whose certificate a private authority signed: OPERATIONS.md §"TLS").
    let trustedAuthorities: String?

    /// Through the proxy `environment` names for each server, if any, trusting `SSL_CERT_FILE`'s authorities when set.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        proxying = Proxying(environment: environment)
        trustedAuthorities = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// One client per proxy and trusted authorities.
    struct ClientKey: Hashable {
        var proxy: HTTPClient.Configuration.Proxy?
        var trustedAuthorities: String?
    }

    /// AsyncHTTPClient's defaults, except that a refused connection is reported at once: by default it tries again
    /// with a back-off until the request's deadline, so `journal sync` against a stopped server said nothing for 60 s.
    static func makeClient(_ key: ClientKey) throws -> HTTPClient {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        configuration.proxy = key.proxy
        if let file = key.trustedAuthorities {
            var tls = TLSConfiguration.makeClientConfiguration()
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(file))
            } catch {
                throw SyncClient.Failure.transport("SSL_CERT_FILE \(file) is not a readable file of PEM certificates (\(error)); point it at the certificate authority that signed the server's certificate, or unset it to trust the system's")
            }
            configuration.tlsConfiguration = tls
        }
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    private static let clients = NIOLockedValueBox<[ClientKey: HTTPClient]>([:])

    static func client(_ key: ClientKey) throws -> HTTPClient {
        try clients.withLockedValue { clients in
            if let client = clients[key] { return client }
            let client = try makeClient(key)
            clients[key] = client
            return client
        }
    }

    public func exchange(_ request: SyncClient.HTTPRequest) async throws -> (status: Int, body: Data) {
        let answer = try await answer(request)
        return (answer.status, answer.body)
    }

    public func answer(_ request: SyncClient.HTTPRequest) async throws -> SyncClient.Answer {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let exchange = "\(request.method) \(request.url.absoluteString)"
        let client = try Self.client(ClientKey(proxy: proxying.proxy(for: request.url), trustedAuthorities: trustedAuthorities))
        do {
            // The deadline covers the whole exchange, the answer's body included.
            let response = try await client.execute(outgoing, timeout: .milliseconds(Int64(request.timeoutSeconds * 1000)))
            let body = try await response.body.collect(upTo: SyncProtocol.maximumAnswerBytes)
            return SyncClient.Answer(status: Int(response.status.code), body: Data(body.readableBytesView),
                                     retryAfter: response.headers.first(name: "Retry-After").flatMap(SyncProtocol.retryAfter))
        } catch is NIOTooManyBytesError {
            throw SyncClient.Failure.badAnswer("\(exchange): the answer is longer than \(SyncProtocol.maximumAnswerBytes) bytes")
        } catch {
            throw SyncClient.Failure.transport("\(exchange): \(Self.reason(error, timeoutSeconds: request.timeoutSeconds))")
        }
    }

    /// What went wrong, in words (AsyncHTTPClient's and SwiftNIO's errors print as type dumps).
    static func reason(_ error: any Error, timeoutSeconds: Double) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout:
                return String(format: "no answer within %.0f s; try again later", timeoutSeconds)
            case .connectTimeout:
                return "the connection was not accepted in time; check the server URL and that the server is running"
            case .remoteConnectionClosed:
                return "the server closed the connection before it answered; try again"
            default:
                return "\(error)"
            }
        }
        let check = "check the server URL and that the server is running"
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return "the host \(error.host) is not known (DNS); check the server URL"
            }
            if let first = error.connectionErrors.first {
                return "cannot connect to \(error.host):\(error.port) (\(Self.reason(first.error, timeoutSeconds: timeoutSeconds))); \(check)"
            }
        }
        if let error = error as? NIOSSLError, case .handshakeFailed(let detail) = error {
            let untrusted = "\(detail)".contains("CERTIFICATE_VERIFY_FAILED")
            return untrusted
                ? "the server's TLS certificate is not trusted by this machine (\(detail)); check the server URL, or install the certificate authority that signed it"
                : "the TLS handshake failed (\(detail)); check that the server URL's scheme (https or http) is the server's"
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return "the connection was refused; \(check)"
            case ECONNRESET: return "the server reset the connection; try again"
            default: return String(cString: strerror(error.errnoCode))
            }
        }
        return "\(error)"
    }
}

/// Which proxy a request goes through, from the environment variables libcurl reads: `https_proxy` (or
/// `HTTPS_PROXY`) for `https` URLs, `http_proxy` for `http` ones (libcurl ignores `HTTP_PROXY`, which a web server's
/// CGI environment can set), and `no_proxy` (or `NO_PROXY`): hosts reached directly, comma-separated, each matching
/// itself and its subdomains (a leading dot is ignored), `*` for every host. A proxy is `[http://][user:password@]host[:port]`
/// (port 1080 when absent, as for curl).
public struct Proxying: Sendable, Equatable {
    var https: String?
    var http: String?
    var direct: [String]

    public init(environment: [String: String]) {
        func value(_ names: String...) -> String? { names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty } }
        https = value("https_proxy", "HTTPS_PROXY")
        http = value("http_proxy")
        direct = (value("no_proxy", "NO_PROXY") ?? "").split(separator: ",").map {
            var entry = $0.trimmingCharacters(in: .whitespaces).lowercased()
            if entry.hasPrefix(".") { entry.removeFirst() }
            return entry
        }.filter { !$0.isEmpty }
    }

    /// The proxy for `url`, nil to connect directly; a variable that names no usable proxy is refused.
    public func proxy(for url: URL) throws(SyncClient.Failure) -> HTTPClient.Configuration.Proxy? {
        let scheme = url.scheme?.lowercased()
        guard let setting = scheme == "https" ? https : scheme == "http" ? http : nil,
              let host = url.host?.lowercased() else { return nil }
        if direct.contains(where: { $0 == "*" || host == $0 || host.hasSuffix("." + $0) }) { return nil }
        let variable = scheme == "https" ? "https_proxy" : "http_proxy"
        guard let proxy = URLComponents(string: setting.contains("://") ? setting : "http://" + setting),
              proxy.scheme?.lowercased() == "http", let proxyHost = proxy.host, !proxyHost.isEmpty else {
            throw .transport("\(variable) is \(setting.debugDescription), which is not a proxy this client can use ([http://][user:password@]host[:port]); correct it, or unset it to connect directly")
        }
        let authorization = proxy.user.map { HTTPClient.Authorization.basic(username: $0.removingPercentEncoding ?? $0,
                                                                             password: (proxy.password ?? "").removingPercentEncoding ?? "") }
        return .server(host: proxyHost, port: proxy.port ?? 1080, authorization: authorization)
    }
}
#endif
