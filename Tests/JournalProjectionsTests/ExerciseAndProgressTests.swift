import JournalEvents
import Testing
@testable import JournalProjections
import JournalModel

let muscleContext = ProjectionContext(muscles: { id in
    ["bench": ["chest"], "ohp": ["shoulders"], "squat": ["quads", "glutes"], "row": ["back"]][id] ?? []
}, isCompound: { ["bench", "ohp", "squat", "row"].contains($0) })

@Suite("Exercise history and progress")
struct ExerciseAndProgressTests {
    @Test("exercise history lists sessions newest first with best set, start weight, records after the first session and charts")
    func exerciseHistory() {
        let a = analysis(pushWeek, asOf: "2026-11-20T12:00:00.000+01:00")
        let bench = ExerciseHistoryState(a, exercise: "bench")
        #expect(bench == ExerciseHistoryState(
            exercise: "bench", name: "Bench", bestSet: SetValue(weight: 60, unit: .kg, reps: 9), startWeight: DisplayWeight(weight: 60, unit: .kg),
            sessions: [
                ExerciseHistoryState.Session(workout: "w2", workoutName: "Push", date: d("2026-11-18"), volumeKilograms: 1380,
                                            topSet: SetValue(weight: 60, unit: .kg, reps: 9), e1rmKilograms: 78, maxWeightKilograms: 60, reps: 23, rosette: false,
                                            sets: [SetSummary(set: 1, weight: 40, unit: .kg, reps: 10, kind: .warmup), SetSummary(set: 2, weight: 60, unit: .kg, reps: 9, plus: 1),
                                                   SetSummary(set: 3, weight: 60, unit: .kg, reps: 8), SetSummary(set: 4, weight: 60, unit: .kg, reps: 6)],
                                            durationSeconds: 2700),
                ExerciseHistoryState.Session(workout: "w1", workoutName: "Push", date: d("2026-11-16"), volumeKilograms: 1380,
                                            topSet: SetValue(weight: 60, unit: .kg, reps: 8), e1rmKilograms: 76, maxWeightKilograms: 60, reps: 23, rosette: false,
                                            sets: [SetSummary(set: 1, weight: 40, unit: .kg, reps: 10, kind: .warmup), SetSummary(set: 2, weight: 60, unit: .kg, reps: 8),
                                                   SetSummary(set: 3, weight: 60, unit: .kg, reps: 8), SetSummary(set: 4, weight: 60, unit: .kg, reps: 7)],
                                            durationSeconds: 3000),
            ],
            records: [
                PersonalRecord(kind: .repsAtWeight, exercise: "bench", name: "Bench", workout: "w2", date: d("2026-11-18"), value: 9, previous: 8, weightKilograms: 60, reps: 9),
                PersonalRecord(kind: .bestSetVolume, exercise: "bench", name: "Bench", workout: "w2", date: d("2026-11-18"), value: 540, previous: 480, weightKilograms: 60, reps: 9),
                PersonalRecord(kind: .bestE1RM, exercise: "bench", name: "Bench", workout: "w2", date: d("2026-11-18"), value: 78, previous: 76, weightKilograms: 60, reps: 9),
            ],
            bests: ExerciseHistoryState.Bests(heaviestWeightKilograms: 60, e1rmKilograms: 78, setVolumeKilograms: 540, sessionVolumeKilograms: 1380,
                                             repsAtWeight: [.init(weightKilograms: 60, reps: 9)]),
            charts: ExerciseHistoryState.Charts(
                volume: [ChartPoint(date: d("2026-11-16"), workout: "w1", value: 1380), ChartPoint(date: d("2026-11-18"), workout: "w2", value: 1380)],
                e1rm: [ChartPoint(date: d("2026-11-16"), workout: "w1", value: 76), ChartPoint(date: d("2026-11-18"), workout: "w2", value: 78)],
                maxWeight: [ChartPoint(date: d("2026-11-16"), workout: "w1", value: 60), ChartPoint(date: d("2026-11-18"), workout: "w2", value: 60)],
                weeklyVolume: [ChartPoint(date: d("2026-11-16"), value: 2760)])))
        #expect(a.resolveExercise("BENCH") == "bench")
    }

    @Test("an exercise without history shows the empty state")
    func emptyExercise() {
        let view = ExerciseHistoryState(analysis(pushWeek, asOf: "2026-11-20T12:00:00.000+01:00"), exercise: "deadlift")
        #expect(view == ExerciseHistoryState(exercise: "deadlift", name: "Deadlift", bestSet: nil, startWeight: nil, sessions: [], records: [], bests: nil,
                                            charts: ExerciseHistoryState.Charts(volume: [], e1rm: [], maxWeight: [], weeklyVolume: [])))
        #expect(view.jsonValue.objectValue?["empty_message"] == "No history yet. Complete your first set!")
    }

    @Test("progress over one month: counts, volume, frequency, muscle groups, consistency and strength series")
    func progressOneMonth() {
        let a = analysis(pushWeek, asOf: "2026-11-20T12:00:00.000+01:00", context: muscleContext)
        #expect(ProgressState(a, range: .oneMonth) == ProgressState(
            range: .oneMonth, from: d("2026-10-20"), to: d("2026-11-20"), workouts: 2, workoutsThisMonth: 2, totalVolumeKilograms: 3640,
            dayStreak: 0, recordCount: 4,
            weeklyFrequency: [("2026-10-19", 0, 0, 0), ("2026-10-26", 0, 0, 0), ("2026-11-02", 0, 0, 0), ("2026-11-09", 0, 0, 0), ("2026-11-16", 2, 3640, 9)]
                .map { ProgressState.WeekCount(week: d($0.0), workouts: $0.1, volumeKilograms: $0.2, sets: $0.3) },
            muscleGroups: [ProgressState.MuscleShare(muscle: "chest", sets: 6, percent: 66.7), ProgressState.MuscleShare(muscle: "shoulders", sets: 3, percent: 33.3)],
            consistency: ProgressState.Consistency(target: 1, weeks: 1, weeksMet: 1, percent: 100),
            strength: [
                // The top set and the Epley estimate per session: 60 × 8 → 76, 60 × 9 → 78, 40 × 8 → 50.667.
                ProgressState.StrengthSeries(exercise: "bench", name: "Bench", favourite: false, points: [
                    ChartPoint(date: d("2026-11-16"), workout: "w1", value: 60), ChartPoint(date: d("2026-11-18"), workout: "w2", value: 60)], oneRepMax: [
                    ChartPoint(date: d("2026-11-16"), workout: "w1", value: 76), ChartPoint(date: d("2026-11-18"), workout: "w2", value: 78)]),
                ProgressState.StrengthSeries(exercise: "ohp", name: "Ohp", favourite: false, points: [
                    ChartPoint(date: d("2026-11-16"), workout: "w1", value: 40), ChartPoint(date: d("2026-11-18"), workout: "w2", value: 40)], oneRepMax: [
                    ChartPoint(date: d("2026-11-16"), workout: "w1", value: 50.667), ChartPoint(date: d("2026-11-18"), workout: "w2", value: 50.667)]),
            ],
            recentRecords: a.records.reversed()))
        // A week that has not met its target yet is not counted against consistency; a missed week is.
        let monday = ProgressState(analysis(pushWeek, asOf: "2026-11-23T08:00:00.000+01:00"), range: .all)
        #expect(monday.consistency == ProgressState.Consistency(target: 1, weeks: 1, weeksMet: 1, percent: 100))
        #expect(monday.from == d("2026-11-16"))
        let later = ProgressState(analysis(pushWeek, asOf: "2026-12-01T08:00:00.000+01:00"), range: .oneMonth)
        #expect(later.consistency == ProgressState.Consistency(target: 1, weeks: 2, weeksMet: 1, percent: 50))
        #expect(later.weeklyFrequency.map(\.workouts) == [0, 0, 0, 2, 0, 0])
    }
}
