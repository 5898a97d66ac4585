import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import ServiceLifecycle

/// How long the server waits for a client (SYNC.md §"Timeouts"). A client that stops sending holds nothing for longer:
///
/// - **idle**: a connection with no request in progress, or whose request's next bytes do not come, is closed after
///   `idle` (Hummingbird's `HTTP1Channel` idle timeout);
/// - **header**: a request's head (request line and headers) must be complete within `header` of its first byte,
///   otherwise the connection is closed;
/// - **body**: a request's body must be complete within `body` of its head, otherwise the request is answered
///   `408 request_timeout` (nothing stored) and the connection closed;
/// - **shutdown**: after SIGTERM or SIGINT the server stops accepting connections, answers the requests in
///   progress and exits; requests still in progress after `shutdown` are cancelled and the server exits anyway.
public struct ServerTimeouts: Sendable, Equatable {
    public var idle: Duration
    public var header: Duration
    public var body: Duration
    public var shutdown: Duration

    public init(idle: Duration = .seconds(60), header: Duration = .seconds(10), body: Duration = .seconds(60),
                shutdown: Duration = .seconds(10)) {
        self.idle = idle
        self.header = header
        self.body = body
        self.shutdown = shutdown
    }

    /// Hummingbird's HTTP/1 server with these timeouts.
    func server(logger: Logger) -> HTTPServerBuilder {
        let (header, body) = (TimeAmount(self.header), TimeAmount(self.body))
        return .http1(configuration: .init(
            additionalChannelHandlers: [RequestTimeoutHandler(header: header, body: body, logger: logger)],
            idleTimeout: TimeAmount(idle)))
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

/// A request whose body did not arrive within the body timeout: what reading its body throws.
struct BodyTimedOut: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "the request body did not arrive within \(limit) of its head" }
}

/// The header and body timeouts of one connection (`ServerTimeouts`). It sits after the HTTP decoder and puts a
/// handler of its own before it (`FirstBytes`), which tells it when a request's first byte arrives.
final class RequestTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let header: TimeAmount
    let body: TimeAmount
    let logger: Logger

    /// Between requests; a head has started to arrive; the head arrived and the body is being read.
    private enum Phase { case idle, head, body }
    private var phase = Phase.idle
    private var timer: Scheduled<Void>?
    /// The body timed out: the connection closes once the answer is written.
    private var closeAfterAnswer = false
    private var context: ChannelHandlerContext?

    init(header: TimeAmount, body: TimeAmount, logger: Logger) {
        self.header = header
        self.body = body
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        try? context.pipeline.syncOperations.addHandler(FirstBytes(owner: self), position: .first)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        self.context = nil
    }

    /// Bytes arrived (before the decoder): between requests they start a head, and its timer.
    fileprivate func bytesArrived() {
        guard phase == .idle, let context else { return }
        phase = .head
        schedule(context, after: header) { [weak self] in self?.headTimedOut() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            phase = .body
            timer?.cancel()
            schedule(context, after: body) { [weak self] in self?.bodyTimedOut() }
        case .body:
            break
        case .end:
            phase = .idle
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if closeAfterAnswer, case .end = unwrapOutboundIn(data) {
            context.writeAndFlush(data).whenComplete { _ in context.close(promise: nil) }
            promise?.succeed()
            return
        }
        context.write(data, promise: promise)
    }

    private func schedule(_ context: ChannelHandlerContext, after delay: TimeAmount, _ task: @escaping () -> Void) {
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: delay, task)
    }

    private func headTimedOut() {
        guard let context, phase == .head else { return }
        logger.notice("access \(peer(context)): closed the connection: a request head was not complete within \(Duration(header)) of its first byte (ServerTimeouts.header)")
        context.close(promise: nil)
    }

    private func bodyTimedOut() {
        guard let context, phase == .body else { return }
        logger.notice("access \(peer(context)): a request body was not complete within \(Duration(body)) of its head (ServerTimeouts.body); answering 408 and closing the connection")
        closeAfterAnswer = true
        // The request's body stream ends with this error: the handler reading it answers 408; one not reading it has
        // answered already, and the server's draining of the body ends with it and closes the connection.
        context.fireErrorCaught(BodyTimedOut(limit: Duration(body)))
    }

    private func peer(_ context: ChannelHandlerContext) -> String {
        context.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}

extension Duration {
    init(_ amount: TimeAmount) { self = .nanoseconds(amount.nanoseconds) }
}

/// The first handler of a connection: tells `RequestTimeoutHandler` that bytes arrived, before they are decoded.
private final class FirstBytes: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    weak var owner: RequestTimeoutHandler?
    init(owner: RequestTimeoutHandler) { self.owner = owner }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        owner?.bytesArrived()
        context.fireChannelRead(data)
    }
}

/// The request context of the server's routes: Hummingbird's, and the address of the client (the per-address
/// budget of `Admission`, the access log).
public struct SyncRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address, or `unknown` (a test channel has none).
    var peer: String { remoteAddress?.ipAddress ?? "unknown" }
}
