import Foundation
import HTTPTypes
import Hummingbird
import JournalSync
import CoreMetrics

/// Which sync requests the server takes in (SCALE.md §"Back-pressure"). A request is refused, at once and with
/// nothing stored, when taking it would exceed one of three bounds:
///
/// - **waiting**: every push and pull the server finished in the last `window` had been in it longer than
///   `target`. The server then holds a standing queue, and a new request would only wait in it: 429 until a push or
///   pull finishes within `target` again, or none is left in the server. (The rule of CoDel: a queue is judged by
///   the shortest wait over an interval, so a burst that drains is no overload and a queue that stays is.) Report
///   pages, which may take long to make for a long journal, are not timed.
/// - **bytes**: the request bodies the server has received and holds would exceed `maximumBodyBytes` in all,
///   `maximumTokenBytes` for the requests of one bearer token, or `maximumPeerBytes` for those of one client address.
///   Bytes count as they arrive, not as a `Content-Length` announces them: a client that announces a large body and
///   stalls holds only what it sent (and for at most the body timeout, `ServerTimeouts`), and one token or one
///   address cannot take the whole budget;
/// - **count**: `maximumRequests` requests are already in.
///
/// A bound on the count alone is the wrong one: 512 sync requests at once, whatever they cost, turned away a few
/// thousand requests a run at 1,000 devices that the batched design would have answered within its p99, each device
/// so refused waiting a second (SCALE.md §"Back-pressure"). Pure and deterministic: the clock is
/// the caller's.
struct Admission: Sendable {
    let target: Duration
    let window: Duration
    let maximumBodyBytes: Int
    let maximumTokenBytes: Int
    let maximumPeerBytes: Int
    let maximumRequests: Int

    init(target: Duration = .seconds(1), window: Duration = .milliseconds(100), maximumBodyBytes: Int = 64 << 20,
         maximumTokenBytes: Int = 8 << 20, maximumPeerBytes: Int = 32 << 20, maximumRequests: Int = 4_096) {
        self.target = target
        self.window = window
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumTokenBytes = maximumTokenBytes
        self.maximumPeerBytes = maximumPeerBytes
        self.maximumRequests = maximumRequests
    }

    /// Why a request was refused: the 429's message.
    enum Refusal: Equatable, Sendable {
        case waiting(target: Duration, window: Duration)
        case bytes(limit: Int)
        case tokenBytes(limit: Int)
        case peerBytes(limit: Int)
        case count(limit: Int)

        var message: String {
            let retry = "nothing was stored; retry after the Retry-After delay"
            switch self {
            case let .waiting(target, window):
                return "every push and pull the server finished in the last \(Admission.milliseconds(window)) ms had waited in it more than \(Admission.milliseconds(target)) ms; \(retry)"
            case .bytes(let limit):
                return "the server holds \(limit >> 20) MiB of sync request bodies in progress; \(retry)"
            case .tokenBytes(let limit):
                return "the requests of this token hold \(limit >> 20) MiB of request bodies in progress; send one push at a time; \(retry)"
            case .peerBytes(let limit):
                return "the requests from this address hold \(limit >> 20) MiB of request bodies in progress; \(retry)"
            case .count(let limit):
                return "the server has \(limit) sync requests in progress; \(retry)"
            }
        }
    }

    private(set) var requests = 0
    private(set) var bodyBytes = 0
    private(set) var tokenBytes: [String: Int] = [:]
    private(set) var peerBytes: [String: Int] = [:]
    /// The window in progress: when it started, and the shortest time in the server of the requests finished in it.
    private var windowStart: ContinuousClock.Instant?
    private var shortest: Duration?
    /// Whether the server holds a standing queue: set when a whole window's pushes and pulls all waited past
    /// `target`, cleared when one finishes within it or none is left in the server.
    private(set) var overloaded = false

    /// Takes a request in, or says why not. Its body's bytes are counted as they arrive (`receive`).
    mutating func admit(now: ContinuousClock.Instant) -> Refusal? {
        roll(now)
        if requests == 0 { overloaded = false }   // no queue is left
        if overloaded { return .waiting(target: target, window: window) }
        if requests >= maximumRequests { return .count(limit: maximumRequests) }
        requests += 1
        return nil
    }

    /// `bytes` more of an admitted request's body arrived, sent with `token` (nil: none) from `peer`; or why they
    /// may not be held.
    mutating func receive(_ bytes: Int, token: String?, peer: String) -> Refusal? {
        if bodyBytes + bytes > maximumBodyBytes { return .bytes(limit: maximumBodyBytes) }
        if let token, tokenBytes[token, default: 0] + bytes > maximumTokenBytes { return .tokenBytes(limit: maximumTokenBytes) }
        if peerBytes[peer, default: 0] + bytes > maximumPeerBytes { return .peerBytes(limit: maximumPeerBytes) }
        bodyBytes += bytes
        if let token { tokenBytes[token, default: 0] += bytes }
        peerBytes[peer, default: 0] += bytes
        return nil
    }

    /// A request whose body was received from `started` on (its head's arrival, or its body's end) and of which
    /// `bytes` were held (`receive`) has been answered; `timed`: a push or a pull answered without an error and with
    /// its whole body, whose time in the server says whether requests queue.
    mutating func finish(bytes: Int = 0, token: String? = nil, peer: String = "", started: ContinuousClock.Instant,
                         now: ContinuousClock.Instant, timed: Bool = true) {
        requests -= 1
        if bytes > 0 {
            bodyBytes -= bytes
            if let token { tokenBytes[token, default: 0] -= bytes; if tokenBytes[token] == 0 { tokenBytes[token] = nil } }
            peerBytes[peer, default: 0] -= bytes
            if peerBytes[peer] == 0 { peerBytes[peer] = nil }
        }
        roll(now)
        guard timed else { return }
        let waited = started.duration(to: now)
        shortest = min(shortest ?? waited, waited)
        // A request that finished in time ends an overload at once: the queue has drained.
        if waited <= target { overloaded = false }
    }

