import JournalEvents
import JournalStore

/// `journal merge`: two copies of one user's journal, appended on different devices while
/// apart (phone and watch, two phones offline), become one journal.
///
/// The rules (RELIABILITY.md §"Offline devices"):
/// 1. **Union by `id`.** An event is the same event in both inputs when its `id` and its content
///    (everything but `seq`, which is local to a journal) are equal; it appears once.
/// 2. **Order.** An erasure marker `data.erased` first (an erased journal starts with it, and what a server kept
///    after an erasure may be timed before it: SYNC.md §"Account erasure"); then by `at` (the instant), then device
///    tag, then counter (from the id `<device>-<counter>`), then the line itself: a total order, so the result does
///    not depend on which input came first (commutative), and merging a result again adds nothing (idempotent).
/// 3. **`seq` is renumbered 1…n** in that order; `id`, `at`, `type` and every field are kept. A merged journal
///    that starts with an erasure marker `data.erased` is numbered from its `through_seq` + 1 instead, as an erased
///    journal is (FORMAT.md §6 "Erasure"): the marker is content, so the numbering still depends only on the set.
/// 4. **Conflicting edits lose nothing.** Two devices that changed the same thing (the same set
///    completed, edited or removed twice) are two events with two ids: both are kept, and the one
///    that sorts later (later `at`) is applied last, so it wins in every projection.
/// 5. **Id collisions keep both.** One id with two different contents (two devices that used the
///    same device tag) keeps both events: the one that sorts first keeps the id, each other gets
///    `<id>~<8 hex digits of the FNV-1a hash of its line>`, which is the same whichever order the
///    merge ran.
/// 6. **One user only.** When both inputs name account e-mails (`account.created`,
///    `profile.updated`) and no address is common to both, the merge is refused.
public enum Merge {
    public struct Report: Equatable, Sendable {
        public var eventsA = 0
        public var eventsB = 0
        public var shared = 0
        public var onlyA = 0
        public var onlyB = 0
        /// Ids found with two different contents, and the ids given to the extra versions.
        public var renamed: [(from: String, to: String)] = []
        public var output = 0

        public static func == (lhs: Report, rhs: Report) -> Bool {
            (lhs.eventsA, lhs.eventsB, lhs.shared, lhs.onlyA, lhs.onlyB, lhs.output) == (rhs.eventsA, rhs.eventsB, rhs.shared, rhs.onlyA, rhs.onlyB, rhs.output)
                && lhs.renamed.map(\.from) == rhs.renamed.map(\.from) && lhs.renamed.map(\.to) == rhs.renamed.map(\.to)
        }
    }

    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case differentUsers(a: String, emailsA: [String], b: String, emailsB: [String])
        case damaged(path: String, offset: Int, reason: String)

