import PostgresNIO

/// The server's schema, as forward-only migrations (SYNC.md §"Schema"). A migration, once released,
/// never changes: a change is a new migration with the next version.
enum Migrations {
    struct Migration {
        var version: Int
        var name: String
        var statements: [String]
    }

    /// `pg_advisory_xact_lock` key held while migrating ("WJNL").
    static let lockKey: Int64 = 0x574A_4E4C

    /// The migrator's own SQL: one migrator at a time (`lockKey`, held to the end of its transaction), and the
    /// versions applied so far in `journal_schema_migrations`.
    enum Bookkeeping {
        static let lock: PostgresQuery = "SELECT pg_advisory_xact_lock(\(Migrations.lockKey))"
        static let createTable: PostgresQuery = "CREATE TABLE IF NOT EXISTS journal_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        static let applied: PostgresQuery = "SELECT version FROM journal_schema_migrations"
        static func recordApplied(_ version: Int) -> PostgresQuery { "INSERT INTO journal_schema_migrations (version) VALUES (\(version))" }
    }

    /// Hash partitions of the per-user tables. Under Citus the same tables are distributed by `user_id`
    /// instead (SYNC.md §"Distributing with Citus").
    static let partitions = 8

    static func hashPartitions(of table: String) -> [String] {
        (0..<partitions).map {
            "CREATE TABLE \(table)_p\($0) PARTITION OF \(table) FOR VALUES WITH (MODULUS \(partitions), REMAINDER \($0))"
        }
    }

