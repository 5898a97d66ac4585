import JournalFile
import JournalEvents
import JournalSync
import Logging
import NIOCore
import PostgresNIO

/// `SyncStore` on PostgreSQL (SYNC.md §"Schema"). Every value reaches SQL as a bound parameter
/// (PostgresNIO turns each `\(value)` in a query into `$n`). A push is one transaction that holds the
/// user's row lock, so pushes of one user are serialised and positions have no gaps; it returns
/// only after COMMIT, so whatever it acknowledges is durable.
public struct PostgresSyncStore: SyncStore {
    public let client: PostgresClient
    let logger: Logger
    /// How long a request waits for PostgreSQL before it is refused with 503 (the pool waits for a
    /// connection indefinitely while the database is down).
    let deadline: Duration

    public init(client: PostgresClient, logger: Logger, deadline: Duration = .seconds(10)) {
        self.client = client
        self.logger = logger
        self.deadline = deadline
    }

    /// Runs `body`, or throws 503 once `deadline` passed (the body is cancelled then; whatever it did not
    /// commit is rolled back, and nothing is acknowledged).
    func withinDeadline<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let deadline = self.deadline
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: deadline)
                throw SyncFailure(503, "database_unavailable", "the database did not answer within \(deadline); nothing was acknowledged; retry")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    // MARK: Migrations

    public func migrate() async throws {
        try await client.withTransaction(logger: logger) { connection in
            // One migrator at a time (two servers starting together).
            try await connection.query("SELECT pg_advisory_xact_lock(\(Migrations.lockKey))", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS journal_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())", logger: logger)
            var applied = Set<Int>()
            for try await version in try await connection.query("SELECT version FROM journal_schema_migrations", logger: logger).decode(Int.self) {
                applied.insert(version)
            }
            for migration in Migrations.all where !applied.contains(migration.version) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO journal_schema_migrations (version) VALUES (\(migration.version))", logger: logger)
                logger.info("applied migration \(migration.version): \(migration.name)")
            }
        }
    }

    // MARK: Push and pull

    public func push(user: String, events: [Event]) async throws -> PushOutcome {
        do {
            return try await withinDeadline { try await pushTransaction(user: user, events: events) }
        } catch let error as PostgresTransactionError {
            // A refusal inside the transaction (rolled back): report the refusal itself.
            if let failure = error.closureError as? SyncFailure { throw failure }
            throw error
        }
    }

    private func pushTransaction(user: String, events: [Event]) async throws -> PushOutcome {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            try await connection.query("INSERT INTO journal_users (user_id) VALUES (\(user)) ON CONFLICT (user_id) DO NOTHING", logger: logger)
            var head: Int64 = 0, epoch: Int64 = 0, erasedBefore: Int64?
            for try await (h, e, erased) in try await connection.query(
                "SELECT head, epoch, erased_before_ms FROM journal_users WHERE user_id = \(user) FOR UPDATE", logger: logger
            ).decode((Int64, Int64, Int64?).self) {
                head = h; epoch = e; erasedBefore = erased
            }
            // Every stored id, and the batch (by its last position) that holds it.
            var batchOf: [String: Int64] = [:]
            var tail: (last: Int64, count: Int)?
            let batches = try await connection.query(
                "SELECT last_position, event_count, ids FROM journal_batches WHERE user_id = \(user) ORDER BY last_position", logger: logger)
            for try await (last, count, ids) in batches.decode((Int64, Int, ByteBuffer).self) {
                for id in try StoredBatch.ids(ofFrame: Array(buffer: ids)) { batchOf[id] = last }
                tail = (last, count)
            }
            // Split the push into events already stored (they must be identical) and new ones.
            var fresh: [Event] = []
            var freshIdentity: [String: [UInt8]] = [:]
            var toCompare: [Int64: [Event]] = [:]
            for event in events {
                if let erasedBefore, event.at.epochMilliseconds < erasedBefore {
                    continue   // erased with the account: acknowledged, never stored again
                }
                if let batch = batchOf[event.id] {
                    toCompare[batch, default: []].append(event)
                } else if let seen = freshIdentity[event.id] {
                    if seen != Merge.identity(event) {
                        throw SyncFailure(400, "duplicate_id", "event id \(event.id) appears twice in this push with different content; nothing was stored")
                    }
                } else {
                    freshIdentity[event.id] = Merge.identity(event)
                    fresh.append(event)
                }
            }
            for (batch, candidates) in toCompare {
                var stored: [String: [UInt8]] = [:]
                for line in try await blockLines(connection, user: user, last: batch) {
                    let event = try EventCodec.decode(line)
                    stored[event.id] = Merge.identity(event)
                }
                for event in candidates where stored[event.id] != Merge.identity(event) {
                    throw SyncFailure(409, "id_conflict", "event id \(event.id) is already stored for user \(user) with different content (two devices with the same device tag?); nothing was stored")
                }
            }
            if let erasure = try await erasure(connection, user: user, fresh: fresh, head: head) {
                return PushOutcome(acknowledged: events.map(\.id), stored: erasure.stored, cursor: erasure.cursor)
            }
            if !fresh.isEmpty {
                // The growing tail batch absorbs the new events up to the target; the rest start new batches.
                var pending: [[UInt8]] = []
                var firstPosition = head + 1
                if let tail, tail.count < StoredBatch.targetEvents {
                    pending = try await blockLines(connection, user: user, last: tail.last)
                    firstPosition = tail.last - Int64(tail.count) + 1
                    try await connection.query("DELETE FROM journal_batches WHERE user_id = \(user) AND last_position = \(tail.last)", logger: logger)
                }
                var pendingIDs: [String] = []
                for line in pending { pendingIDs.append(try EventCodec.decode(line).id) }
                var position = head
                for event in fresh {
                    position += 1
                    pending.append(StoredBatch.line(event, position: position))
                    pendingIDs.append(event.id)
                    if pending.count == StoredBatch.targetEvents {
                        try await insertBatch(connection, user: user, first: firstPosition, lines: pending, ids: pendingIDs)
                        firstPosition += Int64(pending.count)
                        pending = []; pendingIDs = []
                    }
                }
                if !pending.isEmpty {
                    try await insertBatch(connection, user: user, first: firstPosition, lines: pending, ids: pendingIDs)
                }
                head = position
                try await connection.query("UPDATE journal_users SET head = \(head) WHERE user_id = \(user)", logger: logger)
            }
            return PushOutcome(acknowledged: events.map(\.id), stored: fresh.count, cursor: SyncCursor(epoch: epoch, position: head))
        }
    }

    /// Account erasure (SYNC.md §"Account erasure"): a pushed `data.cleared` that follows an `account.deleted`
    /// or `data.erased` (stored or pushed before it) deletes every stored event timed before it. What remains
    /// (the `data.cleared` and what came after) is stored again from position 1 in a new epoch, so every
    /// device's cursor becomes unknown and it pulls afresh; events timed before the erasure are never stored
    /// again. Returns nil when the push erases nothing.
    private func erasure(_ connection: PostgresConnection, user: String, fresh: [Event], head: Int64) async throws -> (stored: Int, cursor: SyncCursor)? {
        guard let clearedIndex = fresh.lastIndex(where: { $0.type == "data.cleared" }) else { return nil }
        var all: [Event] = []
        for try await block in try await connection.query(
            "SELECT block FROM journal_batches WHERE user_id = \(user) ORDER BY last_position", logger: logger).decode(ByteBuffer.self) {
            for line in try StoredBatch.lines(ofBlock: Array(buffer: block)) { all.append(try EventCodec.decode(line)) }
        }
        all += fresh
        let cleared = fresh[clearedIndex]
        let deletions: Set<String> = ["account.deleted", "data.erased"]
        guard all.contains(where: { deletions.contains($0.type) && $0.at <= cleared.at }) else { return nil }
        let kept = all.filter { $0.at >= cleared.at }
        try await connection.query("DELETE FROM journal_batches WHERE user_id = \(user)", logger: logger)
        for row in StoredBatch.rows(kept) { try await insert(connection, user: user, row) }
        var epoch: Int64 = 0
        for try await e in try await connection.query("""
            UPDATE journal_users SET epoch = epoch + 1, head = \(Int64(kept.count)), erased_before_ms = \(cleared.at.epochMilliseconds)
            WHERE user_id = \(user) RETURNING epoch
            """, logger: logger).decode(Int64.self) { epoch = e }
        logger.notice("erased user \(user): \(all.count - kept.count) events deleted, \(kept.count) kept (epoch \(epoch))")
        return (fresh.count, SyncCursor(epoch: epoch, position: Int64(kept.count)))
    }

    private func insertBatch(_ connection: PostgresConnection, user: String, first: Int64, lines: [[UInt8]], ids: [String]) async throws {
        try await insert(connection, user: user, StoredBatch.Row(first: first, eventCount: lines.count,
                                                                 ids: StoredBatch.idsFrame(ids), block: StoredBatch.block(lines)))
    }

    private func insert(_ connection: PostgresConnection, user: String, _ row: StoredBatch.Row) async throws {
        let block = ByteBuffer(bytes: row.block), idsFrame = ByteBuffer(bytes: row.ids)
        try await connection.query("""
            INSERT INTO journal_batches (user_id, first_position, last_position, event_count, ids, block)
            VALUES (\(user), \(row.first), \(row.last), \(row.eventCount), \(idsFrame), \(block))
            """, logger: logger)
    }

    private func blockLines(_ connection: PostgresConnection, user: String, last: Int64) async throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for try await block in try await connection.query(
            "SELECT block FROM journal_batches WHERE user_id = \(user) AND last_position = \(last)", logger: logger).decode(ByteBuffer.self) {
            lines = try StoredBatch.lines(ofBlock: Array(buffer: block))
        }
        return lines
    }

    public func pull(user: String, after cursor: SyncCursor, limit: Int) async throws -> PullPage {
        try await withinDeadline { try await pullPage(user: user, after: cursor, limit: limit) }
    }

    private func pullPage(user: String, after cursor: SyncCursor, limit: Int) async throws -> PullPage {
        let logger = self.logger
        return try await client.withConnection { connection in
            var head: Int64 = 0, epoch: Int64 = 0, found = false
            for try await (h, e) in try await connection.query("SELECT head, epoch FROM journal_users WHERE user_id = \(user)", logger: logger).decode((Int64, Int64).self) {
                head = h; epoch = e; found = true
            }
            guard found else {
                if cursor.isStart { return PullPage(lines: [], cursor: .start, more: false) }
                throw SyncFailure(410, "unknown_cursor", "cursor \(cursor) is unknown: the server holds no journal for user \(user); pull from cursor 0")
            }
            let after: Int64
            if cursor.isStart {
                after = 0
            } else if cursor.epoch != epoch {
                throw SyncFailure(410, "unknown_cursor", "cursor \(cursor) belongs to an earlier copy of user \(user)'s journal (now epoch \(epoch), erased since); pull from cursor 0")
            } else if cursor.position > head {
                throw SyncFailure(410, "unknown_cursor", "cursor \(cursor) is ahead of the server's journal for user \(user) (it holds \(head) events); pull from cursor 0")
            } else {
                after = cursor.position
            }
            var lines: [[UInt8]] = []
            var last = after
            let rows = try await connection.query("""
                SELECT first_position, block FROM journal_batches
                WHERE user_id = \(user) AND last_position > \(after) ORDER BY last_position
                """, logger: logger)
            for try await (first, block) in rows.decode((Int64, ByteBuffer).self) {
                guard lines.count < limit else { continue }
                for (offset, line) in try StoredBatch.lines(ofBlock: Array(buffer: block)).enumerated() {
                    let position = first + Int64(offset)
                    guard position > after, lines.count < limit else { continue }
                    lines.append(line)
                    last = position
                }
            }
            return PullPage(lines: lines, cursor: SyncCursor(epoch: epoch, position: last), more: last < head)
        }
    }

    // MARK: Tokens and the access log

    public func authenticate(token: String) async throws -> Principal? {
        try await withinDeadline { try await lookUp(token: token) }
    }

    private func lookUp(token: String) async throws -> Principal? {
        let rows = try await client.query("""
            SELECT user_id, role FROM journal_tokens
            WHERE token_hash = sha256(convert_to(\(token), 'UTF8')) AND revoked_at IS NULL
            """, logger: logger)
        for try await (user, role) in rows.decode((String, String).self) {
            if let role = Role(rawValue: role) { return Principal(user: user, role: role) }
        }
        return nil
    }

    public func addToken(_ token: String, user: String, role: Role) async throws {
        try await client.query("""
            INSERT INTO journal_tokens (token_hash, user_id, role) VALUES (sha256(convert_to(\(token), 'UTF8')), \(user), \(role.rawValue))
            """, logger: logger)
    }

    public func revoke(token: String) async throws -> Bool {
        var count = 0
        for try await _ in try await client.query("""
            UPDATE journal_tokens SET revoked_at = now()
            WHERE token_hash = sha256(convert_to(\(token), 'UTF8')) AND revoked_at IS NULL RETURNING user_id
            """, logger: logger).decode(String.self) { count += 1 }
        return count > 0
    }

    public func revokeAll(user: String) async throws -> Int {
        var count = 0
        for try await _ in try await client.query(
            "UPDATE journal_tokens SET revoked_at = now() WHERE user_id = \(user) AND revoked_at IS NULL RETURNING user_id", logger: logger).decode(String.self) {
            count += 1
        }
        return count
    }

    public func logAccess(actor: String, subject: String, action: String, detail: String) async throws {
        try await client.query("""
            INSERT INTO journal_access_log (actor, subject, action, detail) VALUES (\(actor), \(subject), \(action), \(detail))
            """, logger: logger)
    }

    public func accessLog(subject: String?) async throws -> [AccessLogEntry] {
        var entries: [AccessLogEntry] = []
        let rows = try await client.query("""
            SELECT actor, subject, action, detail, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            FROM journal_access_log WHERE \(subject) IS NULL OR subject = \(subject) ORDER BY id
            """, logger: logger)
        for try await (actor, subject, action, detail, at) in rows.decode((String, String, String, String, String).self) {
            entries.append(AccessLogEntry(actor: actor, subject: subject, action: action, detail: detail, at: at))
        }
        return entries
    }
}
