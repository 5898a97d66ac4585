import Foundation
import JournalEvents
import JournalFile
import JournalSync
import Synchronization

/// `SyncStore` in this process's memory, with no database: users' journals, tokens and the access log, all lost when
/// the process ends. The routes are tested in-process against it (`RouteTests`), and the load generator's ceiling keeps
/// its events in it (`CeilingSyncStore`). It follows `PostgresSyncStore`'s rules: a push stores the ids it lacks, all or
/// nothing, and refuses an id stored or pushed with other content (409, 400); a pull returns the lines after a cursor
/// of the journal's epoch (410 otherwise, `SyncFailure.pullStart`); an erasure keeps what `AccountErasure` keeps, from
/// position 1 in a new epoch; tokens are kept by their hash and revoked, never deleted; the access log only grows.
public final class MemorySyncStore: SyncStore {
    struct Journal {
        /// Canonical lines, `seq` their position (1-based).
        var lines: [[UInt8]] = []
        /// Each stored id's position.
        var positions: [String: Int] = [:]
        var epoch: Int64 = 1
    }
    struct Token {
        var principal: Principal
        var live = true
    }
    struct State {
        var journals: [String: Journal] = [:]
        /// By `Tokens.hashHex`.
        var tokens: [String: Token] = [:]
        var accessLog: [AccessLogEntry] = []
    }
    private let state = Mutex(State())
    /// The time of an access-log line.
    let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) { self.now = now }

    public func migrate() async throws {}

    public func ready() async throws {}

    public func push(user: String, events: [Event]) async throws -> PushOutcome {
        try state.withLock { state in
            var journal = state.journals[user, default: Journal()]
            // The new events, each once; a stored id is compared with what is stored only when it is pushed again.
            var fresh: [Event] = []
            var freshIndex: [String: Int] = [:]
            for event in events {
                if let position = journal.positions[event.id] {
                    if try Merge.identity(EventCodec.decode(journal.lines[position - 1])) != Merge.identity(event) {
                        throw SyncFailure.idConflict(event.id, user: user)
                    }
                } else if let index = freshIndex[event.id] {
                    if Merge.identity(fresh[index]) != Merge.identity(event) { throw SyncFailure.duplicateID(event.id) }
                } else {
                    freshIndex[event.id] = fresh.count
                    fresh.append(event)
                }
            }
            if fresh.contains(where: AccountErasure.mayTrigger) {
                let stored = try journal.lines.map { try EventCodec.decode($0) }
                let all = stored + fresh
                if let start = AccountErasure.lastErasure(in: all), start >= stored.count {
                    journal = Journal(epoch: journal.epoch + 1)
                    fresh = Array(all[start...])
                }
            }
            for event in fresh {
                journal.lines.append(StoredBatch.line(event, position: Int64(journal.lines.count + 1)))
                journal.positions[event.id] = journal.lines.count
            }
            state.journals[user] = journal
            return PushOutcome(acknowledged: events.map(\.id), stored: freshIndex.count,
                               cursor: SyncCursor(epoch: journal.epoch, position: Int64(journal.lines.count)))
        }
    }

    public func pull(user: String, after cursor: SyncCursor, limit: Int) async throws -> PullPage {
        try state.withLock { state in
            let journal = state.journals[user]
            let after = Int(try SyncFailure.pullStart(after: cursor, user: user,
                                                      journal: journal.map { ($0.epoch, Int64($0.lines.count)) }))
            guard let journal else { return PullPage(lines: [], cursor: .start, more: false) }
            let end = min(after + limit, journal.lines.count)
            return PullPage(lines: Array(journal.lines[after..<end]), cursor: SyncCursor(epoch: journal.epoch, position: Int64(end)),
                            more: end < journal.lines.count)
        }
    }

    public func authenticate(token: String) async throws -> Principal? {
        state.withLock { state in state.tokens[Tokens.hashHex(token)].flatMap { $0.live ? $0.principal : nil } }
    }

    public func addToken(_ token: String, user: String, role: Role) async throws {
        state.withLock { $0.tokens[Tokens.hashHex(token)] = Token(principal: Principal(user: user, role: role)) }
    }

    public func revoke(token: String) async throws -> Bool {
        state.withLock { state in
            let hash = Tokens.hashHex(token)
            guard state.tokens[hash]?.live == true else { return false }
            state.tokens[hash]?.live = false
            return true
        }
    }

    public func revokeAll(user: String) async throws -> Int {
        state.withLock { state in
            var count = 0
            for (hash, token) in state.tokens where token.live && token.principal.user == user {
                state.tokens[hash]?.live = false
                count += 1
            }
            return count
        }
    }

    public func logAccess(actor: String, subject: String, action: String, detail: String) async throws {
        let at = Self.timestamp(now())
        state.withLock { $0.accessLog.append(AccessLogEntry(actor: actor, subject: subject, action: action, detail: detail, at: at)) }
    }

    public func accessLog(subject: String?) async throws -> [AccessLogEntry] {
        state.withLock { state in state.accessLog.filter { subject == nil || $0.subject == subject } }
    }

    /// UTC to the millisecond, as `PostgresSyncStore.accessLog` formats `journal_access_log.at`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
