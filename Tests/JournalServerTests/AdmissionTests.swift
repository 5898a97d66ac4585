import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import JournalServer

@Suite("Admission: a sync request is refused 429 only past a standing queue, the bodies' bytes or the request count")
struct AdmissionTests {
    let t0 = ContinuousClock.now
    func at(_ milliseconds: Int) -> ContinuousClock.Instant { t0.advanced(by: .milliseconds(milliseconds)) }

    @Test("pushes and pulls are timed for the standing-queue rule; a pull that may wait for new events is not")
    func waitingPullsAreNotTimed() {
        typealias Gate = BackPressureMiddleware<SyncRequestContext>
        #expect(Gate.isTimed(method: .post, path: "/v1/journals/ada/events", wait: nil))
        #expect(Gate.isTimed(method: .get, path: "/v1/journals/ada/events", wait: nil))
        #expect(Gate.isTimed(method: .get, path: "/v1/journals/ada/events", wait: "0"))
        #expect(!Gate.isTimed(method: .get, path: "/v1/journals/ada/events", wait: "25"))
        #expect(!Gate.isTimed(method: .get, path: "/v1/journals/ada/report", wait: nil))
    }

    @Test("past the request count or the bodies' bytes, a request is refused until one finishes")
    func bounds() {
        var admission = Admission(maximumBodyBytes: 10 << 20, maximumRequests: 2)
        #expect(admission.admit(now: at(0)) == nil)
        #expect(admission.admit(now: at(1)) == nil)
        let full = admission.admit(now: at(2))
        #expect(full == .count(limit: 2))
        #expect(full?.message == "the server has 2 sync requests in progress; nothing was stored; retry after the Retry-After delay")
        admission.finish(started: at(0), now: at(3))
        #expect(admission.admit(now: at(4)) == nil)
        #expect(admission.requests == 2)

        var bytes = Admission(maximumBodyBytes: 10 << 20, maximumRequests: 100)
        #expect(bytes.admit(now: at(0)) == nil)
        #expect(bytes.receive(6 << 20, token: "a", peer: "p1") == nil)
        #expect(bytes.admit(now: at(1)) == nil)
        let heavy = bytes.receive(5 << 20, token: "b", peer: "p2")
        #expect(heavy?.message == "the server holds 10 MiB of sync request bodies in progress; nothing was stored; retry after the Retry-After delay")
        #expect(bytes.receive(4 << 20, token: "b", peer: "p2") == nil)   // exactly the bound
        #expect(bytes.bodyBytes == 10 << 20)
    }

