import JournalFile
import JournalEvents
import JournalModel
import JournalProjections
import JournalStore

/// What one pass over a journal gives every screen and `journal replay`: the projections' ledger (folded as of the
/// far future) and the replay summary, plus what decides whether they may answer a question as of T or up to a seq.
/// The home page's snapshot (`HomeSnapshotState`) is derived from it at the journal's stable position.
public struct JournalState: Equatable, Sendable {
    /// Every event folded (`asOf` is `Ledger.everything`).
    public var ledger = Ledger(asOf: Ledger.everything)
    /// The counts of the events read (the workouts in it are the ledger's: `JournalRead` describes them).
    public var summary = ReplaySummary()
    /// The highest seq folded; 0 before any event.
    public var maxSeq = 0
    /// The latest instant of any event folded (epoch milliseconds); nil before any event.
    public var latestMilliseconds: Int64?
    /// The `at` of the last event folded in file order (its UTC offset is the default as-of time's).
    public var lastEventAt: Timestamp?

    /// The state before any event.
    public init() {}

    /// Folds `event` (the next in file order) into `state`: the ledger, the summary, the highest seq and the latest
    /// instant.
    public static func fold(_ state: inout JournalState, _ event: Event) {
        state.ledger.apply(event)
        state.summary.apply(event)
        state.maxSeq = max(state.maxSeq, event.seq)
        state.latestMilliseconds = max(state.latestMilliseconds ?? .min, event.at.epochMilliseconds)
        state.lastEventAt = event.at
    }

    /// True when every event folded is at or before `asOf` (compared as instants) and, with `untilSeq`, none is
    /// after it: then this state, with T set, is exactly what a replay as of `asOf` up to `untilSeq` folds.
    public func answers(asOf: Timestamp?, untilSeq: Int?) -> Bool {
        if let untilSeq, maxSeq > untilSeq { return false }
        if let asOf, let latestMilliseconds, latestMilliseconds > asOf.epochMilliseconds { return false }
        return true
    }

    /// Every event of `path` folded from the start. `<journal>.home-snapshot` (`HomePage`) is written from the state
    /// at the stable position when `homeWanted` says so of that position (the home page found it missing, damaged
    /// or behind).
    public static func replay(path: String, storage: any Storage = PosixStorage(),
                              homeWanted: ((JournalPosition) -> Bool)? = nil) throws(JournalError) -> JournalState {
        try SnapshotReplay.replay(path: path, storage: storage, initial: JournalState(),
                                  checkpoint: homeWanted.map { wanted in
                                      (wanted: wanted, write: { state, position in
                                          HomePage.writeSnapshot(of: state, at: position, journal: path, storage: storage)
                                      })
                                  }, fold: fold)
    }
}

/// A journal read for a question: as of T (`--as-of`, default now in the offset of the last event) and up to a seq
/// (`--until-seq`). Every CLI view, `journal replay`, the facade's time travel and the benchmarks read through here.
public struct JournalRead: Sendable {
    /// The ledger as of T.
    public var ledger: Ledger
    /// The summary of the events at or before T: their counts, and the workouts, sets and volume of `ledger`.
    public var summary: ReplaySummary

    /// The read of `ledger`, with `summary`'s counts describing its workouts, sets and volume.
    public init(ledger: Ledger, summary: ReplaySummary) {
        self.ledger = ledger
        self.summary = summary.describing(ledger, countingVolumeOf: ledger.addsVolume)
    }

    /// Reads `path` from the start as of `asOf` (nil: `now` in the offset of the last event read) up to `untilSeq`.
    public static func read(path: String, storage: any Storage = PosixStorage(), asOf: Timestamp?, untilSeq: Int?,
                            now: Timestamp, progress: ((_ frameOffset: Int) -> Void)? = nil) throws(JournalError) -> JournalRead {
        var summary = ReplaySummary()
        var ledger = Ledger(asOf: asOf ?? now)
        var lastEventAt: Timestamp?
        // The summary counts exactly what the ledger folds: the events up to T (the default T is now, as an instant).
        let limit = (asOf ?? now).epochMilliseconds
        try EventReader.forEach(path: path, storage: storage, untilSeq: untilSeq, progress: progress) { event in
            lastEventAt = event.at
            ledger.apply(event)
            if event.at.epochMilliseconds > limit { return }
            summary.apply(event)
        }
        if asOf == nil { ledger.asOf = Projections.defaultAsOf(lastEventAt: lastEventAt, now: now) }
        return JournalRead(ledger: ledger, summary: summary)
    }

    /// Every event of `path` in seq order up to `untilSeq`, as stored, with nothing folded: what an export, a diff or
    /// a timeline reads.
    public static func events(path: String, storage: any Storage = PosixStorage(), untilSeq: Int? = nil) throws(JournalError) -> [Event] {
        try EventReader.events(path: path, storage: storage, untilSeq: untilSeq)
    }
}
