import ArgumentParser
import WorkoutJournalSync
import JournalInterchange

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff", abstract: "Show where two journals of the same user diverge.",
        discussion: "Exit status 0 when identical, 1 when they differ (like diff(1)).")

    @Argument(help: "The first journal.") var a: String
    @Argument(help: "The second journal.") var b: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        var identical = true
        try reportingFailures {
            let diff = JournalDiff(try JournalLoader.events(path: a), try JournalLoader.events(path: b))
            identical = diff.identical
            print(json ? JSONWriter.string(diff.jsonValue) : diff.text(nameA: a, nameB: b))
        }
        if !identical { throw ExitCode(1) }
    }
}
