import Foundation
import HTTPTypes
import Hummingbird
import JournalSync
import Logging
import NIOCore
import Prometheus

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
    /// Where the support pages read journals: a replica's store (`serve --read-database`), or nil for `store`.
    var pageReads: (any SyncStore)? = nil
    /// Wakes the pulls that wait for a user's next push when one commits here (SYNC.md §"Waiting for new events").
    var changes = JournalChanges()
    /// Checks the app's JWTs (`serve --jwt-jwks`); nil: the server's own tokens only.
    var appTokens: AppTokenVerifier? = nil

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
            throw SyncFailure(503, "database_unavailable", "not ready: \(database) does not answer (\(databaseReason(error))); the server answers 503 until it does; retry after the Retry-After delay")
        }
    }

    /// A path parameter (`:user`, `:workout`) as the client meant it: percent-decoded (RFC 3986 §2.1; the client and
    /// the report's links encode every reserved character). A malformed escape is kept as sent, and names nothing.
    static func pathParameter(_ name: String, _ context: SyncRequestContext) -> String {
        let raw = context.parameters.get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    /// A JSON answer (`200`), its keys sorted.
    func json(_ value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
