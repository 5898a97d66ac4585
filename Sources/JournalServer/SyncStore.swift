import JournalEvents
import JournalSync

/// Who a token belongs to (SYNC.md §"Tokens").
public enum Role: String, Sendable, CaseIterable {
    /// Reads and writes its own user's journal only.
    case user
    /// Restores any user's journal, read-only; every access is appended to the access log.
    case support
}

public struct Principal: Equatable, Sendable {
    public var user: String
    public var role: Role
    public init(user: String, role: Role) { self.user = user; self.role = role }
}

/// What a push stored.
public struct PushOutcome: Equatable, Sendable {
    /// Every event id of the push, in the order sent: each is now stored (committed).
    public var acknowledged: [String]
    /// How many of them were new to the server (the rest it had already).
    public var stored: Int
    /// The server's position after the push.
    public var cursor: SyncCursor
    public init(acknowledged: [String], stored: Int, cursor: SyncCursor) {
        self.acknowledged = acknowledged
        self.stored = stored
        self.cursor = cursor
    }
}

/// One page of "events after a cursor".
public struct PullPage: Sendable {
    /// Canonical event lines (`seq` is the server position), in server order.
    public var lines: [[UInt8]]
    public var cursor: SyncCursor
    public var more: Bool
    public init(lines: [[UInt8]], cursor: SyncCursor, more: Bool) { self.lines = lines; self.cursor = cursor; self.more = more }
}

/// One line of the support access log.
public struct AccessLogEntry: Equatable, Sendable {
    public var actor: String
    public var subject: String
    public var action: String
    public var detail: String
    public var at: String
}

/// A refusal the client can act on: an HTTP status, a short code, and a message naming what and why.
public struct SyncFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var status: Int
    public var code: String
    public var message: String
    public init(_ status: Int, _ code: String, _ message: String) { self.status = status; self.code = code; self.message = message }
    public var description: String { "\(status) \(code): \(message)" }

    /// A bearer token that is unknown or revoked (401): from the request's look-up, or from the commit of a push
    /// whose token was remembered and has been revoked since (`SyncStore.push(user:events:token:)`).
    public static let unknownToken = SyncFailure(401, "bad_token", "the token is unknown or revoked; send a current one (`journal-server token create --database URL --user USER` prints a new one)")

    /// An id pushed twice in one push with different content (400): nothing of the push is stored.
    static func duplicateID(_ id: String) -> SyncFailure {
        SyncFailure(400, "duplicate_id", "event id \(id) appears twice in this push with different content; nothing was stored")
    }

    /// An id already stored for `user` with different content (409): nothing of the push is stored.
    static func idConflict(_ id: String, user: String) -> SyncFailure {
        SyncFailure(409, "id_conflict", "event id \(id) is already stored for user \(user) with different content (two devices with the same device tag?); nothing was stored")
    }

    /// The position a pull after `cursor` starts from in `user`'s journal (`journal`: its epoch and head, nil when
    /// the server holds none), or `410 unknown_cursor` naming why the cursor is not one of this journal's (SYNC.md
    /// §"Protocol"): every store applies this one rule.
    static func pullStart(after cursor: SyncCursor, user: String, journal: (epoch: Int64, head: Int64)?) throws -> Int64 {
        if cursor.isStart { return 0 }
        guard let journal else {
            throw SyncFailure(410, "unknown_cursor", "cursor \(cursor) is unknown: the server holds no journal for user \(user); pull from cursor 0")
        }
        guard cursor.epoch == journal.epoch else {
            throw SyncFailure(410, "unknown_cursor", "cursor \(cursor) belongs to an earlier copy of user \(user)'s journal (now epoch \(journal.epoch), erased since); pull from cursor 0")
        }
        guard cursor.position <= journal.head else {
            throw SyncFailure(410, "unknown_cursor", "cursor \(cursor) is ahead of the server's journal for user \(user) (it holds \(journal.head) events); pull from cursor 0")
        }
        return cursor.position
    }
}

/// An error of the database's, not of the request: answered `503 database_unavailable` with `Retry-After`.
protocol DatabaseUnavailable: Error, CustomStringConvertible {}

/// Where the server keeps users' journals, tokens and the access log. `PostgresSyncStore` is the server's, tested
/// against a real PostgreSQL (SYNC.md §"Schema"), with `FailoverSyncStore` over a primary and its standbys;
/// `MemorySyncStore` keeps everything in the process, with no database, for in-process route tests.
public protocol SyncStore: Sendable {
    /// Applies the forward-only migrations that are not applied yet.
    func migrate() async throws
    /// Stores the events the server lacks, all or nothing, and returns once they are committed.
    /// Throws `SyncFailure` (409) when an id is stored with different content.
    func push(user: String, events: [Event]) async throws -> PushOutcome
    /// Events after `cursor`, at most `limit`. Throws `SyncFailure` for a cursor the server never gave.
    func pull(user: String, after cursor: SyncCursor, limit: Int) async throws -> PullPage
    /// The principal of a live (not revoked) token, or nil.
    func authenticate(token: String) async throws -> Principal?
    /// The principal of `token` for a push made with it (`push(user:events:token:)`), or nil. It may be what an
    /// earlier look-up found, without asking the database again: that push's commit checks that the token is still
    /// live, so a token revoked since writes nothing.
    func authenticateForPush(token: String) async throws -> Principal?
    /// `push(user:events:)` made with `token`: stored only if the token is live when the push commits, otherwise
    /// `SyncFailure.unknownToken` and nothing stored.
    func push(user: String, events: [Event], token: String) async throws -> PushOutcome
    /// Stores the hash of `token` for `user` with `role`.
    func addToken(_ token: String, user: String, role: Role) async throws
    /// Revokes one token; returns whether it existed and was live.
    func revoke(token: String) async throws -> Bool
    /// Revokes every token of `user`; returns how many.
    func revokeAll(user: String) async throws -> Int
    /// Appends one line to the access log (which nobody can change afterwards).
    func logAccess(actor: String, subject: String, action: String, detail: String) async throws
    /// The access log about `subject` (every subject when nil), oldest first.
    func accessLog(subject: String?) async throws -> [AccessLogEntry]
    /// Returns when the database answers, or throws why it does not (`GET /health/ready`).
    func ready() async throws
}

extension SyncStore {
    /// A store that checks nothing at commit looks every token up afresh.
    public func authenticateForPush(token: String) async throws -> Principal? { try await authenticate(token: token) }
    /// The token was looked up afresh (`authenticateForPush`) just before.
    public func push(user: String, events: [Event], token: String) async throws -> PushOutcome {
        try await push(user: user, events: events)
    }

    /// Every line of `user`'s journal in the server's order, pulled page by page from the start, and the cursor
    /// after the last (the support pages, and tests that read one node's copy).
    public func wholeJournal(user: String) async throws -> (lines: [[UInt8]], cursor: SyncCursor) {
        var lines: [[UInt8]] = []
        var cursor = SyncCursor.start
        while true {
            let page = try await pull(user: user, after: cursor, limit: SyncProtocol.maximumPullEvents)
            lines += page.lines
            cursor = page.cursor
            if !page.more { return (lines, cursor) }
        }
    }
}
