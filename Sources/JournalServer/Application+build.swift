import Foundation
import HTTPTypes
import Hummingbird
import JournalFile
import JournalEvents
import JournalInterchange
import JournalProjections
import JournalSync
import TrainingDomain
import Logging
import Metrics
import NIOConcurrencyHelpers
import PostgresNIO
import Prometheus
import ServiceLifecycle

/// Builds the whole server from its configuration (the one place it is assembled): the PostgreSQL client
/// (a service of the app, so it shuts down gracefully with it), the store, the migration (`SchemaService`: the
/// server listens after its first attempt, and answers 503 until one succeeds), and the routes.
public func buildApplication(_ configuration: ServerConfiguration) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "journal-server", factory: ServerLogHandler.init)
    logger.logLevel = configuration.logLevel
    let (store, clients) = makeSyncStore(configuration.database, design: configuration.store, logger: logger,
                                         deadline: configuration.databaseDeadline)
    let clientServices = clients.map { PostgresClientService(client: $0) }
    let gate = SchemaGate()
    let database = configuration.database.description
    var services: [any Service] = clientServices
    services.append(SchemaService(store: store, gate: gate, clients: clientServices, database: database,
                                  endpoints: configuration.database.endpoints, deadline: configuration.databaseDeadline,
                                  logger: logger))
    if let failover = store as? FailoverSyncStore { services.append(PrimaryWatchService(store: failover)) }
    var app = Application(
        router: SyncRoutes(store: store, logger: logger, admission: configuration.admission,
                           database: database, schema: gate).router(),
        server: configuration.timeouts.server(logger: logger),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "journal-server"),
        services: services,
        logger: logger
    )
    if configuration.store == .memory {
        logger.warning("store memory: events are kept in this process only and every one is lost when it stops; a peer for load measurements (SCALE.md), never a store for users")
    }
    // The first migration attempt before the port opens: a server whose database answers serves no 503.
    app.beforeServerStarts { await gate.firstAttempt.wait() }
    return app
}

/// The PostgreSQL client as a lifecycle service: it runs until the service group shuts down (`PostgresClient.run`
/// ends on a graceful shutdown itself). `running` opens once the client runs.
struct PostgresClientService: Service {
    let client: PostgresClient
    let running = Latch()
    func run() async throws {
        await withDiscardingTaskGroup { group in
            // An immediate task runs `client.run()` here, up to its first suspension; the client counts as running
            // from its first line, so a lease after `running` opens is never early.
            group.addImmediateTask { await client.run() }
            running.open()
        }
    }
}

/// Runs `body` while `clients` run, and stops them after it. Each client's `run()` starts as an immediate task, which
/// runs up to its first suspension, by when the client counts as running: a lease in `body` is never early, which
/// postgres-nio would report ("`PostgresClient.run()` hasn't been called yet"). The server's clients are services
/// instead (`PostgresClientService`).
public func withRunning<T: Sendable>(_ clients: [PostgresClient], _ body: () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for client in clients { group.addImmediateTask { await client.run() } }
        defer { group.cancelAll() }
        return try await body()
    }
}

/// `FailoverSyncStore.watchPrimary` as a lifecycle service, until the service group shuts down.
struct PrimaryWatchService: Service {
    let store: FailoverSyncStore
    func run() async throws {
        await cancelWhenGracefulShutdown { await store.watchPrimary() }
    }
}

