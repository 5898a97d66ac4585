import AsyncHTTPClient
import Foundation
import JournalSync
import NIOCore
import NIOHTTP1

/// The load generator's `SyncTransport`: AsyncHTTPClient on SwiftNIO, kept-alive connections to the one server.
/// URLSession on Linux (libcurl under Foundation) spent more than a core of the machine's two on the devices'
/// side of a 1,000-device run, which left the server and PostgreSQL less than they would have against real
/// phones; this one costs a fraction of that (SCALE.md §"Load").
final class NIOTransport: SyncTransport {
    let client: HTTPClient

    /// `connections`: at most this many connections to the server (one per simulated device).
    init(connections: Int) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(120), concurrentHTTP1ConnectionsPerHostSoftLimit: max(connections, 8))
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(120))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    func exchange(_ request: SyncClient.HTTPRequest) async throws -> (status: Int, body: Data) {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(outgoing, timeout: .seconds(Int64(request.timeoutSeconds)))
            let body = try await response.body.collect(upTo: 256 << 20)
            return (Int(response.status.code), Data(buffer: body))
        } catch {
            throw SyncClient.Failure.transport("\(request.method) \(request.url.absoluteString): \(error)")
        }
    }

    func shutdown() async { try? await client.shutdown() }
}
