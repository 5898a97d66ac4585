import Foundation
import Hummingbird

/// A bounded number of sync requests in the server at once (SCALE.md §"Back-pressure"): past the bound a
/// request is answered at once with 429 `overloaded` and `Retry-After: 1`, nothing stored, instead of waiting
/// in an unbounded queue for a database connection. Devices retry after the delay; pushes are idempotent.
struct BackPressureMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    /// Requests in flight, at most `limit`.
    final class Gate: @unchecked Sendable {
        let limit: Int
        private let lock = NSLock()
        private var inFlight = 0
        init(limit: Int) { self.limit = limit }

        func enter() -> Bool {
            lock.lock(); defer { lock.unlock() }
            guard inFlight < limit else { return false }
            inFlight += 1
            return true
        }

        func leave() { lock.lock(); inFlight -= 1; lock.unlock() }
    }

    let gate: Gate

    init(limit: Int) { gate = Gate(limit: limit) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path.hasPrefix("/v1/journals/") else { return try await next(request, context) }
        guard gate.enter() else {
            ServerMetrics.overloaded.increment()
            var response = FailureMiddleware.response(SyncFailure(429, "overloaded", "the server has \(gate.limit) sync requests in progress; nothing was stored; retry after the Retry-After delay"))
            response.headers[.retryAfter] = "1"
            return response
        }
        defer { gate.leave() }
        return try await next(request, context)
    }
}
