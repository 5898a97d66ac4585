import Foundation
import JournalModel
import Testing
import WorkoutJournal
import JournalFile

/// A journal open for recording takes in another device's events through its own writer (`UserJournal.absorb`, what
/// a sync of an open journal does): no second open of the file, and every observation sees the merged state.
@Suite("merging into an open, observed journal")
struct OpenJournalSyncTests {
    /// Two devices of one user, each with its own directory and clock.
    func devices() throws -> (phone: UserJournal, watch: UserJournal, phoneClock: TestClock, watchClock: TestClock) {
        let phoneClock = TestClock("2026-11-20T18:00:00.000+01:00"), watchClock = TestClock("2026-11-20T17:00:00.000+01:00")
        let phone = try JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { phoneClock.now }).open(user: "ana")
        let watch = try JournalDirectory(path: try temporaryDirectory(), device: "wa", clock: { watchClock.now }).open(user: "ana")
        return (phone, watch, phoneClock, watchClock)
    }

    @Test("events that all come after the journal's last one are appended through its writer; observers get the new state; recording goes on")
    func appendedWhileObserved() async throws {
        let (phone, watch, phoneClock, watchClock) = try devices()
        defer { phone.close(); watch.close() }
        try watch.updateProfile(name: "Ana", unit: .kg)
        var sets = watch.observe { analysis in ActiveWorkoutState(analysis).map { "\($0.name): \($0.sets) sets, \($0.reps) reps" } ?? "idle" }
            .makeAsyncIterator()
        #expect(await sets.next() == "idle")
        let workout = try phone.startWorkout(name: "Legs")
        phoneClock.advance(seconds: 60)
        try phone.completeSet(workout, exercise: "barbell-back-squat", set: 1, weight: 100, reps: 5)

        let absorbed = try watch.absorb(try phone.events(), incomingName: "the phone")
        #expect(absorbed.appended == 2)
        #expect(absorbed.rewritten == false)
        #expect(absorbed.events.map(\.id) == ["wa-1", "ph-1", "ph-2"])
        #expect(absorbed.events.map(\.seq) == [1, 2, 3])
        #expect(await sets.next() == "Legs: 1 sets, 5 reps")
        // The same events again: nothing to do, nothing observed.
        #expect(try watch.absorb(try phone.events()).appended == 0)

        // The watch records on, after what it took in; the file holds the merge and then its own events.
        watchClock.advance(seconds: 3_700)
        try watch.completeSet(workout, exercise: "barbell-back-squat", set: 2, weight: 100, reps: 4)
        #expect(await sets.next() == "Legs: 2 sets, 9 reps")
        #expect(try EventReader.events(path: watch.path).map(\.id) == ["wa-1", "ph-1", "ph-2", "wa-2"])
        #expect(try EventReader.events(path: watch.path).map(\.seq) == [1, 2, 3, 4])
    }

    @Test("events that sort before the journal's last one rewrite the file through the same writer, which keeps the lock and records on")
    func rewrittenWhileOpen() async throws {
        let (phone, watch, phoneClock, watchClock) = try devices()
        defer { phone.close(); watch.close() }
        // The watch's event is later than the phone's.
        watchClock.advance(seconds: 7_200)
        try watch.updateProfile(name: "Ana", unit: .kg)
        let workout = try phone.startWorkout(name: "Legs")
        phoneClock.advance(seconds: 60)
        try phone.completeSet(workout, exercise: "barbell-back-squat", set: 1, weight: 100, reps: 5)
        var total = watch.observe { HistoryState($0).total }.makeAsyncIterator()
        #expect(await total.next() == 0)
        try phone.finishWorkout(workout)

        #expect(UserJournal.openInThisProcess(path: watch.path) === watch)
        let absorbed = try watch.absorb(try phone.events())
        #expect(absorbed.rewritten == true)
        #expect(absorbed.appended == 0)
        #expect(absorbed.events.map(\.id) == ["ph-1", "ph-2", "ph-3", "wa-1"])
        #expect(await total.next() == 1)
        // Still the only writer of the new file: another open is refused, and the watch records on.
        #expect(throws: JournalError.self) { _ = try UserJournal.open(path: watch.path, device: "wb") }
        watchClock.advance(seconds: 60)
        try watch.updateProfile(bodyWeight: 70)
        #expect(try EventReader.events(path: watch.path).map(\.id) == ["ph-1", "ph-2", "ph-3", "wa-1", "wa-2"])
        #expect(try EventReader.events(path: watch.path).map(\.seq) == [1, 2, 3, 4, 5])

        // The events this device records are announced; merged ones are not.
        var appended = watch.appendedEvents().makeAsyncIterator()
        try watch.absorb(try phone.events())
        watchClock.advance(seconds: 60)
        let note = try watch.updateProfile(bodyWeight: 71)
        #expect(await appended.next()?.map(\.id) == [note.id])

        watch.close()
        #expect(UserJournal.openInThisProcess(path: watch.path) == nil)
        #expect(await appended.next() == nil)
        #expect {
            try watch.absorb(try phone.events())
        } throws: { error in
            (error as? JournalError)?.description.contains("the journal was closed; open it again") == true
        }
    }
}
