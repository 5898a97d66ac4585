import Hummingbird
import HTTPTypes
import JournalEvents
import NIOCore
import PostgresNIO
import CoreMetrics

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
