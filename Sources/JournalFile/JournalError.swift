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

    public var description: String {
        switch self {
        case let .refused(path, line, problem):
            let place = line.map { "input line \($0)" } ?? "the event"
            return "\(path): \(place) was refused: \(problem); nothing was written"
        case let .badStoredLine(path, line, offset, problem):
            return "\(path): line \(line) (in the frame at byte \(offset)) is not a valid event: \(problem). Run `journal verify \(path)`"
        case let .store(error):
            return error.description
        case let .nothingToErase(path):
            return "\(path): holds no event, so there is nothing to erase; nothing was changed"
        case let .badDeviceTag(tag):
            return "device tag \"\(tag)\" is not valid: use 1–16 characters of a-z, 0-9 and _ (e.g. \"phone\", \"w1\")"
        }
    }

    /// The exit status the CLI uses (documented in README.md).
    public var exitCode: Int32 {
        if case .store(.locked) = self { return 3 }
        return 1
    }
}
