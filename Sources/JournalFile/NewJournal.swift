import JournalStore

/// Writes lines into a journal that must not exist yet as one batch (FORMAT.md §5 "Batches": sealed frames of
/// `JournalWriter.linesPerBatchFrame` lines, one write, one fsync): what `salvage`, `merge`, `restore` and `sync`'s
/// merge produce. A crash while writing leaves a journal that the next open repairs; the caller reports success
/// only after `finish()` returns.
struct NewJournal {
    let writer: JournalWriter
    var pending: [[UInt8]] = []

    init(path: String, storage: any Storage) throws(JournalError) {
        if storage.exists(path) {
            throw JournalError.store(.io(path: path, operation: "create", errno: 17, message: "File exists (choose another output, or remove it first)"))
        }
        // A journal put at rest: no reserve after its data (the first append after it grows the file, FORMAT.md §5).
        var options = JournalWriter.Options()
        options.paddingReserve = 0
        do { writer = try JournalWriter(path: path, storage: storage, options: options) } catch let error as StoreError { throw .store(error) } catch {
            throw .store(.io(path: path, operation: "create", errno: 0, message: "\(error)"))
        }
    }

    mutating func append(_ line: [UInt8]) {
        pending.append(line)
    }

    mutating func flush() throws(JournalError) {
        guard !pending.isEmpty else { return }
        do {
            try writer.appendBatch(pending)
        } catch let error as StoreError { throw .store(error) } catch {
            throw .store(.io(path: writer.path, operation: "append", errno: 0, message: "\(error)"))
        }
        pending = []
    }

    mutating func finish() throws(JournalError) {
        try flush()
        writer.close()
    }
}
