import JournalServer
import Logging
import PostgresNIO

/// Asks PostgreSQL to write out its dirty pages now (`CHECKPOINT`), so that a run does not pay for the writes of the
/// one before it: `journal-load` checkpoints before each run (SCALE-FIGURES.md §"Load"). Needs a superuser or the
/// `pg_checkpoint` role.
public func checkpoint(_ database: DatabaseURL) async throws {
    var logger = Logger(label: "journal-load")
    logger.logLevel = .error
    let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
    try await withRunning([client]) {
        do { try await client.query("CHECKPOINT", logger: logger) } catch let error as PSQLError {
            // postgres-nio's own description hides the server's message.
            throw CheckpointRefused(reason: error.serverInfo?[.message] ?? String(reflecting: error))
        }
    }
}

/// Why PostgreSQL did not checkpoint, in its own words (e.g. "must be superuser or have privileges of pg_checkpoint").
public struct CheckpointRefused: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
