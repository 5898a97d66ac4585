import JournalFile
import JournalEvents
import JournalModel
import JournalProjections
import JournalStore

/// The state in `<journal>.home-snapshot` (FORMAT.md §9, PROJECTIONS.md §"Snapshots"): the home page's own
/// projection (`HomeFold`) and what decides whether it may answer as of T, written at the journal's stable position
/// by the full replay the home page falls back to.
public struct HomeSnapshotState: Equatable, Codable, Sendable {
    /// Changes with `HomeFold.snapshotVersion`, `Ledger.snapshotVersion` or this type's own fields.
    public static var stateVersion: Int { HomeFold.snapshotVersion * 1_000_000 + Ledger.snapshotVersion * 1_000 + layoutVersion }
    static let layoutVersion = 1

    /// The home page's own projection, compacted from the ledger (`HomeFold(compacting:)`).
    public var home: HomeFold
    /// As `JournalState`'s: the latest instant folded (epoch milliseconds).
    public var latestMilliseconds: Int64?
    /// As `JournalState`'s: the `at` of the last event in file order.
    public var lastEventAt: Timestamp?

    /// The snapshot of `state`: its home fold, latest instant and last event's `at`.
    public init(_ state: JournalState) {
        home = HomeFold(compacting: state.ledger)
        latestMilliseconds = state.latestMilliseconds
        lastEventAt = state.lastEventAt
    }
}

/// The home page of a journal as of T (default now, in the offset of its last event), read from
/// `<journal>.home-snapshot` and the events after it when that gives the full replay's answer, else from the whole
/// ledger (a full replay, which rewrites the home snapshot). Opening a 5-year journal this way decodes tens of
/// kilobytes instead of every set ever logged (BENCHMARKS.md §"The home page").
public struct HomePage: Sendable {
    /// The home screen's state as of the time asked for.
    public var home: HomeState
    /// The display unit (the table prints weights in it).
    public var unit: WeightUnit
    /// `.resumed`: from the home snapshot and that many events after it; `.fullReplay`: why not.
    public var outcome: SnapshotReplay.Outcome

    /// The home snapshot beside `journal`: `<journal>.home-snapshot`.
    public static func snapshotPath(for journal: String) -> String { journal + ".home-snapshot" }

    /// Why the home snapshot did not answer, besides the container's own problems (`ProjectionSnapshot.Problem`).
    public static let eventsAfterAsOf = "events later than the as-of time"
    /// Why the home snapshot did not answer: an event after it edits a workout the snapshot keeps only as a summary.
    public static let editsSummarised = "an event after it needs a summarised workout's sets"
    /// Why the home snapshot did not answer: a workout finished after it sorts before the workouts it summarised.
    public static let backdated = "a workout finished after it sorts before the ones it summarised"

    /// Reads the home page of `path`. With `useSnapshot` false, the home snapshot is neither read nor written.
    public static func read(path: String, storage: any Storage = PosixStorage(), asOf: Timestamp?, now: Timestamp,
                            context: ProjectionContext, useSnapshot: Bool = true) throws(JournalError) -> HomePage {
        var reason = SnapshotReplay.disabled
        var validAt: JournalPosition?
        if useSnapshot {
            let loaded: Result<ProjectionSnapshot<HomeSnapshotState>, ProjectionSnapshot<HomeSnapshotState>.Problem> =
                SnapshotReplay.load(snapshotPath(for: path), storage: storage, stateVersion: HomeSnapshotState.stateVersion)
            switch loaded {
            case .success(let snapshot):
                validAt = snapshot.position
                switch try resume(snapshot, path: path, storage: storage, asOf: asOf, now: now, context: context) {
                case .success(let page): return page
                case .failure(let why): reason = why.reason
                }
            case .failure(let problem):
                reason = problem.description
            }
        }
        // The whole ledger; the home snapshot is rewritten at the stable point when it was missing, damaged or older.
        let kept = validAt
        let state = try JournalState.replay(path: path, storage: storage, homeWanted: useSnapshot ? { $0 != kept } : nil)
        var ledger: Ledger
        if state.answers(asOf: asOf ?? now, untilSeq: nil) {
            ledger = state.ledger
            ledger.asOf = asOf ?? Projections.defaultAsOf(lastEventAt: state.lastEventAt, now: now)
        } else {
            // Events later than T: the replay as of T (rare: a clock set back, or an earlier --as-of).
            ledger = try JournalRead.read(path: path, storage: storage, asOf: asOf, untilSeq: nil, now: now).ledger
        }
        let analysis = Analysis(ledger, context: context)
        return HomePage(home: HomeState(analysis), unit: analysis.unit, outcome: .fullReplay(because: reason))
    }

    struct Unusable: Error { var reason: String }

    /// The page from `snapshot` and the events after it, or why it cannot give the full replay's answer.
    static func resume(_ snapshot: ProjectionSnapshot<HomeSnapshotState>, path: String, storage: any Storage, asOf: Timestamp?,
                       now: Timestamp, context: ProjectionContext) throws(JournalError) -> Result<HomePage, Unusable> {
        var state = snapshot.state
        // As `JournalRead`: usable only when no event folded is later than T (now, when no T is given).
        let limit = (asOf ?? now).epochMilliseconds
        if let latest = state.latestMilliseconds, latest > limit { return .failure(Unusable(reason: SnapshotReplay.notAccepted)) }
        let decoder = EventCodec.StreamDecoder()
        var replayed = 0
        var started = false
        do {
            let read = try JournalReader.read(path: path, storage: storage, resumingAt: snapshot.position, onFrame: { offset in
                if !started {
                    started = true
                    if offset != snapshot.position.offset { throw Unusable(reason: ProjectionSnapshot<HomeSnapshotState>.Problem.stale.description) }
                }
            }, onRecord: { line, _ in
                guard let event = try? decoder.decode(line) else { return }
                if event.at.epochMilliseconds > limit { throw Unusable(reason: eventsAfterAsOf) }
                guard state.home.apply(event) else { throw Unusable(reason: editsSummarised) }
                state.lastEventAt = event.at
                replayed += 1
            })
            if !started && !read.resumed { return .failure(Unusable(reason: ProjectionSnapshot<HomeSnapshotState>.Problem.stale.description)) }
        } catch let unusable as Unusable {
            return .failure(unusable)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.io(path: path, operation: "read", errno: 0, message: "\(error)"))
        }
        let t = asOf ?? Projections.defaultAsOf(lastEventAt: state.lastEventAt, now: now)
        guard let home = state.home.homeView(asOf: t, context: context) else { return .failure(Unusable(reason: backdated)) }
        return .success(HomePage(home: home, unit: state.home.ledger.displayUnit, outcome: .resumed(eventsReplayed: replayed)))
    }

    /// Writes `<journal>.home-snapshot` for `state` at `position` (silently skipped on any failure: it is a cache).
    static func writeSnapshot(of state: JournalState, at position: JournalPosition, journal: String, storage: any Storage) {
        let snapshot = ProjectionSnapshot(stateVersion: HomeSnapshotState.stateVersion, position: position, state: HomeSnapshotState(state))
        guard let bytes = try? snapshot.encoded() else { return }
        SnapshotFile.write(bytes, to: snapshotPath(for: journal), storage: storage)
    }
}
