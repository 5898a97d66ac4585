import Foundation
import JournalEvents
import JournalServer
import JournalSimulator
import JournalSync
import JournalTesting
import Logging
import Testing

/// An erasure takes effect at its place in the server's order, whatever the devices' clocks say (SYNC.md §"Account
/// erasure"): what was acknowledged before it is erased, what is acknowledged after it is kept.
@Suite("account erasure follows the server's order, not the devices' clocks")
struct ErasureOrderTests {
    static let day: Int64 = 86_400_000
    static let year: Int64 = 365 * day

    /// Every event of the user's journal on the server, in its order, pulled from cursor 0 (a restore).
    static func restore(_ store: PostgresSyncStore, user: String) async throws -> [String] {
        var ids: [String] = [], cursor = SyncCursor.start
        while true {
            let page = try await store.pull(user: user, after: cursor, limit: 2000)
            ids += try page.lines.map { try EventCodec.decode($0).id }
            cursor = page.cursor
            if !page.more { return ids }
        }
    }

    /// What the server must hold after acknowledging `pushed` (in its order) on top of `held`: every event it did not
    /// hold appended; an erasure — a `data.erased`, or a `data.cleared` after an `account.deleted` or `data.erased` —
    /// keeps only itself and what follows it. Written here from the rule's statement, not from the code under test.
    /// `erasures`: how many erasures the push made.
    static func expected(_ held: [Event], after pushed: [Event]) -> (journal: [Event], erasures: Int) {
        var journal = held, erasures = 0
        for event in pushed where !journal.contains(where: { $0.id == event.id }) {
            journal.append(event)
            let erases = event.type == "data.erased"
                || (event.type == "data.cleared" && journal.dropLast().contains { $0.type == "account.deleted" || $0.type == "data.erased" })
            if erases { journal = [event]; erasures += 1 }
        }
        return (journal, erasures)
    }

    @Test("property: with device clocks years apart, erasures, deletions and reused user ids, every acknowledged event is in a restore unless an erasure acknowledged after it removed it",
          arguments: [1, 2, 3, 4] as [UInt64])
    func acknowledgedMeansStored(seed: UInt64) async throws {
        let user = PostgresFixture.freshUser("order\(seed)")
        try await withFleetClient(try DatabaseURL(try PostgresFixture.url()), migrate: true, logLevel: .error) { client, logger in
            var random = SplitMix64(seed: seed)
            let store = PostgresSyncStore(client: client, logger: logger)
            // Each device's clock is off by up to three years either way.
            var devices = (0..<3).map { index in (tag: "d\(index)", offset: Int64.random(in: -3 * Self.year...3 * Self.year, using: &random), counter: 0) }
            var held: [Event] = [], pushes: [[Event]] = [], erasures = 0
            for step in 1...60 {
                let now = Fixtures.start.adding(milliseconds: Int64(step) * 60_000)
                let roll = Int.random(in: 0..<20, using: &random)
                if roll == 0 {
                    // The user id is reused by someone new: a device never seen, its clock years behind.
                    devices.append((tag: "n\(devices.count)", offset: -Int64.random(in: Self.year...5 * Self.year, using: &random), counter: 0))
                }
                let device = roll == 0 ? devices.count - 1 : Int.random(in: 0..<devices.count, using: &random)
                func event(_ type: String, _ fields: JSONObject) -> Event {
                    devices[device].counter += 1
                    let tag = devices[device].tag, counter = devices[device].counter
                    return Event(seq: counter, id: "\(tag)-\(String(counter, radix: 36))",
                                 at: now.adding(milliseconds: devices[device].offset + Int64(counter)), type: type, fields: fields)
                }
                var push: [Event]
                switch roll {
                case 1, 2: push = [event("data.erased", ["through_seq": 1, "events": 1])]
                case 3: push = [event("account.deleted", [:]), event("data.cleared", [:])]
                case 4 where !pushes.isEmpty: push = pushes[Int.random(in: 0..<pushes.count, using: &random)]   // a retry
                default: push = []
                }
                if roll != 4 || pushes.isEmpty {
                    for _ in 0..<Int.random(in: (push.isEmpty ? 1 : 0)...3, using: &random) {
                        push.append(event("profile.updated", ["name": .string("step \(step)")]))
                    }
                }
                let outcome = try await store.push(user: user, events: push)
                let before = held, after = Self.expected(held, after: push)
                held = after.journal
                erasures += min(after.erasures, 1)   // one push erases once, at its last erasure
                pushes.append(push)
                let label = "seed \(seed), step \(step), \(devices[device].tag) pushed \(push.map { "\($0.id) \($0.type) \($0.at.rfc3339)" })"
                #expect(outcome.acknowledged == push.map(\.id), "\(label)")
                #expect(outcome.stored == push.filter { event in !before.contains { $0.id == event.id } }.count, "\(label)")
                let restored = try await Self.restore(store, user: user)
                #expect(restored == held.map(\.id), "\(label)")
                #expect(outcome.cursor == SyncCursor(epoch: Int64(erasures + 1), position: Int64(held.count)), "\(label)")
                if restored != held.map(\.id) { break }
            }
            #expect(erasures >= 3, "seed \(seed): the run erased only \(erasures) times")
        }
    }
}
