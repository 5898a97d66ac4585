import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JournalEvents

/// One HTTP exchange of the sync protocol: what `SyncClient` sends and the status and body that came back.
/// `SyncClient.init(server:token:)` takes the platform's: `HTTPClientTransport` on Linux, `URLSessionTransport`
/// elsewhere; the load generator uses a plain-HTTP one (SCALE-FIGURES.md §"Load"). The protocol's
/// paths, bodies and refusals are `SyncClient`'s alone.
public protocol SyncTransport: Sendable {
    /// The answer's status and body; throws when the server cannot be reached or the connection broke (a
    /// `SyncClient.Failure.transport` that says so; any other error is reported as one).
    func exchange(_ request: SyncClient.HTTPRequest) async throws -> (status: Int, body: Data)
    /// The answer with its `Retry-After` header; by default `exchange`'s, without the header.
    func answer(_ request: SyncClient.HTTPRequest) async throws -> SyncClient.Answer
}

extension SyncTransport {
    public func answer(_ request: SyncClient.HTTPRequest) async throws -> SyncClient.Answer {
        let (status, body) = try await exchange(request)
        return SyncClient.Answer(status: status, body: body, retryAfter: nil)
    }
}

/// `SyncTransport` on Foundation's URLSession.
public struct URLSessionTransport: SyncTransport {
    let session: URLSession
    public init(session: URLSession = .shared) { self.session = session }

    public func exchange(_ request: SyncClient.HTTPRequest) async throws -> (status: Int, body: Data) {
        let answer = try await answer(request)
        return (answer.status, answer.body)
    }

