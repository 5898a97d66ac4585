import Foundation
import JournalTesting
import Testing
import WorkoutJournal

/// README's library snippet, run as written on a fresh journal: the code between the markers below is the README's
/// code block (the test checks it line for line), with the observing task's prints collected instead.
@Suite("README's snippet runs on a fresh journal")
struct ReadmeSnippetTests {
    static let thisFile = #filePath
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md").path

    /// The lines of README's first ```swift block, without its `import`.
    static func readmeLines() throws -> [String] {
        let text = try String(contentsOfFile: readme, encoding: .utf8)
        let block = try #require(text.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        return block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.isEmpty && $0 != "import WorkoutJournal" }
    }

    /// The lines between this file's markers, unindented.
    static func snippetLines() throws -> [String] {
        let text = try String(contentsOfFile: thisFile, encoding: .utf8)
        let body = try #require(text.components(separatedBy: "// README snippet begins\n").last?.components(separatedBy: "        // README snippet ends").first)
        return body.split(separator: "\n").map { String($0.dropFirst(8)) }
    }

    @Test("the code below is README's code block, line for line")
    func sameCode() throws {
        #expect(try Self.snippetLines() == Self.readmeLines())
    }

    @Test("the snippet records a templated workout, rests, finishes and edits it; the observer saw each state")
    func runs() async throws {
        let scratch = ScratchDirectory("readme")
        defer { try? FileManager.default.removeItem(atPath: scratch.path) }
        let appSupport = scratch.path
        let printed = Locked<[String]>([])
        func print(_ line: String) { printed.withLock { $0.append(line) } }
        // README snippet begins
        let journals = JournalDirectory(path: appSupport, device: "ph", clock: JournalDirectory.systemClock)
        let journal = try journals.open(user: "ana")   // "", "a/b", "..", NUL are refused
        Task {   // SwiftUI: .task { for await … }
            for await active in journal.observe({ ActiveWorkoutState($0) }) {
                print(active.map { "\($0.name): \($0.sets) sets, \($0.reps) reps" } ?? "No workout in progress.")
            }
        }
        let push = try journal.createTemplate(name: "Push A", exercises: [Prescription(exercise: "barbell-bench-press", sets: 3, reps: "8-10")])
        let workout = try journal.startWorkout(name: "Push A", template: push)   // rows prefilled from the template
        try journal.completeSet(workout, exercise: "barbell-bench-press", set: 1, weight: 60, reps: 10)
        try journal.startRest(workout, exercise: "barbell-bench-press")          // 90 s compound, or its own setting
        try journal.finishWorkout(workout)
        try journal.editSet(workout, exercise: "barbell-bench-press", set: 1, reps: 11)  // history, records, streaks follow
        let home = journal.home                                                  // HomeState, a value
        // README snippet ends
        #expect(journal.active == nil)
        let history = journal.history()
        #expect(history.total == 1)
        #expect(history.workouts.first?.name == "Push A")
        #expect(journal.workout(workout)?.summary.name == "Push A")
        #expect(home == journal.home)
        // The observer keeps only the newest value while it is behind (`observe` buffers one), so a busy machine may
        // show it no more than the end: no workout in progress. Whatever it saw was the logger of this workout or none.
        for _ in 0..<250 where printed.withLock({ $0.last }) != "No workout in progress." {
            try await Task.sleep(for: .milliseconds(20))
        }
        let seen = printed.withLock { $0 }
        #expect(seen.last == "No workout in progress.")
        #expect(seen.allSatisfy { $0 == "No workout in progress." || $0.hasPrefix("Push A: ") }, "\(seen)")
        journal.close()
    }
}
