import Foundation
import JournalModel
import Testing
import WorkoutJournal
import JournalEvents
import JournalFile

/// Every event type of the vocabulary is reachable through a typed call of `UserJournal` (onboarding through
/// `onboardingDrafts`, the erasure marker through `eraseAllData`), with no raw JSON; each call's event is the one the
/// vocabulary documents.
@Suite("Typed calls cover the vocabulary")
struct TypedCallsTests {
    @Test("a day through typed calls alone records all 61 event types, each accepted by the rules")
    func everyTypeHasACall() throws {
        let clock = TestClock("2026-11-20T07:00:00.000+01:00")
        let directory = JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { clock.now })
        let journal = try directory.open(user: "ana")
        defer { journal.close() }
        func tick() { clock.advance(seconds: 30) }

        try journal.recordAccountCreated(name: "Ana", email: "ana@example.com", method: .apple); tick()
        try journal.recordLogin(method: .automatic, deviceName: "Ana's watch"); tick()
        try journal.recordSubscriptionStarted(plan: .annual, price: 59.99, currency: "EUR", trialDays: 7,
                                                              nextBillingDate: LocalDate(year: 2027, month: 11, day: 27)); tick()
        try journal.updateProfile(name: "Ana", unit: .kg, bodyWeight: 61); tick()
        try journal.changeSetting("rest_timer_sound", to: .bool(false)); tick()
        try journal.startQuestionnaire(ruleset: "train"); tick()
        let drafts = try UserJournal.onboardingDrafts(journal: journal.path, ruleset: "train", answers: [
            "days_per_week": "3", "primary_goal": "build_muscle", "experience": "0", "session_minutes": "30-45",
            "equipment": ["dumbbells"], "injuries": ["none"],
        ], on: LocalDate(year: 2026, month: 11, day: 20))
        try journal.record(batch: drafts); tick()
        try journal.updateEquipment(unit: .kg, plates: [PlateStock(weight: 20, count: 2), PlateStock(weight: 10, count: 4)],
                                                    bars: [UserJournal.Bar(name: "Olympic", weight: 20)], equipment: ["barbell", "rack"]); tick()
        try journal.configureProgression("barbell-back-squat", increment: 2.5, unit: .kg, trigger: .allSets,
                                                         deloadPercent: 10, failuresBeforeDeload: 3, target: 60); tick()
        let custom = try journal.createExercise(name: "Landmine Rotation", primaryMuscles: ["obliques"], mechanic: .compound)
        #expect(custom == "custom-landmine-rotation")
        try journal.linkExercise(custom, to: "russian-twist"); tick()
        try journal.favourite("barbell-back-squat"); tick()
        try journal.unfavourite("barbell-back-squat"); tick()
        try journal.configureRest("barbell-back-squat", seconds: 120); tick()