/// Opens once; every `wait` before returns then, every one after at once.
final class Latch: Sendable {
    private let state = NIOLockedValueBox<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLockedValue { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLockedValue { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }
}

/// The Prometheus registry behind `/metrics`, bootstrapped once per process.
enum ServerMetrics {
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()
    /// A counter of `registry` (a counter made before the metrics system is bootstrapped would count nowhere).
    static func counter(_ label: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Counter {
        _ = registry
        return Counter(label: label, dimensions: dimensions)
    }
    static let pushedEvents = counter("journal_sync_events_stored_total")
    static let pulledEvents = counter("journal_sync_events_pulled_total")
    static let refusals = counter("journal_sync_refusals_total")
    static let overloaded = counter("journal_sync_overloaded_total")
    /// Group commits by how their users were read (SCALE.md §"Known users"): `known`, planned on what the server
    /// last committed, or `locked`, read under the row locks; and the known groups a moved head sent back.
    static let knownGroups = counter("journal_sync_group_commits_total", [("path", "known")])
    static let lockedGroups = counter("journal_sync_group_commits_total", [("path", "locked")])
    static let headMoved = counter("journal_sync_known_head_moved_total")
}

/// The HTTP API (docs/sync-openapi.yaml). Every refusal is a `SyncFailure`: status, code and a message
/// naming what and why; nothing is stored when a request is refused.
struct SyncRoutes: Sendable {
    let store: any SyncStore
    let logger: Logger
    /// Which sync requests are taken in, and which are answered 429 (SCALE.md §"Back-pressure").
    var admission = Admission()
    /// The database's URL without its password, named by `/health/ready` when it does not answer.
    var database = "the database"
    /// Open once the schema is migrated (`SchemaGateMiddleware`); routes built around a ready store pass `.open`.
    var schema = SchemaGate.open

    func router() -> Router<SyncRequestContext> {
        _ = ServerMetrics.registry
        let router = Router(context: SyncRequestContext.self)
        router.add(middleware: RequestMetricsMiddleware())
        router.add(middleware: AccessLogMiddleware(logger: logger))
        router.add(middleware: FailureMiddleware())
        router.add(middleware: CanonicalPathMiddleware())
        router.add(middleware: SchemaGateMiddleware(gate: schema, database: database))
        router.add(middleware: BackPressureMiddleware(admission))
        // Live: the process answers. Ready: and its database does (SYNC.md §"Health"). `/health` is `/health/ready`.
        router.get("health/live") { _, _ in "ok\n" }
        router.get("health/ready") { _, _ in try await ready() }
        router.get("health") { _, _ in try await ready() }
        router.get("metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                     body: .init(byteBuffer: ByteBuffer(bytes: ServerMetrics.registry.emitToBuffer())))
        }
        router.post("v1/journals/:user/events") { request, context in try await push(request, context) }
        router.get("v1/journals/:user/events") { request, context in try await pull(request, context) }
        router.get("v1/journals/:user/report") { request, context in try await report(request, context) }
        router.get("v1/journals/:user/workouts/:workout/timeline") { request, context in try await timeline(request, context) }
        router.get("v1/whoami") { request, _ in
            let principal = try await authenticate(request).principal
            return json(["user": principal.user, "role": principal.role.rawValue])
        }
        router.get("v1/access-log") { request, context in try await accessLog(request, context) }
        return router
    }

    /// `ok` once the database answers `SELECT 1`; 503 naming it and why not otherwise.
    func ready() async throws -> String {
        do {
            try await store.ready()
            return "ok\n"
        } catch {
            throw SyncFailure(503, "database_unavailable", "not ready: \(database) does not answer (\(FleetIngest.databaseReason(error))); the server answers 503 until it does; retry after the Retry-After delay")
        }
    }

    // MARK: Authentication

    enum Access { case read, write }

    /// The caller's principal, allowed `access` to `user`'s journal, and the token it was found for; or a 401/403.
    /// `page`: an HTML page a browser opens, which may carry the token as `?token=` (SYNC.md §"Support pages in a
    /// browser").
    func authorize(_ request: Request, user: String, access: Access,
                   page: Bool = false) async throws -> (principal: Principal, token: String) {
        guard SyncProtocol.isValidUser(user) else {
            throw SyncFailure(400, "bad_user", "user \(user.debugDescription) is not a valid user id (1 to \(SyncProtocol.maximumUserLength) of A-Z a-z 0-9 . _ @ -)")
        }
        let (principal, token) = try await authenticate(request, access: access, page: page)
        switch principal.role {
        case .user where principal.user != user:
            throw SyncFailure(403, "forbidden", "this token belongs to user \(principal.user); it may not \(access == .read ? "read" : "write") user \(user)'s journal")
        case .support where access == .write:
            throw SyncFailure(403, "read_only", "support tokens are read-only; \(principal.user) may not write user \(user)'s journal")
        default:
            return (principal, token)
        }
    }