    static let all: [Migration] = [
        Migration(version: 1, name: "users, batches, tokens, access log", statements: [
            """
            CREATE TABLE journal_users (
                user_id text NOT NULL,
                head bigint NOT NULL DEFAULT 0,
                epoch bigint NOT NULL DEFAULT 1,
                created_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (user_id)
            ) PARTITION BY HASH (user_id)
            """,
        ] + hashPartitions(of: "journal_users") + [
            """
            CREATE TABLE journal_batches (
                user_id text NOT NULL,
                first_position bigint NOT NULL,
                last_position bigint NOT NULL,
                event_count integer NOT NULL CHECK (event_count > 0 AND last_position - first_position + 1 = event_count),
                ids bytea NOT NULL,
                block bytea NOT NULL,
                PRIMARY KEY (user_id, last_position)
            ) PARTITION BY HASH (user_id)
            """,
        ] + hashPartitions(of: "journal_batches") + [
            // Compressed already: keep PostgreSQL from trying again (it would only cost CPU).
            "ALTER TABLE journal_batches ALTER COLUMN block SET STORAGE EXTERNAL",
            "ALTER TABLE journal_batches ALTER COLUMN ids SET STORAGE EXTERNAL",
            """
            CREATE TABLE journal_tokens (
                token_hash bytea PRIMARY KEY,
                user_id text NOT NULL,
                role text NOT NULL CHECK (role IN ('user', 'support')),
                created_at timestamptz NOT NULL DEFAULT now(),
                revoked_at timestamptz
            )
            """,
            "CREATE INDEX journal_tokens_user ON journal_tokens (user_id)",
            """
            CREATE TABLE journal_access_log (
                id bigserial PRIMARY KEY,
                at timestamptz NOT NULL DEFAULT now(),
                actor text NOT NULL,
                subject text NOT NULL,
                action text NOT NULL,
                detail text NOT NULL
            )
            """,
            // Append-only: no role the server uses can change or remove a line once written.
            """
            CREATE FUNCTION journal_access_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'journal_access_log is append-only (% refused)', TG_OP;
            END
            $$
            """,
            """
            CREATE TRIGGER journal_access_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON journal_access_log
            FOR EACH STATEMENT EXECUTE FUNCTION journal_access_log_append_only()
            """,
        ]),
        Migration(version: 2, name: "account erasure", statements: [
            // Servers of this migration's time dropped later pushes timed before a user's erasure; migration 12 drops it
            // (SYNC.md §"Account erasure").
            "ALTER TABLE journal_users ADD COLUMN erased_before_ms bigint",
        ]),
        Migration(version: 3, name: "a group's heads set user by user", statements: [
            // One primary-key update per user (Statements.swift): `UPDATE … FROM unnest(…)` was planned as a hash
            // join over a sequential scan of every user once the table held a few thousand.
            """
            CREATE FUNCTION journal_set_heads(users text[], heads bigint[]) RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                FOR i IN 1 .. coalesce(array_length(users, 1), 0) LOOP
                    UPDATE journal_users SET head = heads[i] WHERE user_id = users[i];
                END LOOP;
            END
            $$
            """,
        ]),
        Migration(version: 4, name: "each batch's id ranges", statements: [
            // `IDRanges`: a push reads a sealed batch's ids frame only when these say it may hold a pushed id; a
            // batch stored before this migration has none (NULL) and its ids frame is read as before.
            "ALTER TABLE journal_batches ADD COLUMN id_ranges text",
        ]),
        Migration(version: 5, name: "a group's reads and writes, one call each", statements: [
            // A group commit in four round trips (BEGIN, this, `journal_write_group`, COMMIT) instead of seven
            // (SCALE.md §"Group commit"). Each user in the order given (user order): their row, created if new,
            // locked and read, then their batches in position order, as `Statements.LockGroup` decodes them.
            """
            CREATE FUNCTION journal_lock_group(p_users text[], p_sealed integer)
            RETURNS TABLE (r_user text, r_head bigint, r_epoch bigint, r_erased_before_ms bigint,
                           r_last bigint, r_count integer, r_id_ranges text, r_ids bytea, r_block bytea)
            LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO journal_users (user_id) SELECT unnest(p_users) ORDER BY 1 ON CONFLICT (user_id) DO NOTHING;
                FOR i IN 1 .. coalesce(array_length(p_users, 1), 0) LOOP
                    RETURN QUERY SELECT u.user_id, u.head, u.epoch, u.erased_before_ms,
                                        NULL::bigint, NULL::integer, NULL::text, NULL::bytea, NULL::bytea
                        FROM journal_users u WHERE u.user_id = p_users[i] FOR UPDATE;
                    RETURN QUERY SELECT b.user_id, NULL::bigint, NULL::bigint, NULL::bigint,
                                        b.last_position, b.event_count, b.id_ranges,
                                        CASE WHEN b.event_count < p_sealed OR b.id_ranges IS NULL THEN b.ids END,
                                        CASE WHEN b.event_count < p_sealed THEN b.block END
                        FROM journal_batches b WHERE b.user_id = p_users[i] ORDER BY b.last_position;
                END LOOP;
            END
            $$
            """,
            // The group's writes: the compacted users' open batches deleted, the new batches inserted (an empty
            // `p_ranges` element is NULL: postgres-nio binds no array of optionals), the heads set.
            """
            CREATE FUNCTION journal_write_group(p_compacted text[], p_sealed integer, p_users text[], p_firsts bigint[],
                                                p_lasts bigint[], p_counts integer[], p_ids bytea[], p_blocks bytea[],
                                                p_ranges text[], p_head_users text[], p_heads bigint[])
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                FOR i IN 1 .. coalesce(array_length(p_compacted, 1), 0) LOOP
                    DELETE FROM journal_batches WHERE user_id = p_compacted[i] AND event_count < p_sealed;
                END LOOP;
                INSERT INTO journal_batches (user_id, first_position, last_position, event_count, ids, block, id_ranges)
                    SELECT t.u, t.f, t.l, t.c, t.i, t.b, nullif(t.r, '')
                    FROM unnest(p_users, p_firsts, p_lasts, p_counts, p_ids, p_blocks, p_ranges) AS t(u, f, l, c, i, b, r);
                FOR i IN 1 .. coalesce(array_length(p_head_users, 1), 0) LOOP
                    UPDATE journal_users SET head = p_heads[i] WHERE user_id = p_head_users[i];
                END LOOP;
            END
            $$
            """,
        ]),
        Migration(version: 6, name: "a group's reads in two statements", statements: [
            // `journal_lock_group` with one statement per step instead of two per user: the loop started an executor per
            // user and statement, half of the function's time (pg_stat_statements over a 1,000-device run: 6.9 →
            // 4.2 ms a call for 41–43 pushes, SCALE.md §"Group reads"). Each user is still looked up by itself (a
            // LATERAL subquery per key, pruned to its partition) and locked in the order given; the rows now come
            // every user's row first, then every batch, in the order given and position order
            // (`Statements.LockGroup` needs each user's row before its batches).
            GroupSQL.lockGroup("CREATE OR REPLACE", erasureTime: true),
        ]),
        Migration(version: 7, name: "a known group's writes, its heads checked", statements: [
            // A group the server planned on what it last committed for each user (`KnownUsers`, SCALE.md §"Known
            // users"), in one call with no transaction block around it: each user's head moves only from the head
            // and epoch the plan started from, user by user in the order given (so rows are locked in the order
            // `journal_lock_group` locks them); if one differs, nothing is written and the server reads the group
            // again under its locks. Then the group's deletes and inserts, as `journal_write_group` does them.
            """
            CREATE FUNCTION journal_write_known_group(p_users text[], p_expected bigint[], p_epochs bigint[],
                                                      p_heads bigint[], p_compacted text[], p_sealed integer,
                                                      p_batch_users text[], p_firsts bigint[], p_lasts bigint[],
                                                      p_counts integer[], p_ids bytea[], p_blocks bytea[], p_ranges text[])
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                FOR i IN 1 .. coalesce(array_length(p_users, 1), 0) LOOP
                    UPDATE journal_users SET head = p_heads[i]
                        WHERE user_id = p_users[i] AND head = p_expected[i] AND epoch = p_epochs[i];
                    IF NOT FOUND THEN
                        RAISE EXCEPTION 'user % is no longer at position % of epoch %', p_users[i], p_expected[i], p_epochs[i]
                            USING ERRCODE = 'WJ409';
                    END IF;
                END LOOP;
                PERFORM journal_write_group(p_compacted, p_sealed, p_batch_users, p_firsts, p_lasts, p_counts, p_ids,
                                            p_blocks, p_ranges, '{}'::text[], '{}'::bigint[]);
            END
            $$
            """,
        ]),
        Migration(version: 8, name: "open batches merged in tiers", statements: [
            // A push rewrites only the user's last open batches, from a position on (`StoredBatch.openBatchesRewritten`,
            // SYNC.md §"Schema"), where it rewrote every open batch: the two group functions again, each with the
            // position each compacted user's rewritten batches start from (`p_compacted_from`) after its users. Each
            // deletes from those positions and leaves the rest to the function of the same name before it (another
            // signature, called with no user to compact), which servers of the version before still call.
            """
            CREATE FUNCTION journal_write_group(p_compacted text[], p_compacted_from bigint[], p_sealed integer,
                                                p_users text[], p_firsts bigint[], p_lasts bigint[], p_counts integer[],
                                                p_ids bytea[], p_blocks bytea[], p_ranges text[],
                                                p_head_users text[], p_heads bigint[])
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                FOR i IN 1 .. coalesce(array_length(p_compacted, 1), 0) LOOP
                    DELETE FROM journal_batches
                        WHERE user_id = p_compacted[i] AND first_position >= p_compacted_from[i] AND event_count < p_sealed;
                END LOOP;
                PERFORM journal_write_group('{}'::text[], p_sealed, p_users, p_firsts, p_lasts, p_counts, p_ids, p_blocks,
                                            p_ranges, p_head_users, p_heads);
            END
            $$
            """,
            // The heads checked and moved by migration 7's function (given nothing else to write), then the writes.
            """
            CREATE FUNCTION journal_write_known_group(p_users text[], p_expected bigint[], p_epochs bigint[],
                                                      p_heads bigint[], p_compacted text[], p_compacted_from bigint[],
                                                      p_sealed integer, p_batch_users text[], p_firsts bigint[],
                                                      p_lasts bigint[], p_counts integer[], p_ids bytea[],
                                                      p_blocks bytea[], p_ranges text[])
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM journal_write_known_group(p_users, p_expected, p_epochs, p_heads, '{}'::text[], p_sealed,
                                                  '{}'::text[], '{}'::bigint[], '{}'::bigint[], '{}'::integer[],
                                                  '{}'::bytea[], '{}'::bytea[], '{}'::text[]);
                PERFORM journal_write_group(p_compacted, p_compacted_from, p_sealed, p_batch_users, p_firsts, p_lasts,
                                            p_counts, p_ids, p_blocks, p_ranges, '{}'::text[], '{}'::bigint[]);
            END
            $$
            """,
        ]),
        Migration(version: 9, name: "a group's writes, one statement a step", statements: [
            // Migration 8's two group functions, each with the same signature and the same effect, rewritten as one
            // statement a step with nothing delegated: where they looped over their users with one statement each
            // (an UPDATE of a head, a DELETE of compacted open batches) and called the functions of migrations 5
            // and 7 with empty arrays for the rest. Inside a loop each statement's generic plan locked and opened all
            // 8 partitions and their indexes again, per user: `pg_stat_statements` over 10 s of a 1,000-device run
            // gave 47 µs per head set by itself, 137 µs per user's delete, and about 2.5 ms per group in the nested
            // calls and their empty statements (SCALE.md §"One statement a step"). Joined to the arrays, each user
            // is still one index probe in the one partition that holds it (a nested loop over the arrays, run-time
            // pruning), taken in the order given, so rows are locked in the order they were before. The functions of
            // migrations 5 and 7, which servers before migration 8 call, are unchanged.
            """
            CREATE OR REPLACE FUNCTION journal_write_group(p_compacted text[], p_compacted_from bigint[], p_sealed integer,
                                                           p_users text[], p_firsts bigint[], p_lasts bigint[],
                                                           p_counts integer[], p_ids bytea[], p_blocks bytea[],
                                                           p_ranges text[], p_head_users text[], p_heads bigint[])
            RETURNS void LANGUAGE plpgsql \(GroupSQL.planOnlyProbes) AS $$
            BEGIN
                \(GroupSQL.deleteCompacted)
                \(GroupSQL.insertBatches(users: "p_users"))
                UPDATE journal_users x SET head = t.h FROM unnest(p_head_users, p_heads) AS t(u, h) WHERE x.user_id = t.u;
            END
            $$
            """,
            // Every head moved in one statement, only where it is still what the plan started from; when fewer rows
            // moved than the group has users, the first user (in the order given) whose head did not move is named
            // and nothing is written, as before.
            """
            CREATE OR REPLACE FUNCTION journal_write_known_group(p_users text[], p_expected bigint[], p_epochs bigint[],
                                                                 p_heads bigint[], p_compacted text[], p_compacted_from bigint[],
                                                                 p_sealed integer, p_batch_users text[], p_firsts bigint[],
                                                                 p_lasts bigint[], p_counts integer[], p_ids bytea[],
                                                                 p_blocks bytea[], p_ranges text[])
            RETURNS void LANGUAGE plpgsql \(GroupSQL.planOnlyProbes) AS $$
            DECLARE
                v_moved bigint[];
                v_first integer;
            BEGIN
                WITH moved AS (
                    UPDATE journal_users x SET head = t.h
                        FROM unnest(p_users, p_expected, p_epochs, p_heads) WITH ORDINALITY AS t(u, e, ep, h, i)
                        WHERE x.user_id = t.u AND x.head = t.e AND x.epoch = t.ep
                        RETURNING t.i
                ) SELECT array_agg(i) INTO v_moved FROM moved;
                IF coalesce(cardinality(v_moved), 0) <> coalesce(cardinality(p_users), 0) THEN
                    SELECT min(i) INTO v_first FROM generate_subscripts(p_users, 1) AS i
                        WHERE NOT (i = ANY (coalesce(v_moved, '{}'::bigint[])));
                    RAISE EXCEPTION 'user % is no longer at position % of epoch %',
                        p_users[v_first], p_expected[v_first], p_epochs[v_first] USING ERRCODE = 'WJ409';
                END IF;
                \(GroupSQL.deleteCompacted)
                \(GroupSQL.insertBatches(users: "p_batch_users"))
            END
            $$
            """,
        ]),
        Migration(version: 10, name: "a push's token checked when it commits", statements: [
            // A push may be authorized on a principal the server remembered from an earlier look-up of its token
            // (`KnownTokens`, SCALE.md §"Tokens checked at commit"): its group then checks, before it writes anything,
            // that each push's token is still live. A token revoked since fails the whole group with SQLSTATE WJ401,
            // naming the first such push (1-based, in the order given); the server looks the group's tokens up again,
            // refuses the pushes whose token is dead and commits the others. An empty token is not checked. Each
            // token is one probe of the primary key, whatever the table holds.
            """
            CREATE FUNCTION journal_check_tokens(p_tokens text[]) RETURNS void LANGUAGE plpgsql \(GroupSQL.planOnlyProbes) AS $$
            DECLARE
                v_dead bigint;
            BEGIN
                SELECT min(t.i) INTO v_dead FROM unnest(p_tokens) WITH ORDINALITY AS t(token, i)
                    CROSS JOIN LATERAL (SELECT count(*) AS live FROM journal_tokens k
                                        WHERE k.token_hash = sha256(convert_to(t.token, 'UTF8')) AND k.revoked_at IS NULL) k
                    WHERE t.token <> '' AND k.live = 0;
                IF v_dead IS NOT NULL THEN
                    RAISE EXCEPTION 'the token of push % of the group is unknown or revoked', v_dead USING ERRCODE = 'WJ401';
                END IF;
            END
            $$
            """,
            // Migration 9's known group, its pushes' tokens checked first.
            """
            CREATE FUNCTION journal_write_known_group_with_tokens(p_tokens text[], p_users text[], p_expected bigint[],
                                                                  p_epochs bigint[], p_heads bigint[], p_compacted text[],
                                                                  p_compacted_from bigint[], p_sealed integer,
                                                                  p_batch_users text[], p_firsts bigint[], p_lasts bigint[],
                                                                  p_counts integer[], p_ids bytea[], p_blocks bytea[],
                                                                  p_ranges text[])
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM journal_check_tokens(p_tokens);
                PERFORM journal_write_known_group(p_users, p_expected, p_epochs, p_heads, p_compacted, p_compacted_from,
                                                  p_sealed, p_batch_users, p_firsts, p_lasts, p_counts, p_ids, p_blocks,
                                                  p_ranges);
            END
            $$
            """,
        ]),
        Migration(version: 11, name: "tokens hashed by the server before any query", statements: [
            // The server binds each token as its SHA-256 in hex (`Tokens.hashHex`), never the token itself, so no
            // token reaches the statement log or pg_stat_statements. `journal_check_tokens` keeps its signature (the
            // known-group function of migration 10 calls it) and compares the decoded hash; "" is still "no check".
            """
            CREATE OR REPLACE FUNCTION journal_check_tokens(p_tokens text[]) RETURNS void LANGUAGE plpgsql \(GroupSQL.planOnlyProbes) AS $$
            DECLARE
                v_dead bigint;
            BEGIN
                SELECT min(t.i) INTO v_dead FROM unnest(p_tokens) WITH ORDINALITY AS t(hash, i)
                    CROSS JOIN LATERAL (SELECT count(*) AS live FROM journal_tokens k
                                        WHERE k.token_hash = decode(t.hash, 'hex') AND k.revoked_at IS NULL) k
                    WHERE t.hash <> '' AND k.live = 0;
                IF v_dead IS NOT NULL THEN
                    RAISE EXCEPTION 'the token of push % of the group is unknown or revoked', v_dead USING ERRCODE = 'WJ401';
                END IF;
            END
            $$
            """,
        ]),
        Migration(version: 12, name: "no erasure time: erasure follows the server's order", statements: [
            // `journal_users.erased_before_ms` (migration 2) was read by nothing since erasure took effect at its place
            // in the server's order (SYNC.md §"Account erasure"): dropped, with the group read that returned it.
            // `journal_lock_group` is migration 6's without that column; its result type changes, so it is dropped and
            // made again (`CREATE OR REPLACE` cannot change it).
            "DROP FUNCTION journal_lock_group(text[], integer)",
            GroupSQL.lockGroup("CREATE", erasureTime: false),
            "ALTER TABLE journal_users DROP COLUMN erased_before_ms",
        ]),
    ]
}