    /// Closes the window in progress once it is `window` old: overloaded when a request finished in it and none
    /// within `target`. A window in which nothing finished says nothing, and leaves the state as it was.
    private mutating func roll(_ now: ContinuousClock.Instant) {
        guard let start = windowStart else { windowStart = now; return }
        guard start.duration(to: now) >= window else { return }
        if let shortest { overloaded = shortest > target }
        windowStart = now
        shortest = nil
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}

/// `Admission` in front of every route but the health checks and the metrics (`ungated`), on canonical paths
/// (`CanonicalPathMiddleware` runs first): a refused request is answered 429 `overloaded` with `Retry-After: 1`,
/// counted in `journal_sync_overloaded_total`. A request's body is counted as the handler reads it; a chunk past a
/// budget ends the body with the 429. Devices retry after the delay; pushes are idempotent.
struct BackPressureMiddleware<Context: RequestContext>: RouterMiddleware {

    let gate: AdmissionGate

    init(_ admission: Admission = Admission()) { gate = AdmissionGate(admission) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !AdmissionGate.ungated.contains(request.uri.path) else { return try await next(request, context) }
        let started = ContinuousClock.now
        if let refusal = gate.enter(now: started) { throw AdmissionGate.refusal(refusal) }
        let body = BodyBudget(gate: gate, token: Self.tokenKey(request), peer: (context as? SyncRequestContext)?.peer ?? "unknown")
        var request = request
        request.body = RequestBody(asyncSequence: CountedBody(base: request.body, budget: body))
        let timed = Self.isTimed(method: request.method, path: request.uri.path, wait: request.uri.queryParameters.get("wait"))
        do {
            let response = try await next(request, context)
            body.leave(started: started, timed: timed)
            return response
        } catch {
            body.leave(started: started, timed: false)
            throw error
        }
    }

    /// Whether a request's time in the server says whether requests queue: a push or a pull, but not a pull that may
    /// wait for new events (`wait` above 0, SYNC.md §"Waiting for new events"), whose time is the client's choice.
    static func isTimed(method: HTTPRequest.Method, path: String, wait: String?) -> Bool {
        path.hasSuffix("/events") && !(method == .get && (wait.flatMap { Int($0) } ?? 0) > 0)
    }

    /// The per-token budget's key: the bearer token or the page's `?token=`, as sent (kept in memory only while its
    /// request is in progress); nil when there is none.
    static func tokenKey(_ request: Request) -> String? {
        if let header = request.headers[.authorization] { return header }
        return request.uri.queryParameters.get("token").map { "?" + $0 }
    }
}

/// `Admission` under a lock, shared by the requests in progress.
final class AdmissionGate: @unchecked Sendable {
    /// The routes no budget applies to: they read no body and touch no journal.
    static let ungated: Set<String> = ["/health", "/health/live", "/health/ready", "/metrics"]

    static func refusal(_ refusal: Admission.Refusal) -> SyncFailure {
        ServerMetrics.overloaded.increment()
        return SyncFailure(429, "overloaded", refusal.message)
    }

    private let lock = NSLock()
    private var admission: Admission
    init(_ admission: Admission) { self.admission = admission }

    func enter(now: ContinuousClock.Instant) -> Admission.Refusal? {
        lock.withLock { admission.admit(now: now) }
    }

    func receive(_ bytes: Int, token: String?, peer: String) -> Admission.Refusal? {
        lock.withLock { admission.receive(bytes, token: token, peer: peer) }
    }

    func leave(bytes: Int, token: String?, peer: String, started: ContinuousClock.Instant, now: ContinuousClock.Instant, timed: Bool) {
        lock.withLock { admission.finish(bytes: bytes, token: token, peer: peer, started: started, now: now, timed: timed) }
    }

    var state: Admission { lock.withLock { admission } }
}

/// What one request's body holds of `Admission`'s budgets, and when it ended.
final class BodyBudget: @unchecked Sendable {
    // @unchecked: the body is read by one task at a time; `leave` runs after it.
    let gate: AdmissionGate
    let token: String?
    let peer: String
    private var held = 0
    private var ended: ContinuousClock.Instant?
    private var failed = false

    init(gate: AdmissionGate, token: String?, peer: String) {
        self.gate = gate
        self.token = token
        self.peer = peer
    }

    func receive(_ bytes: Int) throws {
        if let refusal = gate.receive(bytes, token: token, peer: peer) {
            failed = true
            throw AdmissionGate.refusal(refusal)
        }
        held += bytes
    }

    func end() { ended = ContinuousClock.now }
    func fail() { failed = true }

    /// Gives the bytes back. A request is timed from its body's end (the time before it is the client's), and only when
    /// its body was read whole or not at all.
    func leave(started: ContinuousClock.Instant, timed: Bool) {
        gate.leave(bytes: held, token: token, peer: peer, started: ended ?? started, now: .now, timed: timed && !failed)
    }
}

/// A request body whose chunks are counted in `budget` as they arrive.
struct CountedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let base: RequestBody
    let budget: BodyBudget

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let budget: BodyBudget

        mutating func next() async throws -> ByteBuffer? {
            do {
                guard let chunk = try await base.next() else {
                    budget.end()
                    return nil
                }
                try budget.receive(chunk.readableBytes)
                return chunk
            } catch {
                budget.fail()
                throw error
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), budget: budget) }
}
