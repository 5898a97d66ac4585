/// Physical erasure of a journal (FORMAT.md §6 "Erasure"): the one exception to "sealed frames are immutable".
/// The journal is replaced by `replacement` — its header and one frame holding the erasure marker, no personal
/// data — and every other file the engine wrote beside it (snapshots, torn-tail files, seal and temporary files)
/// is removed, and every backup recorded in `<journal>.backups` is replaced by the same bytes.
///
/// Redo discipline, as for seals: the intent `<journal>.erase` (magic, length, its complement, the replacement
/// bytes) is made durable first, through a temporary file renamed into place, so it exists whole or not at all.
/// From then on every step is idempotent and the next writer's open completes them (`finishPending`); readers
/// see the replacement as soon as the intent exists (`JournalReader`), never the erased bytes again.
public enum JournalErasure {
    static let magic: [UInt8] = Array("JERASE".utf8) + [0, 1]

    public static func intentPath(_ journal: String) -> String { journal + ".erase" }

    /// What an erasure removed and rewrote, and what it could not reach.
    public struct Outcome: Equatable, Sendable {
        /// Files beside the journal that were removed (paths).
        public var removed: [String] = []
        /// Backups (from `<journal>.backups`) replaced by the erased journal.
        public var backupsRewritten: [String] = []
        /// Backups recorded but absent (an unplugged drive): they still hold the erased data.
        public var backupsUnreachable: [String] = []
    }

    /// Erases `journal`, whose writer lock the caller holds: afterwards the journal holds exactly `replacement`.
    public static func erase(_ journal: String, replacement: [UInt8], storage: any Storage) throws -> Outcome {
        var intent = magic
        intent += littleEndianBytes(UInt64(replacement.count))
        intent += littleEndianBytes(~UInt64(replacement.count))
        intent += replacement
        try storage.replace(intentPath(journal), with: intent, through: intentPath(journal) + ".partial")
        return try finish(journal, replacement: replacement, storage: storage)
    }

    /// Completes an erasure whose intent is durable, if there is one (a writer's open calls it).
    public static func finishPending(_ journal: String, storage: any Storage) throws -> Outcome? {
        guard let replacement = try pendingReplacement(journal, storage: storage) else { return nil }
        return try finish(journal, replacement: replacement, storage: storage)
    }

    /// The bytes a pending erasure puts in place of the journal, if its intent exists and is whole.
    public static func pendingReplacement(_ journal: String, storage: any Storage) throws -> [UInt8]? {
        let path = intentPath(journal)
        guard storage.exists(path) else { return nil }
        let bytes = try storage.openForReading(path).readAllAndClose()
        guard bytes.count >= 24, Array(bytes[0..<8]) == magic else { return nil }
        let count = readLittleEndian(bytes, at: 8)
        guard readLittleEndian(bytes, at: 16) == ~count, count == UInt64(bytes.count - 24) else { return nil }
        return Array(bytes[24...])
    }

    static func finish(_ journal: String, replacement: [UInt8], storage: any Storage) throws -> Outcome {
        var outcome = Outcome()
        outcome.removed = try removeSideFiles(of: journal, storage: storage)
        for backup in try JournalBackup.registeredBackups(of: journal, storage: storage) {
            if storage.exists(backup) {
                try JournalBackup.replaceFile(backup, with: replacement, storage: storage)
                outcome.backupsRewritten.append(backup)
            } else {
                try storage.remove(backup + ".partial")
                outcome.backupsUnreachable.append(backup)
            }
        }
        try storage.replace(journal, with: replacement, through: journal + ".erase-new")
        // Again: a reader may have written a snapshot of the old bytes meanwhile.
        outcome.removed += try removeSideFiles(of: journal, storage: storage).filter { !outcome.removed.contains($0) }
        try storage.remove(intentPath(journal))
        try storage.syncDirectory(of: journal)
        return outcome
    }

    /// Suffixes (after `<journal name>.`) of the files the engine writes beside a journal, except the journal's
    /// backups registry and the erasure intent: FORMAT.md §9's list.
    static func isSideFile(_ suffix: String) -> Bool {
        let fixed: Set<String> = ["seal", "snapshot", "home-snapshot", "erase-new", "erase.partial", "backups.partial"]
        if fixed.contains(suffix) { return true }
        func digits(_ text: Substring) -> Bool { !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        if suffix.hasPrefix("torn-") { return digits(suffix.dropFirst(5)) }
        for base in ["snapshot.tmp-", "home-snapshot.tmp-"] where suffix.hasPrefix(base) {
            let parts = suffix.dropFirst(base.count).split(separator: "-", omittingEmptySubsequences: false)
            return parts.count == 2 && parts.allSatisfy(digits)
        }
        return false
    }

    /// Removes every side file of `journal`; returns their paths.
    static func removeSideFiles(of journal: String, storage: any Storage) throws -> [String] {
        let slash = journal.lastIndex(of: "/")
        let directory = slash.map { String(journal[...$0]) } ?? ""
        let name = slash.map { String(journal[journal.index(after: $0)...]) } ?? journal
        var removed: [String] = []
        for entry in try storage.entries(besides: journal).sorted() where entry.hasPrefix(name + ".") {
            guard isSideFile(String(entry.dropFirst(name.count + 1))) else { continue }
            try storage.remove(directory + entry)
            removed.append(directory + entry)
        }
        if !removed.isEmpty { try storage.syncDirectory(of: journal) }
        return removed
    }
}