    /// `access` `.write`: the principal may be remembered from an earlier look-up (`SyncStore.authenticateForPush`); the
    /// push made with it is checked again when it commits.
    func authenticate(_ request: Request, access: Access = .read,
                      page: Bool = false) async throws -> (principal: Principal, token: String) {
        if page, request.headers[.authorization] == nil, let query = request.uri.queryParameters.get("token") {
            let token = String(query)
            guard let principal = try await store.authenticate(token: token) else {
                throw SyncFailure(401, "bad_token", "the token in ?token= is unknown or revoked; open the page with a current token (`journal-server token create --database URL --user USER` prints a new one)")
            }
            AccessLogMiddleware.caller?.user = principal.user
            return (principal, token)
        }
        let token = try bearerToken(request)
        guard let principal = try await (access == .write ? store.authenticateForPush(token: token) : store.authenticate(token: token)) else {
            throw SyncFailure.unknownToken
        }
        AccessLogMiddleware.caller?.user = principal.user
        return (principal, token)
    }

    /// The token of a request's `Authorization: Bearer TOKEN` header (401 when there is none, or another kind). The
    /// scheme's name is case-insensitive (RFC 9110 §11.1): `bearer TOKEN` is the same header.
    func bearerToken(_ request: Request) throws -> String {
        guard let header = request.headers[.authorization] else {
            throw SyncFailure(401, "missing_token", "no Authorization header; send `Authorization: Bearer TOKEN` (journal-server token create prints one)")
        }
        guard header.prefix(7).lowercased() == "bearer ", case let token = String(header.dropFirst(7)), !token.isEmpty else {
            throw SyncFailure(401, "bad_token", "the Authorization header is not `Bearer TOKEN`")
        }
        return token
    }

    // MARK: Push

