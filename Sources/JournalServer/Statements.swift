import Logging
import NIOCore
import PostgresNIO

extension PostgresConnection {
    /// Runs a prepared statement to its end, ignoring its rows (none, or `journal_set_heads`'s one void).
    func run<Statement: PostgresPreparedStatement>(_ statement: Statement, logger: Logger) async throws where Statement.Row == () {
        let rows: AsyncThrowingMapSequence<PostgresRowSequence, ()> = try await execute(statement, logger: logger)
        for try await _ in rows {}
    }
}

/// The hot queries as prepared statements (SCALE.md §"Group commit"): each is parsed and planned once per
/// connection, then only bound and executed. Every value is a bound parameter (`$n`).
///
/// Every statement that reads or writes a group's rows looks each key up by itself (`CROSS JOIN LATERAL (…
/// OFFSET 0)`, or a loop in `journal_set_heads`): one index probe per key, in the one partition that holds it,
/// whatever the tables hold. Written as a join or with `= ANY`, PostgreSQL 15 planned hash joins and sequential
/// scans of every partition once the tables held a few thousand users (it costs a parameterised scan of a
/// partitioned table as if every partition were probed), so each group's cost grew with every user the server
/// had: 3.3 ms for 50 token look-ups among 6,448 tokens, 11 ms for 50 pulls among 17,822 batches (SCALE.md
/// §"Group reads"). `OFFSET 0` keeps the planner from flattening the subquery back into a join.
enum Statements {
    /// A statement bound to a group's users ($1) and the size of a sealed batch ($2).
    protocol UsersAndSealedCount: PostgresPreparedStatement {
        var users: [String] { get }
        var sealedCount: Int32 { get }
    }
    /// The principals of a group of tokens (`GroupRead`): one row per live token, with the token it answers.
    struct TokenPrincipals: PostgresPreparedStatement {
        static let sql = """
            SELECT t.token, k.user_id, k.role FROM unnest($1::text[]) AS t(token)
            CROSS JOIN LATERAL (SELECT user_id, role FROM journal_tokens
                                WHERE token_hash = sha256(convert_to(t.token, 'UTF8')) AND revoked_at IS NULL OFFSET 0) k
            """
        typealias Row = (String, String, String)
        var tokens: [String]
        func makeBindings() -> PostgresBindings { var bindings = PostgresBindings(); bindings.append(tokens); return bindings }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
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

    /// A group's users exist (in user order, so that two groups never wait on each other in opposite orders).
    struct EnsureUsers: PostgresPreparedStatement {
        static let sql = "INSERT INTO journal_users (user_id) SELECT unnest($1::text[]) ORDER BY 1 ON CONFLICT (user_id) DO NOTHING"
        typealias Row = ()
        var users: [String]
        func makeBindings() -> PostgresBindings { var bindings = PostgresBindings(); bindings.append(users); return bindings }
        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    /// Locks a group's users' rows, in the order given (user order), and reads them.
    struct LockUsers: PostgresPreparedStatement {
        static let sql = """
            SELECT u.user_id, u.head, u.epoch, u.erased_before_ms FROM unnest($1::text[]) AS k(user_id)
            CROSS JOIN LATERAL (SELECT user_id, head, epoch, erased_before_ms FROM journal_users
                                WHERE user_id = k.user_id FOR UPDATE) u
            """
        typealias Row = (String, Int64, Int64, Int64?)
        var users: [String]
        func makeBindings() -> PostgresBindings { var bindings = PostgresBindings(); bindings.append(users); return bindings }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// A group's users' batches in position order: each one's id ranges (`IDRanges`), the ids frame and block of
    /// each open (unsealed) batch, which a compaction rewrites, and the ids frame of a sealed one only when it has no
    /// ranges (written before migration 4). A push reads the other sealed ids frames it needs with `BatchIDs`.
    struct Batches: UsersAndSealedCount {
        static let sql = """
            SELECT b.user_id, b.last_position, b.event_count, b.id_ranges,
                   CASE WHEN b.event_count < $2 OR b.id_ranges IS NULL THEN b.ids END, CASE WHEN b.event_count < $2 THEN b.block END
            FROM unnest($1::text[]) WITH ORDINALITY AS k(user_id, i)
            CROSS JOIN LATERAL (SELECT user_id, last_position, event_count, id_ranges, ids, block
                                FROM journal_batches WHERE user_id = k.user_id OFFSET 0) b
            ORDER BY k.i, b.last_position
            """
        typealias Row = (String, Int64, Int, String?, ByteBuffer?, ByteBuffer?)
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

    /// Deletes the open batches of the users being compacted (their events are in the rows inserted next).
    struct DeleteOpen: UsersAndSealedCount {
        static let sql = "DELETE FROM journal_batches WHERE user_id = ANY($1::text[]) AND event_count < $2"
        typealias Row = ()
        var users: [String]
        var sealedCount: Int32
        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    /// A group's new batches, every user's in one statement.
    struct InsertBatches: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO journal_batches (user_id, first_position, last_position, event_count, ids, block, id_ranges)
            SELECT u, f, l, c, i, b, nullif(r, '')
            FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::integer[], $5::bytea[], $6::bytea[], $7::text[]) AS t(u, f, l, c, i, b, r)
            """
        typealias Row = ()
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

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(users); bindings.append(firsts); bindings.append(lasts)
            bindings.append(counts); bindings.append(ids); bindings.append(blocks); bindings.append(idRanges)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    /// A group's users' new heads, one indexed update per user (`journal_set_heads`, migration 3).
    struct SetHeads: PostgresPreparedStatement {
        static let sql = "SELECT journal_set_heads($1::text[], $2::bigint[])"
        typealias Row = ()
        var users: [String] = [], heads: [Int64] = []
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(users); bindings.append(heads)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }
}

extension Statements.UsersAndSealedCount {
    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(users); bindings.append(sealedCount)
        return bindings
    }
}
