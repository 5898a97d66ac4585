import JournalFile
import JournalEvents
import JournalSync
import Logging
import NIOCore
import PostgresNIO
import CoreMetrics

/// `SyncStore` on PostgreSQL (SYNC.md §"Schema"). Every value reaches SQL as a bound parameter
/// (PostgresNIO turns each `\(value)` in a query into `$n`). A push is one transaction that holds the
/// user's row lock, so pushes of one user are serialised and positions have no gaps; it returns
/// only after COMMIT, so whatever it acknowledges is durable.
public struct PostgresSyncStore: SyncStore {
    public let client: PostgresClient
    package let logger: Logger
    /// How long a push, pull or token look-up waits for PostgreSQL before it is refused with 503 (the pool waits
    /// for a connection indefinitely while the database is down): each waits in a group queue whose `Expiry`
    /// answers it then.
    let deadline: Duration
    /// Concurrent pushes of different users, committed together (SCALE.md §"Group commit").
    let groups: GroupCommit
    /// Concurrent token look-ups and pulls, each kind answered by one query per group (SCALE.md §"Group reads").
    let tokenReads: GroupRead<String, Principal?>
    let pullReads: GroupRead<PullKey, StoredPull?>
    /// What this server last committed for each user, so that their next push reads nothing first (SCALE.md
    /// §"Known users").
    let knownUsers: KnownUsers
    /// The principals of the tokens this server looked up, which a push may use without a look-up because its commit
    /// checks its token again (SCALE.md §"Tokens checked at commit").
    package let knownTokens: KnownTokens
    /// PostgreSQL connections per server (SCALE.md §"Group commit"): the 4 group committers', the 2 token and 2 pull
    /// group readers' (one short query each), and 2 for the rest. More would only make PostgreSQL's backends
    /// contend for 2 cores.
    public static let poolSize = 10

    /// The configuration of a pool this store runs on: `database`'s, with `poolSize` connections.
    static func clientConfiguration(_ database: DatabaseURL) -> PostgresClient.Configuration {
        var configuration = database.clientConfiguration
        configuration.options.maximumConnections = poolSize
        return configuration
    }

    public init(client: PostgresClient, logger: Logger, deadline: Duration = .seconds(10)) {
        self.client = client
        self.logger = logger
        self.deadline = deadline
        groups = GroupCommit(commitDeadline: deadline, logger: logger)
        knownUsers = KnownUsers()
        knownTokens = KnownTokens()
        tokenReads = GroupRead(deadline: deadline) { tokens in try await Self.principals(of: tokens, client: client, logger: logger) }
        pullReads = GroupRead(deadline: deadline) { keys in try await Self.storedPulls(keys, client: client, logger: logger) }
    }

    // MARK: Migrations

    public func migrate() async throws {
        try await migrate(through: Migrations.all.last!.version)
    }

    /// Applies the pending migrations up to version `last` (tests: the schema of an earlier server).
    func migrate(through last: Int) async throws {
        try await client.withTransaction(logger: logger) { connection in
            // One migrator at a time (two servers starting together).
            try await connection.query(Migrations.Bookkeeping.lock, logger: logger)
            try await connection.query(Migrations.Bookkeeping.createTable, logger: logger)
            var applied = Set<Int>()
            for try await version in try await connection.query(Migrations.Bookkeeping.applied, logger: logger).decode(Int.self) {
                applied.insert(version)
            }
            for migration in Migrations.all where !applied.contains(migration.version) && migration.version <= last {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(Migrations.Bookkeeping.recordApplied(migration.version), logger: logger)
                logger.info("applied migration \(migration.version): \(migration.name)")
            }
        }
    }

    // MARK: Push and pull

    public func push(user: String, events: [Event]) async throws -> PushOutcome {
        try await push(user: user, events: events, token: "")
    }

