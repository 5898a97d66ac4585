// The screen states' earlier names, which clashed with SwiftUI's views (`ProgressView`) and with the names an app
// gives its own views. Code written against them still compiles, with a warning naming the new one.

@available(*, deprecated, renamed: "HomeState") public typealias HomeView = HomeState
@available(*, deprecated, renamed: "ProgressState") public typealias ProgressView = ProgressState
@available(*, deprecated, renamed: "HistoryState") public typealias HistoryView = HistoryState
@available(*, deprecated, renamed: "ProfileState") public typealias ProfileView = ProfileState
@available(*, deprecated, renamed: "TemplatesState") public typealias TemplatesView = TemplatesState
@available(*, deprecated, renamed: "ActiveWorkoutState") public typealias ActiveWorkoutView = ActiveWorkoutState
@available(*, deprecated, renamed: "ExerciseHistoryState") public typealias ExerciseHistoryView = ExerciseHistoryState

extension ActiveWorkoutState {
    @available(*, deprecated, renamed: "WarmupSuggestionState") public typealias WarmupSuggestionView = WarmupSuggestionState
}
