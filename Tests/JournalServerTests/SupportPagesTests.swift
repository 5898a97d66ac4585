import JournalFile
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JournalEvents
import JournalInterchange
import JournalProjections
import TrainingDomain
import JournalServer
import JournalSimulator
import JournalStore
import JournalSync
import JournalTesting
import Testing
import PostgresNIO

/// The pages support opens in a browser (SYNC.md §"Support pages in a browser"): the report and each workout's
/// timeline from the server's copy, read-only and logged; and the same pages rendered by headless Chromium.
@Suite("support pages: the report links each workout's timeline; both render in headless Chromium")
struct SupportPagesTests {
    struct Answer { var status: Int; var body: String; var headers: HTTPFields }

    /// A live server; `body` gets its address and a function that sends a GET with an optional bearer token.
    static func withPages(_ body: @escaping @Sendable (_ server: URL, _ get: @escaping @Sendable (String, String?) async throws -> Answer) async throws -> Void) async throws {
        let app = try await buildApplication(try PostgresFixture.configuration())
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(URL(string: "http://127.0.0.1:\(port)")!) { uri, token in
                var headers: HTTPFields = [:]
                if let token { headers[.authorization] = "Bearer \(token)" }
                return try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    Answer(status: Int(response.status.code), body: String(buffer: response.body), headers: response.headers)
                }
            }
        }
    }

    /// The events a synced device has, and the analysis the pages start from.
    static func synced(_ events: [Event]) -> (events: [Event], analysis: Analysis) {
        let synced = Merge.merge([], events).events
        return (synced, Projections.analysis(events: synced, asOf: synced.map(\.at).max()!, context: .trainingDomain))
    }

    @Test("the timeline page is journal timeline --html of the server's copy; unknown workouts, strangers and bad tokens are refused; support views are logged")
    func timelinePage() async throws {
        let (user, token) = try await PostgresFixture.freshPrincipal("tl")
        let (supportUser, support) = try await PostgresFixture.freshPrincipal("helpdesk", role: .support)
        let stranger = try await PostgresFixture.token(user: PostgresFixture.freshUser("eve"))
        let scratch = ScratchDirectory("timeline")
        let events = try recordedEvents(device: "ph", workouts: 2, in: scratch)
        try await Self.withPages { server, get in
            _ = try await SyncClient(server: server, token: token).push(user: user, events: events)
            let (synced, analysis) = Self.synced(events)
            // The report links each workout's timeline, relative to the report's own address.
            let report = try await get("/v1/journals/\(user)/report", support)
            #expect(report.status == 200)
            #expect(report.body == HTMLReport.render(analysis, title: "\(user) (journal-server)", workoutLink: { "workouts/\($0)/timeline" }))
            #expect(report.body.contains(#"<h3><a href="workouts/w1/timeline">Push</a></h3>"#))
            #expect(report.headers[.cacheControl] == "no-store")
            #expect(report.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")

            let page = try await get("/v1/journals/\(user)/workouts/w1/timeline", support)
            #expect(page.status == 200)
            let timeline = try #require(Timeline(workout: "w1", events: synced, exerciseName: analysis.exerciseName))
            #expect(page.body == HTMLReport.timeline([timeline], analysis: analysis, title: "\(user) (journal-server)"))
            #expect(page.body.contains("<p class=\"sub\">\(user) (journal-server) · workout w1 · 4 events</p>"))
            #expect(page.body.contains("<tr><td>+1:00</td><td>2</td><td>set.completed</td>"))
            #expect(page.headers[.cacheControl] == "no-store")
            // The user's own token opens it too (not logged); the token may come as ?token= on the pages only.
            #expect(try await get("/v1/journals/\(user)/workouts/w2/timeline", token).status == 200)
            #expect(try await get("/v1/journals/\(user)/workouts/w2/timeline?token=\(token)", nil).body == (try await get("/v1/journals/\(user)/workouts/w2/timeline", token)).body)
            let linked = try await get("/v1/journals/\(user)/report?token=\(token)", nil)
            #expect(linked.body.contains(#"<a href="workouts/w2/timeline?token=\#(token)">Push</a>"#))
            var refused = try await get("/v1/journals/\(user)/events?after=0&token=\(token)", nil)
            #expect(refused.status == 401)
            #expect(refused.body.contains(#""code":"missing_token""#))
            refused = try await get("/v1/journals/\(user)/report?token=wjt_0000", nil)
            #expect(refused.status == 401)
            #expect(refused.body == #"{"error":{"code":"bad_token","message":"the token in ?token= is unknown or revoked; open the page with a current token (`journal-server token create --database URL --user USER` prints a new one)"}}"#)
            // Another user's token: refused, whichever way it comes.
            refused = try await get("/v1/journals/\(user)/workouts/w1/timeline", stranger)
            #expect(refused.status == 403)
            #expect(refused.body.contains("it may not read user \(user)'s journal"))
            #expect(try await get("/v1/journals/\(user)/workouts/w1/timeline?token=\(stranger)", nil).status == 403)
            // A workout the journal does not have.
            refused = try await get("/v1/journals/\(user)/workouts/w9/timeline", support)
            #expect(refused.status == 404)
            #expect(refused.body == #"{"error":{"code":"unknown_workout","message":"user \#(user)'s journal has no workout \"w9\"; the report (GET /v1/journals/\#(user)/report) links the timeline of every finished workout"}}"#)
            // Logged: who, whom, what; the refused view is not.
            let log = try await get("/v1/access-log?user=\(user)", support)
            #expect(log.body.contains(#""action":"timeline","actor":"\#(supportUser)","#))
            #expect(log.body.contains(#""detail":"workout=w1 events=8 cursor=1-8","subject":"\#(user)""#))
        }
        #expect(try await PostgresFixture.scalar("SELECT count(*) FROM journal_access_log WHERE subject = \(user) AND action = 'timeline'") == 1)
        #expect(try await PostgresFixture.scalar("SELECT count(*) FROM journal_access_log WHERE subject = \(user) AND action = 'report'") == 1)
    }

    @Test("a workout id with reserved characters: the report links its timeline percent-encoded, and the link opens it")
    func reservedCharacters() async throws {
        let (user, token) = try await PostgresFixture.freshPrincipal("reserved")
        let workout = "leg day/1?#%ä"
        let events = try [
            #"{"v":1,"seq":1,"id":"r-1","at":"2026-11-20T10:00:00.000+01:00","type":"workout.started","workout":"WORKOUT","name":"Legs","session":0}"#,
            #"{"v":1,"seq":2,"id":"r-2","at":"2026-11-20T10:05:00.000+01:00","type":"set.completed","workout":"WORKOUT","exercise":"barbell-back-squat","set":1,"weight":100,"unit":"kg","reps":5,"kind":"working"}"#,
            #"{"v":1,"seq":3,"id":"r-3","at":"2026-11-20T11:00:00.000+01:00","type":"workout.finished","workout":"WORKOUT"}"#,
        ].map { try EventCodec.decode($0.replacingOccurrences(of: "WORKOUT", with: workout)) }
        _ = try await withSyncStore(try DatabaseURL(try PostgresFixture.url())) { store in try await store.push(user: user, events: events) }
        try await Self.withPages { _, get in
            let report = try await get("/v1/journals/\(user)/report", token)
            let link = "workouts/leg%20day%2F1%3F%23%25%C3%A4/timeline"
            #expect(report.body.contains(#"<a href="\#(link)">Legs</a>"#))
            let page = try await get("/v1/journals/\(user)/\(link)", token)
            #expect(page.status == 200, "\(page.body.prefix(300))")
            #expect(page.body.contains("Legs"))
        }
    }

    @Test("headless Chromium renders the report and a workout's timeline from the server: names, sets, volume")
    func chromiumRendersThePages() async throws {
        let chromium = try #require(["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                    "headless Chromium is missing: scripts/setup installs Debian's chromium")
        let (user, token) = try await PostgresFixture.freshPrincipal("browser")
        let (supportUser, support) = try await PostgresFixture.freshPrincipal("helpdesk", role: .support)
        let scratch = ScratchDirectory("chromium")
        let events = try recordedEvents(device: "ph", workouts: 2, in: scratch)
        try await withServer { server in
            _ = try await SyncClient(server: server, token: token).push(user: user, events: events)
            /// The DOM Chromium built for `path`, within 60 s.
            func dom(_ path: String) async throws -> String {
                let run = try await Subprocess.runDetached("/usr/bin/timeout", ["60", chromium, "--headless", "--disable-gpu", "--no-sandbox",
                                                                                "--user-data-dir=\(scratch.file("profile"))", "--dump-dom",
                                                                                server.absoluteString + path], scratch: scratch.path)
                #expect(run.status == 0, "chromium: \(run.stderr.suffix(2000))")
                return run.stdout
            }
            let report = try await dom("/v1/journals/\(user)/report?token=\(support)")
            #expect(report.contains("<title>\(user) (journal-server) — workout report</title>"))
            #expect(report.contains("2 workouts</p>"))
            #expect(report.contains(#"<h3><a href="workouts/w2/timeline?token=\#(support)">Push</a></h3>"#))
            #expect(report.contains("<b>Barbell Bench Press</b> <span class=\"muted\">62.5×9, 65×10</span>"))
            #expect(report.contains("1,213 kg"))
            let timeline = try await dom("/v1/journals/\(user)/workouts/w2/timeline?token=\(support)")
            #expect(timeline.contains("<h1>Push</h1>"))
            #expect(timeline.contains("workout w2 · 4 events</p>"))
            #expect(timeline.components(separatedBy: "<td>set.completed</td>").count - 1 == 2)
            #expect(timeline.contains("<td>Barbell Bench Press set 2: 65 kg × 10</td>"))
            #expect(timeline.contains("1,213 kg"))
            #expect(timeline.contains("anomalies: none"))
        }
        let log = try await withSyncStore(try DatabaseURL(try PostgresFixture.url())) { store in try await store.accessLog(subject: user) }
        #expect(log.map(\.action) == ["report", "timeline"])
        #expect(log.map(\.actor) == [supportUser, supportUser])
    }
}