/// Statements the group functions of migrations 6, 9 and 12 share (each function's parameters carry these names).
enum GroupSQL {
    /// The planner settings of a group function: every user is an index probe, joined to the arrays by a nested loop.
    /// The generic plan guesses 10 elements an array, and at some table sizes it would otherwise scan every user once
    /// and join to that (a materialized scan of all 8 partitions at 30,000 users, SCALE.md §"One statement a step").
    static let planOnlyProbes = "SET enable_seqscan = off SET enable_material = off SET enable_hashjoin = off SET enable_mergejoin = off"

    /// `journal_lock_group` as migration 6 replaces it (`erasureTime`: with `journal_users.erased_before_ms`, its
    /// fourth column) and migration 12 makes it again without that column: every user's row created if new, locked
    /// and returned in the order given, then every user's batches in that order and position order, each user looked
    /// up by itself (a LATERAL subquery per key, pruned to its partition).
    static func lockGroup(_ create: String, erasureTime: Bool) -> String {
        let (column, value, empty) = erasureTime ? (" r_erased_before_ms bigint,", " u.erased_before_ms,", " NULL::bigint,") : ("", "", "")
        return """
            \(create) FUNCTION journal_lock_group(p_users text[], p_sealed integer)
            RETURNS TABLE (r_user text, r_head bigint, r_epoch bigint,\(column)
                           r_last bigint, r_count integer, r_id_ranges text, r_ids bytea, r_block bytea)
            LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO journal_users (user_id) SELECT unnest(p_users) ORDER BY 1 ON CONFLICT (user_id) DO NOTHING;
                RETURN QUERY SELECT u.user_id, u.head, u.epoch,\(value)
                                    NULL::bigint, NULL::integer, NULL::text, NULL::bytea, NULL::bytea
                    FROM unnest(p_users) WITH ORDINALITY AS k(user_id, i)
                    CROSS JOIN LATERAL (SELECT * FROM journal_users x WHERE x.user_id = k.user_id FOR UPDATE) u
                    ORDER BY k.i;
                RETURN QUERY SELECT b.user_id, NULL::bigint, NULL::bigint,\(empty)
                                    b.last_position, b.event_count, b.id_ranges,
                                    CASE WHEN b.event_count < p_sealed OR b.id_ranges IS NULL THEN b.ids END,
                                    CASE WHEN b.event_count < p_sealed THEN b.block END
                    FROM unnest(p_users) WITH ORDINALITY AS k(user_id, i)
                    CROSS JOIN LATERAL (SELECT * FROM journal_batches x WHERE x.user_id = k.user_id
                                        ORDER BY x.last_position OFFSET 0) b
                    ORDER BY k.i, b.last_position;
            END
            $$
            """
    }

    /// The open batches of the compacted users, from each one's position on. `last_position >= from` follows from
    /// `first_position >= from`; it is written so that the delete probes the primary key `(user_id, last_position)`
    /// from there on, not every batch of the user.
    static let deleteCompacted = """
        DELETE FROM journal_batches b USING unnest(p_compacted, p_compacted_from) AS t(u, f)
                WHERE b.user_id = t.u AND b.last_position >= t.f AND b.first_position >= t.f AND b.event_count < p_sealed;
        """

    /// The new batches, their users in the array `users` (an empty `p_ranges` element is NULL: postgres-nio binds no
    /// array of optionals).
    static func insertBatches(users: String) -> String {
        """
        INSERT INTO journal_batches (user_id, first_position, last_position, event_count, ids, block, id_ranges)
                    SELECT t.u, t.f, t.l, t.c, t.i, t.b, nullif(t.r, '')
                    FROM unnest(\(users), p_firsts, p_lasts, p_counts, p_ids, p_blocks, p_ranges) AS t(u, f, l, c, i, b, r);
        """
    }
}
