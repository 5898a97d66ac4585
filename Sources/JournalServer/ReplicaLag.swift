import Logging
import PostgresNIO
import Foundation

/// Where a read-only job read from, and how far behind the primary it was when it started (`fleet … --read-database`,
/// OPERATIONS.md §"Reads from replicas"): the WAL bytes the replica had not yet replayed, and how long ago it replayed
/// its last transaction (which also grows while the primary is idle, so it is an upper bound of the lag in time).
public struct ReplicaLag: Sendable, Equatable {
    /// The replica, without its password.
    public var replica: String
    /// `pg_wal_lsn_diff(primary's pg_current_wal_lsn(), replica's pg_last_wal_replay_lsn())`.
    public var bytesBehind: Int64
    /// `now() - pg_last_xact_replay_timestamp()` on the replica; nil before it replays its first transaction.
    public var secondsSinceLastReplay: Double?

    /// Asks the replica where its replay stands and the primary how far that is from its WAL's end. Refuses a
    /// "replica" that is not in recovery (`FleetFailure`): the reads would then land on a primary the operator meant
    /// to spare.
    public static func measure(primary: PostgresClient, replica: PostgresClient, replicaURL: DatabaseURL,
                               logger: Logger) async throws -> ReplicaLag {
        let rows = try await replica.query(
            "SELECT pg_is_in_recovery(), COALESCE(pg_last_wal_replay_lsn()::text, ''), EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8",
            logger: logger)
        var state: (inRecovery: Bool, replayed: String, age: Double?)?
        for try await row in rows.decode((Bool, String, Double?).self) { state = (row.0, row.1, row.2) }
        guard let state, state.inRecovery, !state.replayed.isEmpty else {
            throw FleetFailure(description: "--read-database \(replicaURL) is not a replica (pg_is_in_recovery() is false): give a standby's URL (scripts/cluster urls DIR prints read=), or leave the option out to read --database")
        }
        let replayed = state.replayed
        var bytes: Int64 = 0
        for try await (behind,) in try await primary.query(
            "SELECT GREATEST(pg_wal_lsn_diff(pg_current_wal_lsn(), \(replayed)::pg_lsn), 0)::int8", logger: logger).decode((Int64,).self) {
            bytes = behind
        }
        return ReplicaLag(replica: replicaURL.description, bytesBehind: bytes, secondsSinceLastReplay: state.age)
    }

    /// `read from:     postgres://…, 0 bytes behind the primary, last transaction replayed 0.4 s ago`.
    public var text: String {
        "\(replica), \(bytesBehind) bytes behind the primary, "
            + (secondsSinceLastReplay.map { "last transaction replayed \(String(format: "%.1f", $0)) s ago" } ?? "no transaction replayed yet")
    }
}
