import Logging
import NIOCore
import PostgresNIO

extension PostgresConnection {
    /// Runs a prepared statement to its end, ignoring its rows (none, or a function's one void row).
    package func run<Statement: PostgresPreparedStatement>(_ statement: Statement, logger: Logger) async throws where Statement.Row == () {
        let rows: AsyncThrowingMapSequence<PostgresRowSequence, ()> = try await execute(statement, logger: logger)
        for try await _ in rows {}
    }
}

/// The hot queries as prepared statements (SCALE.md §"Group commit"): each is parsed and planned once per
/// connection, then only bound and executed. Every value is a bound parameter (`$n`). Here: those of the journal tables
/// (`journal_users`, `journal_batches`); `journal_tokens`' are with the rest of its SQL (`PostgresSyncStore+Tokens.swift`).
///
/// Every statement that reads or writes a group's rows looks each key up by itself (`CROSS JOIN LATERAL (…
/// OFFSET 0)` for reads; for the group functions' writes since migration 9, a join to the arrays that the functions'
/// planner settings, `GroupSQL.planOnlyProbes`, make a nested loop of index probes): one index probe per key, in the
/// one partition that holds it, whatever the tables hold. Written as a join or with `= ANY`, PostgreSQL 15 planned
/// hash joins and sequential scans of every partition once the tables held a few thousand users (it costs a
/// parameterised scan of a partitioned table as if every partition were probed), so each group's cost grew with
/// every user the server had: 3.3 ms for 50 token look-ups among 6,448 tokens, 11 ms for 50 pulls among 17,822
/// batches (SCALE.md §"Group reads"). `OFFSET 0` keeps the planner from flattening the subquery back into a join.
package enum Statements {
    /// A statement bound to a group's users ($1) and the size of a sealed batch ($2).
    protocol UsersAndSealedCount: PostgresPreparedStatement {
        var users: [String] { get }
        var sealedCount: Int32 { get }
    }
    /// A group of pulls (`GroupRead`) in one round trip: for the pull at index i (1-based, `WITH ORDINALITY`) of
    /// the users and positions, its user's head and epoch and the batches ending after its position; no row for
    /// a pull whose user is unknown.
    struct Pulls: PostgresPreparedStatement {
        static let sql = """
            SELECT p.i, u.head, u.epoch, b.first_position, b.block
            FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS p(user_id, after_position, i)
            CROSS JOIN LATERAL (SELECT head, epoch FROM journal_users WHERE user_id = p.user_id OFFSET 0) u
            LEFT JOIN LATERAL (SELECT first_position, last_position, block FROM journal_batches
                               WHERE user_id = p.user_id AND last_position > p.after_position OFFSET 0) b ON true
            ORDER BY p.i, b.last_position
            """
        typealias Row = (Int64, Int64, Int64, Int64?, ByteBuffer?)
        var users: [String]
        var after: [Int64]
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(users); bindings.append(after)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// A group's users created if new, locked and read in one call (`journal_lock_group`, migrations 5, 6 and 12), in
    /// the order given (user order, so that two groups never wait on each other in opposite orders): first every user's
    /// row (head, epoch; the batch columns NULL), then every user's batches in position order (the user
    /// columns NULL) with its id ranges (`IDRanges`), the ids frame and block of an open (unsealed) batch, which a
    /// compaction rewrites, and the ids frame of a sealed one only when it has no ranges (stored before migration 4).
    /// A push reads the other sealed ids frames it needs with `BatchIDs`.
    struct LockGroup: UsersAndSealedCount {
        static let sql = "SELECT * FROM journal_lock_group($1::text[], $2)"
        typealias Row = (String, Int64?, Int64?, Int64?, Int?, String?, ByteBuffer?, ByteBuffer?)
        var users: [String]
        var sealedCount: Int32
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// The ids frames of one user's batches ending at the given positions.
    struct BatchIDs: PostgresPreparedStatement {
        static let sql = "SELECT last_position, ids FROM journal_batches WHERE user_id = $1 AND last_position = ANY($2::bigint[])"
        typealias Row = (Int64, ByteBuffer)
        var user: String
        var lasts: [Int64]
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(user); bindings.append(lasts)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// New batches, column by column, as `WriteGroup` binds them (`journal_write_group` inserts them).
    struct NewBatches {
        var users: [String] = [], firsts: [Int64] = [], lasts: [Int64] = [], counts: [Int32] = []
        var ids: [ByteBuffer] = [], blocks: [ByteBuffer] = []
        /// "" for none (NULL): postgres-nio binds no array of optionals, and a batch's ranges are never empty.
        var idRanges: [String] = []
        var isEmpty: Bool { users.isEmpty }

        mutating func add(user: String, first: Int64, lines: [[UInt8]], ids eventIDs: [String]) {
            add(user: user, StoredBatch.row(first: first, lines: lines, ids: eventIDs))
        }

        mutating func add(user: String, _ row: StoredBatch.Row) {
            users.append(user)
            firsts.append(row.first)
            lasts.append(row.last)
            counts.append(Int32(row.eventCount))
            ids.append(ByteBuffer(bytes: row.ids))
            blocks.append(ByteBuffer(bytes: row.block))
            idRanges.append(row.idRanges ?? "")
        }
    }

    /// A group's writes in one call (`journal_write_group`, migration 8): the open batches of the users it compacts
    /// deleted from their positions on, its new batches inserted, its users' new heads set (one primary-key update
    /// each).
    struct WriteGroup: PostgresPreparedStatement {
        static let sql = """
            SELECT journal_write_group($1::text[], $2::bigint[], $3, $4::text[], $5::bigint[], $6::bigint[], $7::integer[],
                                       $8::bytea[], $9::bytea[], $10::text[], $11::text[], $12::bigint[])
            """
        typealias Row = ()
        var sealedCount: Int32
        /// Users whose last open batches are rewritten (deleted here, their events in `batches`), and the position
        /// each one's rewritten batches start from.
        var compacted: [String] = [], compactedFrom: [Int64] = []
        var batches = NewBatches()
        var headUsers: [String] = [], heads: [Int64] = []
        var isEmpty: Bool { compacted.isEmpty && batches.isEmpty && headUsers.isEmpty }

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(compacted); bindings.append(compactedFrom); bindings.append(sealedCount)
            bindings.append(batches.users); bindings.append(batches.firsts); bindings.append(batches.lasts)
            bindings.append(batches.counts); bindings.append(batches.ids); bindings.append(batches.blocks)
            bindings.append(batches.idRanges)
            bindings.append(headUsers); bindings.append(heads)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }
}

extension Statements {
    /// A group planned on what the server knew of its users (`KnownUsers`), written in one call outside any
    /// transaction block (`journal_write_known_group`, migrations 7 and 8): each user's head set where its head and epoch
    /// are still the expected ones, in the order given (user order, as `LockGroup` locks them), else SQLSTATE
    /// `PostgresSyncStore.headMovedState` and nothing written; then `writes`' deletes and inserts
    /// (`journal_write_group`, its heads unused).
    ///
    /// Since migration 10 the pushes' tokens are checked first (`journal_write_known_group_with_tokens`): one token a
    /// push, in the group's order, bound as its `Tokens.hashHex` (migration 11), "" for none to check; a dead one fails the group with SQLSTATE
    /// `PostgresSyncStore.deadTokenState` before anything is written.
    struct WriteKnownGroup: PostgresPreparedStatement {
        static let sql = """
            SELECT journal_write_known_group_with_tokens($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[],
                                                         $6::text[], $7::bigint[], $8, $9::text[], $10::bigint[],
                                                         $11::bigint[], $12::integer[], $13::bytea[], $14::bytea[], $15::text[])
            """
        typealias Row = ()
        var tokens: [String]
        var users: [String]
        var expectedHeads: [Int64]
        var epochs: [Int64]
        var heads: [Int64]
        var writes: WriteGroup

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(tokens.map(Tokens.hashHex))
            bindings.append(users); bindings.append(expectedHeads); bindings.append(epochs); bindings.append(heads)
            bindings.append(writes.compacted); bindings.append(writes.compactedFrom); bindings.append(writes.sealedCount)
            let batches = writes.batches
            bindings.append(batches.users); bindings.append(batches.firsts); bindings.append(batches.lasts)
            bindings.append(batches.counts); bindings.append(batches.ids); bindings.append(batches.blocks)
            bindings.append(batches.idRanges)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }
}

extension Statements {
    /// The fleet jobs' reads of the journal tables (`FleetRunner`, `AtRestSize`; SCALE.md §"Fleet jobs"): whole tables
    /// or ranges of users, outside the sync path, so plain queries rather than prepared statements.
    enum FleetReads {
        static func userCount() -> PostgresQuery { "SELECT count(*) FROM journal_users" }

        /// (user, head) of the users after `after` in user id order, at most `limit`.
        static func users(after: String, limit: Int) -> PostgresQuery {
            "SELECT user_id, head FROM journal_users WHERE user_id > \(after) ORDER BY user_id LIMIT \(limit)"
        }

        /// Every batch of the users from `first` through `last`, by user and position: (user, first, last, count, ids,
        /// block, id ranges).
        static func batches(from first: String, through last: String) -> PostgresQuery {
            """
            SELECT user_id, first_position, last_position, event_count, ids, block, id_ranges FROM journal_batches
            WHERE user_id >= \(first) AND user_id <= \(last) ORDER BY user_id, last_position
            """
        }

        /// What `AtRestSize.bytes(of:)` sums.
        static func totalRelationSize(of table: String) -> PostgresQuery {
            """
            SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
            WHERE c.relname = \(table) OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = \(table)::regclass)
            """
        }

        /// (users, events) the server holds.
        static func usersAndEvents() -> PostgresQuery { "SELECT count(*)::bigint, coalesce(sum(head), 0)::bigint FROM journal_users" }
    }
}

extension Statements {
    /// One user's rows outside the group paths: the account erasure's rewrite (SYNC.md §"Account erasure") and the
    /// read of one stored block.
    enum OneUser {
        /// Every block of `user`, in position order.
        static func blocks(of user: String) -> PostgresQuery {
            "SELECT block FROM journal_batches WHERE user_id = \(user) ORDER BY last_position"
        }

        /// The block of `user`'s batch ending at position `last`.
        static func block(of user: String, endingAt last: Int64) -> PostgresQuery {
            "SELECT block FROM journal_batches WHERE user_id = \(user) AND last_position = \(last)"
        }

        static func deleteBatches(of user: String) -> PostgresQuery { "DELETE FROM journal_batches WHERE user_id = \(user)" }

        /// A new epoch holding `head` events; returns the epoch.
        static func startEpoch(of user: String, head: Int64) -> PostgresQuery {
            "UPDATE journal_users SET epoch = epoch + 1, head = \(head) WHERE user_id = \(user) RETURNING epoch"
        }
    }
}

extension Statements.UsersAndSealedCount {
    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(users); bindings.append(sealedCount)
        return bindings
    }
}
