@_exported import EventJournal
@_exported import JournalEvents
@_exported import JournalProjections
@_exported import TrainingDomain

/// Where an app keeps its users' journals: one directory, one `<user-id>.journal` per user (FORMAT.md §"Locking and
/// files beside the journal"). The device tag and the clock are injected, so tests and previews control time.
///
///     let journals = JournalDirectory(path: appSupport, device: "ph", clock: JournalDirectory.systemClock)
///     let journal = try journals.open(user: "ana")
public struct JournalDirectory: Sendable {
    public let path: String
    /// Tags the ids of the events this installation writes (`ph` → `ph-1`, `ph-2`, …): 1–16 of `a-z0-9_`.
    public let device: String
    public let clock: @Sendable () -> Timestamp

    public init(path: String, device: String, clock: @escaping @Sendable () -> Timestamp) {
        self.path = path
        self.device = device
        self.clock = clock
    }

    /// The journal file of `user`, after checking that the id cannot name a file outside the directory.
    public func journalPath(user: String) throws(UserIDError) -> String {
        try UserIDError.check(user)
        return (path.hasSuffix("/") ? path : path + "/") + user + ".journal"
    }

    /// Opens (or creates) the user's journal for recording: recovers a torn tail, folds every event once — from
    /// `<user-id>.journal.snapshot` plus the events after it when that snapshot is valid, rewriting it when it moved
    /// (`useSnapshot: false` replays everything and touches no snapshot) — and from then on folds each new event as
    /// it is appended. Only one writer per journal: a second `open` of the same user fails with
    /// `JournalError.store(.locked)` until the first is closed.
    public func open(user: String, options: EventJournal.Options = EventJournal.Options(),
                     context: ProjectionContext = .trainingDomain, useSnapshot: Bool = true) throws -> UserJournal {
        try UserJournal(path: journalPath(user: user), user: user, device: device, clock: clock, options: options, context: context,
                        useSnapshot: useSnapshot)
    }

    /// The home page of `user` as of the clock's now, without opening the journal for recording (no writer lock, no
    /// ledger): from `<user-id>.journal.home-snapshot` plus the events after it when that gives the full replay's
    /// answer (`HomePage`, ~1 ms on a 5-year journal), else from the whole ledger. The page `journal home` prints:
    /// events stamped later than now are left out, as a replay as of now leaves them out.
    public func homePage(user: String, context: ProjectionContext = .trainingDomain, useSnapshot: Bool = true) throws -> HomePage {
        try HomePage.read(path: journalPath(user: user), asOf: nil, now: clock(), context: context, useSnapshot: useSnapshot)
    }
}

/// Why a user id cannot name a journal: it must not be empty, hold `/`, NUL or `..`, nor exceed 200 bytes.
public struct UserIDError: Error, Equatable, CustomStringConvertible, Sendable {
    public var user: String
    public var reason: String
    public var description: String { "user id \"\(user)\" \(reason)" }

    static func check(_ user: String) throws(UserIDError) {
        func fail(_ reason: String) -> UserIDError { UserIDError(user: user, reason: reason) }
        if user.isEmpty { throw fail("is empty") }
        if user.contains("/") { throw fail("contains \"/\", which would leave the journal directory") }
        if user.contains("\0") { throw fail("contains a NUL byte") }
        if user.contains("..") { throw fail("contains \"..\", which could leave the journal directory") }
        if user.utf8.count > 200 { throw fail("is longer than 200 bytes") }
    }
}
