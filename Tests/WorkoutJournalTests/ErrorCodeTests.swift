import Foundation
import JournalStore
import JournalTesting
import Testing
import WorkoutJournal
import JournalEvents

/// The facade's errors carry a stable code beside the message (README.md §"Error codes"); the message an app shows
/// names the journal by its file name, and the full path is a field of its own.
@Suite("the facade's errors: a stable code, a message naming the file by name, the full path apart")
struct ErrorCodeTests {
    static func withJournal(_ body: (UserJournal, String) throws -> Void) throws {
        let scratch = ScratchDirectory("codes")
        defer { scratch.remove() }
        let journals = JournalDirectory(path: scratch.path, device: "ph", clock: { Timestamp(rfc3339: "2026-11-21T18:00:00.000+01:00")! })
        let journal = try journals.open(user: "ana")
        defer { journal.close() }
        try body(journal, try journals.journalPath(user: "ana"))
    }

    @Test("refused records: an unknown exercise, a workout never started, a missing field; each with its code and the file's name")
    func refusedRecords() throws {
        try Self.withJournal { journal, path in
            let workout = try journal.startWorkout(name: "Push")
            #expect(throws: JournalError.self) { try journal.completeSet(workout, exercise: "no-such-lift", set: 1, weight: 60, reps: 5) }
            do throws(JournalError) {
                try journal.completeSet(workout, exercise: "no-such-lift", set: 1, weight: 60, reps: 5)
            } catch {
                #expect(error.code == "record.unknown_exercise")
                #expect(error.message == #"ana.journal: the event was refused: set.completed: field "exercise" is "no-such-lift" but is neither a catalogue exercise nor a custom exercise of this journal (check the spelling with `journal catalog --search TEXT`, or record an exercise.created for it first); nothing was written"#)
                #expect(error.path == path)
                #expect(error.description == error.message.replacingOccurrences(of: "ana.journal:", with: "\(path):"))
            }
            do throws(JournalError) {
                try journal.completeSet("w-never", exercise: "barbell-bench-press", set: 1, weight: 60, reps: 5)
            } catch {
                #expect(error.code == "record.unknown_workout")
                #expect(error.message == #"ana.journal: the event was refused: set.completed: field "workout" is "w-never" but has not been started (record a workout.started with this workout id first); nothing was written"#)
            }
            do throws(JournalError) {
                _ = try journal.record(.object(JSONObject([JSONField("type", .string("workout.started"))])))
            } catch {
                #expect(error.code == "record.missing_field")
                #expect(error.message == #"ana.journal: the event was refused: workout.started: field "workout" is required; nothing was written"#)
            }
            do throws(JournalError) {
                _ = try journal.startWorkout(name: "Pull")
            } catch {
                #expect(error.code == "record.another_workout_open")
            }
        }
    }

    @Test("store errors: a file that is not a journal and a closed journal; a bad user id")
    func storeAndUserErrors() throws {
        let scratch = ScratchDirectory("codes")
        defer { scratch.remove() }
        let journals = JournalDirectory(path: scratch.path, device: "ph", clock: { Timestamp(rfc3339: "2026-11-21T18:00:00.000+01:00")! })
        let path = try journals.journalPath(user: "bo")
        try Data("not zstd at all".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try journals.open(user: "bo")
            Issue.record("a file of text opened as a journal")
        } catch let error as JournalError {
            #expect(error.code == "journal.not_a_journal")
            #expect(error.path == path)
            #expect(error.message.hasPrefix("bo.journal: not a journal: "))
            #expect(!error.message.contains(scratch.path))
        }
        try FileManager.default.removeItem(atPath: path)
        let journal = try journals.open(user: "bo")
        journal.close()
        do throws(JournalError) {
            _ = try journal.startWorkout(name: "Push")
            Issue.record("a closed journal recorded")
        } catch {
            #expect(error.code == "journal.writer_poisoned")
            #expect(error.message == "bo.journal: an earlier write failed and could not be undone (the journal was closed; open it again); reopen the journal to repair its tail")
        }
        do {
            _ = try JournalCopy.write(source: path, reRecording: nil, to: path)
            Issue.record("a copy overwrote its output")
        } catch let error as JournalCopy.Failure {
            #expect(error.code == "copy.output_exists")
        }
        #expect(throws: UserIDError.self) { try journals.open(user: "a/b") }
        do throws(UserIDError) { _ = try journals.journalPath(user: "a/b") } catch { #expect(error.code == "user.invalid_id") }
    }

    @Test("store errors' codes, and their messages naming files by name only")
    func storeErrorTable() {
        let container = "/var/mobile/Containers/Data/Application/1234/Library/Application Support/"
        let journal = container + "ana.journal", backup = container + "ana.backup"
        let cases: [(StoreError, String, String)] = [
            (.locked(path: journal), "journal.locked", "ana.journal: another process is writing to this journal (it holds the writer lock); wait for it to finish and try again"),
            (.damaged(path: journal, offset: 96, reason: "bad checksum"), "journal.damaged", "ana.journal: damaged at byte 96: bad checksum; nothing was written. Run `journal verify ana.journal` for details and `journal salvage ana.journal -o NEW` to recover every intact event"),
            (.backupRefused(source: journal, destination: backup, reason: "it is newer"), "backup.refused", "ana.backup: not backed up from ana.journal: it is newer; ana.backup was left as it was"),
        ]
        for (error, code, message) in cases {
            #expect(JournalError.store(error).code == code)
            #expect(JournalError.store(error).message == message)
            #expect(JournalError.store(error).path?.hasPrefix(container) == true)
        }
    }
}
