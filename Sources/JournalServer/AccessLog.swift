import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers

/// One log line per request, at level `info` (SYNC.md §"Access log"):
/// `access PEER METHOD ROUTE STATUS DURATION user=USER`, where ROUTE is the route's pattern
/// (`/v1/journals/:user/events`), or the path without its query when no route matched, and USER the principal of
/// the request's token once it was found (`-` before or without one). The token, the query and the body are never
/// written.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = SyncRequestContext
    let logger: Logger

    /// The principal's user of the request in progress, set by `SyncRoutes.authenticate`.
    final class Caller: Sendable {
        private let box = NIOLockedValueBox<String?>(nil)
        var user: String? {
            get { box.withLockedValue { $0 } }
            set { box.withLockedValue { $0 = newValue } }
        }
    }
    @TaskLocal static var caller: Caller?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let caller = Caller()
        do {
            let response = try await Self.$caller.withValue(caller) { try await next(request, context) }
            log(request, context, status: Int(response.status.code), started: started, caller: caller)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, context, status: Int(status), started: started, caller: caller)
            throw error
        }
    }

    func log(_ request: Request, _ context: Context, status: Int, started: ContinuousClock.Instant, caller: Caller) {
        logger.info("\(Self.line(peer: context.peer, method: request.method.rawValue, route: context.endpointPath ?? request.uri.path, status: status, duration: started.duration(to: .now), user: caller.user))")
    }

    static func line(peer: String, method: String, route: String, status: Int, duration: Duration, user: String?) -> String {
        let milliseconds = Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
        return "access \(peer) \(method) \(route) \(status) \(String(format: "%.1f", milliseconds)) ms user=\(user ?? "-")"
    }
}
