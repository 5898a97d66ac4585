import JournalServer
import Logging
import PostgresNIO

/// Asks PostgreSQL to write out its dirty pages now (`CHECKPOINT`), so that a run does not pay for the writes of the
/// one before it: `journal-load` checkpoints before each run (SCALE.md §"Load"). Needs a superuser or the
/// `pg_checkpoint` role.
public func checkpoint(_ database: DatabaseURL) async throws {
    var logger = Logger(label: "journal-load")
    logger.logLevel = .error
    let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        try await client.query("CHECKPOINT", logger: logger)
    }
}
