import Hummingbird
import JournalEvents
import JournalSync
import NIOCore
import CoreMetrics
import Logging

/// The sync protocol's two routes (SYNC.md §"Protocol"): a push stores events, a pull returns those after a cursor.
extension SyncRoutes {
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
        if outcome.stored > 0 { changes.committed(user) }
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
        let wait = try Self.pullWait(request)
        // Watching starts before the read, so that a push committed between the read and the wait still wakes it.
        let watch = wait > 0 ? changes.watch(user) : nil
        defer { watch?.end() }
        var page = try await store.pull(user: user, after: cursor, limit: limit)
        if let watch, page.lines.isEmpty, await watch.wait(for: .seconds(wait)) {
            page = try await store.pull(user: user, after: cursor, limit: limit)
        }
        if principal.role == .support {
            try await store.logAccess(actor: principal.user, subject: user, action: "pull",
                                      detail: "after=\(cursor) events=\(page.lines.count) cursor=\(page.cursor)")
        }
        ServerMetrics.pulledEvents.increment(by: page.lines.count)
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: SyncBody.page(events: page.lines, cursor: page.cursor, more: page.more))))
    }

    /// A pull's `wait` in seconds (0 when absent), or `400 bad_wait`.
    static func pullWait(_ request: Request) throws -> Int {
        guard let text = request.uri.queryParameters.get("wait") else { return 0 }
        guard let seconds = Int(text), (0...SyncProtocol.maximumPullWaitSeconds).contains(seconds) else {
            throw SyncFailure(400, "bad_wait", "wait=\(text.debugDescription) is not a number of seconds from 0 to \(SyncProtocol.maximumPullWaitSeconds)")
        }
        return seconds
    }
}
