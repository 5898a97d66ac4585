/// Appends records (lines) to one journal file, durably, as the only writer.
///
/// - `append` writes one zstd frame per record (with its checksum frame, in version 2) in a single
///   write and returns once it is durable: the records are then acknowledged (FORMAT.md §"Appending").
///   In version 2 the write lands in the padding reserved at the end of the file, so the file's
///   size does not change and `fdatasync` suffices; when the reserve is used up the write extends
///   the file by a new reserve and `fsync`s.
/// - `seal` replaces the trailing run of one-record frames (the unsealed tail) by one
///   well-compressed frame, crash-safely through a redo file (FORMAT.md §"Sealing"). It never rewrites a
///   sealed frame: the file up to the end of the last sealed frame only ever grows.
/// - Opening takes the writer lock, completes or discards a pending seal, and repairs a torn
///   tail by moving its bytes to `<journal>.torn-<offset>` and truncating (FORMAT.md §"Recovery").
///   Damage in the middle refuses the open: nothing is ever written after it.
public final class JournalWriter {
    public struct Options: Sendable {
        /// Compression level of one-record frames (fast: they sit on the acknowledgement path).
        public var tailLevel = CompressionLevel.tail
        /// Compression level of the frame a seal writes.
        public var sealLevel = CompressionLevel.seal
        /// Compression level of the frames `appendBatch` writes.
        public var batchLevel = CompressionLevel.batch
        /// No longer used: a seal never merges into the sealed frame before it (sealed frames are
        /// immutable, FORMAT.md §"Sealing"). Kept so that callers that set it still compile.
        @available(*, deprecated, message: "seals no longer absorb the previous sealed frame; this has no effect")
        public var sealTargetBytes = 32 << 10
        /// The format of journals this writer creates (existing journals keep theirs).
        public var newJournalVersion: Layout.Version = .v2
        /// Zero bytes reserved at the end of a version-2 journal for the next appends.
        public var paddingReserve = 32 << 10
        public init() {}
    }

    /// What opening found and did.
    public struct Recovery: Equatable, Sendable {
        public var createdFile = false
        /// An erasure that a crash interrupted, completed by this open.
        public var completedErasure: JournalErasure.Outcome?
        public var completedSeal = false
        public var discardedSealIntent = false
        /// The torn tail that was cut off, and where its bytes were kept.
        public var tornTail: Damage?
        public var quarantinePath: String?
    }

    public let path: String
    public let options: Options
    public private(set) var recovery = Recovery()
    public private(set) var report: ScanReport
    let storage: any Storage
    let file: any StorageFile
    let zstd = Zstd()
    /// The format this journal is written in.
    public let version: Layout.Version
    /// End of the data (the valid frames).
    var end: Int
    /// End of the file: `end` plus the padding frame after it, if any.
    var fileEnd: Int
    /// The records of the unsealed tail, oldest first, with their frames.
    var tail: [(frame: FrameInfo, record: [UInt8])] = []
    var poisoned: String?
    var closed = false

    public static func sealPath(_ path: String) -> String { path + ".seal" }

