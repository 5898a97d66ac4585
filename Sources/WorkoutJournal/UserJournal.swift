import Foundation
import JournalModel
import JournalStore
import JournalFile

extension JournalDirectory {
    /// The device's wall clock, in its current UTC offset (what an app passes as `clock`; tests pass their own).
    public static let systemClock: @Sendable () -> Timestamp = { Timestamp(date: Date(), timeZone: .current) }
}

/// One user's journal as an app uses it: record events (checked by the same rules as `journal record`), read any
/// screen as a value, and observe screens as they change.
///
/// The journal keeps a `Ledger` folded incrementally: opening folds the file once, and each append folds only the
/// new events. Reads build an `Analysis` as of now (the injected clock, in the UTC offset of the latest event) and
/// return plain values. `observe(_:)` is an `AsyncStream` that yields the current value at once and then a new value
/// after every append that changes it, the way GRDB's `ValueObservation` feeds SwiftUI: the writer only publishes
/// the new ledger, and each observation projects it on its own task, outside the lock.
///
/// Thread-safe: every call takes one lock. Appends are durable (fsync) before they return; `write(_:)` runs them on
/// the journal's own serial queue for a caller (the main actor) that must not wait for the disk.
// @unchecked Sendable: every stored `var` (and the journal) is read and written only while holding `lock`.
public final class UserJournal: @unchecked Sendable {
    /// The user id the journal belongs to (its file is `<user>.journal`).
    public let user: String
    /// The journal file.
    public let path: String
    /// What the screens are computed with: the exercise catalogue, the rule sets and the settings they need.
    public let context: ProjectionContext
    let clock: @Sendable () -> Timestamp
    let lock = NSLock()
    let journal: EventJournal
    var folded: Ledger
    /// The `at` of the latest event folded (its UTC offset is the one reads show "now" in).
    var lastEventAt: Timestamp?
    /// Each observation's feed of published states (`observe`); the writer yields to it under the lock.
    var observers: [Int: AsyncStream<Published>.Continuation] = [:]
    /// The one serial queue `write(_:)` runs writes on, in the order they were asked for.
    let writeQueue = DispatchQueue(label: "WorkoutJournal.UserJournal.write")
    /// Ends each observation's stream (on `close()`).
    var finishers: [Int: () -> Void] = [:]
    var closed = false
    var nextObserver = 0
    /// Called with the events this device records, under the lock (`watchAppends`).
    var appendWatchers: [Int: ([Event]) -> Void] = [:]

    init(path: String, user: String, device: String, clock: @escaping @Sendable () -> Timestamp, options: EventJournal.Options,
         context: ProjectionContext) throws {
        self.user = user
        self.path = path
        self.clock = clock
        self.context = context
        var options = options
        // The app checks exercise ids against the catalogue unless the caller chose its own list.
        if options.catalogue == nil { options.catalogue = ExerciseCatalogue.builtInIDs }
        if options.cardio.isEmpty { options.cardio = ExerciseCatalogue.builtInCardioIDs }
        options.oneOpenWorkout = true
        let key = UserJournal.key(path)
        guard UserJournal.openJournals.reserve(key) else { throw JournalError.openInThisProcess(path: path) }
        do {
            journal = try EventJournal(path: path, device: device, options: options, clock: clock)
            // Every recorded event counts (the ledger's as-of time is the far future); reads then set the real "now".
            let state = try JournalState.replay(path: path)
            folded = state.ledger
            lastEventAt = state.lastEventAt
        } catch {
            UserJournal.openJournals.settle(key, nil)
            throw error
        }
        UserJournal.openJournals.settle(key, self)
    }

    // MARK: Journals open in this process

    struct Weak {
        weak var journal: UserJournal?
        init(_ journal: UserJournal) { self.journal = journal }
    }
    /// Every journal open for recording in this process, by the resolved path of its file.
    static let openJournals = OpenJournals()

    // @unchecked Sendable: `journals` is read and written only while holding `lock`.
    final class OpenJournals: @unchecked Sendable {
        private let lock = NSLock()
        private var journals: [String: Weak] = [:]
        /// Paths a `UserJournal` is being opened on, between `reserve` and `settle`.
        private var opening: Set<String> = []
        func withLock<T>(_ body: (inout [String: Weak]) -> T) -> T { lock.withLock { body(&journals) } }

        /// Claims `key` for one open: false when a journal is open on it in this process, or being opened. The
        /// file's writer lock refuses a second writer on Linux; on Darwin, which has no such lock (FORMAT.md §9),
        /// this is what keeps one writer per journal in a process.
        func reserve(_ key: String) -> Bool {
            lock.withLock {
                guard journals[key]?.journal == nil, !opening.contains(key) else { return false }
                opening.insert(key)
                return true
            }
        }

