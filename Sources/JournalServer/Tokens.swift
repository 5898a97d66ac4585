import Crypto
import Logging
import PostgresNIO

/// Tokens: 32 random bytes from the system's generator (getrandom), hex, prefixed `wjt_`. The server keeps only
/// their SHA-256, and computes it itself before any query (`hashHex`): a token never reaches PostgreSQL, its
/// statement log or its statistics, so it is shown once, at creation (SYNC.md §"Tokens and who may see what").
public enum Tokens {
    /// The SHA-256 of `token`'s UTF-8 bytes, in lower-case hex: what every statement binds in place of a token (its
    /// SQL compares `decode(…, 'hex')` with `journal_tokens.token_hash`). The empty token ("no token to check") stays
    /// empty.
    public static func hashHex(_ token: String) -> String {
        token.isEmpty ? "" : hex(SHA256.hash(data: Array(token.utf8)))
    }

    /// `bytes` in lower-case hex, two digits a byte.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return "wjt_" + hex((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}

/// Runs `body` with a migrated store on `database`, outside the HTTP server (`journal-server token …`).
public func withSyncStore<T: Sendable>(_ database: DatabaseURL, logLevel: Logger.Level = .warning,
                                       _ body: @Sendable (any SyncStore) async throws -> T) async throws -> T {
    var logger = Logger(label: "journal-server")
    logger.logLevel = logLevel
    let (store, clients) = makeSyncStore(database, logger: logger)
    return try await withRunning(clients) {
        try await store.migrate()
        return try await body(store)
    }
}