        let template = try journal.createTemplate(name: "Legs", exercises: [Prescription(exercise: "barbell-back-squat", sets: 3, reps: "5")])
        try journal.updateTemplate(template, note: "heavy"); tick()
        let plan = try journal.planWorkout(name: "Friday legs", exercises: [Prescription(exercise: "barbell-back-squat", sets: 3, reps: "5")],
                                           date: LocalDate(year: 2026, month: 11, day: 27))
        #expect(plan == "p1")
        let workout = try journal.startWorkout(name: "Legs", template: template); tick()
        try journal.startWarmup(workout, minutes: 5); tick()
        try journal.completeWarmup(workout); tick()
        try journal.skipWarmup(workout); tick()
        try journal.answerInjuryWarning(workout, exercise: "barbell-back-squat", muscle: "lower-back", choice: .continueAnyway); tick()
        try journal.addExercise("romanian-deadlift", to: workout, sets: 2, reps: "8"); tick()
        try journal.addExercise("dumbbell-lunge", to: workout); tick()
        try journal.reorderExercises(workout, ["barbell-back-squat", "dumbbell-lunge", "romanian-deadlift"]); tick()
        try journal.swapExercise(workout, from: "dumbbell-lunge", to: "dumbbell-split-squat", reason: "knee"); tick()
        let group = try journal.linkSuperset(["dumbbell-split-squat", "romanian-deadlift"], in: workout); tick()
        try journal.unlinkSuperset(group, in: workout); tick()
        try journal.addSet(workout, exercise: "barbell-back-squat", set: 4, weight: 40, unit: .kg, reps: 5, kind: .warmup); tick()
        try journal.completeSet(workout, exercise: "barbell-back-squat", set: 1, weight: 60, unit: .kg, reps: 5); tick()
        try journal.startRest(workout, exercise: "barbell-back-squat", seconds: 120)
        try journal.adjustRest(workout, exercise: "barbell-back-squat", by: 30); tick()
        try journal.finishRest(workout, exercise: "barbell-back-squat"); tick()
        try journal.startRest(workout, exercise: "barbell-back-squat", seconds: 120)
        try journal.skipRest(workout, exercise: "barbell-back-squat", remaining: 40); tick()
        try journal.rateSet(workout, exercise: "barbell-back-squat", set: 1, rpe: 8); tick()
        try journal.noteSet(workout, exercise: "barbell-back-squat", set: 1, "felt quick"); tick()
        try journal.editSet(workout, exercise: "barbell-back-squat", set: 1, reps: 6); tick()
        try journal.completeSet(workout, exercise: "barbell-back-squat", set: 2, weight: 60, unit: .kg, reps: 5); tick()
        try journal.uncompleteSet(workout, exercise: "barbell-back-squat", set: 2); tick()
        try journal.removeSet(workout, exercise: "barbell-back-squat", set: 2); tick()
        try journal.noteExercise("barbell-back-squat", in: workout, "belt on"); tick()
        try journal.submitExercise("barbell-back-squat", in: workout); tick()
        try journal.pauseWorkout(workout); tick()
        try journal.resumeWorkout(workout); tick()
        try journal.removeExercise("romanian-deadlift", from: workout); tick()
        try journal.logCardio(workout, exercise: "treadmill-run", minutes: 10, km: 1.6); tick()
        try journal.noteWorkout(workout, "good day"); tick()
        try journal.finishWorkout(workout); tick()
        try journal.editWorkout(workout, name: "Legs (heavy)"); tick()
        let second = try journal.startWorkout(name: "Quick")
        try journal.discardWorkout(second); tick()
        try journal.retakeQuiz(reason: "new goal"); tick()
        try journal.deleteTemplate(template); tick()
        try journal.deleteWorkout(workout); tick()
        try journal.recordSubscriptionRenewed(plan: .annual); tick()
        try journal.recordSubscriptionCancelled(effectiveDate: LocalDate(year: 2027, month: 11, day: 27)); tick()
        try journal.recordPasswordReset(); tick()
        try journal.recordLogout(); tick()
        try journal.recordExport(format: "json", events: 66, destination: "share sheet"); tick()
        try journal.recordAccountDeletionRequested(reason: "moving apps"); tick()
        try journal.clearAllData(); tick()
        let written = try EventReader.events(path: journal.path)
        #expect(written.count == 69)
        let erasure = try journal.eraseAllData()