    /// The push's group checks that `token` is live before it writes anything ("": nothing to check).
    public func push(user: String, events: [Event], token: String) async throws -> PushOutcome {
        do {
            return try await groups.push(user: user, events: events, token: token) { group in try await self.commitGroup(group) }
        } catch let error as PostgresTransactionError {
            // A refusal inside the transaction (rolled back): report the refusal itself.
            if let failure = error.closureError as? SyncFailure { throw failure }
            throw error
        }
    }

    /// One group commit (SCALE.md §"Group commit"): the group's pushes, each of a different user, in one
    /// transaction of a fixed number of statements (whatever the group's size) that holds every one of their
    /// users' row locks. A push that is refused (409, 400) writes nothing and does not disturb the others.
    ///
    /// When this server knows every user of the group (`KnownUsers`) and no push may erase, the group is planned on
    /// what it knows and written in one statement that checks each user's head first (`commitKnownGroup`); when a
    /// head differs, that statement writes nothing and the group runs again here, reading its users under the lock.
    ///
    /// Each push's token is checked in the same round trip, before anything is written (migration 10); when one was
    /// revoked since the server looked it up, `commitAfterDeadToken` refuses its push and commits the others.
    private func commitGroup(_ group: [GroupCommit.Push]) async throws -> [Result<PushOutcome, SyncFailure>] {
        do {
            return try await commitGroup(group, checkingTokens: group.map(\.token))
        } catch where Self.isDeadToken(error) {
            return try await commitAfterDeadToken(group)
        }
    }

    /// A group of which a push's token was found dead at commit (nothing written): every token of the group looked up
    /// afresh and forgotten if dead; those pushes refused (`SyncFailure.unknownToken`), the others committed under
    /// their locks, their tokens just found live.
    private func commitAfterDeadToken(_ group: [GroupCommit.Push]) async throws -> [Result<PushOutcome, SyncFailure>] {
        let tokens = group.map(\.token).filter { !$0.isEmpty }
        let live = Set(zip(tokens, try await Self.principals(of: tokens, client: client, logger: logger)).compactMap { $1 == nil ? nil : $0 })
        knownTokens.forget(tokens.filter { !live.contains($0) })
        let isLive = { (push: GroupCommit.Push) in push.token.isEmpty || live.contains(push.token) }
        let kept = group.filter(isLive)
        var outcomes = kept.isEmpty ? [] : try await commitGroup(kept, checkingTokens: [])[...]
        if kept.count < group.count {
            logger.info("group commit: \(group.count - kept.count) of \(group.count) pushes refused 401, their token revoked since this server looked it up")
        }
        return group.map { push in isLive(push) ? outcomes.removeFirst() : .failure(SyncFailure.unknownToken) }
    }

    /// `journal_check_tokens`' SQLSTATE (migration 10): a push's token is unknown or revoked.
    static let deadTokenState = "WJ401"

    /// Whether `error` is a group's token check that failed, from the known statement or inside the locked transaction.
    package static func isDeadToken(_ error: any Error) -> Bool {
        let database = (error as? PSQLError) ?? ((error as? PostgresTransactionError)?.closureError as? PSQLError)
        return database?.serverInfo?[.sqlState] == deadTokenState
    }

