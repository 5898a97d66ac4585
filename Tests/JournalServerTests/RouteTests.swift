import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JournalEvents
import JournalFile
import JournalInterchange
import JournalProjections
import JournalSync
import JournalTesting
import Testing
import TrainingDomain
@testable import JournalServer
import Logging

/// Every route the router registers, in-process (HummingbirdTesting's `.router`) against `MemorySyncStore`: no
/// database, no socket. Each test checks statuses and bodies, then every JSON answer it got against the schema
/// docs/sync-openapi.yaml gives that operation and status (`RouteTests.Exchange.validate`). What only PostgreSQL
/// does (group commit, failover, the bytes at rest, a crash) is tested live in the other suites.
@Suite("every route in-process against the memory store: statuses, bodies, and the OpenAPI document's schemas")
struct RouteTests {
    /// Tokens of the store every test starts from: ada and bob are users, help is support.
    static let ada = "wjt_ada", bob = "wjt_bob", help = "wjt_help"
    static let events = "POST /v1/journals/{user}/events", page = "GET /v1/journals/{user}/events"

    struct Answer {
        var status: Int
        var body: String
        var headers: HTTPFields
    }

    /// The requests of one test: sends them to the router and keeps each answer with its documented operation.
    final class Exchange: @unchecked Sendable {
        // @unchecked: a test sends its requests one at a time.
        let client: any TestClientProtocol
        var answers: [(operation: String, answer: Answer)] = []
        init(_ client: any TestClientProtocol) { self.client = client }

        /// `operation` is the document's "METHOD /path/{param}"; `uri` the request's path and query.
        @discardableResult
        func send(_ operation: String, _ uri: String, token: String? = nil, body: [UInt8] = []) async throws -> Answer {
            var headers: HTTPFields = [:]
            if let token { headers[.authorization] = "Bearer \(token)" }
            let method = HTTPRequest.Method(rawValue: String(operation.prefix { $0 != " " }))!
            let answer = try await client.execute(uri: uri, method: method, headers: headers,
                                                  body: body.isEmpty ? nil : ByteBuffer(bytes: body)) { response in
                Answer(status: Int(response.status.code), body: String(buffer: response.body), headers: response.headers)
            }
            answers.append((operation, answer))
            return answer
        }

