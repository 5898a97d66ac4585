import JournalStore

/// Writes lines into a journal that must not exist yet, in sealed frames: what `salvage` and
/// `merge` produce. A crash while writing leaves a journal that the next open repairs; the
/// caller reports success only after `finish()` returns.
struct NewJournal {
    static let linesPerFrame = 512

    let writer: JournalWriter
    var pending: [[UInt8]] = []

    init(path: String, storage: any Storage) throws(JournalError) {
        if storage.exists(path) {
            throw JournalError.store(.io(path: path, operation: "create", errno: 17, message: "File exists (choose another output, or remove it first)"))
        }
        do { writer = try JournalWriter(path: path, storage: storage) } catch let error as StoreError { throw .store(error) } catch {
            throw .store(.io(path: path, operation: "create", errno: 0, message: "\(error)"))
        }
    }

    mutating func append(_ line: [UInt8]) throws(JournalError) {
        pending.append(line)
        if pending.count >= NewJournal.linesPerFrame { try flush() }
    }

    mutating func flush() throws(JournalError) {
        guard !pending.isEmpty else { return }
        do {
            try writer.append(pending)
            if pending.count > 1 { try writer.seal() }
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
