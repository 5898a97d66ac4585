import ArgumentParser
import Foundation
import WorkoutJournalSync

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync a journal with a journal-server: pull what the server has, merge it in, push what it lacks.",
        discussion: """
        Merging follows `journal merge`'s rules (union by event id, deterministic order, seq renumbered), so \
        every device that syncs ends with the same journal. The device's cursor and the ids the server holds \
        are kept in FILE.sync. An interrupted sync is completed by running it again. See SYNC.md.
        """
    )

    @Argument(help: "The journal (created when absent).") var file: String
    @OptionGroup var server: ServerOptions
    @Flag(help: "Print the report as JSON.") var json = false

    func run() throws {
        try reportingFailures {
            let client = try server.client()
            let path = file
            let report: JournalSyncing.SyncReport
            do {
                report = try waitFor { try await JournalSyncing.sync(path, client: client) }
            } catch let problem as JournalSyncing.Problem {
                throw Failure(message: "sync \(path): \(problem.description)")
            }
            if json {
                print(JSONWriter.string(report.jsonValue))
            } else {
                var lines = ["synced:   \(path) with \(client.server.absoluteString) as user \(report.user)"]
                if let erasure = report.erasure {
                    lines.append("erased:   the account was erased at \(erasure.at) (marker \(erasure.marker)): \(erasure.erased) events of this journal erased, \(erasure.kept) kept")
                }
                lines += ["pulled:   \(report.pulled) events (\(report.merged) new to this journal)",
                          "pushed:   \(report.pushed) events (\(report.storedByServer) new to the server)",
                          "journal:  \(report.events) events; cursor \(report.cursor)"]
                print(lines.joined(separator: "\n"))
            }
        }
    }
}