    /// Opens (or creates) the journal at `path` for appending.
    /// `onRecord` sees every existing record once, in order, so callers can fold state.
    public init(path: String, storage: any Storage, options: Options = Options(),
                onRecord: (UnsafeBufferPointer<UInt8>, RecordLocation) throws -> Void = { _, _ in }) throws {
        self.path = path
        self.storage = storage
        self.options = options
        var existed = storage.exists(path)
        var file = try storage.open(path, create: true)
        var ok = false
        defer { if !ok { file.close() } }
        guard try file.lock(.writer, exclusive: true, wait: false) else { throw StoreError.locked(path: path) }
        // The writer that held the lock before may have removed the journal it created for nothing
        // (`closeDiscardingIfEmpty`) after this process opened it: writing to that unlinked file would
        // acknowledge events no one can read. Refuse as if still locked; a retry opens the new path.
        guard file.isStillAtPath() else { throw StoreError.locked(path: path) }
        var recovery = Recovery()
        // An erasure whose intent is durable is completed first (FORMAT.md §6 "Erasure"): it replaces the file,
        // so the writer then opens and locks the new one.
        if let erased = try JournalErasure.finishPending(path, storage: storage) {
            recovery.completedErasure = erased
            file.close()
            file = try storage.open(path, create: false)
            existed = true
            guard try file.lock(.writer, exclusive: true, wait: false), file.isStillAtPath() else { throw StoreError.locked(path: path) }
        }
        guard try file.lock(.seal, exclusive: true, wait: true) else { throw StoreError.locked(path: path) }
        defer { file.unlock(.seal) }
        if !existed {
            recovery.createdFile = true
            try storage.syncDirectory(of: path)
        }
        try JournalWriter.finishPendingSeal(path: path, file: file, storage: storage, zstd: zstd, recovery: &recovery)

        var scanner = try FrameScanner(source: FileSource(file: file), zstd: zstd)
        // Keep only the records of the trailing one-record frames (the unsealed tail).
        var records: [[UInt8]] = []
        var currentFrame = 0
        var linesInFrame = 0
        let report = try scanner.scan { line, location in
            try onRecord(line, location)
            if location.frameIndex != currentFrame { currentFrame = location.frameIndex; linesInFrame = 0 }
            linesInFrame += 1
            if linesInFrame == 1 { records.append(Array(line)) } else { records.removeAll(keepingCapacity: true) }
        }
        if let first = report.corruption.first {
            throw StoreError.damaged(path: path, offset: first.offset, reason: first.reason)
        }
        if report.frames == 0, let torn = report.tornTail, torn.offset == 0, existed {
            // Nothing here decodes at all: refuse rather than truncate someone else's file, unless
            // it is the start of a journal cut short (a crash while creating it or writing its first frame).
            let head = try file.read(at: 0, count: Layout.headerSize)
            if !(Layout.header.starts(with: head) || Zstd.frameMagic.starts(with: head.prefix(4))) {
                throw StoreError.notAJournal(path: path, reason: "it starts with neither a journal header nor a zstd frame (first bytes \(hex(head)))")
            }
        }
        if let torn = report.tornTail {
            let quarantine = "\(path).torn-\(torn.offset)"
            let bytes = try file.read(at: torn.offset, count: torn.length)
            let keep = try storage.open(quarantine, create: true)
            try keep.truncate(to: 0)
            try keep.write(bytes, at: 0)
            try keep.sync()
            keep.close()
            try storage.syncDirectory(of: quarantine)
            try file.truncate(to: torn.offset)
            try file.sync()
            recovery.tornTail = torn
            recovery.quarantinePath = quarantine
        }
        var version = report.version
        var end = report.validEnd
        if end == 0 {
            // A new (or emptied) journal: start it with the header of the version we write.
            version = options.newJournalVersion
            if version == .v2 {
                try file.truncate(to: 0)
                try file.write(Layout.header, at: 0)
                try file.sync()
                end = Layout.headerSize
            }
        }
        self.file = file
        self.recovery = recovery
        self.report = report
        self.version = version
        self.end = end
        fileEnd = report.tornTail == nil && report.validEnd > 0 ? report.validEnd + report.paddingBytes : end
        let tailRecords = records.suffix(report.tailRun.count)
        tail = zip(report.tailRun, tailRecords).map { ($0, $1) }
        ok = true
    }

    /// Completes a seal whose intent is durable, or deletes an intent that never verified.
    static func finishPendingSeal(path: String, file: any StorageFile, storage: any Storage, zstd: Zstd, recovery: inout Recovery) throws {
        let sealPath = JournalWriter.sealPath(path)
        guard storage.exists(sealPath) else { return }
        let intentFile = try storage.openForReading(sealPath)
        let bytes = try intentFile.readAll()
        intentFile.close()
        if let intent = SealIntent.decode(bytes, zstd: zstd), intent.start <= (try file.size()) {
            try file.write(intent.frame, at: intent.start)
            try file.truncate(to: intent.start + intent.frame.count)
            try file.sync()
            recovery.completedSeal = true
        } else {
            recovery.discardedSealIntent = true
        }
        try storage.remove(sealPath)
        try storage.syncDirectory(of: sealPath)
    }

    /// Bytes of the file that hold valid frames (the padding after them not counted).
    public var size: Int { end }
    /// Records in the unsealed tail.
    public var tailRecordCount: Int { tail.count }

    /// Appends `records` (each one line, no newline inside) and returns once they are durable.
    /// On failure nothing is acknowledged; the file is cut back to where it was when possible.
    public func append(_ records: [[UInt8]]) throws {
        if let poisoned { throw StoreError.writerPoisoned(path: path, cause: poisoned) }
        guard !records.isEmpty else { return }
        var bytes: [UInt8] = []
        var frames: [(FrameInfo, [UInt8])] = []
        for record in records {
            try JournalWriter.check(record)
            let frame = zstd.compressFrame(record + [0x0A], level: options.tailLevel)
            let block = Layout.block(frame, version: version)
            frames.append((FrameInfo(offset: end + bytes.count, compressedSize: frame.count, recordCount: 1,
                                     contentSize: record.count + 1, isSkippable: false, checksumSize: block.count - frame.count), record))
            bytes += block
        }
        try write(bytes)
        end = frames.last!.0.end
        tail += frames.map { ($0.0, $0.1) }
    }

