import JournalFile
import JournalEvents
import JournalModel
import JournalProjections
import TrainingDomain

/// Where an app keeps its users' journals: one directory, one `<user-id>.journal` per user (FORMAT.md §"Locking and
/// files beside the journal"). The device tag and the clock are injected, so tests and previews control time.
///
///     let journals = JournalDirectory(path: appSupport, device: "ph", clock: JournalDirectory.systemClock)
///     let journal = try journals.open(user: "ana")
public struct JournalDirectory: Sendable {
    /// The directory holding the journals, one `<user-id>.journal` each.
    public let path: String
    /// Tags the ids of the events this installation writes (`ph` → `ph-1`, `ph-2`, …): 1–16 of `a-z0-9_`.
    public let device: String
    /// The time each event is recorded at and each screen is read as of (`systemClock` in an app; a fixed clock in
    /// tests and previews).
    public let clock: @Sendable () -> Timestamp

    /// Journals in the directory `path` (created on the first `open`), written as `device` at the times `clock` gives.
    public init(path: String, device: String, clock: @escaping @Sendable () -> Timestamp) {
        self.path = path
        self.device = device
        self.clock = clock
    }

    /// The longest user id, in bytes of UTF-8.
    public static let maximumUserIDBytes = 64
    /// The extension of a user's journal file: `<user-id>.journal`.
    public static let fileExtension = ".journal"

    /// Checks a user id: 1–64 bytes of UTF-8, no `/`, `\`, NUL or other control character, and no `..` anywhere (so
    /// `.` and `..` are refused too). A user id comes from outside (an account system, a sync request), so it is checked
    /// before it becomes part of a path: it can never name a file outside the directory. Returns nil when it is usable.
    public static func problem(with user: String) -> UserIDError? {
        func refuse(_ reason: String) -> UserIDError { UserIDError(user: user, reason: reason) }
        let bytes = Array(user.utf8)
        if bytes.isEmpty { return refuse("it is empty") }
        if bytes.count > maximumUserIDBytes { return refuse("it is \(bytes.count) bytes long, more than \(maximumUserIDBytes)") }
        if bytes.contains(0) { return refuse("it contains a NUL byte") }
        if bytes.contains(UInt8(ascii: "/")) { return refuse("it contains \"/\" (a user id must not lead out of the journal directory)") }
        if bytes.contains(UInt8(ascii: "\\")) { return refuse("it contains \"\\\" (a user id must not lead out of the journal directory)") }
        if user.contains("..") || user == "." { return refuse("it contains \"..\" or is \".\" (a user id must not lead out of the journal directory)") }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return refuse("it contains a control character") }
        return nil
    }

    /// The journal file of `user`, `<path>/<user>.journal`, after checking that the id cannot name a file outside the
    /// directory (`problem(with:)`).
    public func journalPath(user: String) throws(UserIDError) -> String {
        if let problem = JournalDirectory.problem(with: user) { throw problem }
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        return (base.isEmpty ? "." : base) + "/" + user + JournalDirectory.fileExtension
    }

    /// Opens (or creates) the user's journal for recording: recovers a torn tail, folds every event once, and from
    /// then on folds each new event as it is appended. Only one writer per journal: a second `open` of the same user
    /// fails with `JournalError.store(.locked)` until the first is closed.
    public func open(user: String, options: EventJournal.Options = EventJournal.Options(),
                     context: ProjectionContext = .trainingDomain) throws -> UserJournal {
        try UserJournal(path: journalPath(user: user), user: user, device: device, clock: clock, options: options, context: context)
    }

    /// The home page of `user` as of the clock's now, without opening the journal for recording (no writer lock, no
    /// ledger): from `<user-id>.journal.home-snapshot` plus the events after it when that gives the full replay's
    /// answer (`HomePage`, ~1 ms on a 5-year journal), else from a full replay that rewrites it. The page `journal home` prints:
    /// events stamped later than now are left out, as a replay as of now leaves them out.
    public func homePage(user: String, context: ProjectionContext = .trainingDomain, useSnapshot: Bool = true) throws -> HomePage {
        try HomePage.read(path: journalPath(user: user), asOf: nil, now: clock(), context: context, useSnapshot: useSnapshot)
    }
}

/// Why a user id cannot name a journal (`JournalDirectory.problem(with:)` says which rule it breaks).
public struct UserIDError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The user id as given.
    public var user: String
    /// The rule it breaks, in words.
    public var reason: String
    /// The id (quoted, control characters escaped) and the rule it breaks.
    public var description: String { "user id \(UserIDError.quoted(user)) cannot name a journal: \(reason)" }
    /// A stable code (README.md §"Error codes").
    public var code: String { "user.invalid_id" }

    /// The id as a JSON-style quoted string, control characters escaped, cut to 80 characters.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars.prefix(80) {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + (text.unicodeScalars.count > 80 ? "…\"" : "\"")
    }
}
