import Logging
import PostgresNIO

/// PostgreSQL's own message for a failed query or transaction (postgres-nio's errors hide it from `description`):
/// what the server logs and answers when its database refuses, and what `fleet` commands print.
public func databaseReason(_ error: any Error) -> String {
    if let error = error as? PostgresTransactionError {
        if let inner = error.closureError ?? error.beginError ?? error.commitError { return databaseReason(inner) }
    }
    if let error = error as? PSQLError {
        if let message = error.serverInfo?[.message] {
            return message + (error.serverInfo?[.detail].map { " (\($0))" } ?? "")
        }
        return String(reflecting: error)
    }
    return "\(error)"
}

/// Why no host of `url` can be reached with its settings, in words an operator can act on, or nil when one can. The
/// connection pool reports a host that does not answer, or a TLS handshake it refused, only as attempts that ran out
/// (after about a minute); a TCP connection and then a PostgreSQL start-up of our own with `url`'s settings name what
/// they meet, host by host (`SchemaService.unreachable`, `SchemaService.refusedConnection`), within seconds.
public func databaseUnreachable(_ url: DatabaseURL, logger: Logger = Logger(label: "journal-server")) async -> String? {
    if let unreachable = await SchemaService.unreachable(url.endpoints) { return unreachable }
    return await SchemaService.refusedConnection(url, logger: logger)
}

/// Why `error` came from a client of `url`: what reaching it meets (`databaseUnreachable`), else the database's own
/// answer.
public func databaseReason(_ error: any Error, reaching url: DatabaseURL, logger: Logger = Logger(label: "journal-server")) async -> String {
    await databaseUnreachable(url, logger: logger) ?? databaseReason(error)
}