    /// Lines per frame of a batch write (FORMAT.md §5 "Batches"); a last lone line joins the frame before it.
    public static let linesPerBatchFrame = 512

    /// Appends `records` as a batch (FORMAT.md §5 "Batches"): in frames of up to `linesPerBatchFrame` lines compressed
    /// at `Options.batchLevel`, written sealed — no one-line frames, no seal after — with one write and one sync,
    /// and returns once they are durable. One record is a plain `append`. The one-line frames of an unsealed tail
    /// before the batch stay as they are (they become part of the sealed part). On failure nothing is acknowledged.
    public func appendBatch(_ records: [[UInt8]]) throws {
        if let poisoned { throw StoreError.writerPoisoned(path: path, cause: poisoned) }
        guard records.count > 1 else { return try append(records) }
        var bytes: [UInt8] = []
        var last: FrameInfo?
        var start = 0
        while start < records.count {
            var stop = min(start + JournalWriter.linesPerBatchFrame, records.count)
            if records.count - stop == 1 { stop += 1 }
            var content: [UInt8] = []
            content.reserveCapacity(records[start..<stop].reduce(0) { $0 + $1.count + 1 })
            for record in records[start..<stop] {
                try JournalWriter.check(record)
                content += record
                content.append(0x0A)
            }
            let frame = zstd.compressFrame(content, level: options.batchLevel)
            let block = Layout.block(frame, version: version)
            last = FrameInfo(offset: end + bytes.count, compressedSize: frame.count, recordCount: stop - start,
                             contentSize: content.count, isSkippable: false, checksumSize: block.count - frame.count)
            bytes += block
            start = stop
        }
        try write(bytes)
        end = last!.end
        report.lastSealedFrame = last
        tail = []
    }

    static func check(_ record: [UInt8]) throws {
        guard !record.isEmpty else { throw StoreError.invalidRecord(reason: "a record cannot be empty") }
        guard !record.contains(0x0A) else { throw StoreError.invalidRecord(reason: "a record cannot contain a newline (byte 0x0A)") }
    }

    /// Writes `bytes` (whole blocks) at the end of the data with one write and one sync (FORMAT.md §5): into the padding
    /// when it has room, else extending the file by a new reserve. On failure cuts the file back to the end of the data.
    private func write(_ blocks: [UInt8]) throws {
        var bytes = blocks
        // Version 2: into the padding when it has room (the file keeps its size, so fdatasync is
        // enough), else extend the file by the data and a new reserve, and fsync.
        let room = fileEnd - end - bytes.count
        let inPlace = version == .v2 && (room == 0 || room >= Layout.paddingHeaderSize)
        var newFileEnd = end + bytes.count
        if inPlace {
            if room > 0 { bytes += Layout.paddingHeader(zeros: room - Layout.paddingHeaderSize) }
            newFileEnd = fileEnd
        } else if version == .v2 && options.paddingReserve > 0 {
            bytes += Layout.paddingHeader(zeros: options.paddingReserve) + [UInt8](repeating: 0, count: options.paddingReserve)
            newFileEnd = end + bytes.count
        }
        do {
            try file.write(bytes, at: end)
            if inPlace { try file.syncData() } else { try file.sync() }
        } catch {
            do {
                try file.truncate(to: end)
                try file.sync()
                fileEnd = end
            } catch let rollback {
                poisoned = "\(error); rolling back also failed: \(rollback)"
            }
            throw error
        }
        fileEnd = newFileEnd
    }

