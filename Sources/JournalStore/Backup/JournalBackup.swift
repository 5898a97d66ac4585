/// Incremental backups of a journal (FORMAT.md §"Backups"): a backup is a journal holding the source's bytes up to
/// the end of its data (no padding, no torn tail). Sealed frames are immutable (FORMAT.md §"Sealing"), so a backup made
/// earlier is, up to its sealed part, a byte prefix of the source now, and bringing it up to date copies only the
/// bytes after the longest prefix the two share: the frames sealed since, and the unsealed tail.
///
/// Crash safety: a new backup is written to `<dest>.partial`, fsynced, and renamed into place (then the directory
/// fsynced), so it exists whole or not at all. An update writes only the source's own bytes at their own offsets,
/// after the part both share, so a crash at any point leaves the destination as a prefix of the source followed by
/// bytes that do not read as a valid multi-line frame (a partial frame, zeros, or one-event frames of an older
/// tail). The next run finds the sealed part of the destination still a prefix of the source and copies from the
/// first differing byte: running it again is the whole redo story, and running it when nothing changed writes
/// nothing.
public enum JournalBackup {
    /// What a backup run did.
    public struct Outcome: Equatable, Sendable {
        public var source: String
        public var destination: String
        /// True when the destination did not exist (or was empty).
        public var created = false
        /// Bytes of the destination now: the source's data, up to the end of its last valid frame.
        public var bytes = 0
        /// Bytes the destination already held and kept (its longest common prefix with the source).
        public var kept = 0
        /// Bytes written by this run (0 when the backup was already up to date).
        public var copied = 0
        /// Where the source's sealed part ends: the backup keeps these bytes for good.
        public var sealedEnd = 0
        /// Lines (events) in the backup.
        public var records = 0
        /// The source's torn tail, which a backup never copies (the source's next writer repairs it).
        public var sourceTornTail: Damage?
    }

    /// How a backup compares with its source (`journal verify BACKUP --against FILE`).
    public struct Comparison: Equatable, Sendable {
        /// Bytes of the backup that are a prefix of the source (up to the end of the backup's data when it matches).
        public var matchingBytes = 0
        /// Where the backup's sealed part ends, and whether it is a byte prefix of the source (it must be).
        public var backupSealedEnd = 0
        public var sealedPartMatches = false
        /// Lines of the backup, and how many of them equal the source's lines in the same places.
        public var backupRecords = 0
        public var matchingRecords = 0
        /// Lines of the source (those past `backupRecords` are newer than the backup).
        public var sourceRecords = 0
        /// The first difference, when there is one: what differs, with the byte offset or line number.
        public var problem: String?
        /// True when the backup is an earlier state of the source: its sealed part a byte prefix, and every
        /// line of it the source's line in the same place.
        public var matches: Bool { problem == nil }
    }

    /// Brings `destination` up to date with `source` and verifies it. Refuses (leaving `destination` as it was)
    /// when the source is damaged in the middle, or `destination` holds something that is not a backup of it.
    public static func backup(source: String, destination: String, storage: any Storage) throws -> Outcome {
        var outcome = Outcome(source: source, destination: destination)
        let (bytes, report) = try JournalReader.withView(path: source, storage: storage) { view in
            let bytes = try view.read(at: 0, count: try view.size())
            var scanner = try FrameScanner(source: BytesSource(bytes), zstd: Zstd())
            return (bytes, try scanner.scan { _, _ in })
        }
        if let damage = report.corruption.first {
            throw StoreError.backupRefused(source: source, destination: destination,
                                           reason: "\(source) is damaged at byte \(damage.offset) (\(damage.reason)); run `journal salvage \(source) -o NEW` and back up NEW")
        }
        let data = Array(bytes[0..<report.validEnd])
        outcome.sealedEnd = report.sealedEnd
        outcome.records = report.records
        outcome.sourceTornTail = report.tornTail
        outcome.bytes = data.count

        let existing = storage.exists(destination) ? try storage.openForReading(destination).readAllAndClose() : []
        outcome.created = existing.isEmpty
        if !existing.isEmpty {
            if let reason = try JournalBackup.refusal(backup: existing, source: data, sourcePath: source) { throw StoreError.backupRefused(source: source, destination: destination, reason: reason) }
        }
        let kept = commonPrefix(existing, data)
        outcome.kept = kept
        if existing.isEmpty {
            // A new backup is written whole beside it and renamed into place: until the rename it does not
            // exist, so a crash never leaves a half-written file that the next run would have to judge.
            try replaceFile(destination, with: data, storage: storage)
            outcome.copied = data.count
        } else if kept < data.count || existing.count != data.count {
            // An update writes the source's own bytes at their own offsets after the part both share.
            let file = try storage.open(destination, create: false)
            defer { file.close() }
            if kept < data.count { try file.write(Array(data[kept...]), at: kept) }
            try file.truncate(to: data.count)
            try file.sync()
            outcome.copied = data.count - kept
        }
        // Verify what the disk gives back: the same bytes, and every frame reads.
        let written = try storage.openForReading(destination).readAllAndClose()
        var scanner = try FrameScanner(source: BytesSource(written), zstd: Zstd())
        let check = try scanner.scan { _, _ in }
        guard written == data, check.isClean, check.records == report.records else {
            throw StoreError.io(path: destination, operation: "verify backup", errno: 0,
                                message: "it does not read back as written (\(written.count) bytes, \(check.records) events, \(check.damage.first.map { "\($0)" } ?? "no damage"); expected \(data.count) bytes, \(report.records) events); run `journal backup` again")
        }
        try register(destination, of: source, storage: storage)
        return outcome
    }

