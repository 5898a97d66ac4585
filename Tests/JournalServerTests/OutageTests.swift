import Foundation
import Hummingbird
import HummingbirdTesting
import JournalSync
import Logging
import Testing
@testable import JournalServer

/// What a client hears when the database is out, and when the server itself is busy (SYNC.md §"Refusals",
/// §"Health"): 503 with Retry-After within the request deadline for any outage, single or multi-host; 429 only for
/// the server's own overload; both retried by `SyncClient`.
@Suite("A database outage is 503 with Retry-After within 10 s; 429 is the server's own overload; the client retries both")
struct OutageTests {
    /// The routes on a store whose every host is a loopback port nobody listens on.
    static func withDeadDatabase(hosts: Int, _ body: @escaping @Sendable (_ client: any TestClientProtocol, _ url: DatabaseURL) async throws -> Void) async throws {
        let ports = try (0..<hosts).map { _ in try freeLoopbackPort() }
        let url = try DatabaseURL("postgres://postgres@" + ports.map { "127.0.0.1:\($0)" }.joined(separator: ",") + "/postgres")
        var logger = Logger(label: "outage")
        logger.logLevel = .critical
        let (store, clients) = makeSyncStore(url, logger: logger)
        let router = SyncRoutes(store: store, logger: logger, database: url.description).router()
        try await withRunning(clients) {
            try await Application(router: router).test(.router) { client in try await body(client, url) }
        }
    }

    static let authorized: HTTPFields = [.authorization: "Bearer wjt_0000"]

    /// `GET /v1/whoami` with every one of `hosts` down: 503 with Retry-After within 10.5 s, its message starting with
    /// what `message` says of the URL.
    static func expectUnavailable(hosts: Int, message: @escaping @Sendable (DatabaseURL) -> String) async throws {
        try await withDeadDatabase(hosts: hosts) { client, url in
            let started = ContinuousClock.now
            try await client.execute(uri: "/v1/whoami", method: .get, headers: Self.authorized) { response in
                #expect(response.status.code == 503)
                #expect(response.headers[.retryAfter] == "1")
                #expect(String(buffer: response.body).hasPrefix(#"{"error":{"code":"database_unavailable","message":""# + message(url)))
            }
            let took = started.duration(to: .now)
            #expect(took < .milliseconds(10_500), "answered after \(took)")
        }
    }

    @Test("one host down: 503 database_unavailable with Retry-After: 1 within 10 s")
    func singleHost() async throws {
        try await Self.expectUnavailable(hosts: 1) { _ in "the database did not" }
    }

    @Test("every host of a multi-host URL down: 503 database_unavailable with Retry-After: 1 within 10 s, naming the hosts")
    func multiHost() async throws {
        try await Self.expectUnavailable(hosts: 2) { url in
            "the database did not complete the request: no host of \(url.endpoints.map(\.description).joined(separator: ",")) accepted writes within "
        }
    }

