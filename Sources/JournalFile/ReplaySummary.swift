import JournalEvents
import JournalModel

/// The headline numbers `journal replay` prints before the projections.
///
/// Two parts: what was read (events, unknown types, the last seq, the first and last activity), counted by
/// `apply(_:)` without interpreting any event, and what it means (workouts, sets, volume), which is the model's
/// (`Ledger.totals`, JournalModel) as of the same events: `describing(_:)` takes it from the ledger folded with
/// them. One fold gives every number, so the summary agrees with history, progress and every export.
public struct ReplaySummary: Equatable, Sendable {
    public var events = 0
    public var unknownEvents = 0
    public var firstActivity: Timestamp?
    public var lastActivity: Timestamp?
    public var lastSeq = 0
    /// The model's totals (`describing(_:)`); zero until then.
    public var totals = WorkoutTotals()

    public var workoutsFinished: Int { totals.finished }
    public var workoutsDiscarded: Int { totals.discarded }
    public var workingSets: Int { totals.workingSets }
    public var warmupSets: Int { totals.warmupSets }
    public var volumeKg: Double { totals.volumeKilograms }

    public init() {}

    /// The summary of `events` in seq order: counted, and described by the ledger folded from them as of `asOf`.
    public init(events: some Sequence<Event>, asOf: Timestamp = Ledger.everything,
                countingVolumeOf addsVolume: (Ledger) -> (String) -> Bool = { _ in { _ in true } }) {
        var ledger = Ledger(asOf: asOf)
        for event in events where event.at.epochMilliseconds <= asOf.epochMilliseconds {
            apply(event)
            ledger.apply(event)
        }
        self = describing(ledger, countingVolumeOf: addsVolume(ledger))
    }

    public static let kilogramsPerPound = Units.kilogramsPerPound

    /// Counts one event read (every event, `data.cleared` included: the counts are of the stream, not of its meaning).
    public mutating func apply(_ event: Event) {
        events += 1
        lastSeq = event.seq
        if firstActivity == nil { firstActivity = event.at }
        if lastActivity.map({ event.at > $0 }) ?? true { lastActivity = event.at }
        // `knownType` is nil exactly for the types outside the vocabulary (`EventVocabulary.isKnown`).
        if event.knownType == nil { unknownEvents += 1 }
    }

    /// This summary with the workouts, sets and volume of `ledger`, which must have folded the same events; the
    /// volume counts the sets of the exercises `addsVolume` names (the views pass `Ledger.addsVolume`).
    public func describing(_ ledger: Ledger, countingVolumeOf addsVolume: (String) -> Bool = { _ in true }) -> ReplaySummary {
        var summary = self
        summary.totals = ledger.totals(countingVolumeOf: addsVolume)
        return summary
    }
}