        /// Ends `reserve`'s claim, registering `journal` when the open succeeded.
        func settle(_ key: String, _ journal: UserJournal?) {
            lock.withLock {
                opening.remove(key)
                if let journal { journals[key] = Weak(journal) }
            }
        }
    }

    static func key(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The journal open for recording at `path` in this process (through `JournalDirectory.open(user:)` or
    /// `UserJournal.open(path:)`), if any: a sync of that file goes through it (SYNC.md §"Syncing an open journal")
    /// rather than opening the file a second time, which its writer lock refuses.
    public static func openInThisProcess(path: String) -> UserJournal? {
        openJournals.withLock { $0[key(path)]?.journal }
    }

    /// Opens (or creates) the journal file at `path` for recording, as `JournalDirectory.open(user:)` opens a user's:
    /// for a tool given a path rather than a user id (`journal template save`, `journal import`, …). Its `user` is the
    /// file's name without `.journal`.
    public static func open(path: String, device: String, clock: @escaping @Sendable () -> Timestamp = JournalDirectory.systemClock,
                            options: EventJournal.Options = EventJournal.Options(),
                            context: ProjectionContext = .trainingDomain) throws -> UserJournal {
        var name = Substring(path.split(separator: "/").last ?? Substring(path))
        if name.hasSuffix(JournalDirectory.fileExtension) { name = name.dropLast(JournalDirectory.fileExtension.count) }
        return try UserJournal(path: path, user: String(name), device: device, clock: clock, options: options, context: context)
    }

    /// Releases the writer lock and ends every observation; the journal cannot record afterwards. With
    /// `discardingIfEmpty`, a journal file that this open created and that received no event is removed again (a
    /// refused first write leaves nothing behind).
    public func close(discardingIfEmpty: Bool = false) {
        UserJournal.openJournals.withLock { journals in
            if journals[UserJournal.key(path)]?.journal === self { journals[UserJournal.key(path)] = nil }
        }
        let finishers = lock.withLock { () -> [() -> Void] in
            if !closed { if discardingIfEmpty { _ = journal.closeDiscardingIfEmpty() } else { journal.close() } }
            closed = true
            let all = Array(self.finishers.values)
            self.finishers = [:]
            observers = [:]
            appendWatchers = [:]
            return all
        }
        // Outside the lock: finishing runs the streams' termination handlers, which take it.
        for finish in finishers { finish() }
    }

    // MARK: Recording

    /// Checks `draft` (a JSON object with `type` and the payload; `seq`, `id`, `at` and `v` are filled in) against
    /// every rule of FORMAT.md §"Rules at append time", appends it durably, folds it, and notifies observers.
    /// A refused draft changes nothing and throws `JournalError.refused` naming the field, the value and the rule.
    @discardableResult
    public func record(_ draft: JSONValue) throws(JournalError) -> Event {
        try record(batch: [draft])[0]
    }

    /// All or nothing: the drafts are checked in order and appended with one fsync. `framing: .batch` writes them
    /// sealed, as an import does (FORMAT.md §5 "Batches"). A closed journal throws `JournalError.store(.writerPoisoned)`
    /// ("the journal was closed; open it again") and changes nothing.
    @discardableResult
    public func record(batch drafts: [JSONValue], framing: EventJournal.Framing = .live) throws(JournalError) -> [Event] {
        try record(batch: drafts.map(EventJournal.Draft.value), framing: framing)
    }

    /// `record(batch:framing:)` of drafts of any kind (`journal import` hands typed ones).
    @discardableResult
    public func record(batch drafts: [EventJournal.Draft], framing: EventJournal.Framing = .live) throws(JournalError) -> [Event] {
        lock.lock()
        defer { lock.unlock() }
        try checkOpenLocked()
        let events = try journal.record(batch: drafts, framing: framing)
        for event in events { folded.apply(event) }
        lastEventAt = events.last?.at ?? lastEventAt
        notifyLocked(appended: events)
        return events
    }

    /// Publishes the new state to every observation (each projects it on its own task), then gives every append
    /// watcher the events this device recorded (`appendedEvents`); under the lock.
    func notifyLocked(appended: [Event] = []) {
        if !observers.isEmpty {
            let state = publishedLocked()
            for observer in observers.values { observer.yield(state) }
        }
        if !appended.isEmpty { for watcher in appendWatchers.values { watcher(appended) } }
    }

    /// Merges `incoming` (what a sync pulled from another copy of this journal) through this journal's own writer,
    /// with `journal merge`'s rules (`EventJournal.absorb`: appended when they all come after the journal's last
    /// event, else the file rewritten), folds the result and gives every observation the new state. Throws as
    /// `Merge.absorb`; a closed journal throws `JournalError.store(.writerPoisoned)` and changes nothing.
    @discardableResult
    public func absorb(_ incoming: [Event], incomingName: String = "the incoming events") throws -> Merge.Absorbed {
        lock.lock()
        defer { lock.unlock() }
        try checkOpenLocked()
        let absorbed = try journal.absorb(incoming, incomingName: incomingName)
        if absorbed.rewritten {
            folded = Ledger(asOf: folded.asOf)
            for event in absorbed.events { folded.apply(event) }
            lastEventAt = absorbed.events.last?.at
        } else if absorbed.appended > 0 {
            for event in absorbed.events.suffix(absorbed.appended) { folded.apply(event) }
            lastEventAt = absorbed.events.last?.at ?? lastEventAt
        } else {
            return absorbed
        }
        notifyLocked()
        return absorbed
    }

    /// `absorb` reading only the events after `mark` (`EventJournal.absorb(_:after:)`, SYNC.md §"Rounds that read
    /// what changed"), under the lock: what it appended is folded and every observation gets the new state. Nil when
    /// the merge needs the whole journal (nothing was written; `absorb` does it).
    public func absorb(_ incoming: [Event], after mark: Merge.TailMark?) throws -> Merge.TailAbsorbed? {
        lock.lock()
        defer { lock.unlock() }
        try checkOpenLocked()
        guard let absorbed = try journal.absorb(incoming, after: mark) else { return nil }
        if absorbed.appended > 0 {
            for event in absorbed.events.suffix(absorbed.appended) { folded.apply(event) }
            lastEventAt = absorbed.events.last?.at ?? lastEventAt
            notifyLocked()
        }
        return absorbed
    }

    /// Every event of the journal, in file order, read under the lock (what a sync pushes from).
    public func events() throws -> [Event] {
        lock.lock()
        defer { lock.unlock() }
        try checkOpenLocked()
        return try EventReader.events(path: path)
    }

    func checkOpenLocked() throws(JournalError) {
        if closed { throw .store(.writerPoisoned(path: path, cause: "the journal was closed; open it again")) }
    }

    /// The rules as they stand (workout statuses, the next seq): what a UI may check before offering an action.
    public var rules: RecordingRules { lock.withLock { journal.rules } }

    // MARK: Reading

    /// The ledger folded over every event recorded so far (its `asOf` is the far future).
    public var ledger: Ledger { lock.withLock { folded } }

    /// Every projection's input as of now: the injected clock's time in the UTC offset of the latest event.
    public func analysis() -> Analysis { lock.withLock { analysisLocked() } }

    func analysisLocked() -> Analysis { publishedLocked().analysis(now: clock(), context: context) }

    /// What the writer publishes after a change: the ledger folded so far (a copy-on-write value) and the `at` of
    /// the latest event. An observation builds its `Analysis` from it on its own task.
    struct Published: Sendable {
        var ledger: Ledger
        var lastEventAt: Timestamp?

        /// The projections' input as of `now`, in the UTC offset of the latest event.
        func analysis(now: Timestamp, context: ProjectionContext) -> Analysis {
            var ledger = self.ledger
            ledger.asOf = Projections.defaultAsOf(lastEventAt: lastEventAt, now: now)
            return Analysis(ledger, context: context)
        }
    }

    func publishedLocked() -> Published { Published(ledger: folded, lastEventAt: lastEventAt) }

    /// Time travel: replays the file as of an earlier time `asOf` (events recorded later are ignored).
    public func analysis(asOf: Timestamp) throws(JournalError) -> Analysis {
        lock.lock()
        defer { lock.unlock() }
        let read = try JournalRead.read(path: path, asOf: asOf, untilSeq: nil, now: clock())
        return Analysis(read.ledger, context: context)
    }

    /// Any projection of the journal as of now: `journal.read(HomeState.init)`.
    public func read<Value>(_ projection: (Analysis) -> Value) -> Value { projection(analysis()) }

    /// The home screen now (`JournalScreen.home`).
    public var home: HomeState { read(.home) }
    /// The history list now (`JournalScreen.history(_:)`).
    public func history(_ query: HistoryQuery = HistoryQuery()) -> HistoryState { read(.history(query)) }
    /// A finished workout's page (the latest when `id` is nil).
    public func workout(_ id: WorkoutID? = nil) -> WorkoutDetail? { read { WorkoutDetail($0, workout: id?.rawValue) } }
    /// The workout logger now (`JournalScreen.activeWorkout`): nil when no workout is open.
    public var active: ActiveWorkoutState? { read(.activeWorkout) }
    /// An exercise's progress page now (`JournalScreen.exercise(_:)`): `exercise` is an id or a catalogue name.
    public func exercise(_ exercise: String) -> ExerciseHistoryState { read(.exercise(exercise)) }
    /// An exercise's progress page now, by its id as the screens' rows give it (`ActiveWorkoutState.Exercise.exerciseID`).
    public func exercise(_ exercise: ExerciseID) -> ExerciseHistoryState { read(.exercise(exercise.rawValue)) }
    /// The progress charts now (`JournalScreen.progress(_:)`).
    public func progress(_ range: ProgressRange = .oneMonth) -> ProgressState { read(.progress(range)) }
    /// The templates list now (`JournalScreen.templates`).
    public var templates: TemplatesState { read(.templates) }
    /// The profile screen now (`JournalScreen.profile`).
    public var profile: ProfileState { read(.profile) }
    /// Every projection now, as `journal replay --json` prints them.
    public var everything: AllProjections { read { AllProjections($0) } }

    // MARK: Observing

    /// The events this device records from now on (`record`, every typed call, `eraseAllData`'s marker), one
    /// element per append; what a live sync pushes (`UserJournal.startSync`). Events merged in from elsewhere
    /// (`absorb`) are not in it. Ends on `close()` or when the task iterating it is cancelled.
    public func appendedEvents() -> AsyncStream<[Event]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [Event].self)
        lock.lock()
        defer { lock.unlock() }
        if closed {
            continuation.finish()
            return stream
        }
        appendWatchers[keepLocked(continuation)] = { events in continuation.yield(events) }
        return stream
    }