    /// Replaces the unsealed tail (the one-record frames after the last sealed frame) by one frame
    /// holding the same lines, appended right after the last sealed frame. Never touches a byte
    /// before the tail: sealed frames are immutable (FORMAT.md §"Sealing"). Returns false when there
    /// is nothing worth sealing (fewer than two records, or no saving).
    @discardableResult
    public func seal() throws -> Bool {
        if let poisoned { throw StoreError.writerPoisoned(path: path, cause: poisoned) }
        guard tail.count >= 2 else { return false }
        let start = tail[0].frame.offset
        var content: [UInt8] = []
        content.reserveCapacity(tail.reduce(0) { $0 + $1.frame.contentSize })
        for entry in tail { content += entry.record; content.append(0x0A) }
        let compressed = zstd.compressFrame(content, level: options.sealLevel)
        let frame = Layout.block(compressed, version: version)
        guard frame.count < end - start else { return false }

        guard try file.lock(.seal, exclusive: true, wait: true) else { return false }
        defer { file.unlock(.seal) }
        let sealPath = JournalWriter.sealPath(path)
        do {
            let intent = try storage.open(sealPath, create: true)
            defer { intent.close() }
            try intent.truncate(to: 0)
            try intent.write(SealIntent(start: start, frame: frame).encoded(), at: 0)
            try intent.sync()
            try storage.syncDirectory(of: sealPath)
        } catch {
            // The journal is untouched, but a redo file left behind (it may be durable even though
            // fsync failed) would be applied by the next open and cut off every record appended
            // after this point. It must go; if it cannot, stop appending.
            do {
                try storage.remove(sealPath)
                try storage.syncDirectory(of: sealPath)
            } catch let cleanup {
                poisoned = "sealing failed (\(error)) and its redo file could not be removed (\(cleanup))"
            }
            throw error
        }
        do {
            try file.write(frame, at: start)
            try file.truncate(to: start + frame.count)
            try file.sync()
        } catch {
            // The intent is durable: the next open completes the seal.
            poisoned = "sealing failed: \(error)"
            throw error
        }
        // The rewrite is durable: from here on the journal ends with the sealed frame (no padding).
        end = start + frame.count
        fileEnd = end
        let lines = content.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
        report.lastSealedFrame = FrameInfo(offset: start, compressedSize: compressed.count, recordCount: lines,
                                           contentSize: content.count, isSkippable: false, checksumSize: frame.count - compressed.count)
        tail = []
        do {
            try storage.remove(sealPath)
            try storage.syncDirectory(of: sealPath)
        } catch {
            // Applying the redo file again is harmless only while nothing follows the sealed frame.
            poisoned = "the seal is done but its redo file could not be removed: \(error)"
            throw error
        }
        return true
    }

    /// Erases the journal physically (FORMAT.md §6 "Erasure"): replaces it by `replacement` (a journal holding only
    /// the erasure marker), removes every file the engine wrote beside it and rewrites its recorded backups, through
    /// the redo record `<journal>.erase`. The writer is closed afterwards (the file it held is gone): open the
    /// journal again to go on recording.
    public func erase(replacingWith replacement: [UInt8]) throws -> JournalErasure.Outcome {
        if let poisoned { throw StoreError.writerPoisoned(path: path, cause: poisoned) }
        guard try file.lock(.seal, exclusive: true, wait: true) else { throw StoreError.locked(path: path) }
        defer { file.unlock(.seal) }
        poisoned = "the journal was erased (or its erasure failed part-way); open it again, which completes a pending erasure"
        let outcome = try JournalErasure.erase(path, replacement: replacement, storage: storage)
        close()
        return outcome
    }

    /// Gives back the zero padding reserved for appends (FORMAT.md §"Appending"): truncates the file
    /// to the end of its data and fsyncs. For a journal put at rest (a sample, an archive); the next
    /// append grows the file with a fresh reserve. A crash leaves the file with or without the
    /// padding, both valid. Returns true when there was padding to give back.
    @discardableResult
    public func releaseReserve() throws -> Bool {
        if let poisoned { throw StoreError.writerPoisoned(path: path, cause: poisoned) }
        guard fileEnd > end else { return false }
        try file.truncate(to: end)
        try file.sync()
        fileEnd = end
        return true
    }

    /// Closes, first removing the journal when this writer created it and no record was ever
    /// written to it (a command whose only input was refused leaves no file behind). The removal
    /// happens while the writer lock is held, so no other writer can have written to the file;
    /// one that opened it meanwhile finds its path gone once it gets the lock, and refuses.
    /// Returns true when the file was removed.
    @discardableResult
    public func closeDiscardingIfEmpty() -> Bool {
        guard !closed else { return false }
        var removed = false
        if recovery.createdFile, poisoned == nil, tail.isEmpty, report.records == 0, end <= Layout.headerSize {
            do {
                try storage.remove(path)
                try storage.syncDirectory(of: path)
                removed = true
            } catch {
                // Left as it is: an empty journal is still a valid one.
            }
        }
        close()
        return removed
    }

    /// Releases the lock. Unsealed records stay durable as they are.
    public func close() {
        guard !closed else { return }
        closed = true
        file.close()
    }

    deinit { close() }
}
