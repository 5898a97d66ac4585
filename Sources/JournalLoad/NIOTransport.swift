import Foundation
import JournalSync
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOFoundationEssentialsCompat

/// The load generator's `SyncTransport`: plain HTTP/1.1 on SwiftNIO, kept-alive connections to the one server, one
/// per request in flight (so at most one per simulated device, as each phone has its own), reused from a stack.
///
/// The devices' side shares the machine with the server and PostgreSQL, so what it spends per request is taken
/// from them. URLSession on Linux (libcurl under Foundation) spent more than a core of the two at 1,000 devices;
/// with AsyncHTTPClient the load generator still took about 1.3 cores, its pool scanning every connection on each
/// request; this spends less than either (SCALE-FIGURES.md §"Load").
final class NIOTransport: SyncTransport, @unchecked Sendable {
    // @unchecked: `idle` is read and written under `lock`; the rest is immutable.
    private let group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    private let lock = NIOLock()
    /// Connections that answered their last exchange and may take the next.
    private var idle: [any Channel] = []

    func exchange(_ request: SyncClient.HTTPRequest) async throws -> (status: Int, body: Data) {
        let url = request.url
        guard let host = url.host, let port = url.port else {
            throw SyncClient.Failure.transport("\(url.absoluteString) has no host and port")
        }
        var target = url.path(percentEncoded: true)
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: target)
        head.headers.add(name: "Host", value: "\(host):\(port)")
        for (name, value) in request.headers { head.headers.add(name: name, value: value) }
        head.headers.add(name: "Content-Length", value: String(request.body?.count ?? 0))
        do {
            let channel = try await connection(host: host, port: port)
            let promise = channel.eventLoop.makePromise(of: Exchange.Answer.self)
            // A connection that closed since it was checked has no handler left to answer: its failed write does
            // (a promise completed twice keeps its first result).
            let written = channel.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenFailure { promise.fail($0) }
            channel.writeAndFlush(Exchange(head: head, body: request.body, timeoutSeconds: request.timeoutSeconds, answer: promise),
                                  promise: written)
            let answer: Exchange.Answer
            do { answer = try await promise.futureResult.get() } catch {
                channel.close(promise: nil)
                throw error
            }
            if answer.keepAlive { lock.withLock { idle.append(channel) } } else { channel.close(promise: nil) }
            return (answer.status, Data(buffer: answer.body))
        } catch {
            throw SyncClient.Failure.transport("\(request.method) \(url.absoluteString): \(error)")
        }
    }

    /// An idle connection that is still open, or a new one.
    private func connection(host: String, port: Int) async throws -> any Channel {
        while let channel = lock.withLock({ idle.popLast() }) {
            if channel.isActive { return channel }
        }
        return try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ExchangeHandler())
                }
            }
            .connect(host: host, port: port).get()
    }

    func shutdown() async {
        let channels = lock.withLock { defer { idle = [] }; return idle }
        for channel in channels { try? await channel.close() }
    }
}

/// One request on a connection and the promise of its answer.
struct Exchange: Sendable {
    struct Answer: Sendable {
        var status: Int
        var body: ByteBuffer
        /// False when the server said it closes the connection after this answer.
        var keepAlive: Bool
    }

    var head: HTTPRequestHead
    var body: [UInt8]?
    var timeoutSeconds: Double
    var answer: EventLoopPromise<Answer>
}

/// Writes an `Exchange`'s request and completes its promise with the response, or fails it when the connection
/// closes, breaks or stays silent past the request's timeout. One exchange at a time per connection.
///
/// The timeout is checked once a second by one repeated task per connection rather than by a task scheduled and
/// cancelled per request: NIO finds a cancelled task in its heap by a linear search, and with a thousand devices'
/// timeouts in it that search took about a tenth of the load generator's CPU (SCALE-FIGURES.md §"What the devices cost").
final class ExchangeHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = Exchange
    typealias OutboundOut = HTTPClientRequestPart

    struct TimedOut: Error, CustomStringConvertible {
        var seconds: Double
        var description: String { "no answer within \(seconds) s" }
    }

    private var pending: EventLoopPromise<Exchange.Answer>?
    /// When the pending exchange times out, and its timeout in seconds.
    private var deadline: (at: NIODeadline, seconds: Double)?
    private var timeoutCheck: RepeatedTask?
    private var status = 0
    private var keepAlive = true
    private var body = ByteBuffer()

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timeoutCheck = context.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
            let (handler, context) = loopBound.value
            guard let deadline = handler.deadline, deadline.at <= .now() else { return }
            handler.fail(TimedOut(seconds: deadline.seconds))
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timeoutCheck?.cancel()
        timeoutCheck = nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let exchange = unwrapOutboundIn(data)
        pending = exchange.answer
        body.clear()
        deadline = (.now() + .milliseconds(Int64(exchange.timeoutSeconds * 1000)), exchange.timeoutSeconds)
        context.write(wrapOutboundOut(.head(exchange.head)), promise: nil)
        if let bytes = exchange.body {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: bytes)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
            keepAlive = head.isKeepAlive
        case .body(var part):
            body.writeBuffer(&part)
        case .end:
            deadline = nil
            let answer = Exchange.Answer(status: status, body: body, keepAlive: keepAlive)
            body = ByteBuffer()
            let promise = pending
            pending = nil
            promise?.succeed(answer)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    private func fail(_ error: any Error) {
        deadline = nil
        let promise = pending
        pending = nil
        promise?.fail(error)
    }
}
