#if os(Linux)   // the only platform JournalSync links AsyncHTTPClient on (Package.swift)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// `SyncTransport` on AsyncHTTPClient (SwiftNIO; TLS from swift-nio-ssl): the default on Linux, where Foundation's
/// URLSession keeps a core busy while it waits for an answer (SYNC.md §"HTTP on Linux"). One process-wide client
/// (`processClient`) keeps connections alive between requests and is never shut down.
public struct HTTPClientTransport: SyncTransport {
    let client: HTTPClient
    public init(client: HTTPClient = Self.processClient) { self.client = client }

    /// AsyncHTTPClient's defaults, except that a refused connection is reported at once: by default it tries again
    /// with a back-off until the request's deadline, so `journal sync` against a stopped server said nothing for 60 s.
    public static let processClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    public func exchange(_ request: SyncClient.HTTPRequest) async throws -> (status: Int, body: Data) {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let exchange = "\(request.method) \(request.url.absoluteString)"
        do {
            // The deadline covers the whole exchange, the answer's body included.
            let response = try await client.execute(outgoing, timeout: .milliseconds(Int64(request.timeoutSeconds * 1000)))
            let body = try await response.body.collect(upTo: SyncProtocol.maximumAnswerBytes)
            return (Int(response.status.code), Data(body.readableBytesView))
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
#endif
