import JournalFile
import Foundation
import Hummingbird
import HummingbirdTesting
import JournalEvents
import JournalInterchange
import JournalProjections
import TrainingDomain
import JournalServer
import JournalStore
import JournalSync
import JournalTesting
import Testing
import PostgresNIO

/// Every refusal the API documents (SYNC.md §"Refusals"): its status, code and message, and that the
/// database is unchanged afterwards.
@Suite("journal-server refuses bad input with a 4xx that names what and why, storing nothing")
struct BadInputTests {
    struct Answer { var status: Int; var body: String }

    /// Sends raw requests to a live server; `body` gets a function that sends one.
    static func withRawServer(_ body: @escaping @Sendable (_ send: @escaping @Sendable (HTTPRequest.Method, String, String?, [UInt8]) async throws -> Answer) async throws -> Void) async throws {
        let app = try await buildApplication(try PostgresFixture.configuration())
        try await app.test(.live) { client in
            try await body { method, uri, token, bytes in
                var headers: HTTPFields = [:]
                if let token { headers[.authorization] = token.contains(" ") ? token : "Bearer \(token)" }
                return try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(bytes: bytes)) { response in
                    Answer(status: Int(response.status.code), body: String(buffer: response.body))
                }
            }
        }
    }

    static func stored(_ user: String) async throws -> Int64 {
        try await PostgresFixture.scalar("SELECT coalesce(sum(event_count), 0)::bigint FROM journal_batches WHERE user_id = \(user)")
    }

    @Test("missing, malformed, unknown and revoked tokens; another user's journal; support writing")
    func authRefusals() async throws {
        let alice = PostgresFixture.freshUser("alice"), bob = PostgresFixture.freshUser("bob")
        let aliceToken = try await PostgresFixture.token(user: alice)
        let bobToken = try await PostgresFixture.token(user: bob)
        let support = try await PostgresFixture.token(user: "support-sam", role: .support)
        let scratch = ScratchDirectory("auth")
        let events = try recordedEvents(device: "ph", workouts: 1, in: scratch)
        let push = SyncBody.push(events)
        try await Self.withRawServer { send in
            var answer = try await send(.post, SyncProtocol.eventsPath(user: alice), nil, push)
            #expect(answer.status == 401)
            #expect(answer.body == #"{"error":{"code":"missing_token","message":"no Authorization header; send `Authorization: Bearer TOKEN` (journal-server token create prints one)"}}"#)
            answer = try await send(.post, SyncProtocol.eventsPath(user: alice), "Basic abc", push)
            #expect(answer.status == 401)
            #expect(answer.body.contains(#""code":"bad_token","message":"the Authorization header is not `Bearer TOKEN`""#))
            answer = try await send(.post, SyncProtocol.eventsPath(user: alice), "wjt_0000", push)
            #expect(answer.status == 401)
            #expect(answer.body.contains("the token is unknown or revoked"))
            // Bob's token on Alice's journal: neither write nor read.
            answer = try await send(.post, SyncProtocol.eventsPath(user: alice), bobToken, push)
            #expect(answer.status == 403)
            #expect(answer.body.contains("this token belongs to user \(bob); it may not write user \(alice)'s journal"))
            answer = try await send(.get, SyncProtocol.eventsPath(user: alice) + "?after=0", bobToken, [])
            #expect(answer.status == 403)
            #expect(answer.body.contains("it may not read user \(alice)'s journal"))
            answer = try await send(.post, SyncProtocol.eventsPath(user: alice), support, push)
            #expect(answer.status == 403)
            #expect(answer.body.contains(#""code":"read_only","message":"support tokens are read-only; support-sam may not write"#))
            #expect(try await Self.stored(alice) == 0)
            // Alice's own token works; then revoked, it does not.
            answer = try await send(.post, SyncProtocol.eventsPath(user: alice), aliceToken, push)
            #expect(answer.status == 200)
            let revoked = try await withSyncStore(try DatabaseURL(try PostgresFixture.url())) { store in try await store.revoke(token: aliceToken) }
            #expect(revoked)
            answer = try await send(.get, SyncProtocol.eventsPath(user: alice) + "?after=0", aliceToken, [])
            #expect(answer.status == 401)
            // The server remembers the token from Alice's push; the revocation came from elsewhere. A push with it is
            // authorized on what the server remembers, and its commit finds the token revoked: 401, nothing stored.
            let tablet = try recordedEvents(device: "tb", workouts: 1, in: scratch, name: "tablet.journal")
            answer = try await send(.post, SyncProtocol.eventsPath(user: alice), aliceToken, SyncBody.push(tablet))
            #expect(answer.status == 401)
            #expect(answer.body == #"{"error":{"code":"bad_token","message":"the token is unknown or revoked; send a current one (`journal-server token create --database URL --user USER` prints a new one)"}}"#)
            #expect(try await Self.stored(alice) == Int64(events.count))
        }
    }

    @Test("an event of a known type at a newer v: a field this version knows is checked as at the current v (422, the same message, nothing stored); unknown keys are stored")
    func newerVersionIsChecked() async throws {
        let user = PostgresFixture.freshUser()
        let token = try await PostgresFixture.token(user: user)
        let path = SyncProtocol.eventsPath(user: user)
        @Sendable func set(_ fields: String) -> [UInt8] {
            Array(#"{"events":[{"v":1,"seq":1,"id":"ph-1","at":"2026-11-21T18:00:00.000+01:00","type":"workout.started","workout":"w1","name":"Push","session":0},{"v":99,"seq":2,"id":"ph-2","at":"2026-11-21T18:03:00.000+01:00","type":"set.completed","workout":"w1","exercise":"barbell-bench-press",\#(fields),"reps":8,"kind":"working"}]}"#.utf8)
        }
        try await Self.withRawServer { send in
            for (fields, message) in [
                (#""set":1,"weight":"heavy","unit":"kg""#, #"field \"weight\" is \"heavy\" but must be a number"#),
                (#""set":-5,"weight":60,"unit":"kg""#, #"field \"set\" is -5 but must be between 1 and 200"#),
                (#""set":1,"weight":60,"unit":"stone""#, #"field \"unit\" is \"stone\" but must be one of \"kg\", \"lb\""#),
                (#""set":1,"weight":1e16,"unit":"kg""#, #"field \"weight\" is 1e+16 but must be between -1000000000 and 1000000000"#),
            ] {
                let answer = try await send(.post, path, token, set(fields))
                #expect(answer.status == 422)
                #expect(answer.body == #"{"error":{"code":"rule_violation","message":"events[1] (id ph-2): set.completed: \#(message); nothing was stored"}}"#)
            }
            #expect(try await Self.stored(user) == 0)
            let answer = try await send(.post, path, token, set(#""set":1,"weight":60,"unit":"kg","tempo":"3-1-1""#))
            #expect(answer.status == 200, "\(answer.body)")
            #expect(try await Self.stored(user) == 2)
            let pulled = try await send(.get, path + "?after=0", token, [])
            #expect(pulled.body.contains(#"{"v":99,"seq":2,"id":"ph-2","at":"2026-11-21T18:03:00.000+01:00","type":"set.completed","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","tempo":"3-1-1","reps":8,"kind":"working"}"#))
        }
    }

    @Test("malformed JSON, rule-breaking events, oversized bodies and batches, id conflicts, unknown cursors")
    func inputRefusals() async throws {
        let user = PostgresFixture.freshUser()
        let token = try await PostgresFixture.token(user: user)
        let scratch = ScratchDirectory("badinput")
        let events = try recordedEvents(device: "ph", workouts: 1, in: scratch)
        let path = SyncProtocol.eventsPath(user: user)
        try await Self.withRawServer { send in
            var answer = try await send(.post, path, token, Array(#"{"events":[{"v":1,"#.utf8))
            #expect(answer.status == 400)
            #expect(answer.body.contains(#""code":"malformed_body","message":"the body is not JSON: "#))
            answer = try await send(.post, path, token, Array(#"{"events":{}}"#.utf8))
            #expect(answer.status == 400)
            #expect(answer.body.contains(#"\"events\" must be an array, found object; nothing was stored"#))
            answer = try await send(.post, path, token, Array(#"{"events":[{"v":1,"seq":1,"at":"2026-01-05T18:00:00.000+01:00","type":"workout.started"}]}"#.utf8))
            #expect(answer.status == 400)
            #expect(answer.body.contains(#"events[0]: field \"id\""#))
            // A set with reps as text breaks the schema: refused with the field named; the valid events before it are not stored either.
            var bad = events
            bad[1].fields["reps"] = .string("eight")
            answer = try await send(.post, path, token, SyncBody.push(bad))
            #expect(answer.status == 422)
            #expect(answer.body.contains(#""code":"rule_violation","message":"events[1] (id ph-2): "#))
            #expect(answer.body.contains("reps"))
            var unknownType = events
            unknownType[2].type = "set.teleported"
            answer = try await send(.post, path, token, SyncBody.push(unknownType))
            #expect(answer.status == 422)
            #expect(answer.body.contains("events[2] (id ph-3)"))
            // More events than a push may hold.
            let many = (0...SyncProtocol.maximumPushEvents).map { index -> Event in
                var event = events[0]
                event.id = "ph-\(String(100 + index, radix: 36))"
                event.fields["workout"] = .string("w\(index)")
                return event
            }
            answer = try await send(.post, path, token, SyncBody.push(many))
            #expect(answer.status == 413)
            #expect(answer.body.contains(#""code":"batch_too_large","message":"the push holds 1001 events, more than 1000; split it; nothing was stored""#))
            // A body over the byte limit.
            answer = try await send(.post, path, token, [UInt8](repeating: 0x20, count: SyncProtocol.maximumBodyBytes + 1))
            #expect(answer.status == 413)
            #expect(answer.body.contains(#""code":"body_too_large","message":"the request body exceeds 4194304 bytes"#))
            // One id twice with different content in the same push.
            var twice = [events[0], events[0]]
            twice[1].fields["name"] = .string("Pull")
            answer = try await send(.post, path, token, SyncBody.push(twice))
            #expect(answer.status == 400)
            #expect(answer.body.contains("event id ph-1 appears twice in this push with different content; nothing was stored"))
            #expect(try await Self.stored(user) == 0)
            // The same id twice with the same content is stored once.
            answer = try await send(.post, path, token, SyncBody.push([events[0], events[0]]))
            #expect(answer.status == 200)
            #expect(try await Self.stored(user) == 1)

            // Stored once; the same id with other content is a conflict.
            answer = try await send(.post, path, token, SyncBody.push(events))
            #expect(answer.status == 200)
            var changed = events[0]
            changed.fields["name"] = .string("Legs")
            answer = try await send(.post, path, token, SyncBody.push([events[3], changed]))
            #expect(answer.status == 409)
            #expect(answer.body.contains("event id ph-1 is already stored for user \(user) with different content (two devices with the same device tag?); nothing was stored"))
            #expect(try await Self.stored(user) == Int64(events.count))

            // Cursors.
            answer = try await send(.get, path + "?after=banana", token, [])
            #expect(answer.status == 400)
            #expect(answer.body.contains(#""code":"bad_cursor","message":"after=\"banana\" is not a cursor"#))
            answer = try await send(.get, path + "?after=1-99", token, [])
            #expect(answer.status == 410)
            #expect(answer.body.contains("cursor 1-99 is ahead of the server's journal for user \(user) (it holds \(events.count) events); pull from cursor 0"))
            answer = try await send(.get, path + "?after=7-1", token, [])
            #expect(answer.status == 410)
            #expect(answer.body.contains("cursor 7-1 belongs to an earlier copy"))
            answer = try await send(.get, path + "?after=0&limit=0", token, [])
            #expect(answer.status == 400)
            #expect(answer.body.contains(#"limit=\"0\" is not a number from 1 to 2000"#))
            answer = try await send(.post, "/v1/journals/bad%20user/events", token, SyncBody.push(events))
            #expect(answer.status == 400)
            #expect(answer.body.contains("is not a valid user id"))
            #expect(try await Self.stored(user) == Int64(events.count))
        }
    }

    @Test("a support token reads any journal, and every read is in the access log, which cannot be altered")
    func supportAccessIsLogged() async throws {
        let (user, token) = try await PostgresFixture.freshPrincipal("carol")
        let (supportUser, support) = try await PostgresFixture.freshPrincipal("support", role: .support)
        let scratch = ScratchDirectory("support")
        let events = try recordedEvents(device: "ph", workouts: 1, in: scratch)
        try await Self.withRawServer { send in
            #expect(try await send(.post, SyncProtocol.eventsPath(user: user), token, SyncBody.push(events)).status == 200)
            let read = try await send(.get, SyncProtocol.eventsPath(user: user) + "?after=0", support, [])
            #expect(read.status == 200)
            #expect(read.body.hasPrefix(#"{"cursor":"1-4","more":false,"events":[{"v":1,"seq":1,"id":"ph-1""#))
            // The user cannot read the log; support can.
            #expect(try await send(.get, "/v1/access-log?user=\(user)", token, []).status == 403)
            // The HTML report from the server's copy: the page `journal report` writes for the synced journal.
            let page = try await send(.get, "/v1/journals/\(user)/report", support, [])
            #expect(page.status == 200)
            let synced = Merge.merge([], events).events
            let expected = HTMLReport.render(Projections.analysis(events: synced, asOf: synced.map(\.at).max()!, context: .trainingDomain),
                                             title: "\(user) (journal-server)", workoutLink: { "workouts/\($0)/timeline" })
            #expect(page.body == expected)
            #expect(page.body.contains("<html"))
            let stranger = try await PostgresFixture.token(user: PostgresFixture.freshUser("eve"))
            #expect(try await send(.get, "/v1/journals/\(user)/report", stranger, []).status == 403)
            let log = try await send(.get, "/v1/access-log?user=\(user)", support, [])
            #expect(log.status == 200)
            #expect(log.body.contains(#""action":"pull","actor":"\#(supportUser)","#))
            #expect(log.body.contains(#""detail":"after=0 events=4 cursor=1-4","subject":"\#(user)""#))
            #expect(log.body.contains(#""action":"report","actor":"\#(supportUser)","#))
            #expect(log.body.contains(#""detail":"events=4 cursor=1-4","subject":"\#(user)""#))
        }
        // Nobody changes a line once written, not even with direct SQL.
        await #expect(throws: (any Error).self) {
            _ = try await PostgresFixture.scalar("WITH d AS (DELETE FROM journal_access_log WHERE subject = \(user) RETURNING 1) SELECT count(*) FROM d")
        }
        await #expect(throws: (any Error).self) {
            _ = try await PostgresFixture.scalar("WITH d AS (UPDATE journal_access_log SET actor = 'nobody' WHERE subject = \(user) RETURNING 1) SELECT count(*) FROM d")
        }
        #expect(try await PostgresFixture.scalar("SELECT count(*) FROM journal_access_log WHERE subject = \(user) AND actor = \(supportUser)") == 2)
    }

    @Test("the bearer scheme is case-insensitive; the support access log answers without ?user= too")
    func schemeAndUnfilteredLog() async throws {
        let (user, token) = try await PostgresFixture.freshPrincipal("scheme")
        let support = try await PostgresFixture.token(user: "support-sam", role: .support)
        try await Self.withRawServer { send in
            for scheme in ["bearer", "BEARER", "Bearer"] {
                let answer = try await send(.get, "/v1/whoami", "\(scheme) \(token)", [])
                #expect(answer.status == 200)
                #expect(answer.body == #"{"role":"user","user":"\#(user)"}"#)
            }
            _ = try await send(.get, SyncProtocol.eventsPath(user: user) + "?after=0", support, [])
            let log = try await send(.get, "/v1/access-log", support, [])
            #expect(log.status == 200)
            #expect(log.body.hasPrefix(#"{"entries":["#))
            #expect(log.body.contains(#""subject":"\#(user)""#))
        }
    }
}
