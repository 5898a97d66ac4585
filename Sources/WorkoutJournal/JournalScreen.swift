import Foundation
import Observation

/// A screen's state as a projection of the journal: what `UserJournal.updates(of:)` streams and `ScreenModel` keeps.
/// The screens an app shows are static members (`.home`, `.activeWorkout`, `.history()`, `.exercise(_:)`,
/// `.progress()`, `.templates`, `.profile`); the reads `UserJournal.home`, `active`, `history(_:)`, `exercise(_:)`,
/// `progress(_:)`, `templates` and `profile` are the same projections, read once.
public struct JournalScreen<Value: Equatable & Sendable>: Sendable {
    /// The screen's value as of the analysis' time; a pure function (it runs off the writer, on any thread).
    public let projection: @Sendable (Analysis) -> Value

    /// A screen of the app's own, for a projection the library does not name.
    public init(_ projection: @escaping @Sendable (Analysis) -> Value) { self.projection = projection }
}

extension JournalScreen where Value == HomeState {
    /// The home screen (`HomeState`).
    public static var home: JournalScreen<HomeState> { JournalScreen { HomeState($0) } }
}

extension JournalScreen where Value == ActiveWorkoutState? {
    /// The workout logger: the latest open workout, nil when none is open.
    public static var activeWorkout: JournalScreen<ActiveWorkoutState?> { JournalScreen { ActiveWorkoutState($0) } }
}

extension JournalScreen where Value == HistoryState {
    /// The history list for `query` (all finished workouts by default).
    public static func history(_ query: HistoryQuery = HistoryQuery()) -> JournalScreen<HistoryState> {
        JournalScreen { HistoryState($0, query: query) }
    }
}

extension JournalScreen where Value == ExerciseHistoryState {
    /// An exercise's progress page; `exercise` is an id or a name the catalogue resolves ("Bench Press").
    public static func exercise(_ exercise: String) -> JournalScreen<ExerciseHistoryState> {
        JournalScreen { analysis in ExerciseHistoryState(analysis, exercise: analysis.resolveExercise(exercise) ?? exercise) }
    }
}

extension JournalScreen where Value == ProgressState {
    /// The progress charts over `range`.
    public static func progress(_ range: ProgressRange = .oneMonth) -> JournalScreen<ProgressState> {
        JournalScreen { ProgressState($0, range: range) }
    }
}

extension JournalScreen where Value == TemplatesState {
    /// The templates list.
    public static var templates: JournalScreen<TemplatesState> { JournalScreen { TemplatesState($0) } }
}

extension JournalScreen where Value == ProfileState {
    /// The profile screen.
    public static var profile: JournalScreen<ProfileState> { JournalScreen { ProfileState($0) } }
}

extension UserJournal {
    /// The screen's value now, read once.
    public func read<Value>(_ screen: JournalScreen<Value>) -> Value { read(screen.projection) }

    /// The screen's value now and after every change that changes it (`observe(_:)`): the `AsyncSequence` an app
    /// iterates on any platform (`for await home in journal.updates(of: .home) { … }`).
    public func updates<Value>(of screen: JournalScreen<Value>) -> AsyncStream<Value> { observe(screen.projection) }
}

/// A screen's state for SwiftUI: an `@Observable` object whose `value` is the screen's current value, kept up to date
/// from the journal's changes (appends on this device, merges from a sync, erasure) on the main actor. The projection
/// runs off the main actor; only the assignment of the new value runs on it.
///
///     @State var home = ScreenModel(journal, .home)
///     var body: some View { Text("\(home.value.streak) day streak") }
///
/// It follows the journal until it is released, `stop()` is called or the journal is closed.
@MainActor @Observable
public final class ScreenModel<Value: Equatable & Sendable> {
    /// The screen's value: set at once, then after each change that changes it.
    public private(set) var value: Value
    @ObservationIgnored private var following: Task<Void, Never>?

    /// Reads the screen now and follows it.
    public init(_ journal: UserJournal, _ screen: JournalScreen<Value>) {
        let (first, stream) = journal.observation(screen.projection)
        value = first
        following = Task { [weak self] in
            // The stream's first value is `first`.
            for await next in stream {
                guard let self else { return }
                if next != self.value { self.value = next }
            }
        }
    }

    /// Stops following the journal; `value` keeps its last value.
    public func stop() { following?.cancel() }

    deinit { following?.cancel() }
}
