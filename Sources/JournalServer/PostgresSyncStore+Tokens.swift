import Logging
import NIOCore
import PostgresNIO

/// The SQL of `journal_tokens` (SYNC.md §"Tokens and who may see what"): tokens are stored, looked up and checked by
/// their SHA-256 (`Tokens.hashHex`), revoked and never deleted.
extension PostgresSyncStore {
    /// The principal of every token of a group in one round trip (`Statements.TokenPrincipals`), in their order.
    static func principals(of tokens: [String], client: PostgresClient, logger: Logger) async throws -> [Principal?] {
        let hashes = tokens.map(Tokens.hashHex)
        var found: [String: Principal] = [:]
        for try await (hash, user, role) in try await client.execute(Statements.TokenPrincipals(hashes: Array(Set(hashes))), logger: logger) {
            if let role = Role(rawValue: role) { found[hash] = Principal(user: user, role: role) }
        }
        return hashes.map { found[$0] }
    }

    public func authenticate(token: String) async throws -> Principal? {
        try await tokenReads.read(token)
    }

    /// What an earlier look-up of `token` found, or a look-up now, remembered (`KnownTokens`).
    public func authenticateForPush(token: String) async throws -> Principal? {
        if let principal = knownTokens[token] { return principal }
        let principal = try await tokenReads.read(token)
        if let principal { knownTokens.keep(principal, of: token) }
        return principal
    }

    public func addToken(_ token: String, user: String, role: Role) async throws {
        try await client.query("""
            INSERT INTO journal_tokens (token_hash, user_id, role) VALUES (decode(\(Tokens.hashHex(token)), 'hex'), \(user), \(role.rawValue))
            """, logger: logger)
    }

    public func revoke(token: String) async throws -> Bool {
        knownTokens.forget([token])
        var count = 0
        for try await _ in try await client.query("""
            UPDATE journal_tokens SET revoked_at = now()
            WHERE token_hash = decode(\(Tokens.hashHex(token)), 'hex') AND revoked_at IS NULL RETURNING user_id
            """, logger: logger).decode(String.self) { count += 1 }
        return count > 0
    }

    public func revokeAll(user: String) async throws -> Int {
        knownTokens.forget(user: user)
        var count = 0
        for try await _ in try await client.query(
            "UPDATE journal_tokens SET revoked_at = now() WHERE user_id = \(user) AND revoked_at IS NULL RETURNING user_id", logger: logger).decode(String.self) {
            count += 1
        }
        return count
    }
}

extension Statements {
    /// The principals of a group of tokens (`GroupRead`): one row per live token, with the token it answers.
    struct TokenPrincipals: PostgresPreparedStatement {
        static let sql = """
            SELECT t.hash, k.user_id, k.role FROM unnest($1::text[]) AS t(hash)
            CROSS JOIN LATERAL (SELECT user_id, role FROM journal_tokens
                                WHERE token_hash = decode(t.hash, 'hex') AND revoked_at IS NULL OFFSET 0) k
            """
        /// (the token's `Tokens.hashHex`, user, role)
        typealias Row = (String, String, String)
        /// The tokens' `Tokens.hashHex`, hashed once by the caller, which finds each row by it.
        var hashes: [String]
        func makeBindings() -> PostgresBindings { var bindings = PostgresBindings(); bindings.append(hashes); return bindings }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Every token of a group live, or SQLSTATE `PostgresSyncStore.deadTokenState` (`journal_check_tokens`, migration
    /// 10): the first statement of a group read under its locks whose pushes carry tokens.
    package struct CheckTokens: PostgresPreparedStatement {
        package static let sql = "SELECT journal_check_tokens($1::text[])"
        package typealias Row = ()
        package var tokens: [String]
        package init(tokens: [String]) { self.tokens = tokens }
        package func makeBindings() -> PostgresBindings { var bindings = PostgresBindings(); bindings.append(tokens.map(Tokens.hashHex)); return bindings }
        package func decodeRow(_ row: PostgresRow) throws -> Row {}
    }
}