    @Test("bytes count as they arrive: 16 stalled requests that announced 4 MiB each hold what they sent, and one token or one address cannot take the whole budget")
    func bytesAsTheyArrive() {
        var admission = Admission()   // 64 MiB in all, 8 MiB a token, 32 MiB an address
        for _ in 0..<16 {
            #expect(admission.admit(now: at(0)) == nil)
            #expect(admission.receive(100, token: "Bearer stalling", peer: "10.0.0.1") == nil)
        }
        #expect(admission.bodyBytes == 1_600)
        // The same token past 8 MiB: refused; another user's push is not.
        #expect(admission.receive(8 << 20, token: "Bearer stalling", peer: "10.0.0.1") == .tokenBytes(limit: 8 << 20))
        #expect(Admission.Refusal.tokenBytes(limit: 8 << 20).message == "the requests of this token hold 8 MiB of request bodies in progress; send one push at a time; nothing was stored; retry after the Retry-After delay")
        #expect(admission.admit(now: at(1)) == nil)
        #expect(admission.receive(4 << 20, token: "Bearer other", peer: "10.0.0.2") == nil)
        // One address with many tokens: refused past 32 MiB.
        for index in 0..<4 { #expect(admission.receive(7 << 20, token: "Bearer t\(index)", peer: "10.0.0.1") == nil) }
        #expect(admission.receive(7 << 20, token: "Bearer t4", peer: "10.0.0.1") == .peerBytes(limit: 32 << 20))
        #expect(Admission.Refusal.peerBytes(limit: 32 << 20).message == "the requests from this address hold 32 MiB of request bodies in progress; nothing was stored; retry after the Retry-After delay")
        // What a finished request held is given back.
        admission.finish(bytes: 4 << 20, token: "Bearer other", peer: "10.0.0.2", started: at(1), now: at(2))
        #expect(admission.tokenBytes["Bearer other"] == nil)
        #expect(admission.peerBytes["10.0.0.2"] == nil)
    }

    @Test("a window in which every push and pull waited past the target refuses new ones until the queue drains")
    func standingQueue() {
        var admission = Admission()   // 1 s target, 100 ms windows
        for _ in 0..<3 { #expect(admission.admit(now: at(0)) == nil) }
        admission.finish(started: at(0), now: at(1_500))   // waited 1.5 s
        #expect(!admission.overloaded)   // its window has not ended
        let refused = admission.admit(now: at(1_600))
        #expect(refused == .waiting(target: .seconds(1), window: .milliseconds(100)))
        #expect(refused?.message == "every push and pull the server finished in the last 100 ms had waited in it more than 1000 ms; nothing was stored; retry after the Retry-After delay")
        admission.finish(started: at(0), now: at(1_650))
        #expect(admission.admit(now: at(1_800)) != nil)   // that window's shortest wait was 1.65 s
        admission.finish(started: at(0), now: at(1_900))
        // Nothing is left in the server: no queue, whatever the last window said.
        #expect(admission.admit(now: at(1_950)) == nil)
        #expect(!admission.overloaded)
    }

    @Test("a burst that drains is no overload: one push or pull within the target in a window is enough")
    func burst() {
        var admission = Admission()
        for _ in 0..<4 { #expect(admission.admit(now: at(0)) == nil) }
        admission.finish(started: at(0), now: at(1_200))
        admission.finish(started: at(1_000), now: at(1_250))   // admitted later, answered in 250 ms
        #expect(admission.admit(now: at(1_400)) == nil)
        #expect(!admission.overloaded)
        // Overloaded, then a request admitted before finishes within the target: the queue has drained.
        admission.finish(started: at(0), now: at(1_500))
        #expect(admission.admit(now: at(1_700)) != nil)
        admission.finish(started: at(1_400), now: at(1_750))
        #expect(admission.admit(now: at(1_760)) == nil)
    }

    @Test("report pages are not timed: a slow one does not refuse pushes")
    func untimed() {
        var admission = Admission()
        #expect(admission.admit(now: at(0)) == nil)
        #expect(admission.admit(now: at(0)) == nil)
        admission.finish(started: at(0), now: at(3_000), timed: false)
        #expect(admission.admit(now: at(3_200)) == nil)
        #expect(!admission.overloaded)
    }

    @Test("a refused sync request is answered 429 overloaded with Retry-After: 1; health is not gated; a path with // or a trailing slash is refused 404, not let past the limits")
    func answer() async throws {
        let router = Router()
        router.add(middleware: FailureMiddleware())
        router.add(middleware: CanonicalPathMiddleware())
        router.add(middleware: BackPressureMiddleware(Admission(maximumRequests: 0)))
        router.get("health") { _, _ in "ok\n" }
        router.post("v1/journals/:user/events") { _, _ in "stored\n" }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/v1/journals/alice/events", method: .post, body: ByteBuffer(string: "{}")) { response in
                #expect(response.status.code == 429)
                #expect(response.headers[.retryAfter] == "1")
                #expect(String(buffer: response.body).contains(#""code":"overloaded","message":"the server has 0 sync requests in progress; nothing was stored; retry after the Retry-After delay""#))
            }
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status.code == 200)
            }
            // Another spelling of a gated path is refused before the limits, not let past them.
            for path in ["//v1/journals/alice/events", "/v1/journals/alice/events/", "/v1//journals/alice/events"] {
                try await client.execute(uri: path, method: .post, body: ByteBuffer(string: "{}")) { response in
                    #expect(response.status.code == 404)
                    #expect(String(buffer: response.body) == #"{"error":{"code":"not_canonical","message":"the path \"\#(path)\" has an empty segment or a trailing slash; send it as \"/v1/journals/alice/events\""}}"#)
                }
            }
        }
    }

    @Test("the access log's line: peer, method, route, status, duration and user, never the token")
    func accessLogLine() {
        #expect(AccessLogMiddleware.line(peer: "127.0.0.1", method: "POST", route: "/v1/journals/:user/events", status: 200,
                                         duration: .microseconds(12_345), user: "ana")
                == "access 127.0.0.1 POST /v1/journals/:user/events 200 12.3 ms user=ana")
        #expect(AccessLogMiddleware.line(peer: "10.0.0.1", method: "GET", route: "/v1/whoami", status: 401, duration: .milliseconds(2), user: nil)
                == "access 10.0.0.1 GET /v1/whoami 401 2.0 ms user=-")
    }
}
