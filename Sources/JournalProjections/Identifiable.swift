/// The rows of every screen are `Identifiable` by the key that makes them unique in their list, so a SwiftUI `List`
/// or `ForEach` keeps each row's identity across updates: a workout by its id, an exercise of a workout by its
/// exercise id (the fold keeps one entry per exercise in a workout), a day or week by its date, a set row by its number.
/// Lists that may name an exercise twice (a template's or a programme session's prescriptions) stay without one.

import JournalEvents

extension WorkoutSummary: Identifiable { public var id: String { workout } }
extension ExerciseSummary: Identifiable { public var id: String { exercise } }
extension CalendarMonth.Day: Identifiable { public var id: LocalDate { date } }

extension PlannedCard: Identifiable { public var id: String { plan } }
extension HomeState.CalendarDay: Identifiable { public var id: LocalDate { date } }
extension HomeState.RecentWorkout: Identifiable { public var id: String { workout } }

extension ExerciseHistoryState.Session: Identifiable { public var id: String { workout } }

extension ActiveWorkoutState.Row: Identifiable { public var id: Int { self.set } }
extension ActiveWorkoutState.Exercise: Identifiable { public var id: String { exercise } }

extension TemplatesState.Item: Identifiable { public var id: String { template } }

extension ProgressState.WeekCount: Identifiable { public var id: LocalDate { week } }
extension ProgressState.MuscleShare: Identifiable { public var id: String { muscle } }
extension ProgressState.StrengthSeries: Identifiable { public var id: String { exercise } }

extension CardioHistory.Session: Identifiable { public var id: String { workout } }
