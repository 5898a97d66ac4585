import ArgumentParser
import Foundation
import WorkoutJournalSync

/// Options both sync commands take.
struct ServerOptions: ParsableArguments {
    @Option(help: "The journal-server, e.g. http://127.0.0.1:8080 (on Linux through the proxy https_proxy or http_proxy names, unless no_proxy lists its host; SYNC.md).") var server: String
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
