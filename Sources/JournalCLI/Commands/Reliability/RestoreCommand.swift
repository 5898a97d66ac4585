import ArgumentParser
import Foundation
import WorkoutJournalSync

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Write a user's whole journal from a journal-server's copy to a new file.",
        discussion: "A new device, or support opening a user's journal (--user, with a support token; the server logs it)."
    )

    @OptionGroup var server: ServerOptions
    @Option(help: "Whose journal (default: the token's own user).") var user: String?
    @Option(name: .shortAndLong, help: "The new journal to write (must not exist).") var output: String
    @Flag(help: "Print the report as JSON.") var json = false

    func run() throws {
        try reportingFailures {
            let client = try server.client()
            let (path, user) = (output, self.user)
            let report: JournalSyncing.RestoreReport
            do {
                report = try waitFor { try await JournalSyncing.restore(to: path, client: client, user: user) }
            } catch let problem as JournalSyncing.Problem {
                throw Failure(message: "restore: \(problem.description)")
            }
            if json {
                print(JSONWriter.string(report.jsonValue(output: path)))
            } else {
                print("restored: \(report.events) events of user \(report.user) → \(path) (cursor \(report.cursor))")
            }
        }
    }
}
