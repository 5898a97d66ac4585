import Foundation
import GRDB
import JournalEvents

/// The peer the seeds propose: SQLite through GRDB, in WAL mode with `synchronous=FULL` (every
/// commit durable, as our appends are), one row per event with typed columns for the envelope and
/// the set fields, the rest of the payload as JSON text, and one index (exercise history).
public final class SQLitePeer {
    public let path: String
    let pool: DatabasePool

    static let insertSQL = """
        INSERT INTO event (seq, v, id, at, at_ms, type, workout, exercise, set_number, weight, unit, reps, kind, payload)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Opens (creating when missing) the database at `path`.
    public init(path: String) throws {
        self.path = path
        pool = try DatabasePool(path: path, configuration: Configuration())
        // GRDB's DatabasePool sets `synchronous = NORMAL` after `prepareDatabase` runs (GRDB
        // Core/Database.swift), so the pragma goes to the writer connection once the pool is open.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            let mode = try Int.fetchOne(db, sql: "PRAGMA synchronous")
            precondition(mode == 2, "SQLite peer: synchronous is \(String(describing: mode)), not FULL (2)")
        }
        try pool.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS event (
                    seq INTEGER PRIMARY KEY,
                    v INTEGER NOT NULL,
                    id TEXT NOT NULL,
                    at TEXT NOT NULL,
                    at_ms INTEGER NOT NULL,
                    type TEXT NOT NULL,
                    workout TEXT,
                    exercise TEXT,
                    set_number INTEGER,
                    weight REAL,
                    unit TEXT,
                    reps INTEGER,
                    kind TEXT,
                    payload TEXT
                );
                CREATE INDEX IF NOT EXISTS event_by_exercise ON event(exercise, seq);
                """)
        }
    }

    static let columns: Set<String> = ["workout", "exercise", "set", "weight", "unit", "reps", "kind"]

    static func arguments(_ event: Event) -> StatementArguments {
        let rest = JSONObject(event.fields.fields.filter { !columns.contains($0.key) })
        let values: [(any DatabaseValueConvertible)?] = [
            event.seq, event.v, event.id, event.at.rfc3339, event.at.epochMilliseconds, event.type,
            event.string("workout"), event.string("exercise"), event.int("set"), event.double("weight"),
            event.string("unit"), event.int("reps"), event.string("kind"),
            rest.isEmpty ? nil : JSONWriter.string(.object(rest)),
        ]
        return StatementArguments(values)
    }

    /// One event, one transaction: returns once the commit is durable.
    public func insert(_ event: Event) throws {
        try pool.write { db in try db.cachedStatement(sql: SQLitePeer.insertSQL).execute(arguments: SQLitePeer.arguments(event)) }
    }

    /// Group commit: the batch in one transaction.
    public func insert(batch: [Event]) throws {
        try pool.write { db in
            let statement = try db.cachedStatement(sql: SQLitePeer.insertSQL)
            for event in batch { try statement.execute(arguments: SQLitePeer.arguments(event)) }
        }
    }

    /// The home page question in SQL (same answer as `OurReplay.home`).
    public func home() throws -> HomeAnswer {
        try pool.read { db in
            var answer = HomeAnswer()
            answer.finished = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event WHERE type = 'workout.finished'") ?? 0
            guard let last = try Row.fetchOne(db, sql: "SELECT seq, workout, at FROM event WHERE type = 'workout.finished' ORDER BY seq DESC LIMIT 1")
            else { return answer }
            let finishedSeq: Int = last["seq"]
            let workout: String = last["workout"]
            answer.lastWorkout = workout
            answer.lastFinishedAt = last["at"]
            let startedSeq = try Int.fetchOne(db, sql: """
                SELECT seq FROM event WHERE type = 'workout.started' AND workout = ? AND seq < ? ORDER BY seq DESC LIMIT 1
                """, arguments: [workout, finishedSeq]) ?? 0
            if let sets = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS sets, TOTAL(weight * reps) AS volume FROM event
                WHERE seq > ? AND seq < ? AND workout = ? AND type = 'set.completed' AND kind = 'working'
                """, arguments: [startedSeq, finishedSeq, workout]) {
                answer.lastSets = sets["sets"]
                answer.lastVolume = sets["volume"]
            }
            return answer
        }
    }

    /// An exercise's history in SQL, through the index (same rows as `OurReplay.history`).
    public func history(exercise: String) throws -> [HistoryRow] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT workout, COUNT(*) AS sets, MAX(weight) AS top, TOTAL(weight * reps) AS volume FROM event
                WHERE exercise = ? AND type = 'set.completed' AND kind = 'working'
                GROUP BY workout ORDER BY MIN(seq)
                """, arguments: [exercise]).map { row in
                HistoryRow(workout: row["workout"], sets: row["sets"], topWeight: row["top"], volume: row["volume"])
            }
        }
    }

    /// Bytes on disk after a full checkpoint: the database, its WAL and shared-memory files.
    public func sizeOnDisk() throws -> Int {
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        return [path, path + "-wal", path + "-shm"].map(Fixtures.size).reduce(0, +)
    }

    public func close() throws { try pool.close() }

    /// Removes the database files at `path`.
    public static func remove(_ path: String) {
        for file in [path, path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
    }

    /// A database holding every event of `journal`, imported in one transaction, kept beside the fixtures.
    public static func imported(from journal: String) throws -> String {
        let path = journal + ".sqlite"
        if Fixtures.exists(path) { return path }
        remove(path + ".partial")
        let peer = try SQLitePeer(path: path + ".partial")
        try peer.insert(batch: try Fixtures.events(journal))
        _ = try peer.sizeOnDisk()
        try peer.close()
        for suffix in ["", "-wal", "-shm"] where Fixtures.exists(path + ".partial" + suffix) {
            try FileManager.default.moveItem(atPath: path + ".partial" + suffix, toPath: path + suffix)
        }
        return path
    }
}