        public var description: String {
            switch self {
            case let .differentUsers(a, emailsA, b, emailsB):
                return "\(a) and \(b) belong to different users (\(a): \(emailsA.joined(separator: ", ")); \(b): \(emailsB.joined(separator: ", "))); refusing to merge"
            case let .damaged(path, offset, reason):
                return "\(path): damaged at byte \(offset): \(reason); run `journal salvage \(path) -o NEW` first and merge the salvaged journal"
            }
        }
    }

    /// The merged events of `a` and `b`, in order, renumbered. Pure: the heart of `merge`.
    public static func merge(_ a: [Event], _ b: [Event]) -> (events: [Event], report: Report) {
        var report = Report()
        report.eventsA = a.count
        report.eventsB = b.count
        // Each id's versions (rule 1's identities), in the order first met, with the inputs that hold them. An id has
        // one version but for a collision (rule 5), so a version is found by comparing bytes, not by hashing them.
        var versions: [String: [Version]] = [:]
        versions.reserveCapacity(a.count)
        func add(_ event: Event, fromA: Bool) {
            Version.note(identity(event), of: event, fromA: fromA, in: &versions[event.id, default: []])
        }
        for event in a { add(event, fromA: true) }
        for event in b { add(event, fromA: false) }

        var merged: [(key: SortKey, event: Event)] = []
        merged.reserveCapacity(versions.count)
        for (id, byBody) in versions {
            for version in byBody {
                if version.inA && version.inB { report.shared += 1 } else if version.inA { report.onlyA += 1 } else { report.onlyB += 1 }
            }
            let ordered = byBody.count == 1 ? byBody : byBody.sorted { SortKey($0.event, $0.body) < SortKey($1.event, $1.body) }
            for (index, version) in ordered.enumerated() {
                var event = version.event
                if index > 0 {
                    event.id = "\(id)~\(fnv1a(version.body))"
                    report.renamed.append((id, event.id))
                }
                merged.append((SortKey(event, version.body), event))
            }
        }
        merged.sort { $0.key < $1.key }
        report.renamed.sort { ($0.from, $0.to) < ($1.from, $1.to) }
        var events = merged.map(\.event)
        let base = events.first.flatMap { $0.knownType == .dataErased ? $0.int("through_seq") : nil } ?? 0
        for index in events.indices { events[index].seq = base + index + 1 }
        report.output = events.count
        return (events, report)
    }

    /// One version of an id: its identity, the event, and which inputs hold it.
    struct Version {
        var body: [UInt8]
        var event: Event
        var inA: Bool
        var inB: Bool

        /// Marks `body` as held by the input (`fromA`, else b), among `known`, the versions of `event`'s id so far.
        static func note(_ body: [UInt8], of event: Event, fromA: Bool, in known: inout [Version]) {
            if let index = known.firstIndex(where: { $0.body == body }) {
                if fromA { known[index].inA = true } else { known[index].inB = true }
            } else {
                known.append(Version(body: body, event: event, inA: fromA, inB: !fromA))
            }
        }
    }

    /// Rule 1's identity of an event: its line with `seq` zeroed (the id and every other field).
    public static func identity(_ event: Event) -> [UInt8] {
        var copy = event
        copy.seq = 0
        return EventCodec.encode(copy)
    }

    /// The order of rule 2.
    struct SortKey: Comparable {
        /// 0 for an erasure marker, 1 for any other event.
        var rank: Int
        var at: Int64
        var device: String
        var counter: Int
        var id: String
        var body: [UInt8]

        init(_ event: Event, _ body: [UInt8]) {
            rank = event.knownType == .dataErased ? 0 : 1
            at = event.at.epochMilliseconds
            let parsed = EventID(event.id)
            device = parsed?.device ?? event.id
            counter = parsed?.counter ?? 0
            id = event.id
            self.body = body
        }

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
            if lhs.at != rhs.at { return lhs.at < rhs.at }
            if lhs.device != rhs.device { return lhs.device < rhs.device }
            if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
            if lhs.id != rhs.id { return lhs.id < rhs.id }
            return lhs.body.lexicographicallyPrecedes(rhs.body)
        }
    }

    static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - text.count) + text
    }

    /// Rule 6: refuses two sets of events that both name account e-mails and share none.
    static func checkSameUser(_ a: [Event], named nameA: String, _ b: [Event], named nameB: String) throws(Problem) {
        let emailsA = emails(a), emailsB = emails(b)
        if !emailsA.isEmpty && !emailsB.isEmpty && Set(emailsA).isDisjoint(with: emailsB) {
            throw Problem.differentUsers(a: nameA, emailsA: emailsA, b: nameB, emailsB: emailsB)
        }
    }

    /// Every account e-mail a journal names, sorted.
    public static func emails(_ events: [Event]) -> [String] {
        var found = Set<String>()
        for event in events where event.knownType == .accountCreated || event.knownType == .profileUpdated {
            if let email = event.string(.email)?.lowercased(), !email.isEmpty { found.insert(email) }
        }
        return found.sorted()
    }

    /// Reads `a` and `b`, refuses damage and different users, and writes the merge to `output`
    /// (which must not exist).
    /// Throws `Merge.Problem` for damage and different users, `JournalError` for the rest.
    public static func merge(a: String, b: String, output: String, storage: any Storage = PosixStorage()) throws -> Report {
        func read(_ path: String) throws -> [Event] {
            var events: [Event] = []
            var bad: EventReader.BadLine?
            let scan = try EventReader.forEach(path: path, storage: storage, badLines: { bad = bad ?? $0 }) { events.append($0) }
            if let damage = scan.corruption.first {
                throw Problem.damaged(path: path, offset: damage.offset, reason: damage.reason)
            }
            if let bad {
                throw Problem.damaged(path: path, offset: bad.frameOffset, reason: "line \(bad.line) is not an event: \(bad.problem)")
            }
            return events
        }
        let eventsA = try read(a)
        let eventsB = try read(b)
        try checkSameUser(eventsA, named: a, eventsB, named: b)
        let (events, report) = merge(eventsA, eventsB)
        var out = try NewJournal(path: output, storage: storage)
        for event in events { out.append(EventCodec.encode(event)) }
        try out.finish()
        return report
    }
}
