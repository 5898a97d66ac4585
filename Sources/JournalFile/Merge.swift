#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
        let merged = mergeLines(a, b)
        return (merged.events, merged.report)
    }

    /// `merge` with each merged event's line (`EventCodec.encode` of it), written from the identity rule 1 encoded
    /// already, with the new seq, rather than encoded a second time.
    static func mergeLines(_ a: [Event], _ b: [Event]) -> (events: [Event], lines: [[UInt8]], report: Report) {
        var merger = Merger(capacity: a.count)
        for event in a { merger.add(event, fromA: true) }
        for event in b { merger.add(event, fromA: false) }
        return merger.finish()
    }

    /// The merge of events taken in one by one, all of `a`'s before `b`'s.
    struct Merger {
        var report = Report()
        /// Each id's versions (rule 1's identities) with the inputs that hold them: the first version of an id is
        /// found by the id, any other (a collision, rule 5) by following `next` from it and comparing bytes, not by
        /// hashing them.
        var versions: [Version] = []
        var firstVersion: [String: Int] = [:]
        /// The events of `a` that lines of `b` taken by `addStored` repeat and that name an account e-mail (rule 6).
        var emailEventsB: [Event] = []

        init(capacity: Int) {
            versions.reserveCapacity(capacity)
            firstVersion.reserveCapacity(capacity)
        }

        /// Adds an event of `a` (`fromA`) or `b`.
        mutating func add(_ event: Event, fromA: Bool) {
            if fromA { report.eventsA += 1 } else { report.eventsB += 1 }
            let body = identity(event)
            let version = Version(body: body, event: event, inA: fromA, inB: !fromA)
            guard var index = firstVersion[event.id] else {
                firstVersion[event.id] = versions.count
                versions.append(version)
                return
            }
            while true {
                if versions[index].body == body {
                    if fromA { versions[index].inA = true } else { versions[index].inB = true }
                    return
                }
                guard let next = versions[index].next else { break }
                index = next
            }
            versions[index].next = versions.count
            versions.append(version)
        }

        /// Takes a stored line of `b` when it is the line of the first version of its id with another seq (a whole
        /// number ≥ 1): that event again, which rule 1 counts once, known without decoding the line. False for any
        /// other line (decode it and `add` it), such as a line not in canonical form.
        mutating func addStored(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let parts = Merge.parts(line), let id = String(validating: line[parts.id], as: UTF8.self),
                  let index = firstVersion[id], Merge.isLine(line, parts, of: versions[index].body) else { return false }
            report.eventsB += 1
            versions[index].inB = true
            let event = versions[index].event
            if namesEmail(event) { emailEventsB.append(event) }
            return true
        }

        /// The merged events in rule 2's order, renumbered (none unless `events`), with their lines.
        mutating func finish(events wanted: Bool = true) -> (events: [Event], lines: [[UInt8]], report: Report) {
            // Each merged event as its version's index, and the event itself only when rule 5 renamed it; rule 2's
            // order as its first two keys, the whole key built only for events that tie on them.
            var sources: [Int] = []
            var firstKeys: [(rank: Int, at: Int64)] = []
            var renamedEvents: [Int: Event] = [:]
            sources.reserveCapacity(versions.count)
            firstKeys.reserveCapacity(versions.count)
            func count(_ version: Version) {
                if version.inA && version.inB { report.shared += 1 } else if version.inA { report.onlyA += 1 } else { report.onlyB += 1 }
            }
            for (id, first) in firstVersion {
                if versions[first].next == nil {
                    // One version (all but a collision): its id, its identity.
                    count(versions[first])
                    firstKeys.append(SortKey.firstKeys(versions[first].event))
                    sources.append(first)
                    continue
                }
                var chain = [first]
                while let next = versions[chain[chain.count - 1]].next { chain.append(next) }
                for index in chain { count(versions[index]) }
                chain.sort { SortKey(versions[$0].event, versions[$0].body) < SortKey(versions[$1].event, versions[$1].body) }
                for (rank, index) in chain.enumerated() {
                    var event = versions[index].event
                    if rank > 0 {
                        event.id = "\(id)~\(fnv1a(versions[index].body))"
                        report.renamed.append((id, event.id))
                        renamedEvents[sources.count] = event
                    }
                    firstKeys.append(SortKey.firstKeys(event))
                    sources.append(index)
                }
            }
            firstVersion = [:]
            // Indices are sorted, not the keys and events they name.
            func key(_ index: Int) -> SortKey { SortKey(renamedEvents[index] ?? versions[sources[index]].event, versions[sources[index]].body) }
            var order = Array(sources.indices)
            firstKeys.withUnsafeBufferPointer { first in
                order.sort { first[$0] != first[$1] ? first[$0] < first[$1] : key($0) < key($1) }
            }
            firstKeys = []
            report.renamed.sort { ($0.from, $0.to) < ($1.from, $1.to) }
            let base = order.first.flatMap { index -> Int? in
                let first = versions[sources[index]].event
                return first.knownType == .dataErased ? first.int("through_seq") : nil
            } ?? 0
            var merged: [Event] = []
            var lines: [[UInt8]] = []
            if wanted { merged.reserveCapacity(order.count) }
            lines.reserveCapacity(order.count)
            for (position, index) in order.enumerated() {
                let seq = base + position + 1
                var renamed = renamedEvents.isEmpty ? nil : renamedEvents[index]
                if renamed == nil {
                    lines.append(line(identity: versions[sources[index]].body, seq: seq))
                } else {
                    renamed!.seq = seq
                    lines.append(EventCodec.encode(renamed!))
                }
                if wanted {
                    merged.append(renamed ?? versions[sources[index]].event)
                    merged[position].seq = seq
                }
            }
            versions = []
            report.output = lines.count
            return (merged, lines, report)
        }
    }

    /// Where the seq's digits and the id's bytes are in a line that starts `{"v":V,"seq":S,"id":"ID"`, V and S digits, S
    /// a whole number ≥ 1 written without a leading zero (at most 15 digits), ID without a quote or a backslash; nil for
    /// any other line.
    static func parts(_ line: UnsafeBufferPointer<UInt8>) -> (seq: Range<Int>, id: Range<Int>)? {
        func digits(from start: Int) -> Int {
            var end = start
            while end < line.count, line[end] >= UInt8(ascii: "0"), line[end] <= UInt8(ascii: "9") { end += 1 }
            return end
        }
        func has(_ text: StaticString, at offset: Int) -> Bool {
            guard offset + text.utf8CodeUnitCount <= line.count else { return false }
            return memcmp(line.baseAddress! + offset, text.utf8Start, text.utf8CodeUnitCount) == 0
        }
        guard has("{\"v\":", at: 0) else { return nil }
        let vEnd = digits(from: 5)
        guard vEnd > 5, has(",\"seq\":", at: vEnd) else { return nil }
        let seqStart = vEnd + 7, seqEnd = digits(from: seqStart)
        guard seqEnd > seqStart, seqEnd - seqStart <= 15, line[seqStart] != UInt8(ascii: "0"), has(",\"id\":\"", at: seqEnd) else { return nil }
        let idStart = seqEnd + 7
        var idEnd = idStart
        while idEnd < line.count, line[idEnd] != UInt8(ascii: "\""), line[idEnd] != UInt8(ascii: "\\") { idEnd += 1 }
        guard idEnd < line.count, line[idEnd] == UInt8(ascii: "\"") else { return nil }
        return (seqStart..<seqEnd, idStart..<idEnd)
    }

    /// `line` (of `parts`) is the line of the event whose identity is `identity` (its seq the line's own): the identity
    /// with the seq's digits in place of its `0`.
    static func isLine(_ line: UnsafeBufferPointer<UInt8>, _ parts: (seq: Range<Int>, id: Range<Int>), of identity: [UInt8]) -> Bool {
        let zero = parts.seq.lowerBound
        guard identity.count - zero - 1 == line.count - parts.seq.upperBound, zero < identity.count else { return false }
        return identity.withUnsafeBufferPointer { identity in
            identity[zero] == UInt8(ascii: "0")
                && memcmp(identity.baseAddress!, line.baseAddress!, zero) == 0
                && memcmp(identity.baseAddress! + zero + 1, line.baseAddress! + parts.seq.upperBound, identity.count - zero - 1) == 0
        }
    }

    /// One version of an id: its identity, the event, which inputs hold it, and the id's next version.
    struct Version {
        var body: [UInt8]
        var event: Event
        var inA: Bool
        var inB: Bool
        var next: Int? = nil
    }

    /// Rule 1's identity of an event: its line with `seq` zeroed (the id and every other field).
    public static func identity(_ event: Event) -> [UInt8] {
        var copy = event
        copy.seq = 0
        return EventCodec.encode(copy)
    }

    /// `EventCodec.encode` of the event whose identity is `identity`, numbered `seq`: the identity's `0` after
    /// `"seq":` replaced by `seq` (the line starts `{"v":V,"seq":`, FORMAT.md §3).
    static func line(identity: [UInt8], seq: Int) -> [UInt8] {
        let zero = identity.firstIndex(of: UInt8(ascii: ","))! + 7
        precondition(identity[zero] == UInt8(ascii: "0") && identity[zero - 1] == UInt8(ascii: ":"), "an identity has seq 0 second")
        var line: [UInt8] = []
        line.reserveCapacity(identity.count + 10)
        line.append(contentsOf: identity[..<zero])
        line.append(contentsOf: String(seq).utf8)
        line.append(contentsOf: identity[(zero + 1)...])
        return line
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
            (rank, at) = SortKey.firstKeys(event)
            let parsed = EventID(event.id)
            device = parsed?.device ?? event.id
            counter = parsed?.counter ?? 0
            id = event.id
            self.body = body
        }

        /// The key of an event known by its id, `at` (milliseconds since the epoch) and whether it is an erasure
        /// marker, without its line (which distinct ids never reach).
        init(id: String, at: Int64, isMarker: Bool) {
            (rank, self.at) = (isMarker ? 0 : 1, at)
            let parsed = EventID(id)
            device = parsed?.device ?? id
            counter = parsed?.counter ?? 0
            self.id = id
            body = []
        }

        /// `rank` and `at`, which order all but events of the same instant.
        static func firstKeys(_ event: Event) -> (rank: Int, at: Int64) {
            (event.knownType == .dataErased ? 0 : 1, event.at.epochMilliseconds)
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

    /// Whether the event is of a type that names an account e-mail (`account.created`, `profile.updated`).
    static func namesEmail(_ event: Event) -> Bool {
        event.knownType == .accountCreated || event.knownType == .profileUpdated
    }

    /// Every account e-mail a journal names, sorted.
    public static func emails(_ events: [Event]) -> [String] {
        var found = Set<String>()
        for event in events where namesEmail(event) {
            if let email = event.string(.email)?.lowercased(), !email.isEmpty { found.insert(email) }
        }
        return found.sorted()
    }

    /// Reads `a` and `b`, refuses damage and different users, and writes the merge to `output`
    /// (which must not exist).
    /// Throws `Merge.Problem` for damage and different users, `JournalError` for the rest.
    public static func merge(a: String, b: String, output: String, storage: any Storage = PosixStorage()) throws -> Report {
        func read(_ path: String, stored: (UnsafeBufferPointer<UInt8>) -> Bool, _ body: (Event) -> Void) throws {
            var bad: EventReader.BadLine?
            let scan = try EventReader.forEach(path: path, storage: storage, badLines: { bad = bad ?? $0 }, stored: stored, body)
            if let damage = scan.corruption.first {
                throw Problem.damaged(path: path, offset: damage.offset, reason: damage.reason)
            }
            if let bad {
                throw Problem.damaged(path: path, offset: bad.frameOffset, reason: "line \(bad.line) is not an event: \(bad.problem)")
            }
        }
        // A line of `b` that repeats one of `a`'s events is not decoded (`addStored`).
        var merger = Merger(capacity: 0)
        // Rule 6 reads only the events that can name an e-mail.
        var emailEventsA: [Event] = [], emailEventsB: [Event] = []
        try read(a, stored: { _ in false }) { event in
            merger.add(event, fromA: true)
            if namesEmail(event) { emailEventsA.append(event) }
        }
        try read(b, stored: { merger.addStored($0) }) { event in
            merger.add(event, fromA: false)
            if namesEmail(event) { emailEventsB.append(event) }
        }
        try checkSameUser(emailEventsA, named: a, emailEventsB + merger.emailEventsB, named: b)
        let (_, lines, report) = merger.finish(events: false)
        var out = try NewJournal(path: output, storage: storage)
        for line in lines { out.append(line) }
        try out.finish()
        return report
    }
}