/// The support pages of journals holding events no recording rule of this build checked (as an older server stored
/// them: known types at a newer `v`, numbers at the edges of JSON): every page answers 200 (PROJECTIONS.md §"Views are
/// total"). The events go into the store directly, past the push's checks.
@Suite("support pages are total: no stored event can make a page fail")
struct TotalPagesTests {
    /// A finished workout whose numbers are drawn from `extremes`, at `v` 99 where drawn so.
    static func journal(seed: UInt64) throws -> [Event] {
        var random = SplitMix64(seed: seed)
        let extremes = ["1e16", "-1e16", "9007199254740992", "-9007199254740992", "1e300", "-1e300", "-5", "0", "1e-300", "60", "5"]
        func pick() -> String { extremes[Int(random.next() % UInt64(extremes.count))] }
        var lines: [String] = []
        func add(_ minute: Int, _ type: String, _ fields: String, newer: Bool = false) {
            let seq = lines.count + 1
            lines.append(#"{"v":\#(newer ? 99 : 1),"seq":\#(seq),"id":"x-\#(seq)","at":"2026-11-20T10:\#(String(format: "%02d", minute)):00.000+01:00","type":"\#(type)",\#(fields)}"#)
        }
        add(0, "workout.started", #""workout":"w1","name":"Push","session":0"#)
        add(1, "set.completed", #""workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":5,"kind":"working""#)
        for set in 2...6 {
            add(set, "set.completed", #""workout":"w1","exercise":"barbell-bench-press","set":\#(pick()),"weight":\#(pick()),"unit":"kg","reps":\#(pick()),"kind":"working""#,
                newer: random.next() % 2 == 0)
        }
        add(10, "rest.started", #""workout":"w1","exercise":"barbell-bench-press","seconds":\#(pick())"#, newer: true)
        add(11, "rest.adjusted", #""workout":"w1","exercise":"barbell-bench-press","delta_s":\#(pick())"#, newer: true)
        add(12, "cardio.logged", #""workout":"w1","exercise":"treadmill-run","minutes":\#(pick()),"km":\#(pick())"#, newer: true)
        add(13, "exercise.added", #""workout":"w1","exercise":"barbell-back-squat","sets":\#(pick()),"rest_s":\#(pick()),"position":\#(pick())"#, newer: true)
        add(20, "workout.finished", #""workout":"w1""#)
        return try lines.map { try EventCodec.decode($0) }
    }

    @Test("the report and every workout's timeline answer 200 for 12 journals of absurd numbers")
    func pagesAnswer() async throws {
        let (_, support) = try await PostgresFixture.freshPrincipal("support", role: .support)
        var users: [String] = []
        for seed in UInt64(1)...12 {
            let user = PostgresFixture.freshUser("total")
            let events = try Self.journal(seed: seed)
            _ = try await withSyncStore(try DatabaseURL(try PostgresFixture.url())) { store in try await store.push(user: user, events: events) }
            users.append(user)
        }
        try await SupportPagesTests.withPages { [users] _, get in
            for user in users {
                let report = try await get("/v1/journals/\(user)/report", support)
                #expect(report.status == 200, "\(user): \(report.body.prefix(300))")
                #expect(report.body.contains("Push"))
                let timeline = try await get("/v1/journals/\(user)/workouts/w1/timeline", support)
                #expect(timeline.status == 200, "\(user): \(timeline.body.prefix(300))")
            }
        }
    }
}