        /// Every answer against docs/sync-openapi.yaml: its status is documented for its operation, and a JSON body
        /// validates against the schema documented for that status (JSON Schema 2020-12, python3-jsonschema).
        func validate() throws {
            let recorded = try answers.map { operation, answer -> [String: Any] in
                let json = answer.headers[.contentType] == "application/json"
                return ["operation": operation, "status": answer.status, "json": json,
                        "body": json ? try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) : answer.body]
            }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("route-answers-\(getpid())-\(UUID().uuidString).json")
            try JSONSerialization.data(withJSONObject: recorded).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let output = PostgresFixture.run("/usr/bin/python3", ["-c", RouteTests.validator, OpenAPIContractTests.documentPath, file.path])
            #expect(output.status == 0, "the answers do not match docs/sync-openapi.yaml (scripts/setup installs python3-yaml and python3-jsonschema):\n\(output.stdout)\(output.stderr)")
            #expect(output.stdout == "\(answers.count) answers valid\n")
        }
    }

    /// Reads the document and the answers; prints each answer the document does not describe, or how many it checked.
    static let validator = #"""
        import json, sys, yaml, jsonschema
        document = yaml.safe_load(open(sys.argv[1]))
        answers = json.load(open(sys.argv[2]))
        def resolve(node):
            if isinstance(node, dict):
                if "$ref" in node:
                    target = document
                    for part in node["$ref"].lstrip("#/").split("/"): target = target[part]
                    return resolve(target)
                return {key: resolve(value) for key, value in node.items()}
            if isinstance(node, list): return [resolve(value) for value in node]
            return node
        problems = []
        for answer in answers:
            method, path = answer["operation"].split(" ")
            where = "%s %s" % (answer["operation"], answer["status"])
            responses = document["paths"][path][method.lower()]["responses"]
            documented = responses.get(str(answer["status"]))
            if documented is None:
                problems.append("%s: status not documented" % where); continue
            content = resolve(documented).get("content", {})
            if answer["json"]:
                if "application/json" not in content:
                    problems.append("%s: answered JSON, documented %s" % (where, list(content))); continue
                for error in jsonschema.Draft202012Validator(content["application/json"]["schema"]).iter_errors(answer["body"]):
                    problems.append("%s: %s at %s in %s" % (where, error.message, list(error.absolute_path), json.dumps(answer["body"])[:300]))
        print("\n".join(problems) if problems else "%d answers valid" % len(answers))
        sys.exit(1 if problems else 0)
        """#

    /// `journal-server serve`'s application (`buildApplication`: its middleware, schema gate and services) on a fresh
    /// memory store holding ada's, bob's and help's tokens, tested through its router; the access log's clock reads
    /// 1970-01-01T00:00:00.250Z.
    static func withRoutes(_ body: @escaping @Sendable (Exchange, MemorySyncStore) async throws -> Void) async throws {
        let store = MemorySyncStore(now: { Date(timeIntervalSince1970: 0.25) })
        try await store.addToken(ada, user: "ada", role: .user)
        try await store.addToken(bob, user: "bob", role: .user)
        try await store.addToken(help, user: "help", role: .support)
        var configuration = ServerConfiguration(database: try DatabaseURL("postgres://nobody@127.0.0.1:1/none"))
        configuration.logLevel = .critical
        let app = try await buildApplication(configuration, makeStore: { _, _, _ in (store, []) })
        try await app.test(.router) { client in
            let exchange = Exchange(client)
            try await body(exchange, store)
            try exchange.validate()
        }
    }

    /// Ada's first two workouts (w1, w2), four events each: ph-1 … ph-8.
    static func workouts() throws -> [Event] {
        try recordedEvents(device: "ph", workouts: 2, in: ScratchDirectory("routes"))
    }

    @Test("health and metrics: live, ready and /health answer ok; /metrics is Prometheus text with the sync counters")
    func healthAndMetrics() async throws {
        let events = try Self.workouts()
        try await Self.withRoutes { exchange, _ in
            for path in ["/health/live", "/health/ready", "/health"] {
                let answer = try await exchange.send("GET \(path)", path)
                #expect(answer.status == 200)
                #expect(answer.body == "ok\n")
            }
            try await exchange.send(Self.events, "/v1/journals/ada/events", token: Self.ada, body: SyncBody.push(events))
            let metrics = try await exchange.send("GET /metrics", "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.headers[.contentType] == "text/plain; version=0.0.4")
            #expect(metrics.body.contains("# TYPE journal_sync_events_stored_total counter\n"))
        }
    }

    @Test("push and pull: acknowledged with the cursor, idempotent, paged by limit, each line at its position")
    func pushAndPull() async throws {
        let events = try Self.workouts()
        try await Self.withRoutes { exchange, _ in
            let ids = #"["ph-1","ph-2","ph-3","ph-4","ph-5","ph-6","ph-7","ph-8"]"#
            var answer = try await exchange.send(Self.events, "/v1/journals/ada/events", token: Self.ada, body: SyncBody.push(events))
            #expect(answer.status == 200)
            #expect(answer.headers[.contentType] == "application/json")
            #expect(answer.body == #"{"acknowledged":\#(ids),"cursor":"1-8","stored":8}"#)
            answer = try await exchange.send(Self.events, "/v1/journals/ada/events", token: Self.ada, body: SyncBody.push(events))
            #expect(answer.body == #"{"acknowledged":\#(ids),"cursor":"1-8","stored":0}"#)

            answer = try await exchange.send(Self.page, "/v1/journals/ada/events?after=0&limit=3", token: Self.ada)
            #expect(answer.status == 200)
            var page = try SyncBody.page(Array(answer.body.utf8))
            #expect(page.cursor == SyncCursor(epoch: 1, position: 3))
            #expect(page.more == true)
            #expect(page.events.map(\.id) == ["ph-1", "ph-2", "ph-3"])
            #expect(page.events.map(\.seq) == [1, 2, 3])
            answer = try await exchange.send(Self.page, "/v1/journals/ada/events?after=1-3", token: Self.ada)
            page = try SyncBody.page(Array(answer.body.utf8))
            #expect(page.cursor == SyncCursor(epoch: 1, position: 8))
            #expect(page.more == false)
            #expect(page.events.map(\.seq) == [4, 5, 6, 7, 8])
            #expect(page.events.map { Merge.identity($0) } == events[3...].map { Merge.identity($0) })
            // A journal the server does not hold: empty from the start, and no cursor of it is known.
            answer = try await exchange.send(Self.page, "/v1/journals/bob/events", token: Self.bob)
            #expect(answer.body == #"{"cursor":"0","more":false,"events":[]}"#)
        }
    }

    @Test("a push refused for its body or its ids stores nothing: 400, 413, 422 and 409 with messages naming what")
    func pushRefusals() async throws {
        let events = try Self.workouts()
        try await Self.withRoutes { exchange, _ in
            let path = "/v1/journals/ada/events"
            var answer = try await exchange.send(Self.events, path, token: Self.ada, body: Array(#"{"events":{}}"#.utf8))
            #expect(answer.status == 400)
            #expect(answer.body.hasPrefix(#"{"error":{"code":"malformed_body","message":"#))
            #expect(answer.body.contains(#"\"events\" must be an array, found object; nothing was stored"#))
            var bad = events
            bad[1].fields["reps"] = .string("eight")
            answer = try await exchange.send(Self.events, path, token: Self.ada, body: SyncBody.push(bad))
            #expect(answer.status == 422)
            #expect(answer.body.contains(#""code":"rule_violation","message":"events[1] (id ph-2): "#))
            let many = (0...SyncProtocol.maximumPushEvents).map { index -> Event in
                var event = events[0]
                event.id = "ph-\(String(100 + index, radix: 36))"
                return event
            }
            answer = try await exchange.send(Self.events, path, token: Self.ada, body: SyncBody.push(many))
            #expect(answer.status == 413)
            #expect(answer.body == #"{"error":{"code":"batch_too_large","message":"the push holds 1001 events, more than 1000; split it; nothing was stored"}}"#)
            answer = try await exchange.send(Self.events, path, token: Self.ada, body: [UInt8](repeating: 0x20, count: SyncProtocol.maximumBodyBytes + 1))
            #expect(answer.status == 413)
            #expect(answer.body.contains(#""code":"body_too_large","message":"the request body exceeds 4194304 bytes"#))
            var twice = [events[0], events[0]]
            twice[1].fields["name"] = .string("Pull")
            answer = try await exchange.send(Self.events, path, token: Self.ada, body: SyncBody.push(twice))
            #expect(answer.status == 400)
            #expect(answer.body == #"{"error":{"code":"duplicate_id","message":"event id ph-1 appears twice in this push with different content; nothing was stored"}}"#)
            answer = try await exchange.send(Self.page, path, token: Self.ada)
            #expect(answer.body == #"{"cursor":"0","more":false,"events":[]}"#)

            try await exchange.send(Self.events, path, token: Self.ada, body: SyncBody.push(events))
            var changed = events[0]
            changed.fields["name"] = .string("Legs")
            answer = try await exchange.send(Self.events, path, token: Self.ada, body: SyncBody.push([events[3], changed]))
            #expect(answer.status == 409)
            #expect(answer.body == #"{"error":{"code":"id_conflict","message":"event id ph-1 is already stored for user ada with different content (two devices with the same device tag?); nothing was stored"}}"#)
            answer = try await exchange.send(Self.page, path, token: Self.ada)
            #expect(try SyncBody.page(Array(answer.body.utf8)).cursor == SyncCursor(epoch: 1, position: 8))
        }
    }

    @Test("a pull refuses a cursor, limit or wait it cannot read: 400 for the text, 410 for a cursor of no copy it holds")
    func pullRefusals() async throws {
        let events = try Self.workouts()
        try await Self.withRoutes { exchange, _ in
            let path = "/v1/journals/ada/events"
            var answer = try await exchange.send(Self.page, path + "?after=1-1", token: Self.ada)
            #expect(answer.status == 410)
            #expect(answer.body == #"{"error":{"code":"unknown_cursor","message":"cursor 1-1 is unknown: the server holds no journal for user ada; pull from cursor 0"}}"#)
            try await exchange.send(Self.events, path, token: Self.ada, body: SyncBody.push(events))
            answer = try await exchange.send(Self.page, path + "?after=banana", token: Self.ada)
            #expect(answer.status == 400)
            #expect(answer.body == #"{"error":{"code":"bad_cursor","message":"after=\"banana\" is not a cursor (0, or EPOCH-POSITION as a previous pull or push answered)"}}"#)
            answer = try await exchange.send(Self.page, path + "?after=1-9", token: Self.ada)
            #expect(answer.status == 410)
            #expect(answer.body == #"{"error":{"code":"unknown_cursor","message":"cursor 1-9 is ahead of the server's journal for user ada (it holds 8 events); pull from cursor 0"}}"#)
            answer = try await exchange.send(Self.page, path + "?after=2-1", token: Self.ada)
            #expect(answer.status == 410)
            #expect(answer.body == #"{"error":{"code":"unknown_cursor","message":"cursor 2-1 belongs to an earlier copy of user ada's journal (now epoch 1, erased since); pull from cursor 0"}}"#)
            answer = try await exchange.send(Self.page, path + "?limit=2001", token: Self.ada)
            #expect(answer.status == 400)
            #expect(answer.body == #"{"error":{"code":"bad_limit","message":"limit=\"2001\" is not a number from 1 to 2000"}}"#)
            answer = try await exchange.send(Self.page, path + "?wait=26", token: Self.ada)
            #expect(answer.status == 400)
            #expect(answer.body == #"{"error":{"code":"bad_wait","message":"wait=\"26\" is not a number of seconds from 0 to 25"}}"#)
        }
    }

    @Test("a pull with wait answers as soon as a push of its user commits, and empty at the end of its wait")
    func pullWaits() async throws {
        let events = try Self.workouts()
        try await Self.withRoutes { exchange, _ in
            let path = "/v1/journals/ada/events"
            // Nothing comes: empty after the wait, the cursor unchanged.
            #expect(try await exchange.send(Self.page, path + "?after=0&wait=1", token: Self.ada).body == #"{"cursor":"0","more":false,"events":[]}"#)
            // Another user's push does not end ada's wait; ada's own does, with the events it stored.
            async let waited = exchange.client.execute(uri: path + "?after=0&wait=25", method: .get, headers: [.authorization: "Bearer \(Self.ada)"],
                                                       body: nil) { response in String(buffer: response.body) }
            try await Task.sleep(for: .milliseconds(200))
            try await exchange.send(Self.events, "/v1/journals/bob/events", token: Self.bob, body: SyncBody.push([events[0]]))
            try await Task.sleep(for: .milliseconds(200))
            try await exchange.send(Self.events, path, token: Self.ada, body: SyncBody.push(Array(events[..<2])))
            let page = try SyncBody.page(Array(try await waited.utf8))
            #expect(page.events.map(\.id) == ["ph-1", "ph-2"])
            #expect(page.cursor == SyncCursor(epoch: 1, position: 2))
            // Events already there: answered at once.
            let answer = try await exchange.send(Self.page, path + "?after=1-1&wait=25", token: Self.ada)
            #expect(try SyncBody.page(Array(answer.body.utf8)).events.map(\.id) == ["ph-2"])
        }
    }

    @Test("tokens: none, unknown, revoked, another user's and support's writes are refused on every /v1 route")
    func tokenRefusals() async throws {
        let events = try Self.workouts()
        try await Self.withRoutes { exchange, store in
            let push = SyncBody.push(events)
            var answer = try await exchange.send(Self.events, "/v1/journals/ada/events", body: push)
            #expect(answer.status == 401)
            #expect(answer.body == #"{"error":{"code":"missing_token","message":"no Authorization header; send `Authorization: Bearer TOKEN` (journal-server token create prints one)"}}"#)
            answer = try await exchange.send("GET /v1/whoami", "/v1/whoami", token: "wjt_nobody")
            #expect(answer.status == 401)
            #expect(answer.body == #"{"error":{"code":"bad_token","message":"the token is unknown or revoked; send a current one (`journal-server token create --database URL --user USER` prints a new one)"}}"#)
            answer = try await exchange.send(Self.events, "/v1/journals/bob/events", token: Self.ada, body: push)
            #expect(answer.status == 403)
            #expect(answer.body == #"{"error":{"code":"forbidden","message":"this token belongs to user ada; it may not write user bob's journal"}}"#)
            answer = try await exchange.send(Self.page, "/v1/journals/bob/events", token: Self.ada)
            #expect(answer.body == #"{"error":{"code":"forbidden","message":"this token belongs to user ada; it may not read user bob's journal"}}"#)
            answer = try await exchange.send(Self.events, "/v1/journals/ada/events", token: Self.help, body: push)
            #expect(answer.status == 403)
            #expect(answer.body == #"{"error":{"code":"read_only","message":"support tokens are read-only; help may not write user ada's journal"}}"#)
            answer = try await exchange.send(Self.events, "/v1/journals/bad%20user/events", token: Self.ada, body: push)
            #expect(answer.status == 400)
            #expect(answer.body == #"{"error":{"code":"bad_user","message":"user \"bad user\" is not a valid user id (1 to 64 of A-Z a-z 0-9 . _ @ -)"}}"#)
            #expect(try await store.revoke(token: Self.bob))
            answer = try await exchange.send(Self.page, "/v1/journals/bob/events", token: Self.bob)
            #expect(answer.status == 401)
            #expect(answer.body.contains(#""code":"bad_token""#))
        }
    }

    @Test("whoami names the token's user and role")
    func whoami() async throws {
        try await Self.withRoutes { exchange, _ in
            var answer = try await exchange.send("GET /v1/whoami", "/v1/whoami", token: Self.ada)
            #expect(answer.status == 200)
            #expect(answer.body == #"{"role":"user","user":"ada"}"#)
            answer = try await exchange.send("GET /v1/whoami", "/v1/whoami", token: Self.help)
            #expect(answer.body == #"{"role":"support","user":"help"}"#)
        }
    }

    @Test("the report and timeline pages are journal report's and timeline's pages of the server's copy; support reads are logged")
    func supportPagesAndAccessLog() async throws {
        let events = try Self.workouts()
        try await Self.withRoutes { exchange, _ in
            try await exchange.send(Self.events, "/v1/journals/ada/events", token: Self.ada, body: SyncBody.push(events))
            let report = "GET /v1/journals/{user}/report", timeline = "GET /v1/journals/{user}/workouts/{workout}/timeline"
            let (synced, analysis) = SupportPagesTests.synced(events)
            var answer = try await exchange.send(report, "/v1/journals/ada/report", token: Self.help)
            #expect(answer.status == 200)
            #expect(answer.headers[.contentType] == "text/html; charset=utf-8")
            #expect(answer.headers[.cacheControl] == "no-store")
            #expect(answer.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(answer.body == HTMLReport.render(analysis, title: "ada (journal-server)", workoutLink: { "workouts/\($0)/timeline" }))
            answer = try await exchange.send(timeline, "/v1/journals/ada/workouts/w1/timeline", token: Self.help)
            #expect(answer.status == 200)
            let expected = try #require(Timeline(workout: "w1", events: synced, exerciseName: analysis.exerciseName))
            #expect(answer.body == HTMLReport.timeline([expected], analysis: analysis, title: "ada (journal-server)"))
            answer = try await exchange.send(timeline, "/v1/journals/ada/workouts/w9/timeline", token: Self.ada)
            #expect(answer.status == 404)
            #expect(answer.body == #"{"error":{"code":"unknown_workout","message":"user ada's journal has no workout \"w9\"; the report (GET /v1/journals/ada/report) links the timeline of every finished workout"}}"#)
            // A page takes its token as ?token= and passes it on to the pages it links.
            answer = try await exchange.send(report, "/v1/journals/ada/report?token=\(Self.ada)")
            #expect(answer.status == 200)
            #expect(answer.body.contains(#"<a href="workouts/w2/timeline?token=wjt_ada">"#))
            answer = try await exchange.send(report, "/v1/journals/ada/report?token=wjt_nobody")
            #expect(answer.status == 401)
            #expect(answer.body.contains(#""code":"bad_token","message":"the token in ?token= is unknown or revoked"#))
            answer = try await exchange.send(report, "/v1/journals/ada/report", token: Self.bob)
            #expect(answer.status == 403)
            try await exchange.send(Self.page, "/v1/journals/ada/events?limit=2", token: Self.help)

            let log = "GET /v1/access-log"
            answer = try await exchange.send(log, "/v1/access-log", token: Self.ada)
            #expect(answer.status == 403)
            #expect(answer.body == #"{"error":{"code":"forbidden","message":"only support tokens read the access log"}}"#)
            answer = try await exchange.send(log, "/v1/access-log?user=ada", token: Self.help)
            #expect(answer.status == 200)
            let at = #""at":"1970-01-01T00:00:00.250Z""#
            #expect(answer.body == #"{"entries":["# + [
                #"{"action":"report","actor":"help",\#(at),"detail":"events=8 cursor=1-8","subject":"ada"}"#,
                #"{"action":"timeline","actor":"help",\#(at),"detail":"workout=w1 events=8 cursor=1-8","subject":"ada"}"#,
                #"{"action":"pull","actor":"help",\#(at),"detail":"after=0 events=2 cursor=1-2","subject":"ada"}"#,
            ].joined(separator: ",") + "]}")
            answer = try await exchange.send(log, "/v1/access-log?user=bob", token: Self.help)
            #expect(answer.body == #"{"entries":[]}"#)
        }
    }

    @Test("a path with an empty segment or a trailing slash is refused before any route (404 not_canonical)")
    func canonicalPaths() async throws {
        try await Self.withRoutes { exchange, _ in
            let answer = try await exchange.send("GET /v1/whoami", "/v1/whoami/", token: Self.ada)
            #expect(answer.status == 404)
            #expect(answer.body == #"{"error":{"code":"not_canonical","message":"the path \"/v1/whoami/\" has an empty segment or a trailing slash; send it as \"/v1/whoami\""}}"#)
            // Not a documented answer of the route: it never reaches it.
            exchange.answers.removeAll()
        }
    }
}