        let types = Set(written.map(\.type)).union([erasure.marker.type])
        let missing = EventType.allCases.map(\.name).filter { !types.contains($0) }
        #expect(missing == [])
        #expect(EventType.allCases.count == 61)
        #expect(erasure.marker.type == "data.erased")
    }

    @Test("the new calls write the documented fields, and a value out of range is refused with the rule's message")
    func fields() throws {
        let clock = TestClock("2026-11-20T07:00:00.000+01:00")
        let journal = try JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { clock.now }).open(user: "bo")
        defer { journal.close() }
        let login = try journal.recordLogin(method: .automatic, deviceName: "Bo's phone")
        #expect(EventCodec.encodeString(login) == #"{"v":1,"seq":1,"id":"ph-1","at":"2026-11-20T07:00:00.000+01:00","type":"account.logged_in","method":"auto","device_name":"Bo's phone"}"#)
        let equipment = try journal.updateEquipment(plates: [PlateStock(weight: 25, count: 2)], bars: [UserJournal.Bar(weight: 15)])
        #expect(EventCodec.encodeString(equipment).hasSuffix(#""type":"equipment.updated","plates":[{"weight":25,"count":2}],"bars":[{"weight":15}]}"#))
        let inventory = try journal.updateEquipment(unit: .lb, bars: [UserJournal.Bar(name: "EZ", weight: 25, exercises: ["ez-bar-curl"]),
                                                                      UserJournal.Bar(weight: 45, isDefault: true)],
                                                    dumbbells: [20, 25], machines: [UserJournal.Machine(name: "Lat Pulldown", minimum: 10, maximum: 250, increment: 10)],
                                                    attachments: ["rope"])
        #expect(EventCodec.encodeString(inventory).hasSuffix(#""type":"equipment.updated","unit":"lb","bars":[{"name":"EZ","weight":25,"exercises":["ez-bar-curl"]},{"weight":45,"default":true}],"dumbbells":[20,25],"machines":[{"name":"Lat Pulldown","min_weight":10,"max_weight":250,"increment":10}],"attachments":["rope"]}"#),
                "\(EventCodec.encodeString(inventory))")
        let link = try journal.linkExercise(try journal.createExercise(name: "Hip Thrust Machine"), to: nil)
        #expect(EventCodec.encodeString(link).hasSuffix(#""type":"exercise.linked","exercise":"custom-hip-thrust-machine","to":null}"#))
        let before = try Data(contentsOf: URL(fileURLWithPath: journal.path))
        #expect(throws: JournalError.self) { try journal.configureProgression("barbell-back-squat", deloadPercent: 80) }
        do {
            try journal.configureProgression("barbell-back-squat", deloadPercent: 80)
        } catch {
            #expect(error.description.contains(#"progression.configured: field "deload_percent" is 80 but must be between 0 and 50"#))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal.path)) == before)
        let clear = try journal.clearAllData(keeping: [.settings, .profile])
        #expect(EventCodec.encodeString(clear).hasSuffix(#""type":"data.cleared","keep":["profile","settings"]}"#), "\(EventCodec.encodeString(clear))")
        #expect(EventCodec.encodeString(try journal.clearAllData()).hasSuffix(#""type":"data.cleared"}"#))
    }
}

@Suite("Rows are Identifiable by their natural key")
struct IdentifiableRowsTests {
    @Test("history, the logger's rows and exercises, and the calendar carry ids a SwiftUI list can key on")
    func ids() throws {
        let clock = TestClock("2026-11-20T07:00:00.000+01:00")
        let journal = try JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { clock.now }).open(user: "cy")
        defer { journal.close() }
        let workout = try journal.startWorkout(name: "Push")
        try journal.addExercise("barbell-bench-press", to: workout, sets: 2, reps: "5")
        try journal.completeSet(workout, exercise: "barbell-bench-press", set: 1, weight: 60, unit: .kg, reps: 5)
        let active = try #require(journal.active)
        #expect(active.exercises.map(\.id) == ["barbell-bench-press"])
        #expect(active.exercises.first?.rows.map(\.id) == [1, 2])
        clock.advance(seconds: 600)
        try journal.finishWorkout(workout)
        #expect(journal.history(HistoryQuery()).workouts.map(\.id) == ["w1"])
        #expect(journal.history(HistoryQuery()).workouts.first?.exercises.map(\.id) == ["barbell-bench-press"])
    }

    @Test("onboarding from a typed answer sheet records the same events as the same answers written by hand")
    func typedOnboarding() throws {
        let path = try temporaryDirectory() + "/ana.journal"
        let form = try Questionnaire.form(ruleset: "train")
        var sheet = Questionnaire.AnswerSheet(goal: .buildMuscle, experience: form.experiences[0], daysPerWeek: 3,
                                              sessionLength: form.sessionLengths[0])
        sheet.equipment = ["dumbbells"]
        let day = LocalDate(year: 2026, month: 11, day: 20)
        #expect(try UserJournal.onboardingDrafts(journal: path, ruleset: "train", answers: sheet, on: day)
                == UserJournal.onboardingDrafts(journal: path, ruleset: "train", answers: [
                    "primary_goal": "build_muscle", "experience": "0", "days_per_week": 3, "session_minutes": "30-45", "equipment": ["dumbbells"],
                ], on: day))
    }
}
