import Foundation
import Hummingbird
import HummingbirdTesting
import JournalServer
import JournalSync
import JournalTesting
import Testing
import PostgresNIO

/// Reads from a replica (OPERATIONS.md §"Reads from replicas"): `fleet … --read-database` and `serve --read-database`
/// read a standby through a read-only client and report its lag, while pushes go to the primary. The standby's replay
/// is paused mid-test, so the replica provably lags: what it serves is what it had replayed, and the lag is bytes > 0.
@Suite("reads from a replica: fleet jobs and the support pages read a standby, report its lag, and write nothing")
struct ReplicaReadTests {
    @Test("a paused standby serves the report as it replayed it and fleet verify reports it behind; after resuming it catches up; a primary given as the replica is refused; the read client cannot write")
    func replicaReads() async throws {
        let cluster = try ReplicatedCluster()
        defer { cluster.stop() }
        let both = try DatabaseURL(cluster.url)
        let primary = try DatabaseURL("postgres://postgres@\(both.endpoints[0])/postgres")
        let standby = try DatabaseURL("postgres://postgres@\(both.endpoints[1])/postgres")
        let user = PostgresFixture.freshUser("replica"), token = Tokens.generate()
        try await withSyncStore(primary) { store in try await store.addToken(token, user: user, role: .user) }
        let events = try recordedEvents(device: "ph", workouts: 2, in: ScratchDirectory("replica-reads"))
        #expect(events.count == 8)

        var configuration = ServerConfiguration(database: primary, port: 0)
        configuration.readDatabase = standby
        let app = try await buildApplication(configuration)
        try await app.test(.live) { client in
            let server = URL(string: "http://127.0.0.1:\(try #require(client.port))")!
            func report() async throws -> String {
                try await client.execute(uri: "/v1/journals/\(user)/report", method: .get, headers: [.authorization: "Bearer \(token)"]) { response in
                    #expect(response.status == .ok)
                    return String(buffer: response.body)
                }
            }
            func verify(_ read: DatabaseURL) -> PostgresFixture.Output {
                PostgresFixture.run(PatroniCluster.serverBinary, ["fleet", "verify", "--database", primary.description, "--read-database", read.description, "--json"])
            }
            func standbyCaughtUp(_ link: String) async throws -> Bool {
                for _ in 0..<200 {
                    if try await report().contains(link) { return true }
                    try await Task.sleep(for: .milliseconds(50))
                }
                return false
            }
            let sync = SyncClient(server: server, token: token)
            _ = try await sync.push(user: user, events: Array(events.prefix(4)))
            #expect(try await standbyCaughtUp(#"href="workouts/w1/timeline""#))

            // Replay paused: the primary still commits (synchronous_commit = on waits for the standby's flush, not
            // its replay), the standby keeps serving what it had replayed.
            #expect(PostgresFixture.psql("SELECT pg_wal_replay_pause()", on: standby).status == 0)
            let second = try await sync.push(user: user, events: Array(events.suffix(4)))
            #expect(second.stored == 4)
            let paused = try await report()
            #expect(paused.contains(#"href="workouts/w1/timeline""#))
            #expect(!paused.contains(#"href="workouts/w2/timeline""#))
            let behind = verify(standby)
            #expect(behind.status == 0, "\(behind)")
            let lag = try #require(behind.stdout.firstMatch(of: /"read_from":\{"bytes_behind":(\d+),"replica":"([^"]*)"/))
            #expect(Int(lag.output.1)! > 0, "\(behind.stdout)")
            #expect(lag.output.2 == standby.description.replacingOccurrences(of: "/", with: #"\/"#))
            #expect(behind.stdout.contains(#""problem_count":0,"problems":[]"#))

            #expect(PostgresFixture.psql("SELECT pg_wal_replay_resume()", on: standby).status == 0)
            #expect(try await standbyCaughtUp(#"href="workouts/w2/timeline""#))
        }

        // The primary given as the replica: refused with what to do, nothing read.
        let refused = PostgresFixture.run(PatroniCluster.serverBinary, ["fleet", "verify", "--database", primary.description, "--read-database", primary.description])
        #expect(refused.status == 1)
        #expect(refused.stderr == "Error: --read-database \(primary) is not a replica (pg_is_in_recovery() is false): give a standby's URL (scripts/cluster urls DIR prints read=), or leave the option out to read --database\n")
        // Every fleet read client is read-only, on the primary too: PostgreSQL itself refuses a write through it.
        do {
            try await withFleetReader(primary, read: nil) { client, logger, _ in
                _ = try await client.query("CREATE TABLE replica_read_probe (x int)", logger: logger)
            }
            Issue.record("a write through the fleet's read client was accepted")
        } catch {
            #expect(databaseReason(error).contains("cannot execute CREATE TABLE in a read-only transaction"), "\(databaseReason(error))")
        }
    }
}
