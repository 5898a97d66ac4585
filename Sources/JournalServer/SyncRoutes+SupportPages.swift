import Foundation
import HTTPTypes
import Hummingbird
import JournalEvents
import JournalFile
import JournalInterchange
import JournalProjections
import JournalSync
import NIOCore
import TrainingDomain

/// What support reads (SYNC.md §"Support pages in a browser", §"Access log"): a user's report and workout timelines
/// from the server's copy, and the access log of every support read.
extension SyncRoutes {
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
        guard let timeline = Timeline(workout: workout, events: events, exerciseName: analysis.exerciseName, isAssisted: analysis.ledger.isAssisted) else {
            throw SyncFailure(404, "unknown_workout", "user \(user)'s journal has no workout \(workout.debugDescription); the report (GET /v1/journals/\(user)/report) links the timeline of every finished workout")
        }
        if principal.role == .support {
            try await store.logAccess(actor: principal.user, subject: user, action: "timeline",
                                      detail: "workout=\(workout) events=\(events.count) cursor=\(cursor)")
        }
        return page(HTMLReport.timeline([timeline], analysis: analysis, title: "\(user) (journal-server)"))
    }

    /// The server's copy of `user`'s journal (from the replica when one is configured) in the order and with the seq a synced device has, and its cursor.
    func syncedEvents(user: String) async throws -> (events: [Event], cursor: SyncCursor) {
        let (lines, cursor) = try await (pageReads ?? store).wholeJournal(user: user)
        var stored: [Event] = []
        for line in lines { stored.append(try EventCodec.decode(line)) }
        return (Merge.merge([], stored).events, cursor)
    }

    /// The analysis every view starts from, as of the journal's latest event.
    static func analysis(_ events: [Event]) -> Analysis {
        let asOf = events.max { $0.at < $1.at }?.at ?? Timestamp(epochMilliseconds: 0, offsetSeconds: 0)
        return Projections.analysis(events: events, asOf: asOf, context: .trainingDomain)
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
}

struct AccessLogAnswer: Codable {
    struct Entry: Codable { var at, actor, subject, action, detail: String }
    var entries: [Entry]
}
