import ArgumentParser
import Foundation
import WorkoutJournal

/// Options both sync commands take.
struct ServerOptions: ParsableArguments {
    @Option(help: "The journal-server, e.g. http://127.0.0.1:8080.") var server: String
    @Option(help: "Access token (default $JOURNAL_TOKEN; journal-server token create prints one).") var token: String?

    func client() throws -> SyncClient {
        guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--server \(server.debugDescription) is not an http:// or https:// URL")
        }
        let token = self.token ?? ProcessInfo.processInfo.environment["JOURNAL_TOKEN"]
        guard let token, !token.isEmpty else { throw ValidationError("no token: pass --token T or set JOURNAL_TOKEN") }
        return SyncClient(server: url, token: token)
    }
}

/// Runs async library work from a synchronous command.
private final class ResultBox<T>: @unchecked Sendable { var result: Result<T, any Error>? }

func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

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
                print(#"{"user":"\#(report.user)","pulled":\#(report.pulled),"merged":\#(report.merged),"pushed":\#(report.pushed),"stored_by_server":\#(report.storedByServer),"events":\#(report.events),"cursor":"\#(report.cursor)"}"#)
            } else {
                print("""
                synced:   \(path) with \(client.server.absoluteString) as user \(report.user)
                pulled:   \(report.pulled) events (\(report.merged) new to this journal)
                pushed:   \(report.pushed) events (\(report.storedByServer) new to the server)
                journal:  \(report.events) events; cursor \(report.cursor)
                """)
            }
        }
    }
}

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
                print(#"{"user":"\#(report.user)","events":\#(report.events),"cursor":"\#(report.cursor)","output":\#(JSONWriter.string(.string(path)))}"#)
            } else {
                print("restored: \(report.events) events of user \(report.user) → \(path) (cursor \(report.cursor))")
            }
        }
    }
}
