// A lifter's first day in the seed apps, through the public API alone: the questionnaire, the generated programme,
// the home page, a logged workout with its warm-up, rest timer, superset and an edit, history, an exercise's chart,
// pounds, then a phone and a watch syncing live with both journals open and observed.
//
//   seed-day DIR                    # the day on one device, in journals under DIR
//   seed-day DIR SERVER TOKEN       # then the phone and the watch sync through a journal-server
//
// The clock is injected and moves only when the lifter does, so the output is the same on every run.
import Foundation
import WorkoutJournal
import WorkoutJournalSync

/// Monday 30 November 2026, 07:00 at UTC+1, moved by hand.
final class LifterClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time = Timestamp(rfc3339: "2026-11-30T07:00:00.000+01:00")!
    var now: Timestamp { lock.withLock { time } }
    func wait(seconds: Int) { lock.withLock { time = time.adding(milliseconds: Int64(seconds) * 1_000) } }
}

/// What the lifter logs on a row: its prefill (the exercise's target), or on a first session, with nothing to prefill
/// from, what they type: `firstTime` kilograms for the bottom of the prescribed reps.
func logged(_ row: ActiveWorkoutState.Row, of exercise: ActiveWorkoutState.Exercise, firstTime: Double) -> (weight: Double, unit: WeightUnit, reps: Int) {
    let bottom = exercise.reps.flatMap { Int($0.split(separator: "-")[0]) } ?? 8
    return (row.weight ?? firstTime, row.weight == nil ? .kg : row.unit, row.reps ?? bottom)
}

func text(_ set: (weight: Double, unit: WeightUnit, reps: Int)) -> String { "\(DisplayWeight(weight: set.weight, unit: set.unit)) x \(set.reps)" }

let arguments = CommandLine.arguments.dropFirst()
guard let folder = arguments.first else {
    print("usage: seed-day DIR [SERVER TOKEN]")
    exit(64)
}
let clock = LifterClock()
let phones = JournalDirectory(path: folder + "/phone", device: "ph", clock: { clock.now })
try FileManager.default.createDirectory(atPath: folder + "/phone", withIntermediateDirectories: true)
let journal = try phones.open(user: "ana")
defer { journal.close() }

// Onboarding: the questionnaire's screens are built from the rule set's form, the answers are typed.
let form = try Questionnaire.form(ruleset: "train")
var answers = Questionnaire.AnswerSheet(goal: .buildMuscle, experience: form.experiences[1], daysPerWeek: 3,
                                        sessionLength: form.sessionLengths[1])
// The equipment screen lists the form's options; the lifter's gym has these.
if case .list(let options?, _, _)? = form.question(.equipment)?.kind {
    answers.equipment = options.filter { ["barbell", "dumbbells", "cable"].contains($0) }
}
try journal.record(batch: UserJournal.onboardingDrafts(journal: journal.path, ruleset: "train", answers: answers,
                                                       on: LocalDate(day: clock.now.localDay)))
let home = journal.home
guard let programme = home.programme, let next = home.nextWorkout else { fatalError("onboarding made no programme") }
print("programme: \(programme.split), week \(programme.week) of \(programme.weeks), \(programme.daysPerWeek) days a week")
print("this week: \(home.week.completed) of \(home.week.target ?? 0); next: \(next.name), \(next.exercises.map(\.name).joined(separator: ", "))")

// The logger: a programme session, its warm-up, the working rows as the Target line prefills them, the rest timer.
let workout = try journal.startWorkout(name: next.name, session: next.session)
try journal.startWarmup(workout, minutes: 5)
clock.wait(seconds: 300)
try journal.completeWarmup(workout)
guard let first = journal.active?.exercises.first else { fatalError("the session has no exercise") }
if let warmup = first.warmup {
    print("\(first.name): warm-up \(DisplayWeight(weight: warmup.weight, unit: warmup.unit)) x \(warmup.reps) (\(warmup.percent))")
    try journal.completeSet(workout, exercise: first.exerciseID, set: 1, weight: warmup.weight, unit: warmup.unit, reps: warmup.reps, kind: .warmup)
}
for row in journal.active!.exercises[0].rows where !row.completed && row.kind == .working {
    let set = logged(row, of: first, firstTime: 40)
    try journal.completeSet(workout, exercise: first.exerciseID, set: row.set, weight: set.weight, unit: set.unit, reps: set.reps)
    print("\(first.name): set \(row.set) \(text(set))")
    try journal.startRest(workout, exercise: first.exerciseID)
    clock.wait(seconds: 60)
    if let rest = journal.active?.rest { print("  rest \(rest.seconds) s, \(rest.remainingSeconds) s left after a minute") }
    clock.wait(seconds: 120)
}

