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

    /// The message with each file as given (the CLI prints it: the paths the user typed).
    public var description: String { text(naming: { $0 }) }

    /// The message with each file by its name only (`ana.journal`), for an app's user; the full path is `path`.
    public var message: String { text(naming: Self.fileName) }

    /// The file the error is about, as given (`backupRefused`: the destination), or nil.
    public var path: String? {
        switch self {
        case let .io(path, _, _, _), let .locked(path), let .damaged(path, _, _), let .notAJournal(path, _),
             let .writerPoisoned(path, _):
            return path
        case let .backupRefused(_, destination, _): return destination
        case .invalidRecord: return nil
        }
    }

    /// A stable code an app can switch on and localise (README.md §"Error codes").
    public var code: String {
        switch self {
        case .io: return "journal.io"
        case .locked: return "journal.locked"
        case .damaged: return "journal.damaged"
        case .notAJournal: return "journal.not_a_journal"
        case .invalidRecord: return "journal.invalid_record"
        case .writerPoisoned: return "journal.writer_poisoned"
        case .backupRefused: return "backup.refused"
        }
    }

    /// The message, each path written by `name` (`{ $0 }` for the path as given, `fileName` for its last component).
    public func text(naming name: (String) -> String) -> String {
        switch self {
        case let .io(path, operation, errno, message):
            return "\(name(path)): \(operation) failed: \(message) (errno \(errno))"
        case let .locked(path):
            return "\(name(path)): another process is writing to this journal (it holds the writer lock); wait for it to finish and try again"
        case let .damaged(path, offset, reason):
            return "\(name(path)): damaged at byte \(offset): \(reason); nothing was written. Run `journal verify \(name(path))` for details and `journal salvage \(name(path)) -o NEW` to recover every intact event"
        case let .notAJournal(path, reason):
            return "\(name(path)): not a journal: \(reason)"
        case let .invalidRecord(reason):
            return "invalid record: \(reason)"
        case let .writerPoisoned(path, cause):
            return "\(name(path)): an earlier write failed and could not be undone (\(cause)); reopen the journal to repair its tail"
        case let .backupRefused(source, destination, reason):
            return "\(name(destination)): not backed up from \(name(source)): \(reason); \(name(destination)) was left as it was"
        }
    }
}

extension StoreError {
    /// A path's last component (`/var/…/ana.journal` → `ana.journal`): how an app's error message names a file.
    public static func fileName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }
}
