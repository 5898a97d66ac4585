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