    /// `tokens`: one a push, which the group checks before it writes (`journal_check_tokens`); none to check nothing.
    private func commitGroup(_ group: [GroupCommit.Push], checkingTokens tokens: [String]) async throws -> [Result<PushOutcome, SyncFailure>] {
        let users = group.map(\.user).sorted()
        let known = knownUsers.take(users)
        if known.count == users.count, !group.contains(where: { $0.events.contains(where: AccountErasure.mayTrigger) }) {
            do {
                let outcomes = try await commitKnownGroup(group, users: users, states: known, checkingTokens: tokens)
                ServerMetrics.knownGroups.increment()
                return outcomes
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.headMovedState {
                ServerMetrics.headMoved.increment()
                logger.debug("group commit: \(databaseReason(error)); the group is read again under its locks")
            }
        }
        let outcomes = try await commitLockedGroup(group, users: users, checkingTokens: tokens)
        ServerMetrics.lockedGroups.increment()
        return outcomes
    }

    /// `journal_write_known_group`'s SQLSTATE when a user's head or epoch is not what this server knew (migration 7).
    static let headMovedState = "WJ409"

    /// The group read under its users' row locks (`journal_lock_group`), planned, written (`journal_write_group`)
    /// and committed: four round trips, five when the pushes' tokens are checked first (`CheckTokens`).
    private func commitLockedGroup(_ group: [GroupCommit.Push], users: [String],
                                   checkingTokens tokens: [String]) async throws -> [Result<PushOutcome, SyncFailure>] {
        let logger = self.logger
        let sealed = Int32(StoredBatch.targetEvents)
        let (outcomes, committed) = try await client.withTransaction(logger: logger) { connection in
            if tokens.contains(where: { !$0.isEmpty }) { try await connection.run(Statements.CheckTokens(tokens: tokens), logger: logger) }
            var states: [String: UserState] = [:]
            for try await (user, head, epoch, last, count, ranges, ids, block) in try await connection.execute(
                Statements.LockGroup(users: users, sealedCount: sealed), logger: logger) {
                if let head, let epoch {
                    states[user] = UserState(head: head, epoch: epoch)
                } else if let last, let count {
                    states[user, default: UserState()].batches.append(
                        StoredRow(last: last, count: count, ids: try ids.map { try StoredBatch.ids(ofFrame: Array(buffer: $0)) },
                                  ranges: ranges.flatMap(IDRanges.init(text:)), block: block))
                }
            }
            var writes = Statements.WriteGroup(sealedCount: sealed)
            let planned = try await plan(group, states: states, connection, into: &writes)
            // The heads that moved, in user order (an erased user's head was set by its erasure).
            for user in users {
                guard let after = planned.committed[user], after.head != states[user]?.head ?? 0 else { continue }
                writes.headUsers.append(user)
                writes.heads.append(after.head)
            }
            if !writes.isEmpty { try await connection.run(writes, logger: logger) }
            return planned
        }
        knownUsers.keep(committed)
        return outcomes
    }

    /// The group planned on what this server knows of its users and written in one statement, with no
    /// transaction block around it (`journal_write_known_group`, migration 7): one round trip. The statement first
    /// sets each user's head where it still is what the plan started from, and otherwise fails with
    /// `headMovedState` before anything is written. What the plan read besides the known states (sealed batches'
    /// ids, the stored copies of pushed events) was read without a lock; a write after it moved the head, so the
    /// statement fails then too.
    private func commitKnownGroup(_ group: [GroupCommit.Push], users: [String], states: [String: UserState],
                                  checkingTokens tokens: [String]) async throws -> [Result<PushOutcome, SyncFailure>] {
        let logger = self.logger
        let (outcomes, committed) = try await client.withConnection { connection in
            var writes = Statements.WriteGroup(sealedCount: Int32(StoredBatch.targetEvents))
            let planned = try await plan(group, states: states, connection, into: &writes)
            try await connection.run(Statements.WriteKnownGroup(
                tokens: tokens, users: users, expectedHeads: users.map { states[$0]?.head ?? 0 }, epochs: users.map { states[$0]?.epoch ?? 0 },
                heads: users.map { planned.committed[$0]?.head ?? states[$0]?.head ?? 0 }, writes: writes), logger: logger)
            return planned
        }
        knownUsers.keep(committed)
        return outcomes
    }

    /// Every push of a group planned (`plan`) on its user's state: each push's outcome or refusal in the group's
    /// order, and each user's state once the group commits (the state it started from for a refused push; none for an
    /// erased user, who is read again next time).
    private func plan(_ group: [GroupCommit.Push], states: [String: UserState], _ connection: PostgresConnection,
                      into writes: inout Statements.WriteGroup) async throws
        -> (outcomes: [Result<PushOutcome, SyncFailure>], committed: [String: UserState]) {
        var outcomes: [Result<PushOutcome, SyncFailure>] = []
        var committed: [String: UserState] = [:]
        for push in group {
            let state = states[push.user] ?? UserState()
            do {
                let (outcome, after) = try await plan(push, state: state, connection, into: &writes)
                outcomes.append(.success(outcome))
                committed[push.user] = after
            } catch let failure as SyncFailure {
                outcomes.append(.failure(failure))
                committed[push.user] = state
            }
        }
        return (outcomes, committed)
    }

    /// A user's row and batches as a group transaction read them (under the row lock).
    struct UserState: Sendable {
        var head: Int64 = 0, epoch: Int64 = 1
        /// In position order.
        var batches: [StoredRow] = []

        /// About what keeping it costs (`KnownUsers`): the open blocks, the ids and the rows.
        var bytes: Int {
            batches.reduce(64) { $0 + 64 + ($1.block?.readableBytes ?? 0) + ($1.ids?.count ?? 0) * 32 }
        }
    }

    struct StoredRow: Sendable {
        var last: Int64
        var count: Int
        /// nil for a sealed batch with id ranges (`Statements.LockGroup`).
        var ids: [String]?
        /// nil for a batch without them: a push then looks for its ids in it whatever they are.
        var ranges: IDRanges?
        /// The block of an open batch (fewer than `StoredBatch.targetEvents` events); nil for a sealed one.
        var block: ByteBuffer?
        var first: Int64 { last - Int64(count) + 1 }
    }

    /// One push within a group: refuses it (throwing `SyncFailure`, before anything of it is written), or adds
    /// its new batches to `writes` and answers what the push will have stored once the group commits, with the user's
    /// state then (its new head included: the caller writes heads from these states; nil after an erasure).
    ///
    /// A push's new events become one batch after the user's last, together with the last open batches that
    /// `StoredBatch.openBatchesRewritten` says they merge with (none, most of the time: then no stored block is
    /// decompressed or recompressed). Once the user's open events and the new ones reach
    /// `StoredBatch.targetEvents`, every open batch and the new events are rewritten together: into sealed batches
    /// of `targetEvents` (compressed hard) and one open batch with the rest.
    private func plan(_ push: GroupCommit.Push, state: UserState, _ connection: PostgresConnection,
                      into writes: inout Statements.WriteGroup) async throws -> (PushOutcome, UserState?) {
        let user = push.user, events = push.events
        // The pushed ids already stored, and the batch (by its last position) that holds each. Only the batches whose
        // id ranges may hold a pushed id are looked into (every batch without ranges is): a live workout's next event
        // is past every range, and nothing is hashed but the push's own ids. Open batches' ids are at hand; sealed
        // ones' are read.
        let pushed = Set(events.map(\.id))
        let parsed = events.compactMap { EventID($0.id) }   // a batch with ranges holds no other id
        var batchOf: [String: Int64] = [:]
        var unread: [Int64] = []
        for batch in state.batches {
            if let ranges = batch.ranges, !parsed.contains(where: ranges.mayHold) { continue }
            if let ids = batch.ids {
                for id in ids where pushed.contains(id) { batchOf[id] = batch.last }
            } else {
                unread.append(batch.last)
            }
        }
        if !unread.isEmpty {
            for try await (last, ids) in try await connection.execute(Statements.BatchIDs(user: user, lasts: unread), logger: logger) {
                for id in try StoredBatch.ids(ofFrame: Array(buffer: ids)) where pushed.contains(id) { batchOf[id] = last }
            }
        }
        // Split the push into events already stored (they must be identical) and new ones. An id pushed twice must
        // carry the same content both times; the second copy is dropped.
        var fresh: [Event] = []
        var freshIndex: [String: Int] = [:]
        var toCompare: [Int64: [Event]] = [:]
        for event in events {
            if let batch = batchOf[event.id] {
                toCompare[batch, default: []].append(event)
            } else if let index = freshIndex[event.id] {
                if Merge.identity(fresh[index]) != Merge.identity(event) {
                    throw SyncFailure.duplicateID(event.id)
                }
            } else {
                freshIndex[event.id] = fresh.count
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
                throw SyncFailure.idConflict(event.id, user: user)
            }
        }
        if let erasure = try await erasure(connection, user: user, fresh: fresh, head: state.head) {
            return (PushOutcome(acknowledged: events.map(\.id), stored: erasure.stored, cursor: erasure.cursor), nil)
        }
        var after = state
        var head = state.head
        if !fresh.isEmpty {
            // Open batches are the user's last ones, in position order.
            let open = state.batches.filter { $0.count < StoredBatch.targetEvents }
            let rewritten = open.suffix(StoredBatch.openBatchesRewritten(open: open.map(\.count), fresh: fresh.count))
            var lines: [[UInt8]] = [], ids: [String] = []
            var first = head + 1
            if let from = rewritten.first?.first {
                for batch in rewritten {
                    guard let block = batch.block, let batchIDs = batch.ids else {
                        throw StoredBatch.Damaged(reason: "open batch \(batch.last) of user \(user) read without its block or ids")
                    }
                    lines += try StoredBatch.lines(ofBlock: Array(buffer: block))
                    ids += batchIDs
                }
                first = from
                writes.compacted.append(user)
                writes.compactedFrom.append(from)
                after.batches.removeLast(rewritten.count)
            }
            for event in fresh {
                head += 1
                lines.append(StoredBatch.line(event, position: head))
                ids.append(event.id)
            }
            for range in StoredBatch.batches(of: lines.count) {
                let rowIDs = Array(ids[range])
                let row = StoredBatch.row(first: first + Int64(range.lowerBound), lines: Array(lines[range]), ids: rowIDs)
                writes.batches.add(user: user, row)
                after.batches.append(StoredRow(row, ids: rowIDs, block: writes.batches.blocks[writes.batches.blocks.count - 1]))
            }
            after.head = head
        }
        return (PushOutcome(acknowledged: events.map(\.id), stored: fresh.count, cursor: SyncCursor(epoch: state.epoch, position: head)), after)
    }

    /// Account erasure (SYNC.md §"Account erasure"): a push's new events that erase (`AccountErasure.lastErasure` in
    /// what is stored followed by them, the rule devices apply too) delete every event stored before the last of them
    /// and every event of the push before it, whatever their `at`. What remains (that erasure and the push's events
    /// after it) is stored from position 1 in a new epoch, so every device's cursor becomes unknown and it pulls
    /// afresh. Returns nil when the push erases nothing.
    private func erasure(_ connection: PostgresConnection, user: String, fresh: [Event], head: Int64) async throws -> (stored: Int, cursor: SyncCursor)? {
        guard fresh.contains(where: AccountErasure.mayTrigger) else { return nil }
        var all: [Event] = []
        for try await block in try await connection.query(Statements.OneUser.blocks(of: user), logger: logger).decode(ByteBuffer.self) {
            for line in try StoredBatch.lines(ofBlock: Array(buffer: block)) { all.append(try EventCodec.decode(line)) }
        }
        let stored = all.count
        all += fresh
        guard let start = AccountErasure.lastErasure(in: all), start >= stored else { return nil }
        let erasure = all[start], kept = Array(all[start...])
        try await connection.query(Statements.OneUser.deleteBatches(of: user), logger: logger)
        var writes = Statements.WriteGroup(sealedCount: Int32(StoredBatch.targetEvents))
        for row in StoredBatch.rows(kept) { writes.batches.add(user: user, row) }
        if !writes.isEmpty { try await connection.run(writes, logger: logger) }
        var epoch: Int64 = 0
        for try await e in try await connection.query(Statements.OneUser.startEpoch(of: user, head: Int64(kept.count)), logger: logger).decode(Int64.self) {
            epoch = e
        }
        logger.notice("erased user \(user) by \(erasure.type) \(erasure.id): \(all.count - kept.count) events deleted, \(kept.count) kept (epoch \(epoch))")
        return (fresh.count, SyncCursor(epoch: epoch, position: Int64(kept.count)))
    }

    private func blockLines(_ connection: PostgresConnection, user: String, last: Int64) async throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for try await block in try await connection.query(Statements.OneUser.block(of: user, endingAt: last), logger: logger).decode(ByteBuffer.self) {
            lines = try StoredBatch.lines(ofBlock: Array(buffer: block))
        }
        return lines
    }

