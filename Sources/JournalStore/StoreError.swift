/// What went wrong in the store, with the file, byte offset and the next step.
public enum StoreError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A system call failed: which one, on which file, with errno's text.
    case io(path: String, operation: String, errno: Int32, message: String)
    /// Another process holds the writer lock.
    case locked(path: String)
    /// Bytes in the middle of the journal do not decode; appending would bury them.
    case damaged(path: String, offset: Int, reason: String)
    /// The path is not a journal (it does not start with a zstd frame).
    case notAJournal(path: String, reason: String)
    /// A record cannot be stored as a line.
    case invalidRecord(reason: String)
    /// An earlier failed write could not be rolled back; the writer refuses further appends.
    case writerPoisoned(path: String, cause: String)
    /// `journal backup` refused to write to `destination` (it is left as it was).
    case backupRefused(source: String, destination: String, reason: String)

    public var description: String {
        switch self {
        case let .io(path, operation, errno, message):
            return "\(path): \(operation) failed: \(message) (errno \(errno))"
        case let .locked(path):
            return "\(path): another process is writing to this journal (it holds the writer lock); wait for it to finish and try again"
        case let .damaged(path, offset, reason):
            return "\(path): damaged at byte \(offset): \(reason); nothing was written. Run `journal verify \(path)` for details and `journal salvage \(path) -o NEW` to recover every intact event"
        case let .notAJournal(path, reason):
            return "\(path): not a journal: \(reason)"
        case let .invalidRecord(reason):
            return "invalid record: \(reason)"
        case let .writerPoisoned(path, cause):
            return "\(path): an earlier write failed and could not be undone (\(cause)); reopen the journal to repair its tail"
        case let .backupRefused(source, destination, reason):
            return "\(destination): not backed up from \(source): \(reason); \(destination) was left as it was"
        }
    }
}
