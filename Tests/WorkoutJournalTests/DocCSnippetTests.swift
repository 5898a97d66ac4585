import Foundation
import JournalTesting
import Testing
import WorkoutJournal

/// The code of the DocC catalogue's "Getting started" (`Sources/WorkoutJournal/WorkoutJournal.docc/GettingStarted.md`),
/// run as written on a fresh journal: the code between the markers below is the article's ```swift blocks, one after
/// the other (the test checks it line for line).
@Suite("the DocC catalogue's snippets run as written")
struct DocCSnippetTests {
    static let article = DocSnippets.repository(fromTestFile: #filePath)
        .appendingPathComponent("Sources/WorkoutJournal/WorkoutJournal.docc/GettingStarted.md").path

    @Test("the code below is Getting started's code blocks, line for line")
    func sameCode() throws {
        let code = try DocSnippets.markedLines(in: #filePath, begins: "Getting started begins", ends: "Getting started ends")
        #expect(code.count == 28)
        #expect(code == (try DocSnippets.swiftBlockLines(Self.article)))
    }

    @Test("Getting started: questionnaire, programme, home, a workout with warm-up, rest and superset, history and charts")
    func gettingStarted() async throws {
        let scratch = ScratchDirectory("getting-started")
        defer { scratch.remove() }
        let appSupport = scratch.path
        // The snippet returns early when a value it needs is missing; that fails the test.
        var completed = false
        defer { #expect(completed) }
        // Getting started begins
        let journals = JournalDirectory(path: appSupport, device: "ph", clock: JournalDirectory.systemClock)
        let journal = try journals.open(user: "ana")
        let form = try Questionnaire.form(ruleset: "train")
        var answers = Questionnaire.AnswerSheet(goal: .buildMuscle, experience: form.experiences[0], daysPerWeek: 3,
                                                sessionLength: form.sessionLengths[1])
        answers.equipment = ["barbell", "dumbbells", "cable-machine"]
        let today = LocalDate(day: journals.clock().localDay)
        try journal.startQuestionnaire(ruleset: "train")
        try journal.record(batch: UserJournal.onboardingDrafts(journal: journal.path, ruleset: "train", answers: answers, on: today))
        let home = journal.home                              // HomeState: programme, week, next workout, streaks
        guard let next = home.nextWorkout else { return }    // the programme's next session: name, exercises
        let workout = try journal.startWorkout(name: next.name, session: next.session)
        try journal.startWarmup(workout, minutes: 5)
        try journal.completeWarmup(workout)
        try journal.addExercise("barbell-bench-press", to: workout)
        try journal.completeSet(workout, exercise: "barbell-bench-press", set: 1, weight: 40, reps: 10, kind: .warmup)
        try journal.completeSet(workout, exercise: "barbell-bench-press", set: 2, weight: 60, reps: 8)
        try journal.startRest(workout, exercise: "barbell-bench-press")    // the exercise's default rest
        guard let rest = journal.active?.rest else { return }              // rest.remainingSeconds, rest.endsAt.date
        try journal.skipRest(workout, exercise: "barbell-bench-press", remaining: rest.remainingSeconds)
        try journal.addExercise("dumbbell-curl", to: workout)
        try journal.addExercise("triceps-pushdown", to: workout)
        let superset = try journal.linkSuperset(["dumbbell-curl", "triceps-pushdown"], in: workout)
        try journal.completeSet(workout, exercise: "dumbbell-curl", set: 1, weight: 12, reps: 12)
        try journal.completeSet(workout, exercise: "triceps-pushdown", set: 1, weight: 25, reps: 12)
        try journal.finishWorkout(workout)
        let history = journal.history()                      // HistoryState: total, workouts newest first
        let charts = journal.progress(.oneMonth)             // ProgressState: volume, frequency, muscle groups, strength
        // Getting started ends
        completed = true
        journal.close()
        #expect(home.programme != nil)
        #expect(rest.seconds == 120)
        #expect(superset == "g1")
        #expect(history.total == 1)
        #expect(history.workouts.first?.name == next.name)
        #expect(charts.workouts == 1)
        #expect(charts.totalVolumeKilograms == 480 + 144 + 300)
    }
}
