/// Where each user's journal lives: one file per user, `<root>/<user id>.journal`.
///
/// A user id comes from outside (an account system, a sync request), so it is checked before it
/// becomes part of a path: it can never name a file outside `root`.
public struct JournalDirectory: Sendable {
    public static let maximumUserIDBytes = 64
    public static let fileExtension = ".journal"

    public let root: String

    public init(root: String) { self.root = root }

    /// Why a user id cannot name a journal.
    public struct InvalidUserID: Error, Equatable, Sendable, CustomStringConvertible {
        public var userID: String
        public var reason: String
        public var description: String {
            "user id \(quoted(userID)) cannot name a journal: \(reason)"
        }

        /// The id as a JSON-style quoted string, control characters escaped, cut to 80 characters.
        func quoted(_ text: String) -> String {
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

    /// Checks a user id: 1–64 bytes of UTF-8, no `/`, `\`, NUL or other control character, and
    /// no `..` anywhere (so `.` and `..` are refused too). Returns nil when it is usable.
    public static func problem(with userID: String) -> InvalidUserID? {
        func refuse(_ reason: String) -> InvalidUserID { InvalidUserID(userID: userID, reason: reason) }
        let bytes = Array(userID.utf8)
        if bytes.isEmpty { return refuse("it is empty") }
        if bytes.count > maximumUserIDBytes { return refuse("it is \(bytes.count) bytes long, more than \(maximumUserIDBytes)") }
        if bytes.contains(0) { return refuse("it contains a NUL byte") }
        if bytes.contains(UInt8(ascii: "/")) { return refuse("it contains \"/\" (a user id must not lead out of the journal directory)") }
        if bytes.contains(UInt8(ascii: "\\")) { return refuse("it contains \"\\\" (a user id must not lead out of the journal directory)") }
        if userID.contains("..") || userID == "." { return refuse("it contains \"..\" or is \".\" (a user id must not lead out of the journal directory)") }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return refuse("it contains a control character") }
        return nil
    }

    /// The journal of `userID`: `<root>/<userID>.journal`. Throws when the id is not usable.
    public func path(forUser userID: String) throws(InvalidUserID) -> String {
        if let problem = JournalDirectory.problem(with: userID) { throw problem }
        let base = root.hasSuffix("/") ? String(root.dropLast()) : root
        return (base.isEmpty ? "." : base) + "/" + userID + JournalDirectory.fileExtension
    }
}