    public func pull(user: String, after cursor: SyncCursor, limit: Int) async throws -> PullPage {
        try await pullPage(user: user, after: cursor, limit: limit)
    }

    /// A pull's key in a group of pulls: the user and the position after which it reads.
    struct PullKey: Sendable {
        var user: String
        var after: Int64
    }

    /// What one pull read: the user's head and epoch, and the blocks of the batches ending after its position, in
    /// position order.
    struct StoredPull: Sendable {
        var head: Int64
        var epoch: Int64
        var batches: [(first: Int64, block: ByteBuffer)] = []
    }

    /// Every pull of a group in one round trip (`Statements.Pulls`), answered in the keys' order; nil for a pull
    /// whose user the server holds no journal for.
    static func storedPulls(_ keys: [PullKey], client: PostgresClient, logger: Logger) async throws -> [StoredPull?] {
        var pulls = [StoredPull?](repeating: nil, count: keys.count)
        let rows = try await client.execute(Statements.Pulls(users: keys.map(\.user), after: keys.map(\.after)), logger: logger)
        for try await (index, head, epoch, first, block) in rows {
            let position = Int(index) - 1
            guard pulls.indices.contains(position) else { continue }
            if pulls[position] == nil { pulls[position] = StoredPull(head: head, epoch: epoch) }
            if let first, let block { pulls[position]?.batches.append((first, block)) }
        }
        return pulls
    }