    public func answer(_ request: SyncClient.HTTPRequest) async throws -> SyncClient.Answer {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeoutSeconds
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let data: Data, response: URLResponse
        do { (data, response) = try await session.data(for: urlRequest) } catch {
            throw SyncClient.Failure.transport("\(request.method) \(request.url.absoluteString): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else { throw SyncClient.Failure.transport("\(request.method) \(request.url.absoluteString): no HTTP response") }
        return SyncClient.Answer(status: http.statusCode, body: data,
                                 retryAfter: http.value(forHTTPHeaderField: "Retry-After").flatMap(SyncProtocol.retryAfter))
    }
}

/// The HTTP side of the sync protocol (SYNC.md §"Protocol"), over a `SyncTransport` (the platform's by default).
///
/// Its bearer token is fixed (`init(server:token:)`: a token `journal-server token create` printed, or a JWT that
/// outlives the client) or comes from the app's `TokenProvider` before each request and again once after a 401
/// (`init(server:tokenProvider:)`: a short-lived JWT from the app's backend; SYNC.md §"Token providers").
public struct SyncClient: Sendable {
    public let server: URL
    /// Where each request's bearer token comes from.
    let credentials: Credentials
    let transport: any SyncTransport
    /// `server` without a trailing `/`, query or fragment, to which each request's path is appended; nil when
    /// `server` is not a URL a path can follow (every request then fails saying so).
    let base: String?
    /// How a request answered 429 (the server's own overload) or 503 (its database's) is tried again.
    public var retry: RetryPolicy

    /// Over the platform's transport (`platformTransport`), with a fixed bearer token (none when nil).
    public init(server: URL, token: String?) {
        self.init(server: server, token: token, transport: Self.platformTransport())
    }

    /// Over the platform's transport (`platformTransport`), with each request's bearer token from `tokenProvider`
    /// (SYNC.md §"Token providers").
    public init(server: URL, tokenProvider: @escaping TokenProvider) {
        self.init(server: server, credentials: .provided(tokenProvider), transport: Self.platformTransport())
    }

    /// Over `transport`, with each request's bearer token from `tokenProvider`.
    public init(server: URL, transport: any SyncTransport, tokenProvider: @escaping TokenProvider) {
        self.init(server: server, credentials: .provided(tokenProvider), transport: transport)
    }

    /// The platform's transport: AsyncHTTPClient on Linux (SYNC.md §"HTTP on Linux"), URLSession elsewhere.
    public static func platformTransport() -> any SyncTransport {
        #if os(Linux)
        HTTPClientTransport()
        #else
        URLSessionTransport()
        #endif
    }

    public init(server: URL, token: String?, session: URLSession) {
        self.init(server: server, token: token, transport: URLSessionTransport(session: session))
    }

    public init(server: URL, token: String?, transport: any SyncTransport) {
        self.init(server: server, credentials: .fixed(token), transport: transport)
    }

    init(server: URL, credentials: Credentials, transport: any SyncTransport) {
        self.server = server
        self.credentials = credentials
        self.transport = transport
        retry = .standard
        if var components = URLComponents(url: server, resolvingAgainstBaseURL: false) {
            components.query = nil
            components.fragment = nil
            components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/")
            base = components.string
        } else {
            base = nil
        }
    }

    /// The fixed bearer token the client was made with; nil when it has none or a `TokenProvider`.
    public var token: String? {
        if case .fixed(let token) = credentials { return token }
        return nil
    }

    /// An app's source of bearer tokens, typically a short-lived JWT its backend signs (SYNC.md §"Token providers").
    /// It is called before each request (not again before that request's retries after 429 or 503), and once more
    /// when the server refuses the token (401, `TokenRequest.refused` set), after which the request is sent again
    /// with the new token; a second 401 is reported. It may be called from several tasks at once (a live sync's
    /// round and its waiting pull), so it returns its cached token while that is valid. What it throws fails the
    /// request as `Failure.tokenProvider`, with the error's words.
    public typealias TokenProvider = @Sendable (TokenRequest) async throws -> String

    /// What a `TokenProvider` is asked for: a token for the next request, or a new one in place of a refused one.
    public struct TokenRequest: Sendable, Equatable {
        /// The token the server has just refused (401: expired, revoked or unknown); nil before an ordinary request.
        /// A provider asked with it gets a new token from the backend rather than returning its cached one.
        public var refused: String?
        /// The server's reason for the refusal (its `bad_token` message); nil before an ordinary request.
        public var reason: String?
        public init(refused: String? = nil, reason: String? = nil) {
            self.refused = refused
            self.reason = reason
        }
    }

    /// Where a request's bearer token comes from.
    enum Credentials: Sendable {
        /// The same token on every request; none when nil.
        case fixed(String?)
        /// The app's provider, asked before each request and after a 401.
        case provided(TokenProvider)
    }

    /// What came back: the status, the body, and the delay of a `Retry-After: SECONDS` header.
    public struct Answer: Sendable {
        public var status: Int
        public var body: Data
        public var retryAfter: Duration?
        public init(status: Int, body: Data, retryAfter: Duration?) {
            self.status = status
            self.body = body
            self.retryAfter = retryAfter
        }
    }

    /// One request as the transport sends it.
    public struct HTTPRequest: Sendable {
        public var method: String
        public var url: URL
        public var headers: [(String, String)]
        public var body: [UInt8]?
        public var timeoutSeconds: Double
        public init(method: String, url: URL, headers: [(String, String)], body: [UInt8]?, timeoutSeconds: Double) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.timeoutSeconds = timeoutSeconds
        }
    }

    /// Why a request failed.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The server refused it (4xx/5xx) with its code and message.
        case refused(status: Int, code: String, message: String)
        /// The server could not be reached or the connection broke.
        case transport(String)
        /// The server answered something that is not the protocol.
        case badAnswer(String)
        /// The app's `TokenProvider` threw instead of giving a token: its error, in words. No request was sent.
        case tokenProvider(String)

        public var description: String {
            switch self {
            case let .refused(status, code, message): return "the server refused (\(status) \(code)): \(message)"
            case let .transport(reason): return "cannot reach the server: \(reason)"
            case let .badAnswer(reason):
                return "the server's answer is not the sync protocol: \(reason); check that the server URL is a journal-server's (its GET /health answers ok)"
            case let .tokenProvider(reason):
                return "the app's token provider gave no token: \(reason); nothing was sent; the user may need to sign in again"
            }
        }

        /// True when retrying later may succeed (the server or its database was down, or the server overloaded).
        public var isTransient: Bool {
            switch self {
            case .transport: return true
            case .refused(let status, _, _): return status >= 500 || status == 429
            case .badAnswer, .tokenProvider: return false
            }
        }
    }

