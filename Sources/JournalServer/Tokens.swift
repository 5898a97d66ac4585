import Logging
import PostgresNIO

/// Tokens: 32 random bytes from the system's generator (getrandom), hex, prefixed `wjt_`. The server
/// keeps only their SHA-256 (computed by PostgreSQL's `sha256`), so a token is shown once, at creation.
public enum Tokens {
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var out = Array("wjt_".utf8)
        for _ in 0..<32 {
            let byte = UInt8.random(in: 0...255, using: &generator)
            out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
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