    private func pullPage(user: String, after cursor: SyncCursor, limit: Int) async throws -> PullPage {
        // One round trip, shared with the pulls that wait beside it: the user's row and the batches ending after the
        // cursor's position. A cursor that turns out to be unknown discards what was read.
        let stored = try await pullReads.read(PullKey(user: user, after: cursor.isStart ? 0 : cursor.position))
        let after = try SyncFailure.pullStart(after: cursor, user: user, journal: stored.map { ($0.epoch, $0.head) })
        guard let stored else { return PullPage(lines: [], cursor: .start, more: false) }
        var lines: [[UInt8]] = []
        var last = after
        for (first, block) in stored.batches where lines.count < limit {
            for (offset, line) in try StoredBatch.lines(ofBlock: Array(buffer: block)).enumerated() {
                let position = first + Int64(offset)
                guard position > after, lines.count < limit else { continue }
                lines.append(line)
                last = position
            }
        }
        return PullPage(lines: lines, cursor: SyncCursor(epoch: stored.epoch, position: last), more: last < stored.head)
    }

    /// Whether PostgreSQL answers `SELECT 1` within 2 s (`GET /health/ready`); throws why not.
    public func ready() async throws {
        let result = await Deadline.result(of: { [client, logger] in
            for try await _ in try await client.query("SELECT 1", logger: logger) {}
        }, within: .seconds(2))
        try result.get()
    }
}

extension PostgresSyncStore.StoredRow {
    /// A row this server writes, as `Statements.LockGroup` would read it back: its id ranges, and for an open batch its
    /// ids and block (`block`: the row's block as the write binds it, shared, not copied); a sealed one has its ids
    /// only when it has no ranges.
    init(_ row: StoredBatch.Row, ids: [String], block: ByteBuffer) {
        last = row.last
        count = row.eventCount
        let open = row.eventCount < StoredBatch.targetEvents
        self.ids = open || row.ranges == nil ? ids : nil
        ranges = row.ranges
        self.block = open ? block : nil
    }
}