    public struct Identity: Equatable, Sendable {
        public var user: String
        public var role: String
        public init(user: String, role: String) { self.user = user; self.role = role }
    }

    public struct PushAnswer: Equatable, Sendable, Decodable {
        public var acknowledged: [String]
        public var stored: Int
        public var cursor: String
        public init(acknowledged: [String], stored: Int, cursor: String) {
            self.acknowledged = acknowledged
            self.stored = stored
            self.cursor = cursor
        }
    }

    /// The user and role of the token.
    public func whoami() async throws(Failure) -> Identity {
        let data = try await send("GET", "/v1/whoami", body: nil)
        struct Answer: Decodable { var user: String; var role: String }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: data) else { throw .badAnswer("whoami: \(String(decoding: data, as: UTF8.self))") }
        return Identity(user: answer.user, role: answer.role)
    }

    /// Pushes `events` (at most `SyncProtocol.maximumPushEvents`); returns once the server committed them.
    public func push(user: String, events: [Event]) async throws(Failure) -> PushAnswer {
        let data = try await send("POST", SyncProtocol.eventsPath(user: user), body: SyncBody.push(events))
        do { return try SyncBody.pushAnswer(Array(data)) } catch {
            throw .badAnswer("push: \(error.message): \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
    }

    /// One page of events after `cursor`. With `waitSeconds` (1 to `SyncProtocol.maximumPullWaitSeconds`), a pull
    /// that finds nothing after the cursor is answered as soon as a push of the user commits on the server, or empty
    /// after that many seconds (SYNC.md §"Waiting for new events").
    public func pull(user: String, after cursor: SyncCursor, limit: Int = SyncProtocol.maximumPullEvents,
                     waitSeconds: Int = 0) async throws(Failure) -> SyncBody.Page {
        var query = [("after", cursor.description), ("limit", String(limit))]
        if waitSeconds > 0 { query.append(("wait", String(waitSeconds))) }
        let data = try await send("GET", SyncProtocol.eventsPath(user: user), query: query, body: nil)
        do { return try SyncBody.page(Array(data)) } catch { throw .badAnswer(error.message) }
    }

    /// The delays before each new try of a request refused 429 or 503 (SYNC.md §"Refusals": both say retry after
    /// the Retry-After delay, which this server sets to 1 s). A try waits its delay or the answer's Retry-After,
    /// whichever is longer (at most `longestRetryAfter`), stretched by up to a quarter at random, so that devices
    /// refused together do not come back together. Pushes are idempotent, so a retried one stores nothing twice.
    public struct RetryPolicy: Sendable, Equatable {
        public var delays: [Duration]
        public init(delays: [Duration]) { self.delays = delays }
        /// 1 s, 2 s, 4 s: a request is tried 4 times over about 7 to 9 s before its refusal is reported.
        public static let standard = RetryPolicy(delays: [.seconds(1), .seconds(2), .seconds(4)])
        public static let none = RetryPolicy(delays: [])
        /// The longest Retry-After a client waits for; a longer one is waited for this long.
        public static let longestRetryAfter = Duration.seconds(60)

        /// The wait before the `attempt`-th new try (1-based) of something that keeps failing, such as a live sync
        /// while the device is offline: the policy's delays in order, then each twice the one before, never more than
        /// `longestRetryAfter` (1, 2, 4, 8, 16, 32, 60, 60 … s for `.standard`; 60 s for `.none`).
        public func delay(attempt: Int) -> Duration {
            guard let last = delays.last else { return Self.longestRetryAfter }
            if attempt <= delays.count { return min(delays[max(attempt, 1) - 1], Self.longestRetryAfter) }
            var delay = last
            for _ in delays.count..<attempt where delay < Self.longestRetryAfter { delay *= 2 }
            return min(delay, Self.longestRetryAfter)
        }

        /// The wait before the next try: `planned`, or the server's `retryAfter` when it is longer.
        public static func wait(_ planned: Duration, retryAfter: Duration?) -> Duration {
            guard let retryAfter else { return planned }
            return max(planned, min(retryAfter, longestRetryAfter))
        }
    }

    func send(_ method: String, _ path: String, query: [(String, String)] = [], body: [UInt8]?) async throws(Failure) -> Data {
        var delays = retry.delays[...]
        var token = try await bearerToken(TokenRequest())
        var refreshed = false
        while true {
            let failure: Failure, retryAfter: Duration?
            do { return try await sendOnce(method, path, query: query, body: body, token: token) } catch { (failure, retryAfter) = (error.failure, error.retryAfter) }
            // A refused token is asked for again once, when a provider gives them (an expired JWT); a fixed one is not.
            if case .refused(401, _, let message) = failure, case .provided = credentials, !refreshed {
                refreshed = true
                token = try await bearerToken(TokenRequest(refused: token, reason: message))
                continue
            }
            guard case .refused(let status, _, _) = failure, status == 429 || status == 503, let delay = delays.popFirst() else {
                throw failure
            }
            let wait = RetryPolicy.wait(delay, retryAfter: retryAfter)
            do { try await Task.sleep(for: wait * Double.random(in: 1...1.25)) } catch { throw failure }
        }
    }

    /// The bearer token for a request: the fixed one, or the provider's answer to `request`.
    func bearerToken(_ request: TokenRequest) async throws(Failure) -> String? {
        switch credentials {
        case .fixed(let token): return token
        case .provided(let provider):
            do { return try await provider(request) } catch {
                throw .tokenProvider((error as? any LocalizedError)?.errorDescription ?? "\(error)")
            }
        }
    }

    /// A failure of one try, with the answer's Retry-After when it had one.
    struct TryFailure: Error {
        var failure: Failure
        var retryAfter: Duration? = nil
    }

    func sendOnce(_ method: String, _ path: String, query: [(String, String)], body: [UInt8]?, token: String?) async throws(TryFailure) -> Data {
        // The URL is made as text and parsed once: URLComponents took about 6% of the load generator's CPU
        // (SCALE-FIGURES.md §"What the devices cost").
        guard let base else { throw TryFailure(failure: notAServer) }
        var text = base + SyncProtocol.percentEncoded(path, keeping: SyncProtocol.pathKept)
        for (index, (name, value)) in query.enumerated() {
            text += (index == 0 ? "?" : "&") + SyncProtocol.percentEncoded(name, keeping: SyncProtocol.unreserved) + "="
                + SyncProtocol.percentEncoded(value, keeping: SyncProtocol.unreserved)
        }
        guard let url = URL(string: text) else { throw TryFailure(failure: notAServer) }
        var headers: [(String, String)] = []
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let answer: Answer
        do {
            answer = try await transport.answer(HTTPRequest(method: method, url: url, headers: headers, body: body, timeoutSeconds: 60))
        } catch let failure as Failure {
            throw TryFailure(failure: failure)
        } catch {
            throw TryFailure(failure: .transport("\(method) \(url.absoluteString): \(error)"))
        }
        guard (200..<300).contains(answer.status) else {
            struct Refusal: Decodable { struct Inner: Decodable { var code: String; var message: String }; var error: Inner }
            let failure: Failure
            if let refusal = try? JSONDecoder().decode(Refusal.self, from: answer.body) {
                failure = .refused(status: answer.status, code: refusal.error.code, message: refusal.error.message)
            } else {
                failure = .refused(status: answer.status, code: "http_\(answer.status)", message: String(decoding: answer.body.prefix(300), as: UTF8.self))
            }
            throw TryFailure(failure: failure, retryAfter: answer.retryAfter)
        }
        return answer.body
    }
}

extension SyncClient {
    /// Why a request could not be made: the server URL is not one. Made only when thrown (every request would
    /// otherwise format it).
    var notAServer: Failure {
        .transport("\(server) is not a server URL; give the server's address as http://HOST:PORT (its GET /health answers ok)")
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