    /// `<journal>.backups`: the destinations of every backup made of the journal, one path a line, so that
    /// erasure can erase them too (FORMAT.md §"Erasure").
    public static func registryPath(_ journal: String) -> String { journal + ".backups" }

    /// The backups recorded for `journal` (complete lines only), in the order they were first made.
    public static func registeredBackups(of journal: String, storage: any Storage) throws -> [String] {
        let path = registryPath(journal)
        guard storage.exists(path) else { return [] }
        let bytes = try storage.openForReading(path).readAllAndClose()
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: true).dropLast(bytes.last == 0x0A ? 0 : 1)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Adds `destination` to the registry unless it is there: the new list is written beside it and renamed
    /// into place, so a crash leaves the old list or the new one.
    static func register(_ destination: String, of source: String, storage: any Storage) throws {
        let known = try registeredBackups(of: source, storage: storage)
        guard !known.contains(destination) else { return }
        try replaceFile(registryPath(source), with: Array((known + [destination]).map { $0 + "\n" }.joined().utf8), storage: storage)
    }

    /// Replaces `path` through `<path>.partial` (`Storage.replace`): it holds its old bytes or the new ones.
    public static func replaceFile(_ path: String, with bytes: [UInt8], storage: any Storage) throws {
        try storage.replace(path, with: bytes, through: path + ".partial")
    }

    /// Why `backup` (a destination's bytes, non-empty) must not be overwritten by a backup of `source` (the
    /// source's data), or nil when it is an earlier backup of it, possibly cut short by a crash.
    static func refusal(backup: [UInt8], source: [UInt8], sourcePath: String) throws -> String? {
        guard backup.starts(with: Layout.header.prefix(min(backup.count, Layout.headerSize)))
                || Zstd.frameMagic.starts(with: backup.prefix(4)) || backup.starts(with: Zstd.frameMagic) else {
            return "it is not a journal (it starts with neither a journal header nor a zstd frame: \(hex(Array(backup.prefix(8)))))"
        }
        var scanner = try FrameScanner(source: BytesSource(backup), zstd: Zstd())
        var firstLine: [UInt8]?
        let report = try scanner.scan { line, _ in if firstLine == nil { firstLine = Array(line) } }
        let sealed = report.sealedEnd
        if sealed > source.count || !source.starts(with: backup[0..<sealed]) {
            let at = commonPrefix(Array(backup[0..<sealed]), source)
            return "its sealed part (bytes 0–\(sealed - 1)) differs from \(sourcePath) at byte \(at), so it is another journal or a backup from before an erasure; choose another destination or remove it"
        }
        if let firstLine {
            var sourceScanner = try FrameScanner(source: BytesSource(source), zstd: Zstd())
            var sourceFirst: [UInt8]?
            _ = try sourceScanner.scan { line, _ in if sourceFirst == nil { sourceFirst = Array(line) } }
            if sourceFirst != firstLine {
                return "its first event is not \(sourcePath)'s first event, so it is another journal; choose another destination or remove it"
            }
        }
        return nil
    }

    /// Compares a backup with its source (both read as readers see them), changing neither.
    public static func compare(backup: String, against source: String, storage: any Storage) throws -> Comparison {
        var result = Comparison()
        let backupBytes = try JournalReader.withView(path: backup, storage: storage) { try $0.read(at: 0, count: try $0.size()) }
        let sourceBytes = try JournalReader.withView(path: source, storage: storage) { try $0.read(at: 0, count: try $0.size()) }
        var backupLines: [[UInt8]] = []
        var sourceLines: [[UInt8]] = []
        var backupScanner = try FrameScanner(source: BytesSource(backupBytes), zstd: Zstd())
        let backupReport = try backupScanner.scan { line, _ in backupLines.append(Array(line)) }
        var sourceScanner = try FrameScanner(source: BytesSource(sourceBytes), zstd: Zstd())
        _ = try sourceScanner.scan { line, _ in sourceLines.append(Array(line)) }
        result.backupSealedEnd = backupReport.sealedEnd
        result.backupRecords = backupLines.count
        result.sourceRecords = sourceLines.count
        let data = Array(backupBytes[0..<backupReport.validEnd])
        result.matchingBytes = commonPrefix(data, sourceBytes)
        result.sealedPartMatches = result.matchingBytes >= backupReport.sealedEnd
        result.matchingRecords = zip(backupLines, sourceLines).prefix { $0 == $1 }.count
        if !result.sealedPartMatches {
            result.problem = "the backup's sealed part (bytes 0–\(backupReport.sealedEnd - 1)) differs from \(source) at byte \(result.matchingBytes)"
        } else if result.matchingRecords < backupLines.count {
            let line = result.matchingRecords + 1
            result.problem = line > sourceLines.count
                ? "the backup has \(backupLines.count) events but \(source) has only \(sourceLines.count)"
                : "line \(line) of the backup differs from line \(line) of \(source)"
        }
        return result
    }

    /// Length of the longest common prefix of `a` and `b`.
    static func commonPrefix(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let n = min(a.count, b.count)
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                var i = 0
                while i < n && x[i] == y[i] { i += 1 }
                return i
            }
        }
    }
}

/// Bytes in memory as a `ByteSource`, for scanning a journal already read.
public struct BytesSource: ByteSource {
    let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public func size() throws(StoreError) -> Int { bytes.count }
    public func read(at offset: Int, count: Int) throws(StoreError) -> [UInt8] {
        guard offset < bytes.count else { return [] }
        return Array(bytes[offset..<min(bytes.count, offset + count)])
    }
}

extension StorageFile {
    /// The whole file, then closes it.
    func readAllAndClose() throws(StoreError) -> [UInt8] {
        defer { close() }
        return try readAll()
    }
}