    @Test("/health/live answers ok without a database; /health/ready and /health answer 503 naming the database")
    func healthWithoutDatabase() async throws {
        try await Self.withDeadDatabase(hosts: 1) { client, url in
            try await client.execute(uri: "/health/live", method: .get) { response in
                #expect(response.status.code == 200)
                #expect(String(buffer: response.body) == "ok\n")
            }
            for path in ["/health/ready", "/health"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status.code == 503)
                    #expect(response.headers[.retryAfter] == "1")
                    #expect(String(buffer: response.body).hasPrefix(#"{"error":{"code":"database_unavailable","message":"not ready: \#(url.description) does not answer ("#))
                    #expect(String(buffer: response.body).hasSuffix(#"); the server answers 503 until it does; retry after the Retry-After delay"}}"#))
                }
            }
        }
    }

    @Test("with the database up, /health/ready and /health answer ok")
    func healthWithDatabase() async throws {
        try await BadInputTests.withRawServer { send in
            for path in ["/health/live", "/health/ready", "/health"] {
                let answer = try await send(.get, path, nil, [])
                #expect(answer.status == 200)
                #expect(answer.body == "ok\n")
            }
        }
    }

    @Test("requests that fail slowly (the database's 503) do not make the server refuse others 429")
    func failuresAreNotQueueing() async throws {
        let router = Router()
        router.add(middleware: FailureMiddleware())
        router.add(middleware: BackPressureMiddleware(Admission(target: .milliseconds(100), window: .milliseconds(50))))
        router.get("v1/journals/:user/report") { _, _ in try await Task.sleep(for: .seconds(1)); return "page\n" }
        router.get("v1/journals/:user/events") { request, _ in
            if request.uri.queryParameters.get("fail") != nil {
                try await Task.sleep(for: .milliseconds(300))
                throw SyncFailure(503, "database_unavailable", "the database did not answer within 0.3 seconds; retry")
            }
            return "events\n"
        }
        try await Application(router: router).test(.router) { client in
            // A page keeps a request in the server throughout, so the admission's state is not reset by an empty server.
            async let page = client.execute(uri: "/v1/journals/a/report", method: .get) { Int($0.status.code) }
            async let failed = client.execute(uri: "/v1/journals/a/events?fail=1", method: .get) { Int($0.status.code) }
            #expect(try await failed == 503)
            try await Task.sleep(for: .milliseconds(150))
            let status = try await client.execute(uri: "/v1/journals/a/events", method: .get) { Int($0.status.code) }
            #expect(status == 200)
            #expect(try await page == 200)
        }
    }

    /// Answers each request with the next of `answers`.
    final class ScriptedTransport: SyncTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [(Int, String)]
        private(set) var requests = 0
        init(_ answers: [(Int, String)]) { self.answers = answers }
        func exchange(_ request: SyncClient.HTTPRequest) async throws -> (status: Int, body: Data) {
            lock.withLock {
                requests += 1
                let (status, body) = answers.removeFirst()
                return (status, Data(body.utf8))
            }
        }
    }

    static let overloaded = (429, #"{"error":{"code":"overloaded","message":"the server has 4096 sync requests in progress; nothing was stored; retry after the Retry-After delay"}}"#)
    static let unavailable = (503, #"{"error":{"code":"database_unavailable","message":"the database did not answer within 10.0 seconds; retry"}}"#)

    @Test("SyncClient retries 429 and 503 after its delays and reports the refusal after the last; 429 is transient")
    func clientRetries() async throws {
        let transport = ScriptedTransport([Self.overloaded, Self.unavailable, (200, #"{"user":"ana","role":"user"}"#)])
        var client = SyncClient(server: URL(string: "http://127.0.0.1:8080")!, token: "t", transport: transport)
        client.retry = .init(delays: [.milliseconds(10), .milliseconds(10)])
        #expect(try await client.whoami() == SyncClient.Identity(user: "ana", role: "user"))
        #expect(transport.requests == 3)

        let refusing = ScriptedTransport([Self.overloaded, Self.overloaded])
        var once = SyncClient(server: URL(string: "http://127.0.0.1:8080")!, token: "t", transport: refusing)
        once.retry = .init(delays: [.milliseconds(10)])
        let refused: SyncClient.Failure
        do {
            _ = try await once.whoami()
            Issue.record("two 429s and one retry: the refusal is reported")
            return
        } catch { refused = error }
        #expect(refused == .refused(status: 429, code: "overloaded", message: "the server has 4096 sync requests in progress; nothing was stored; retry after the Retry-After delay"))
        #expect(refusing.requests == 2)
        #expect(SyncClient.Failure.refused(status: 429, code: "overloaded", message: "").isTransient)
        #expect(SyncClient.RetryPolicy.standard.delays == [.seconds(1), .seconds(2), .seconds(4)])
    }

    /// Answers 503 with `Retry-After: 1` once, then 200; records when each request came.
    final class RetryAfterTransport: SyncTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var times: [ContinuousClock.Instant] = []
        var arrivals: [ContinuousClock.Instant] { lock.withLock { times } }
        func exchange(_ request: SyncClient.HTTPRequest) async throws -> (status: Int, body: Data) {
            let answer = try await answer(request)
            return (answer.status, answer.body)
        }
        func answer(_ request: SyncClient.HTTPRequest) async throws -> SyncClient.Answer {
            lock.withLock {
                times.append(.now)
                return times.count == 1
                    ? SyncClient.Answer(status: OutageTests.unavailable.0, body: Data(OutageTests.unavailable.1.utf8), retryAfter: .seconds(1))
                    : SyncClient.Answer(status: 200, body: Data(#"{"user":"ana","role":"user"}"#.utf8), retryAfter: nil)
            }
        }
    }

    @Test("SyncClient waits the answer's Retry-After when it is longer than its own delay, at most 60 s; delay-seconds only")
    func clientHonoursRetryAfter() async throws {
        #expect(SyncClient.RetryPolicy.wait(.milliseconds(10), retryAfter: .seconds(1)) == .seconds(1))
        #expect(SyncClient.RetryPolicy.wait(.seconds(4), retryAfter: .seconds(1)) == .seconds(4))
        #expect(SyncClient.RetryPolicy.wait(.seconds(1), retryAfter: .seconds(3600)) == .seconds(60))
        #expect(SyncClient.RetryPolicy.wait(.seconds(2), retryAfter: nil) == .seconds(2))
        #expect(SyncProtocol.retryAfter("1") == .seconds(1))
        #expect(SyncProtocol.retryAfter(" 120 ") == .seconds(120))
        #expect(SyncProtocol.retryAfter("Fri, 31 Dec 1999 23:59:59 GMT") == nil)
        #expect(SyncProtocol.retryAfter("-1") == nil)
        #expect(SyncProtocol.retryAfter("1.5") == nil)
        #expect(SyncProtocol.retryAfter("") == nil)
        let transport = RetryAfterTransport()
        var client = SyncClient(server: URL(string: "http://127.0.0.1:8080")!, token: "t", transport: transport)
        client.retry = .init(delays: [.milliseconds(10)])
        #expect(try await client.whoami() == SyncClient.Identity(user: "ana", role: "user"))
        let arrivals = transport.arrivals
        #expect(arrivals.count == 2)
        let waited = arrivals[0].duration(to: arrivals[1])
        #expect(waited >= .seconds(1) && waited < .milliseconds(1_600), "retried after \(waited), not after the 1 s Retry-After")
    }

    @Test("both transports read Retry-After from a live server's 503")
    func transportsReadRetryAfter() async throws {
        let url = try DatabaseURL("postgres://postgres@127.0.0.1:\(try freeLoopbackPort())/postgres")
        var logger = Logger(label: "outage")
        logger.logLevel = .critical
        let (store, clients) = makeSyncStore(url, logger: logger)
        let router = SyncRoutes(store: store, logger: logger, database: url.description, schema: SchemaGate()).router()
        try await withRunning(clients) {
            try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
                let health = URL(string: "http://127.0.0.1:\(try #require(client.port))/health")!
                let request = SyncClient.HTTPRequest(method: "GET", url: health, headers: [], body: nil, timeoutSeconds: 10)
                for transport in [HTTPClientTransport() as any SyncTransport, URLSessionTransport()] {
                    let answer = try await transport.answer(request)
                    #expect(answer.status == 503)
                    #expect(answer.retryAfter == .seconds(1), "\(type(of: transport))")
                }
            }
        }
    }
}
