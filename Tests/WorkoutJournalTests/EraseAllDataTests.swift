import JournalFile
import Foundation
import JournalEvents
import JournalProjections
import JournalStore
import JournalTesting
import Testing
@testable import WorkoutJournal

/// "Delete account" through the facade, on the real file system: every file the engine wrote in the directory —
/// the journal, its snapshots, its backup — is searched, raw and inside every zstd frame, for what was erased.
@Suite("UserJournal.eraseAllData")
struct EraseAllDataTests {
    static let needles = ["Zelda Quintanilla", "zelda.q@example.org", "137.25"]

    static func leaks(in directory: String) throws -> [String] {
        var leaks: [String] = []
        for file in FileManager.default.enumerator(atPath: directory)!.compactMap({ $0 as? String }).sorted() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory + "/" + file, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let hits = Leaks.found(needles, in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))))
            if !hits.isEmpty { leaks.append("\(file): \(hits.joined(separator: ", "))") }
        }
        return leaks
    }

    @Test("erasing all data leaves no name, e-mail or weight in any file, keeps the marker, and the views start from nothing")
    func eraseAllData() throws {
        let root = try temporaryDirectory()
        let clock = TestClock("2026-11-22T12:00:00.000+01:00")
        let directory = JournalDirectory(path: root, device: "ph", clock: { clock.now })
        var journal = try directory.open(user: "zelda")
        try journal.record(.object(["type": "account.created", "name": "Zelda Quintanilla", "email": "zelda.q@example.org"]))
        for name in ["Legs", "Legs again"] {
            let workout = try journal.startWorkout(name: name)
            try journal.completeSet(workout, exercise: "barbell-back-squat", set: 1, weight: 137.25, reps: 5)
            try journal.finishWorkout(workout)
        }
        journal.close()
        // Reopening folds the sealed workouts and writes the snapshots beside the journal.
        journal = try directory.open(user: "zelda")
        _ = journal.home
        _ = try JournalBackup.backup(source: journal.path, destination: root + "/backup.journal", storage: PosixStorage())
        let before = try EraseAllDataTests.leaks(in: root)
        // The home page's own snapshot is written beside the journal; the search after the erasure covers it too.
        _ = try directory.homePage(user: "zelda")
        #expect(FileManager.default.fileExists(atPath: root + "/zelda.journal.home-snapshot"))
        #expect(before.contains { $0.hasPrefix("zelda.journal:") } && before.contains { $0.hasPrefix("backup.journal:") })

        let erasure = try journal.eraseAllData()
        #expect(erasure.marker.type == "data.erased")
        #expect(erasure.marker.int("through_seq") == 7)
        #expect(erasure.outcome.backupsRewritten == [root + "/backup.journal"])
        #expect(try EraseAllDataTests.leaks(in: root) == [])
        #expect(journal.ledger.profile.name == nil)
        #expect(journal.analysis().finished.isEmpty)
        // Recording goes on after the marker.
        let next = try journal.record(.object(["type": "profile.updated", "unit": "lb"]))
        #expect(next.seq == 9)
        journal.close()
        #expect(try EventReader.events(path: root + "/zelda.journal").map(\.type) == ["data.erased", "profile.updated"])
    }
}

@Suite("The rules after an erasure")
struct RulesAfterErasureTests {
    @Test("after eraseAllData the journal still checks exercise ids against the catalogue and one open workout")
    func rulesKeepTheirOptions() throws {
        let clock = TestClock("2026-11-22T12:00:00.000+01:00")
        let journal = try JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { clock.now }).open(user: "ines")
        defer { journal.close() }
        try journal.startWorkout(name: "Before")
        try journal.eraseAllData()
        let workout = try journal.startWorkout(name: "After")
        let before = try Data(contentsOf: URL(fileURLWithPath: journal.path))
        do {
            try journal.addExercise("barbel-bench-pres", to: workout)
            Issue.record("a misspelt exercise id was recorded after the erasure")
        } catch {
            #expect(error.description.contains(#"exercise.added: field "exercise" is "barbel-bench-pres" but is neither a catalogue exercise nor a custom exercise of this journal"#))
        }
        #expect(throws: JournalError.self) { try journal.startWorkout(name: "A second open workout") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal.path)) == before)
    }
}
