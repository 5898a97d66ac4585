import Logging
import PostgresNIO

/// The SQL of `journal_access_log` (SYNC.md §"Access log"): support's reads appended, never altered (its trigger
/// refuses UPDATE, DELETE and TRUNCATE), read oldest first.
extension PostgresSyncStore {
    public func logAccess(actor: String, subject: String, action: String, detail: String) async throws {
        try await client.query("""
            INSERT INTO journal_access_log (actor, subject, action, detail) VALUES (\(actor), \(subject), \(action), \(detail))
            """, logger: logger)
    }

    public func accessLog(subject: String?) async throws -> [AccessLogEntry] {
        var entries: [AccessLogEntry] = []
        let rows = try await client.query("""
            SELECT actor, subject, action, detail, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            FROM journal_access_log WHERE \(subject)::text IS NULL OR subject = \(subject)::text ORDER BY id
            """, logger: logger)
        for try await (actor, subject, action, detail, at) in rows.decode((String, String, String, String, String).self) {
            entries.append(AccessLogEntry(actor: actor, subject: subject, action: action, detail: detail, at: at))
        }
        return entries
    }
}
