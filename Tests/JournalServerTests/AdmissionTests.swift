import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import JournalServer

@Suite("Admission: a sync request is refused 429 only past a standing queue, the bodies' bytes or the request count")
struct AdmissionTests {
    let t0 = ContinuousClock.now
    func at(_ milliseconds: Int) -> ContinuousClock.Instant { t0.advanced(by: .milliseconds(milliseconds)) }

    @Test("past the request count or the bodies' bytes, a request is refused until one finishes")
    func bounds() {
        var admission = Admission(maximumBodyBytes: 10 << 20, maximumRequests: 2)
        #expect(admission.admit(bytes: 100, now: at(0)) == nil)
        #expect(admission.admit(bytes: 100, now: at(1)) == nil)
        let full = admission.admit(bytes: 100, now: at(2))
        #expect(full == .count(limit: 2))
        #expect(full?.message == "the server has 2 sync requests in progress; nothing was stored; retry after the Retry-After delay")
        admission.finish(bytes: 100, started: at(0), now: at(3))
        #expect(admission.admit(bytes: 100, now: at(4)) == nil)
        #expect(admission.requests == 2)

        var bytes = Admission(maximumBodyBytes: 10 << 20, maximumRequests: 100)
        #expect(bytes.admit(bytes: 6 << 20, now: at(0)) == nil)
        let heavy = bytes.admit(bytes: 5 << 20, now: at(1))
        #expect(heavy?.message == "the server holds 10 MiB of sync request bodies in progress; nothing was stored; retry after the Retry-After delay")
        #expect(bytes.admit(bytes: 4 << 20, now: at(2)) == nil)   // exactly the bound
        #expect(bytes.bodyBytes == 10 << 20)
    }

    @Test("a window in which every push and pull waited past the target refuses new ones until the queue drains")
    func standingQueue() {
        var admission = Admission()   // 1 s target, 100 ms windows
        for _ in 0..<3 { #expect(admission.admit(bytes: 0, now: at(0)) == nil) }
        admission.finish(bytes: 0, started: at(0), now: at(1_500))   // waited 1.5 s
        #expect(!admission.overloaded)   // its window has not ended
        let refused = admission.admit(bytes: 0, now: at(1_600))
        #expect(refused == .waiting(target: .seconds(1), window: .milliseconds(100)))
        #expect(refused?.message == "every push and pull the server finished in the last 100 ms had waited in it more than 1000 ms; nothing was stored; retry after the Retry-After delay")
        admission.finish(bytes: 0, started: at(0), now: at(1_650))
        #expect(admission.admit(bytes: 0, now: at(1_800)) != nil)   // that window's shortest wait was 1.65 s
        admission.finish(bytes: 0, started: at(0), now: at(1_900))
        // Nothing is left in the server: no queue, whatever the last window said.
        #expect(admission.admit(bytes: 0, now: at(1_950)) == nil)
        #expect(!admission.overloaded)
    }

    @Test("a burst that drains is no overload: one push or pull within the target in a window is enough")
    func burst() {
        var admission = Admission()
        for _ in 0..<4 { #expect(admission.admit(bytes: 0, now: at(0)) == nil) }
        admission.finish(bytes: 0, started: at(0), now: at(1_200))
        admission.finish(bytes: 0, started: at(1_000), now: at(1_250))   // admitted later, answered in 250 ms
        #expect(admission.admit(bytes: 0, now: at(1_400)) == nil)
        #expect(!admission.overloaded)
        // Overloaded, then a request admitted before finishes within the target: the queue has drained.
        admission.finish(bytes: 0, started: at(0), now: at(1_500))
        #expect(admission.admit(bytes: 0, now: at(1_700)) != nil)
        admission.finish(bytes: 0, started: at(1_400), now: at(1_750))
        #expect(admission.admit(bytes: 0, now: at(1_760)) == nil)
    }

    @Test("report pages are not timed: a slow one does not refuse pushes")
    func untimed() {
        var admission = Admission()
        #expect(admission.admit(bytes: 0, now: at(0)) == nil)
        #expect(admission.admit(bytes: 0, now: at(0)) == nil)
        admission.finish(bytes: 0, started: at(0), now: at(3_000), timed: false)
        #expect(admission.admit(bytes: 0, now: at(3_200)) == nil)
        #expect(!admission.overloaded)
    }

    @Test("a refused sync request is answered 429 overloaded with Retry-After: 1; other routes are not gated")
    func answer() async throws {
        let router = Router()
        router.add(middleware: FailureMiddleware())
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
        }
    }
}
