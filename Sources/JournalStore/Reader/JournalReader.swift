/// Reads a journal without changing it: every intact record in order, and a report of
/// what does not decode. Safe beside a live writer: it holds the shared seal lock while
/// reading, so a seal never rewrites bytes under it, and a frame being appended (not yet
/// complete) is seen as a torn tail, never as records.
public enum JournalReader {
    /// Scans `path`, calling `onRecord` for each line (without its newline).
    /// A pending seal (`<path>.seal`) is applied in memory, as the next writer would apply it.
    /// With `rescuingFrames` (for `journal salvage`) the lines of damaged frames that can be
    /// rescued are handed out too (`FrameScanner.rescuesFrames`).
    @discardableResult
    public static func read(path: String, storage: any Storage, rescuingFrames: Bool = false,
                            onRecord: (UnsafeBufferPointer<UInt8>, RecordLocation) throws -> Void) throws -> ScanReport {
        let file = try storage.openForReading(path)
        defer { file.close() }
        _ = try file.lock(.seal, exclusive: false, wait: true)
        defer { file.unlock(.seal) }
        return try Zstd.pooled { zstd in
            let source = try pendingSealView(of: file, path: path, storage: storage, zstd: zstd)
            var scanner = try FrameScanner(source: source, zstd: zstd)
            scanner.rescuesFrames = rescuingFrames
            return try scanner.scan(onRecord: onRecord)
        }
    }

    /// Calls `body` with the journal's bytes as a reader sees them (a pending seal applied, as in
    /// `read`), holding the shared seal lock meanwhile so no seal rewrites them underneath:
    /// `journal backup` copies from it, and tests observe the file through it.
    public static func withView<T>(path: String, storage: any Storage, _ body: (any ByteSource) throws -> T) throws -> T {
        let file = try storage.openForReading(path)
        defer { file.close() }
        _ = try file.lock(.seal, exclusive: false, wait: true)
        defer { file.unlock(.seal) }
        return try body(try pendingSealView(of: file, path: path, storage: storage, zstd: Zstd()))
    }

    /// The journal's bytes as the next writer will see them: with a valid pending seal
    /// (`<path>.seal`) applied in memory (FORMAT.md §"Reading", step 0), else the file itself.
    static func pendingSealView(of file: any StorageFile, path: String, storage: any Storage, zstd: Zstd) throws -> any ByteSource {
        // A pending erasure wins: from the moment its intent is durable, the erased bytes are never read again.
        if let replacement = try JournalErasure.pendingReplacement(path, storage: storage) { return BytesSource(replacement) }
        let sealPath = JournalWriter.sealPath(path)
        if storage.exists(sealPath), let intentFile = try? storage.openForReading(sealPath) {
            let bytes = try intentFile.readAll()
            intentFile.close()
            if let intent = SealIntent.decode(bytes, zstd: zstd), intent.start <= (try file.size()) {
                return SealedView(file: file, intent: intent)
            }
        }
        return FileSource(file: file)
    }

    /// Every intact record of `path`, as arrays. For small journals and tests.
    public static func records(path: String, storage: any Storage) throws -> (records: [[UInt8]], report: ScanReport) {
        var records: [[UInt8]] = []
        let report = try read(path: path, storage: storage) { line, _ in records.append(Array(line)) }
        return (records, report)
    }
}
