import JournalEvents
import JournalStore

/// Backups of a journal file on this device's file system (`journal backup`, `journal verify --against`; FORMAT.md
/// §"Backups"): the store's `JournalBackup` through `PosixStorage`, with the `--json` shape of a backup beside the
/// other reports' (`Reports+JSON.swift`).
public enum JournalBackups {
    /// What a backup did: bytes kept, copied and sealed, and the source's torn tail if any (`JournalBackup.Outcome`).
    public typealias Outcome = JournalBackup.Outcome
    /// Whether a backup is an earlier state of its source, and where they part if not (`JournalBackup.Comparison`).
    public typealias Comparison = JournalBackup.Comparison

    /// Brings `destination` up to date with `source`, writing only what is new, and reads it back (`JournalBackup.backup`).
    public static func backup(source: String, destination: String) throws -> Outcome {
        try JournalBackup.backup(source: source, destination: destination, storage: PosixStorage())
    }

    /// Whether `backup` is an earlier state of `source` (`JournalBackup.compare`); changes nothing.
    public static func compare(backup: String, against source: String) throws -> Comparison {
        try JournalBackup.compare(backup: backup, against: source, storage: PosixStorage())
    }
}

extension JournalBackup.Outcome {
    /// `journal backup --json`.
    public func jsonValue(file: String, backup: String) -> JSONValue {
        .object([
            "file": .string(file), "backup": .string(backup), "created": .bool(created),
            "bytes": .int(bytes), "kept_bytes": .int(kept), "copied_bytes": .int(copied),
            "sealed_bytes": .int(sealedEnd), "events": .int(records),
            "source_torn_tail": sourceTornTail.map { .object(["offset": .int($0.offset), "length": .int($0.length)]) } ?? .null,
            "verified": .bool(true),
        ])
    }
}