    /// A new stream's id: `close()` finishes the stream (or calls `finish`, which ends it), and its end (cancelled,
    /// or finished) calls `finish` and forgets whatever was kept under the id. Under the lock.
    func keepLocked<Element>(_ continuation: AsyncStream<Element>.Continuation, finish: (@Sendable () -> Void)? = nil) -> Int {
        let id = nextObserver
        nextObserver += 1
        finishers[id] = finish ?? { continuation.finish() }
        continuation.onTermination = { [weak self] _ in
            finish?()
            guard let self else { return }
            self.lock.withLock {
                _ = self.observers.removeValue(forKey: id)
                _ = self.appendWatchers.removeValue(forKey: id)
                _ = self.finishers.removeValue(forKey: id)
            }
        }
        return id
    }

    /// The projection's current value at once, then its new value after each change (an append, a merge, an
    /// erasure) that changes it, in the order of the changes. The stream keeps only the newest value for a slow
    /// reader, ends on `close()` (after the values of the changes before it) or when the task iterating it is
    /// cancelled; made on a closed journal, it yields the last state's value and ends.
    ///
    /// `projection` runs on the caller's thread for the first value and then on the observation's own task: the
    /// writer only publishes the new ledger under its lock and returns, so observers never slow an append down and
    /// a projection may read the journal. It should be a pure function of the `Analysis` (its "now" is the clock's).
    ///
    ///     for await home in journal.observe({ HomeState($0) }) { model.home = home }
    public func observe<Value: Equatable & Sendable>(_ projection: @escaping @Sendable (Analysis) -> Value) -> AsyncStream<Value> {
        observation(projection).stream
    }

    /// `observe(_:)`, with its first value (already in the stream) also returned.
    func observation<Value: Equatable & Sendable>(_ projection: @escaping @Sendable (Analysis) -> Value) -> (first: Value, stream: AsyncStream<Value>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let (states, feed) = AsyncStream.makeStream(of: Published.self, bufferingPolicy: .bufferingNewest(1))
        let (current, open) = lock.withLock { () -> (Published, Bool) in
            if !closed { observers[keepLocked(continuation, finish: { feed.finish() })] = feed }
            return (publishedLocked(), !closed)
        }
        let clock = self.clock, context = self.context
        let first = projection(current.analysis(now: clock(), context: context))
        continuation.yield(first)
        guard open else {
            continuation.finish()
            return (first, stream)
        }
        // Off the caller's actor and off the writer's lock: each published state, in order, newest first when behind.
        Task.detached {
            var last = first
            for await state in states {
                let value = projection(state.analysis(now: clock(), context: context))
                guard value != last else { continue }
                last = value
                continuation.yield(value)
            }
            continuation.finish()
        }
        return (first, stream)
    }
}
