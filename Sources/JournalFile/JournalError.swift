import JournalEvents
import JournalModel
import JournalStore

/// Everything that can go wrong between a user's command and the journal's bytes, with
/// where it happened. `description` is the message the CLI prints.
public enum JournalError: Error, CustomStringConvertible, Sendable {
    /// An input event was refused; nothing was written. `line` is the input line (1-based) when read from a stream.
    case refused(path: String, line: Int?, problem: RecordingRules.Problem)
    /// A line already in the journal does not decode.
    case badStoredLine(path: String, line: Int, frameOffset: Int, problem: EventCodec.DecodingError)
    /// The store refused (lock, damage, I/O).
    case store(StoreError)
    /// The device tag given for ids is not usable.
    case badDeviceTag(String)
    /// Erasure of a journal that holds no event.
    case nothingToErase(path: String)
    /// The journal is already open for recording in this process (`UserJournal`'s registry); the same code and exit
    /// status as a lock another process holds.
    case openInThisProcess(path: String)

    /// The message with the journal's path as given (the CLI prints it: the path the user typed).
    public var description: String { text(naming: { $0 }) }

    /// The message with the journal named by its file name only (`ana.journal`), for an app's user: an app's
    /// journals live under a long container path, which is `path`.
    public var message: String { text(naming: StoreError.fileName) }

    /// The journal (or other file) the error is about, as given, or nil.
    public var path: String? {
        switch self {
        case let .refused(path, _, _), let .badStoredLine(path, _, _, _), let .nothingToErase(path), let .openInThisProcess(path): return path
        case let .store(error): return error.path
        case .badDeviceTag: return nil
        }
    }

    /// A stable code an app can switch on and localise, beside the message (README.md §"Error codes" lists them).
    public var code: String {
        switch self {
        case let .refused(_, _, problem): return problem.code
        case .badStoredLine: return "journal.bad_stored_line"
        case let .store(error): return error.code
        case .badDeviceTag: return "journal.bad_device_tag"
        case .nothingToErase: return "journal.nothing_to_erase"
        case .openInThisProcess: return "journal.locked"
        }
    }

    /// The message, the path written by `name`.
    public func text(naming name: (String) -> String) -> String {
        switch self {
        case let .refused(path, line, problem):
            let place = line.map { "input line \($0)" } ?? "the event"
            return "\(name(path)): \(place) was refused: \(problem); nothing was written"
        case let .badStoredLine(path, line, offset, problem):
            return "\(name(path)): line \(line) (in the frame at byte \(offset)) is not a valid event: \(problem). Run `journal verify \(name(path))`"
        case let .store(error):
            return error.text(naming: name)
        case let .nothingToErase(path):
            return "\(name(path)): holds no event, so there is nothing to erase; nothing was changed"
        case let .openInThisProcess(path):
            return "\(name(path)): is already open for recording in this app; use the journal already open, or close it first"
        case let .badDeviceTag(tag):
            return "device tag \"\(tag)\" is not valid: use 1–16 characters of a-z, 0-9 and _ (e.g. \"phone\", \"w1\")"
        }
    }

    /// The exit status the CLI uses (documented in README.md).
    public var exitCode: Int32 {
        if case .store(.locked) = self { return 3 }
        if case .openInThisProcess = self { return 3 }
        return 1
    }
}