    func push(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
        let user = Self.pathParameter("user", context)
        let (principal, token) = try await authorize(request, user: user, access: .write)
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: SyncProtocol.maximumBodyBytes)
        } catch let refusal as SyncFailure {
            throw refusal   // past a budget of the server's (429)
        } catch let timeout as BodyTimedOut {
            throw SyncFailure(408, "request_timeout", "\(timeout) (journal-server serve --body-timeout); nothing was stored; the connection is closed; send the whole body at once and retry")
        } catch {
            throw SyncFailure(413, "body_too_large", "the request body exceeds \(SyncProtocol.maximumBodyBytes) bytes; push at most \(SyncProtocol.maximumPushEvents) events per request, in several requests")
        }
        let events: [Event]
        do { events = try SyncBody.events(ofPush: Array(buffer: body)) } catch {
            throw SyncFailure(400, "malformed_body", error.message + "; nothing was stored")
        }
        guard events.count <= SyncProtocol.maximumPushEvents else {
            throw SyncFailure(413, "batch_too_large", "the push holds \(events.count) events, more than \(SyncProtocol.maximumPushEvents); split it; nothing was stored")
        }
        for (index, event) in events.enumerated() {
            if let violation = SchemaValidator.validate(event) {
                throw SyncFailure(422, "rule_violation", "events[\(index)] (id \(event.id)): \(violation.description); nothing was stored")
            }
        }
        let outcome = try await store.push(user: user, events: events, token: token)
        ServerMetrics.pushedEvents.increment(by: outcome.stored)
        logger.debug("push \(principal.user)→\(user): \(events.count) events, \(outcome.stored) new, cursor \(outcome.cursor)")
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes:
            SyncBody.pushAnswer(acknowledged: outcome.acknowledged, stored: outcome.stored, cursor: outcome.cursor))))
    }

    // MARK: Pull

    func pull(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
        let user = Self.pathParameter("user", context)
        let principal = try await authorize(request, user: user, access: .read).principal
        let afterText = request.uri.queryParameters.get("after") ?? "0"
        guard let cursor = SyncCursor(afterText) else {
            throw SyncFailure(400, "bad_cursor", "after=\(afterText.debugDescription) is not a cursor (0, or EPOCH-POSITION as a previous pull or push answered)")
        }
        var limit = SyncProtocol.maximumPullEvents
        if let limitText = request.uri.queryParameters.get("limit") {
            guard let value = Int(limitText), (1...SyncProtocol.maximumPullEvents).contains(value) else {
                throw SyncFailure(400, "bad_limit", "limit=\(limitText.debugDescription) is not a number from 1 to \(SyncProtocol.maximumPullEvents)")
            }
            limit = value
        }
        let page = try await store.pull(user: user, after: cursor, limit: limit)
        if principal.role == .support {
            try await store.logAccess(actor: principal.user, subject: user, action: "pull",
                                      detail: "after=\(cursor) events=\(page.lines.count) cursor=\(page.cursor)")
        }
        ServerMetrics.pulledEvents.increment(by: page.lines.count)
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: SyncBody.page(events: page.lines, cursor: page.cursor, more: page.more))))
    }

    // MARK: Support pages

    /// The user's HTML report (`journal report`'s page) from the server's copy, as of its latest event, each
    /// workout's name linking to its timeline page. Read-only; a support token's view is logged like a pull.
    func report(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
        let user = Self.pathParameter("user", context)
        let principal = try await authorize(request, user: user, access: .read, page: true).principal
        let (events, cursor) = try await syncedEvents(user: user)
        if principal.role == .support {
            try await store.logAccess(actor: principal.user, subject: user, action: "report",
                                      detail: "events=\(events.count) cursor=\(cursor)")
        }
        // Relative to /v1/journals/USER/report; a page opened with ?token= passes it on to the pages it links.
        let token = request.uri.queryParameters.get("token").map { "?token=" + Self.queryEscaped(String($0)) } ?? ""
        let html = HTMLReport.render(Self.analysis(events), title: "\(user) (journal-server)",
                                     workoutLink: { "workouts/\(Self.queryEscaped($0))/timeline\(token)" })
        return page(html)
    }

    /// One workout's timeline (`journal timeline --html`'s page) from the server's copy. Read-only; a support
    /// token's view is logged (`timeline`). An unknown workout is a 404 naming it.
    func timeline(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
        let user = Self.pathParameter("user", context)
        let workout = Self.pathParameter("workout", context)
        let principal = try await authorize(request, user: user, access: .read, page: true).principal
        let (events, cursor) = try await syncedEvents(user: user)
        let analysis = Self.analysis(events)
        guard let timeline = Timeline(workout: workout, events: events, exerciseName: analysis.exerciseName) else {
            throw SyncFailure(404, "unknown_workout", "user \(user)'s journal has no workout \(workout.debugDescription); the report (GET /v1/journals/\(user)/report) links the timeline of every finished workout")
        }
        if principal.role == .support {
            try await store.logAccess(actor: principal.user, subject: user, action: "timeline",
                                      detail: "workout=\(workout) events=\(events.count) cursor=\(cursor)")
        }
        return page(HTMLReport.timeline([timeline], analysis: analysis, title: "\(user) (journal-server)"))
    }

    /// The server's copy of `user`'s journal in the order and with the seq a synced device has, and its cursor.
    func syncedEvents(user: String) async throws -> (events: [Event], cursor: SyncCursor) {
        var lines: [[UInt8]] = []
        var cursor = SyncCursor.start
        while true {
            let page = try await store.pull(user: user, after: cursor, limit: SyncProtocol.maximumPullEvents)
            lines += page.lines
            cursor = page.cursor
            if !page.more { break }
        }
        var stored: [Event] = []
        for line in lines { stored.append(try EventCodec.decode(line)) }
        return (Merge.merge([], stored).events, cursor)
    }

    /// The analysis every view starts from, as of the journal's latest event.
    static func analysis(_ events: [Event]) -> Analysis {
        let asOf = events.max { $0.at < $1.at }?.at ?? Timestamp(epochMilliseconds: 0, offsetSeconds: 0)
        return Projections.analysis(events: events, asOf: asOf, context: .trainingDomain)
    }

    /// A path parameter (`:user`, `:workout`) as the client meant it: percent-decoded (RFC 3986 §2.1; the client and
    /// the report's links encode every reserved character). A malformed escape is kept as sent, and names nothing.
    static func pathParameter(_ name: String, _ context: SyncRequestContext) -> String {
        let raw = context.parameters.get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    /// A workout id or token inside a link: everything but A-Z a-z 0-9 - . _ ~ percent-encoded.
    static func queryEscaped(_ text: String) -> String { SyncProtocol.percentEncoded(text, keeping: SyncProtocol.unreserved) }

    /// An HTML page: never cached (it holds personal data), and no Referer leaves it (its address may hold a token).
    func page(_ html: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                                        HTTPField.Name("Referrer-Policy")!: "no-referrer"],
                 body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    // MARK: Access log

    func accessLog(_ request: Request, _ context: SyncRequestContext) async throws -> Response {
        let principal = try await authenticate(request).principal
        guard principal.role == .support else {
            throw SyncFailure(403, "forbidden", "only support tokens read the access log")
        }
        let subject = request.uri.queryParameters.get("user").map { String($0) }
        let entries = try await store.accessLog(subject: subject)
        return json(AccessLogAnswer(entries: entries.map { .init(at: $0.at, actor: $0.actor, subject: $0.subject, action: $0.action, detail: $0.detail) }))
    }

    func json(_ value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

struct AccessLogAnswer: Codable {
    struct Entry: Codable { var at, actor, subject, action, detail: String }
    var entries: [Entry]
}

/// Turns a `SyncFailure` into `{"error":{"code":…,"message":…}}` with its status; any other error
/// (PostgreSQL down, a damaged batch) into a 503/500 with its description, logged.
struct FailureMiddleware<Context: RequestContext>: RouterMiddleware {

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let failure as SyncFailure {
            ServerMetrics.refusals.increment()
            return Self.response(failure)
        } catch let error as any HTTPResponseError {
            throw error
        } catch let error as PSQLError {
            context.logger.error("database: \(String(reflecting: error))")
            return Self.response(SyncFailure(503, "database_unavailable", "the database did not complete the request (\(error.code)); nothing was acknowledged; retry"))
        } catch let error as any DatabaseUnavailable {
            context.logger.error("database: \(error)")
            return Self.response(SyncFailure(503, "database_unavailable", "the database did not complete the request: \(error); nothing was acknowledged; retry after the Retry-After delay"))
        } catch let error as PostgresTransactionError {
            context.logger.error("database: \(String(reflecting: error))")
            return Self.response(SyncFailure(503, "database_unavailable", "the database did not complete the transaction; nothing was acknowledged; retry"))
        } catch {
            context.logger.error("internal: \(error)")
            return Self.response(SyncFailure(500, "internal", "\(error); nothing was acknowledged"))
        }
    }

    static func response(_ failure: SyncFailure) -> Response {
        var out = Array(#"{"error":{"code":"#.utf8)
        JSONWriter.writeString(failure.code, into: &out)
        out += Array(#","message":"#.utf8)
        JSONWriter.writeString(failure.message, into: &out)
        out += Array("}}".utf8)
        var headers: HTTPFields = [.contentType: "application/json"]
        // 429: this server's own overload; 503: its database's. Both are retried after the delay (SYNC.md §"Refusals").
        if failure.status == 429 || failure.status == 503 { headers[.retryAfter] = "1" }
        if failure.status == 408 { headers[.connection] = "close" }
        return Response(status: .init(code: failure.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: out)))
    }
}
