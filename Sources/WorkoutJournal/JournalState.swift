import EventJournal
import JournalEvents
import JournalModel
import JournalProjections
import JournalStore

/// What one pass over a journal gives every screen and `journal replay`: the projections' ledger (folded as of the
/// far future) and the replay summary, plus what decides whether they may answer a question as of T or up to a seq.
/// It is the state kept in `<journal>.snapshot` (FORMAT.md §9, PROJECTIONS.md §"Snapshots"), shared by the CLI and
/// the app facade.
public struct JournalState: Codable, Equatable, Sendable {
    /// The snapshot's state version: changes with `Ledger.snapshotVersion`, `ReplaySummary.snapshotVersion` or this
    /// type's own fields (`layoutVersion`).
    public static var stateVersion: Int {
        Ledger.snapshotVersion * 1_000_000 + ReplaySummary.snapshotVersion * 1_000 + layoutVersion
    }
    static let layoutVersion = 1
    /// A valid snapshot is rewritten once this many events follow it: resuming then folds at most about this many
    /// (a few milliseconds), while encoding a 5-year state costs far more and is not paid on every seal.
    public static let rewriteAfter = 2048

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

    public init() {}

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

    /// Every event of `path` folded, from `<journal>.snapshot` when it is valid (and rewriting it when it moved).
    /// `<journal>.home-snapshot` (`HomePage`) is written with it, from the same state, and also when
    /// `homeWanted` says so of the stable position (the home page found it missing, damaged or behind).
    public static func replay(path: String, storage: any Storage = PosixStorage(), useSnapshot: Bool = true,
                              untilSeq: Int? = nil, accept: (JournalState) -> Bool = { _ in true },
                              replayWhenUnusable: Bool = true, homeWanted: @escaping (JournalPosition) -> Bool = { _ in false })
        throws(JournalError) -> (state: JournalState, outcome: SnapshotReplay.Outcome, folded: Bool) {
        try SnapshotReplay.replay(path: path, storage: storage, stateVersion: stateVersion, initial: JournalState(),
                                  untilSeq: untilSeq, useSnapshot: useSnapshot, accept: accept,
                                  replayWhenUnusable: replayWhenUnusable, rewriteAfter: rewriteAfter,
                                  companion: (wanted: homeWanted, write: { state, position in
                                      HomePage.writeSnapshot(of: state, at: position, journal: path, storage: storage)
                                  }), fold: fold)
    }
}

/// A journal read for a question: as of T (`--as-of`, default now in the offset of the last event) and up to a seq
/// (`--until-seq`). Every CLI view, `journal replay`, the facade's time travel and the benchmarks read through here.
public struct JournalRead: Sendable {
    /// The ledger as of T.
    public var ledger: Ledger
    /// The summary of the events at or before T: their counts, and the workouts, sets and volume of `ledger`.
    public var summary: ReplaySummary
    /// How it was obtained: resumed from the snapshot, or why the whole journal was replayed.
    public var outcome: SnapshotReplay.Outcome

    public init(ledger: Ledger, summary: ReplaySummary, outcome: SnapshotReplay.Outcome) {
        self.ledger = ledger
        self.summary = summary.describing(ledger)
        self.outcome = outcome
    }

    /// Reads `path` as of `asOf` (nil: `now` in the offset of the last event read) up to `untilSeq`.
    ///
    /// With `useSnapshot`, the snapshot is used only when it folded nothing past the question (no seq above
    /// `untilSeq`, no event later than `asOf`), the events after it are folded on top, and the answer is taken only
    /// when none of those is later than T either; otherwise the journal is replayed from the start with the filters,
    /// once. Without a usable snapshot, a question about the whole journal (no `untilSeq`) is answered by the full
    /// replay that also writes the snapshot; one up to `untilSeq` by the filtered replay alone (its state stops
    /// short of the journal, so it could not be saved). The answer is the same either way, byte for byte
    /// (`JournalSnapshotTests`).
    public static func read(path: String, storage: any Storage = PosixStorage(), asOf: Timestamp?, untilSeq: Int?,
                            now: Timestamp, useSnapshot: Bool = true, homeWanted: @escaping (JournalPosition) -> Bool = { _ in false },
                            progress: ((_ frameOffset: Int) -> Void)? = nil) throws(JournalError) -> JournalRead {
        var reason = SnapshotReplay.disabled
        if useSnapshot {
            let (state, outcome, folded) = try JournalState.replay(path: path, storage: storage, untilSeq: untilSeq,
                                                                   accept: { $0.answers(asOf: asOf, untilSeq: untilSeq) },
                                                                   replayWhenUnusable: untilSeq == nil, homeWanted: homeWanted)
            if !folded, case .fullReplay(let because) = outcome { reason = because }
            if folded {
                if state.answers(asOf: asOf ?? now, untilSeq: untilSeq) {
                    var ledger = state.ledger
                    ledger.asOf = asOf ?? Projections.defaultAsOf(lastEventAt: state.lastEventAt, now: now)
                    return JournalRead(ledger: ledger, summary: state.summary, outcome: outcome)
                }
                reason = "events later than the as-of time"
            }
        }
        // The full replay with the filters: what every reader did before snapshots.
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
        return JournalRead(ledger: ledger, summary: summary, outcome: .fullReplay(because: reason))
    }
}
