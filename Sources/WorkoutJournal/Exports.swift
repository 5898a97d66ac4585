// What an app names through `import WorkoutJournal`, exported type by type: the screens' states and their parts,
// the events and their values, the model's units and records, the training domain an app shows (questionnaire,
// programmes, progression, plates, the catalogue), the errors and reports the facade hands out. The machinery
// under them stays out of an app's namespace: the file writer and reader (`EventJournal`, `EventReader`), verify,
// salvage and merge, the codec and vocabulary tables, the recording rules, the name matcher, the snapshot files.
// A tool that needs those imports their module by name (the CLI's Package.swift entry says which).

// Events and their values, and the JSON writer that prints them and the states as the CLI's `--json` does.
@_exported import struct JournalEvents.Event
@_exported import struct JournalEvents.EventID
@_exported import struct JournalEvents.ExerciseID
@_exported import protocol JournalEvents.TypedID
@_exported import struct JournalEvents.WorkoutID
@_exported import struct JournalEvents.EventRuleViolation
@_exported import enum JournalEvents.EventType
@_exported import struct JournalEvents.JSONField
@_exported import struct JournalEvents.JSONObject
@_exported import enum JournalEvents.JSONValue
@_exported import struct JournalEvents.JSONParser
@_exported import enum JournalEvents.JSONWriter
@_exported import struct JournalEvents.LocalDate
@_exported import enum JournalEvents.PayloadKey
@_exported import struct JournalEvents.Timestamp
// The model: units, kinds, what a ledger holds.
@_exported import struct JournalModel.CardioEntry
@_exported import struct JournalModel.CustomExercise
@_exported import struct JournalModel.EquipmentUpdate
@_exported import struct JournalModel.ExerciseSession
@_exported import struct JournalModel.ExportRecord
@_exported import struct JournalModel.InjuryAnswer
@_exported import struct JournalModel.Ledger
@_exported import enum JournalModel.LoadableWeights
@_exported import struct JournalModel.LoggedSet
@_exported import struct JournalModel.MachineStack
@_exported import struct JournalModel.Note
@_exported import struct JournalModel.OwnedBar
@_exported import struct JournalModel.PerformedExercise
@_exported import struct JournalModel.PlannedWorkout
@_exported import struct JournalModel.PlateStock
@_exported import struct JournalModel.PrescribedSet
@_exported import struct JournalModel.Prescription
@_exported import struct JournalModel.Profile
@_exported import struct JournalModel.ProgressionSettings
@_exported import struct JournalModel.Quantity
@_exported import struct JournalModel.RecordedProgramme
@_exported import struct JournalModel.RepRange
@_exported import struct JournalModel.RestTimer
@_exported import enum JournalModel.SetKind
@_exported import struct JournalModel.SetRow
@_exported import struct JournalModel.Subscription
@_exported import struct JournalModel.SupersetGroup
@_exported import struct JournalModel.Template
@_exported import enum JournalModel.Units
@_exported import struct JournalModel.WarmupCard
@_exported import enum JournalModel.WeightUnit
@_exported import struct JournalModel.WorkoutExercise
@_exported import struct JournalModel.WorkoutRecord
@_exported import struct JournalModel.WorkoutTotals
// Errors and reports of the journal file.
@_exported import enum JournalFile.JournalError
@_exported import struct JournalFile.ReplaySummary
@_exported import struct JournalFile.VerifyReport
// The training domain.
@_exported import struct TrainingDomain.AnswerProblem
@_exported import struct TrainingDomain.CompletedSession
@_exported import struct TrainingDomain.CompletedSet
@_exported import struct TrainingDomain.Deload
@_exported import enum TrainingDomain.Difficulty
@_exported import struct TrainingDomain.EquipmentCatalogue
@_exported import struct TrainingDomain.EquipmentInventory
@_exported import struct TrainingDomain.Exercise
@_exported import struct TrainingDomain.ExerciseCatalogue
@_exported import struct TrainingDomain.ExerciseInstructions
@_exported import enum TrainingDomain.Mechanic
@_exported import enum TrainingDomain.MovementPattern
@_exported import enum TrainingDomain.Onboarding
@_exported import enum TrainingDomain.OneRepMax
@_exported import enum TrainingDomain.PlateCalculator
@_exported import struct TrainingDomain.PlateInventory
@_exported import struct TrainingDomain.PlateLoading
@_exported import struct TrainingDomain.PrescribedExercise
@_exported import struct TrainingDomain.Programme
@_exported import enum TrainingDomain.ProgrammeError
@_exported import enum TrainingDomain.ProgrammeGenerator
@_exported import struct TrainingDomain.ProgrammeSession
@_exported import struct TrainingDomain.ProgrammeTemplate
@_exported import enum TrainingDomain.Progression
@_exported import enum TrainingDomain.ProgressionError
@_exported import struct TrainingDomain.ProgressionRule
@_exported import struct TrainingDomain.ProgressionStep
@_exported import struct TrainingDomain.ProgressionTarget
@_exported import enum TrainingDomain.ProgressionTrigger
@_exported import enum TrainingDomain.Questionnaire
@_exported import struct TrainingDomain.QuestionnaireError
@_exported import struct TrainingDomain.RuleSet
@_exported import struct TrainingDomain.TemplateRecommendation
@_exported import enum TrainingDomain.WarmUp
@_exported import struct TrainingDomain.WarmUpSet
// The screens' states.
@_exported import struct JournalProjections.ActiveWorkoutState
@_exported import struct JournalProjections.AllProjections
@_exported import struct JournalProjections.Analysis
@_exported import struct JournalProjections.CalendarMonth
@_exported import struct JournalProjections.CardioHistory
@_exported import struct JournalProjections.ChartPoint
@_exported import struct JournalProjections.DisplayWeight
@_exported import struct JournalProjections.ExerciseComparison
@_exported import struct JournalProjections.ExerciseHistoryState
@_exported import struct JournalProjections.ExerciseHowTo
@_exported import struct JournalProjections.ExerciseSummary
@_exported import struct JournalProjections.FinishedWorkout
@_exported import struct JournalProjections.HistoryQuery
@_exported import struct JournalProjections.HistoryState
@_exported import struct JournalProjections.HomeState
@_exported import protocol JournalProjections.JSONRepresentable
@_exported import struct JournalProjections.PersonalRecord
@_exported import struct JournalProjections.PlannedCard
@_exported import struct JournalProjections.ProfileState
@_exported import enum JournalProjections.ProgressRange
@_exported import struct JournalProjections.ProgressState
@_exported import struct JournalProjections.ProgressionInput
@_exported import struct JournalProjections.ProjectionContext
@_exported import enum JournalProjections.Projections
@_exported import struct JournalProjections.RecordFinder
@_exported import enum JournalProjections.Rounding
@_exported import struct JournalProjections.SessionCard
@_exported import struct JournalProjections.SetRanking
@_exported import struct JournalProjections.SetSummary
@_exported import struct JournalProjections.SetValue
@_exported import struct JournalProjections.Streaks
@_exported import struct JournalProjections.TemplatesState
@_exported import struct JournalProjections.WarmupSuggestion
@_exported import struct JournalProjections.WorkoutDetail
@_exported import struct JournalProjections.WorkoutSummary
// The earlier `…View` names, deprecated; not `ProgressView`, which beside SwiftUI's would be ambiguous
// (SwiftUINamesTests).
@_exported import typealias JournalProjections.HomeView
@_exported import typealias JournalProjections.HistoryView
@_exported import typealias JournalProjections.ProfileView
@_exported import typealias JournalProjections.TemplatesView
@_exported import typealias JournalProjections.ActiveWorkoutView
@_exported import typealias JournalProjections.ExerciseHistoryView
// Interchange, as an app offers it: another app's CSV export read and planned as this journal's events (`JournalImport`, then
// recorded with `UserJournal.record(_:)`), the exports (JSON, JSONL, the apps' CSV layouts; redaction), the routine
// document, the SVG charts and the HTML report, and re-filing a custom exercise's sets. Support's tools (timeline,
// explain, diff, terminal charts) stay in JournalInterchange, which the CLI imports by name for them.
@_exported import enum JournalInterchange.ChartSeries
@_exported import struct JournalInterchange.ExerciseLink
@_exported import enum JournalInterchange.ExportReader
@_exported import enum JournalInterchange.Exporters
@_exported import enum JournalInterchange.HTMLReport
@_exported import enum JournalInterchange.ImportLayout
@_exported import struct JournalInterchange.ImportPlan
@_exported import struct JournalInterchange.ImportPlanner
@_exported import struct JournalInterchange.ImportSummary
@_exported import struct JournalInterchange.ImportedName
@_exported import struct JournalInterchange.ImportedRows
@_exported import struct JournalInterchange.ImportedSet
@_exported import struct JournalInterchange.ImportedWorkout
@_exported import struct JournalInterchange.InterchangeError
@_exported import struct JournalInterchange.LocalDateTime
@_exported import struct JournalInterchange.ParsedExport
@_exported import enum JournalInterchange.Redaction
@_exported import enum JournalInterchange.RoutineDocument
@_exported import enum JournalInterchange.SVGChart
@_exported import struct JournalInterchange.SkippedRow

// The storage layer's reports and errors.
@_exported import struct JournalStore.ScanReport
@_exported import struct JournalStore.Damage
@_exported import struct JournalStore.FrameInfo
@_exported import enum JournalStore.StoreError
@_exported import enum JournalStore.JournalBackup
@_exported import enum JournalStore.JournalErasure
@_exported import class JournalStore.JournalWriter
