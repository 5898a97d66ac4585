import JournalEvents
import JournalModel

/// Entry points: fold a journal once, then read any view.
public enum Projections {
    /// The ledger of `events` (in seq order) as of `asOf`.
    public static func ledger(events: some Sequence<Event>, asOf: Timestamp) -> Ledger {
        Ledger(events: events, asOf: asOf)
    }

    public static func analysis(events: some Sequence<Event>, asOf: Timestamp, context: ProjectionContext = .standard) -> Analysis {
        Analysis(Ledger(events: events, asOf: asOf), context: context)
    }

    /// Every projection at once, for `journal replay`.
    public static func all(events: some Sequence<Event>, asOf: Timestamp, context: ProjectionContext = .standard) -> AllProjections {
        AllProjections(analysis(events: events, asOf: asOf, context: context))
    }

    /// The default as-of time (PROJECTIONS.md §"As of"): `now` shown in the UTC offset of the journal's last event
    /// (the event with the highest seq), or in `now`'s own offset for an empty journal.
    public static func defaultAsOf(lastEvent: Event?, now: Timestamp) -> Timestamp {
        defaultAsOf(lastEventAt: lastEvent?.at, now: now)
    }

    /// `defaultAsOf(lastEvent:now:)` for a reader that kept only the last event's time.
    public static func defaultAsOf(lastEventAt: Timestamp?, now: Timestamp) -> Timestamp {
        guard let lastEventAt else { return now }
        return now.with(offsetSeconds: lastEventAt.offsetSeconds)
    }
}

/// All projections of one journal as of one time.
public struct AllProjections: Equatable, Sendable {
    public var asOf: Timestamp
    /// Events folded (after the last `data.cleared`, not after T).
    public var eventCount: Int
    public var home: HomeState
    public var history: HistoryState
    public var progress: ProgressState
    public var active: ActiveWorkoutState?
    /// Every exercise with at least one session, by id.
    public var exercises: [ExerciseHistoryState]
    public var templates: TemplatesState
    public var profile: ProfileState

    public init(_ analysis: Analysis) {
        asOf = analysis.asOf
        eventCount = analysis.ledger.eventCount
        home = HomeState(analysis)
        history = HistoryState(analysis)
        progress = ProgressState(analysis, range: .all)
        active = ActiveWorkoutState(analysis)
        exercises = analysis.sessionIndices.keys.sorted().map { ExerciseHistoryState(analysis, exercise: $0) }
        templates = TemplatesState(analysis)
        profile = ProfileState(analysis)
    }
}

extension AllProjections: JSONRepresentable {
    public var jsonValue: JSONValue {
        object([
            "as_of": json(asOf), "event_count": json(eventCount), "home": home.jsonValue, "history": history.jsonValue,
            "progress": progress.jsonValue, "active": json(active), "exercises": json(exercises), "templates": templates.jsonValue,
            "profile": profile.jsonValue,
        ])
    }
}