// A superset of the next two exercises: one round of each.
let pair = journal.active!.exercises.dropFirst().prefix(2)
if pair.count == 2 {
    let group = try journal.linkSuperset(pair.map(\.exerciseID), in: workout)
    for exercise in pair {
        let set = logged(exercise.rows[0], of: exercise, firstTime: 30)
        try journal.completeSet(workout, exercise: exercise.exerciseID, set: exercise.rows[0].set, weight: set.weight, unit: set.unit, reps: set.reps)
        print("superset \(group): \(exercise.name) \(text(set))")
        clock.wait(seconds: 45)
    }
}
try journal.finishWorkout(workout)
// An edit afterwards: the last working set had one more rep. History, records and streaks follow.
let lastRow = journal.workout(workout)!.summary.exercises[0].sets.last!
try journal.editSet(workout, exercise: first.exerciseID, set: lastRow.set, reps: lastRow.reps + 1)

let history = journal.history()
print("history: \(history.total) workout, \(history.workouts[0].name), \(history.workouts[0].setCount) sets, \(history.workouts[0].reps) reps")
let chart = journal.exercise(first.exerciseID)
print("\(first.name): best set \(chart.bestSet.map { "\(DisplayWeight(weight: $0.weight, unit: $0.unit)) x \($0.reps)" } ?? "-"), \(chart.sessions.count) session")
print("home: \(journal.home.week.completed) of \(journal.home.week.target ?? 0) this week, streak \(journal.home.streak.currentDays) day")

// Pounds: every view of the journal now shows loadable pound weights.
try journal.updateProfile(unit: .lb)
clock.wait(seconds: 86_400)
let tomorrow = try journal.startWorkout(name: next.name, session: next.session)
let planned = journal.active!.exercises[0]
let row = planned.rows.first { $0.kind == .working }!
print("in pounds: \(planned.name) \(text(logged(row, of: planned, firstTime: 0))), target \(planned.nextTarget.map { "\($0)" } ?? "-")")
if let warmup = planned.warmup {
    print("  warm-up \(DisplayWeight(weight: warmup.weight, unit: warmup.unit)) x \(warmup.reps) (\(warmup.percent))")
}
try journal.discardWorkout(tomorrow)

// Two devices: the watch's journal of the same user, both open and observed, syncing live through the server.
guard arguments.count == 3, let server = URL(string: arguments[arguments.startIndex + 1]) else { exit(0) }
try await syncLive(phone: journal, server: server, token: arguments[arguments.startIndex + 2])

func syncLive(phone journal: UserJournal, server: URL, token: String) async throws {
    try FileManager.default.createDirectory(atPath: folder + "/watch", withIntermediateDirectories: true)
    let watch = try JournalDirectory(path: folder + "/watch", device: "wa", clock: { clock.now }).open(user: "ana")
    defer { watch.close() }
    let phoneSync = journal.startSync(client: SyncClient(server: server, token: token))
    let watchSync = watch.startSync(client: SyncClient(server: server, token: token))
    defer { phoneSync.stop(); watchSync.stop() }
    var onWatch = watch.observe { HistoryState($0).total }.makeAsyncIterator()
    while await onWatch.next() != 1 {}
    print("watch: the phone's workout arrived, \(watch.history().workouts[0].name)")
    var setsOnWatch = watch.observe { ActiveWorkoutState($0)?.sets ?? -1 }.makeAsyncIterator()
    while await setsOnWatch.next() != -1 {}
    let evening = try journal.startWorkout(name: "Evening arms")
    let sent = ContinuousClock.now
    try journal.completeSet(evening, exercise: "barbell-curl", set: 1, weight: 65, unit: .lb, reps: 10)
    while await setsOnWatch.next() != 1 {}
    print("watch: the phone's set arrived")
    FileHandle.standardError.write(Data("phone → watch: \(sent.duration(to: .now))\n".utf8))
    try watch.completeSet(evening, exercise: "barbell-curl", set: 2, weight: 65, unit: .lb, reps: 8)
    var setsOnPhone = journal.observe { ActiveWorkoutState($0)?.sets ?? -1 }.makeAsyncIterator()
    while await setsOnPhone.next() != 2 {}
    try journal.finishWorkout(evening)
    _ = try await phoneSync.syncNow()
    _ = try await watchSync.syncNow()
    print("phone and watch: \(try journal.events().count) events each, the same: \(try journal.events().map(\.id) == watch.events().map(\.id))")
}
