import Foundation
import Hummingbird
import HummingbirdTesting
import JournalEvents
import JournalServer
import JournalSync
import Testing
import Logging

/// A bearer token never reaches PostgreSQL (SYNC.md §"Tokens and who may see what"): the server binds its SHA-256
/// (`Tokens.hashHex`). A cluster of the test's own logs every statement with its parameters; after a token is made, used
/// to push, pull and read the whoami page, revoked and refused, its log holds the hash and never the token.
@Suite(.serialized)
struct TokenHashingTests {
    @Test("a token is made, checked and revoked with only its hash in PostgreSQL's statement log")
    func tokenNeverReachesPostgres() async throws {
        let cluster = try PrivateCluster(name: "token-log")
        defer { cluster.stop() }
        let database = try DatabaseURL(cluster.url)
        PostgresFixture.psql("ALTER SYSTEM SET log_statement = 'all'", on: database)
        PostgresFixture.psql("SELECT pg_reload_conf()", on: database)
        let token = Tokens.generate()
        let user = PostgresFixture.freshUser("hash")
        try await withSyncStore(database) { store in try await store.addToken(token, user: user, role: .user) }
        let event = try EventCodec.decode(#"{"v":1,"seq":1,"id":"h-1","at":"2026-11-20T10:00:00.000+01:00","type":"profile.updated","name":"Ana"}"#)
        let app = try await buildApplication(ServerConfiguration(database: database, host: "127.0.0.1", port: 0, logLevel: .error))
        try await app.test(.live) { client in
            let server = URL(string: "http://127.0.0.1:\(try #require(client.port))")!
            let sync = SyncClient(server: server, token: token)
            #expect(try await sync.push(user: user, events: [event]).stored == 1)
            #expect(try await sync.pull(user: user, after: .start).events.count == 1)
        }
        #expect(try await withSyncStore(database) { store in try await store.revoke(token: token) })
        let log = try String(contentsOfFile: cluster.directory + "/server.log", encoding: .utf8)
        #expect(log.contains(Tokens.hashHex(token)), "the statement log holds no hash: is log_statement on?")
        #expect(!log.contains(token))
        #expect(!log.contains(String(token.dropFirst(4))))
    }

    @Test("hashHex is SHA-256 in lower-case hex, as PostgreSQL's sha256 of the UTF-8 bytes; the empty token stays empty; a token is wjt_ and 64 hex digits")
    func hashHex() {
        #expect(Tokens.hashHex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Tokens.hashHex("") == "")
        let token = Tokens.generate()
        #expect(token.hasPrefix("wjt_") && token.count == 68)
        #expect(token.dropFirst(4).allSatisfy { "0123456789abcdef".contains($0) })
        #expect(Tokens.generate() != token)
    }
}
