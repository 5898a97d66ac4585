import Dispatch
import Hummingbird
import Metrics
import NIOConcurrencyHelpers

/// The HTTP metrics of `/metrics` (SYNC.md §"Running it locally"): the series Hummingbird's `MetricsMiddleware`
/// records, under its labels and dimensions, recorded when the handler has answered instead of after the answer is
/// written.
///
/// Hummingbird's middleware wraps every answer's body in a closure, to record after the write. A body that is a
/// closure is written head first and body after, each with its own flush: two `write(2)` calls a response, where
/// a body that is one buffer goes out with its head in one (SCALE.md §"One write an answer"). Every answer of
/// this server is one buffer, so this middleware leaves the body alone; the duration it records ends when the
/// answer is handed to the connection, not when its last byte is written.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {

    private let series = Series()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let active = series.active(request.method)
        active.increment()
        defer { active.decrement() }
        do {
            let response = try await next(request, context)
            let endpoint = series.endpoint(context.endpointPath ?? "Unknown", request.method, response.status)
            endpoint.requests.increment()
            endpoint.duration.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let endpoint = series.endpoint(context.endpointPath ?? "NotFound", request.method, status)
            endpoint.requests.increment()
            endpoint.errors.increment()
            throw error
        }
    }

    /// The metrics of each method and of each route, method and status, made once and kept.
    final class Series: Sendable {
        struct Endpoint: Sendable {
            let requests: Counter
            let duration: Timer
            let errors: Counter
        }
        private struct EndpointKey: Hashable {
            let route: String
            let method: HTTPRequest.Method
            let status: HTTPResponse.Status
        }
        private let actives = NIOLockedValueBox<[HTTPRequest.Method: Meter]>([:])
        private let endpoints = NIOLockedValueBox<[EndpointKey: Endpoint]>([:])

        func active(_ method: HTTPRequest.Method) -> Meter {
            actives.withLockedValue { known in
                if let meter = known[method] { return meter }
                let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.description)])
                known[method] = meter
                return meter
            }
        }

        func endpoint(_ route: String, _ method: HTTPRequest.Method, _ status: HTTPResponse.Status) -> Endpoint {
            endpoints.withLockedValue { known in
                let key = EndpointKey(route: route, method: method, status: status)
                if let endpoint = known[key] { return endpoint }
                let dimensions = [("http.route", route), ("http.request.method", method.description),
                                  ("http.response.status_code", status.code.description)]
                let endpoint = Endpoint(
                    requests: Counter(label: "hb.requests", dimensions: dimensions),
                    duration: Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds),
                    errors: Counter(label: "hb.request.errors", dimensions: [("http.route", route), ("http.request.method", method.description),
                                                                             ("error.type", status.code.description)]))
                known[key] = endpoint
                return endpoint
            }
        }
    }
}
