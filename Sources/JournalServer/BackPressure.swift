import Foundation
import Hummingbird
import JournalSync

/// Which sync requests the server takes in (SCALE.md §"Back-pressure"). A request is refused, at once and with
/// nothing stored, when taking it would exceed one of three bounds:
///
/// - **waiting**: every push and pull the server finished in the last `window` had been in it longer than
///   `target`. The server then holds a standing queue, and a new request would only wait in it: 429 until a push or
///   pull finishes within `target` again, or none is left in the server. (The rule of CoDel: a queue is judged by
///   the shortest wait over an interval, so a burst that drains is no overload and a queue that stays is.) Report
///   pages, which may take long to make for a long journal, are not timed.
/// - **bytes**: the request bodies in the server would exceed `maximumBodyBytes` (a body counts its
///   `Content-Length`; a POST without one counts the protocol's largest body), which bounds the server's memory;
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
    let maximumRequests: Int

    init(target: Duration = .seconds(1), window: Duration = .milliseconds(100), maximumBodyBytes: Int = 64 << 20,
         maximumRequests: Int = 4_096) {
        self.target = target
        self.window = window
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumRequests = maximumRequests
    }

    /// Why a request was refused: the 429's message.
    enum Refusal: Equatable, Sendable {
        case waiting(target: Duration, window: Duration)
        case bytes(limit: Int)
        case count(limit: Int)

        var message: String {
            let retry = "nothing was stored; retry after the Retry-After delay"
            switch self {
            case let .waiting(target, window):
                return "every push and pull the server finished in the last \(Admission.milliseconds(window)) ms had waited in it more than \(Admission.milliseconds(target)) ms; \(retry)"
            case .bytes(let limit):
                return "the server holds \(limit >> 20) MiB of sync request bodies in progress; \(retry)"
            case .count(let limit):
                return "the server has \(limit) sync requests in progress; \(retry)"
            }
        }
    }

    private(set) var requests = 0
    private(set) var bodyBytes = 0
    /// The window in progress: when it started, and the shortest time in the server of the requests finished in it.
    private var windowStart: ContinuousClock.Instant?
    private var shortest: Duration?
    /// Whether the server holds a standing queue: set when a whole window's pushes and pulls all waited past
    /// `target`, cleared when one finishes within it or none is left in the server.
    private(set) var overloaded = false

    /// Takes a request whose body counts `bytes` in, or says why not.
    mutating func admit(bytes: Int, now: ContinuousClock.Instant) -> Refusal? {
        roll(now)
        if requests == 0 { overloaded = false }   // no queue is left
        if overloaded { return .waiting(target: target, window: window) }
        if requests >= maximumRequests { return .count(limit: maximumRequests) }
        if bodyBytes + bytes > maximumBodyBytes { return .bytes(limit: maximumBodyBytes) }
        requests += 1
        bodyBytes += bytes
        return nil
    }

    /// A request admitted at `started` with a body of `bytes` has been answered; `timed`: a push or a pull, whose time
    /// in the server says whether requests queue.
    mutating func finish(bytes: Int, started: ContinuousClock.Instant, now: ContinuousClock.Instant, timed: Bool = true) {
        requests -= 1
        bodyBytes -= bytes
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

/// `Admission` in front of the sync routes: a refused request is answered 429 `overloaded` with `Retry-After: 1`,
/// counted in `journal_sync_overloaded_total`. Devices retry after the delay; pushes are idempotent.
struct BackPressureMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private var admission: Admission
        init(_ admission: Admission) { self.admission = admission }

        func enter(bytes: Int, now: ContinuousClock.Instant) -> Admission.Refusal? {
            lock.lock(); defer { lock.unlock() }
            return admission.admit(bytes: bytes, now: now)
        }

        func leave(bytes: Int, started: ContinuousClock.Instant, now: ContinuousClock.Instant, timed: Bool) {
            lock.lock(); defer { lock.unlock() }
            admission.finish(bytes: bytes, started: started, now: now, timed: timed)
        }
    }

    let gate: Gate

    init(_ admission: Admission = Admission()) { gate = Gate(admission) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path.hasPrefix("/v1/journals/") else { return try await next(request, context) }
        let bytes = request.headers[.contentLength].flatMap { Int($0) }.map { min($0, SyncProtocol.maximumBodyBytes) }
            ?? (request.method == .post ? SyncProtocol.maximumBodyBytes : 0)
        let started = ContinuousClock.now
        if let refusal = gate.enter(bytes: bytes, now: started) {
            ServerMetrics.overloaded.increment()
            var response = FailureMiddleware.response(SyncFailure(429, "overloaded", refusal.message))
            response.headers[.retryAfter] = "1"
            return response
        }
        let timed = request.uri.path.hasSuffix("/events")   // a push or a pull
        defer { gate.leave(bytes: bytes, started: started, now: ContinuousClock.now, timed: timed) }
        return try await next(request, context)
    }
}
