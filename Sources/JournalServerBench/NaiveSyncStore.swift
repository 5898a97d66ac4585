import JournalFile
import JournalEvents
import JournalServer
import JournalSync
import Logging
import NIOCore
import PostgresNIO

/// Which store the server runs on (SCALE-FIGURES.md §"Load"): the real one, or one of the peer designs that the load generator
/// measures it against in the same run.
public enum StoreDesign: String, Sendable, CaseIterable {
    /// `PostgresSyncStore`: each user's events in zstd blocks of the journal's own framing (SYNC.md §"Schema").
    case batches
    /// `NaiveSyncStore`: one JSONB row inserted per event, one transaction per request. For comparison only.
    case naive
    /// `CeilingSyncStore`: events in the server process's memory only, lost when it stops: the ceiling of any
    /// design on the machine. For comparison only.
    case memory

    /// The store of this design on `database` and the PostgreSQL clients it needs running: `makeSyncStore` for
    /// `batches` (and for every design on a multi-host URL); a peer on postgres-nio's default pool otherwise
    /// (SCALE.md §"Group commit": a pool of 10 is the batched design's). What `journal-server serve --store` runs.
    public func makeStore(_ database: DatabaseURL, logger: Logger,
                          deadline: Duration) -> (store: any SyncStore, clients: [PostgresClient]) {
        guard self != .batches, database.endpoints.count <= 1 else { return makeSyncStore(database, logger: logger, deadline: deadline) }
        let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        if self == .memory {
            logger.warning("store memory: events are kept in this process only and every one is lost when it stops; a peer for load measurements (SCALE.md), never a store for users")
            return (CeilingSyncStore(client: client, logger: logger), [client])
        }
        return (NaiveSyncStore(client: client, logger: logger), [client])
    }
}

/// A peer design of the load generator (SCALE-FIGURES.md §"Load"): its events are its own; its tokens and access log are the real
/// store's, `inner`, so that every design authenticates the same way.
public protocol PeerSyncStore: SyncStore {
    var inner: PostgresSyncStore { get }
}

extension PeerSyncStore {
    /// The real schema (tokens and access log); a peer with tables of its own adds them in its own `migrate`.
    public func migrate() async throws { try await inner.migrate() }
    public func authenticate(token: String) async throws -> Principal? { try await inner.authenticate(token: token) }
    /// The real store's remembered principals (`KnownTokens`): the naive peer checks the token in its push's
    /// transaction, as the real store does in its group's; the ceiling checks nothing (it stores nothing for users).
    public func authenticateForPush(token: String) async throws -> Principal? { try await inner.authenticateForPush(token: token) }
    public func addToken(_ token: String, user: String, role: Role) async throws { try await inner.addToken(token, user: user, role: role) }
    public func revoke(token: String) async throws -> Bool { try await inner.revoke(token: token) }
    public func revokeAll(user: String) async throws -> Int { try await inner.revokeAll(user: user) }
    public func logAccess(actor: String, subject: String, action: String, detail: String) async throws {
        try await inner.logAccess(actor: actor, subject: subject, action: action, detail: detail)
    }
    public func accessLog(subject: String?) async throws -> [AccessLogEntry] { try await inner.accessLog(subject: subject) }
    public func ready() async throws { try await inner.ready() }
}

/// The naive peer design (SCALE-FIGURES.md §"The naive peer"): a push is one transaction inserting one JSONB row per
/// event (`ON CONFLICT DO NOTHING` on the event id, so retries stay idempotent); a pull selects rows after a
/// position. Tokens and the access log are the real store's. Its table lives beside the real schema and is
/// made by `migrate`; it is never used unless the server is started with `--store naive`. It does not erase (SYNC.md
/// §"Account erasure"): a `data.erased` is stored like any event, and nothing before it is removed.
public struct NaiveSyncStore: PeerSyncStore {
    public let inner: PostgresSyncStore

    public init(client: PostgresClient, logger: Logger) { inner = PostgresSyncStore(client: client, logger: logger) }

    var client: PostgresClient { inner.client }
    var logger: Logger { inner.logger }

    public func migrate() async throws {
        try await inner.migrate()
        try await client.query("""
            CREATE TABLE IF NOT EXISTS naive_events (
                position bigserial PRIMARY KEY,
                user_id text NOT NULL,
                id text NOT NULL,
                body jsonb NOT NULL,
                UNIQUE (user_id, id)
            )
            """, logger: logger)
        // Its pulls read a user's rows after a position: an index for them, so that the peer is naive in its
        // design (a row and a transaction per event), not in its indexes (SCALE-FIGURES.md §"The naive peer").
        try await client.query("CREATE INDEX IF NOT EXISTS naive_events_user_position ON naive_events (user_id, position)", logger: logger)
    }

    public func push(user: String, events: [Event]) async throws -> PushOutcome {
        try await push(user: user, events: events, token: "")
    }

    /// Its transaction checks `token` first, as the real store's group does (`journal_check_tokens`).
    public func push(user: String, events: [Event], token: String) async throws -> PushOutcome {
        let logger = self.logger
        do {
            return try await insert(user: user, events: events, token: token, logger: logger)
        } catch where PostgresSyncStore.isDeadToken(error) {
            inner.knownTokens.forget([token])
            throw SyncFailure.unknownToken
        }
    }

    private func insert(user: String, events: [Event], token: String, logger: Logger) async throws -> PushOutcome {
        try await client.withTransaction(logger: logger) { connection in
            if !token.isEmpty { try await connection.run(Statements.CheckTokens(tokens: [token]), logger: logger) }
            var stored = 0
            var head: Int64 = 0
            for event in events {
                let body = String(decoding: EventCodec.encode(event), as: UTF8.self)
                let rows = try await connection.query("""
                    INSERT INTO naive_events (user_id, id, body) VALUES (\(user), \(event.id), \(body)::jsonb)
                    ON CONFLICT (user_id, id) DO NOTHING RETURNING position
                    """, logger: logger)
                for try await position in rows.decode(Int64.self) { stored += 1; head = max(head, position) }
            }
            return PushOutcome(acknowledged: events.map(\.id), stored: stored, cursor: SyncCursor(epoch: 1, position: head))
        }
    }

    public func pull(user: String, after cursor: SyncCursor, limit: Int) async throws -> PullPage {
        var lines: [[UInt8]] = []
        var last = cursor.isStart ? 0 : cursor.position
        let rows = try await client.query("""
            SELECT position, body::text FROM naive_events WHERE user_id = \(user) AND position > \(last)
            ORDER BY position LIMIT \(limit + 1)
            """, logger: logger)
        var more = false
        for try await (position, body) in rows.decode((Int64, String).self) {
            guard lines.count < limit else { more = true; continue }
            lines.append(StoredBatch.line(try EventCodec.decode(Array(body.utf8)), position: position))
            last = position
        }
        return PullPage(lines: lines, cursor: last == 0 ? .start : SyncCursor(epoch: 1, position: last), more: more)
    }
}
