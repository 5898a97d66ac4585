import Hummingbird
import HummingbirdTesting
@testable import JournalServer
import NIOConcurrencyHelpers
import Testing
import Prometheus

/// `RequestMetricsMiddleware`: the HTTP series of `GET /metrics`, under Hummingbird's names and dimensions, counted
/// for answers, for refusals turned into answers and for errors thrown past it.
@Suite("Request metrics: Hummingbird's series, recorded without wrapping the answer's body")
struct RequestMetricsTests {
    /// The lines of `/metrics` that start with `prefix` and hold `route` (only counts are compared: durations vary).
    static func lines(_ prefix: String, route: String) -> [String] {
        String(decoding: ServerMetrics.registry.emitToBuffer(), as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix(prefix + "{") && $0.contains("http_route=\"\(route)\"") }.map(String.init).sorted()
    }

    @Test("answers, refusals and thrown errors are counted by route, method and status; durations only for answers")
    func series() async throws {
        _ = ServerMetrics.registry
        let router = Router()
        // Outside the metrics: what `/metrics` counts for the route when the middleware has returned, before the
        // answer is written. A middleware that recorded after the write (Hummingbird's, by wrapping the body in a
        // closure) would have counted nothing yet.
        let countedBeforeWrite = NIOLockedValueBox<[String]>([])
        router.add(middleware: ProbeMiddleware { countedBeforeWrite.withLockedValue { $0 += Self.lines("hb_requests", route: "/metrics-test/ok") } })
        router.add(middleware: RequestMetricsMiddleware())
        router.add(middleware: FailureMiddleware())
        router.get("metrics-test/ok") { _, _ in "ok\n" }
        router.post("metrics-test/:user/refused") { _, _ -> String in
            throw SyncFailure(401, "bad_token", "refused in a test")
        }
        router.get("metrics-test/thrown") { _, _ -> String in throw HTTPError(.notFound) }
        try await Application(router: router).test(.router) { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/metrics-test/ok", method: .get) { response in
                    #expect(response.status.code == 200)
                    #expect(String(buffer: response.body) == "ok\n")
                }
            }
            try await client.execute(uri: "/metrics-test/alice/refused", method: .post) { response in
                #expect(response.status.code == 401)
            }
            try await client.execute(uri: "/metrics-test/thrown", method: .get) { response in
                #expect(response.status.code == 404)
            }
        }
        // After each answer but the thrown one (the probe does not run when the chain throws).
        #expect(countedBeforeWrite.withLockedValue { $0 } == [
            #"hb_requests{http_route="/metrics-test/ok",http_request_method="GET",http_response_status_code="200"} 1"#,
            #"hb_requests{http_route="/metrics-test/ok",http_request_method="GET",http_response_status_code="200"} 2"#,
            #"hb_requests{http_route="/metrics-test/ok",http_request_method="GET",http_response_status_code="200"} 2"#])
        #expect(Self.lines("hb_requests", route: "/metrics-test/ok") == [
            #"hb_requests{http_route="/metrics-test/ok",http_request_method="GET",http_response_status_code="200"} 2"#])
        #expect(Self.lines("hb_requests", route: "/metrics-test/{user}/refused") == [
            #"hb_requests{http_route="/metrics-test/{user}/refused",http_request_method="POST",http_response_status_code="401"} 1"#])
        #expect(Self.lines("hb_requests", route: "/metrics-test/thrown") == [
            #"hb_requests{http_route="/metrics-test/thrown",http_request_method="GET",http_response_status_code="404"} 1"#])
        #expect(Self.lines("hb_request_errors", route: "/metrics-test/thrown") == [
            #"hb_request_errors{http_route="/metrics-test/thrown",http_request_method="GET",error_type="404"} 1"#])
        #expect(Self.lines("hb_request_errors", route: "/metrics-test/ok") == [
            #"hb_request_errors{http_route="/metrics-test/ok",http_request_method="GET",error_type="200"} 0"#])
        #expect(Self.lines("http_server_request_duration_count", route: "/metrics-test/ok") == [
            #"http_server_request_duration_count{http_route="/metrics-test/ok",http_request_method="GET",http_response_status_code="200"} 2"#])
        #expect(Self.lines("http_server_request_duration_count", route: "/metrics-test/thrown") == [
            #"http_server_request_duration_count{http_route="/metrics-test/thrown",http_request_method="GET",http_response_status_code="404"} 0"#])
    }
}

/// Runs `probe` once the rest of the chain has answered, before the answer is written.
private struct ProbeMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let probe: @Sendable () -> Void
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        probe()
        return response
    }
}
