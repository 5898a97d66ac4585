import JournalFile
import JournalEvents
import JournalStore
import JournalTesting
import Testing

/// Offline devices (RELIABILITY.md §"Offline devices"): property tests over random pairs of
/// journals that share a prefix and then went apart.
@Suite("Merging two devices' journals")
struct MergeTests {
    static let seeds: [UInt64] = Array(1...60)

    static func summary(_ events: [Event]) -> ReplaySummary { ReplaySummary(events: events) }

    /// Events without seq, to compare merges that renumber.
    static func lines(_ events: [Event]) -> [String] { events.map(EventCodec.encodeString) }

    @Test("the generated pairs really went apart: both devices add events, and most share a workout both edit")
    func generatorDiverges() throws {
        var diverged = 0, conflicting = 0
        for seed in MergeTests.seeds {
            let (a, b) = try Fixtures.divergedJournals(seed: seed, storage: MemoryStorage())
            let shared = Set(a.map(\.id)).intersection(b.map(\.id)).count
            if a.count > shared && b.count > shared { diverged += 1 }
            if (a + b).filter({ $0.type == "set.edited" }).count == 2 { conflicting += 1 }
        }
        #expect(diverged >= 40)
        #expect(conflicting >= 30)
    }

    @Test("merge is commutative: A+B and B+A are the same events in the same order", arguments: seeds)
    func commutative(_ seed: UInt64) throws {
        let (a, b) = try Fixtures.divergedJournals(seed: seed, storage: MemoryStorage())
        #expect(MergeTests.lines(Merge.merge(a, b).events) == MergeTests.lines(Merge.merge(b, a).events))
    }

    @Test("merge is idempotent: merging the result with either input again, or with itself, adds nothing", arguments: seeds)
    func idempotent(_ seed: UInt64) throws {
        let (a, b) = try Fixtures.divergedJournals(seed: seed, storage: MemoryStorage())
        let merged = Merge.merge(a, b).events
        #expect(MergeTests.lines(Merge.merge(merged, a).events) == MergeTests.lines(merged))
        #expect(MergeTests.lines(Merge.merge(b, merged).events) == MergeTests.lines(merged))
        #expect(MergeTests.lines(Merge.merge(merged, merged).events) == MergeTests.lines(merged))
    }

    @Test("projections are equal whichever order the merge ran, and no event is lost", arguments: seeds)
    func projectionsAndNothingLost(_ seed: UInt64) throws {
        let (a, b) = try Fixtures.divergedJournals(seed: seed, storage: MemoryStorage())
        let ab = Merge.merge(a, b).events, ba = Merge.merge(b, a).events
        #expect(MergeTests.summary(ab) == MergeTests.summary(ba))
        #expect(Set(ab.map(\.id)) == Set(a.map(\.id)).union(b.map(\.id)))
        #expect(ab.map(\.seq) == Array(1...max(1, ab.count)).prefix(ab.count).map { $0 })
        // Rule 2: ordered by at, then device, then counter.
        for (x, y) in zip(ab, ab.dropFirst()) {
            let kx = (x.at.epochMilliseconds, x.device ?? "", EventID(x.id)?.counter ?? 0)
            let ky = (y.at.epochMilliseconds, y.device ?? "", EventID(y.id)?.counter ?? 0)
            #expect(kx <= ky)
        }
    }

    @Test("the merged journal written to disk verifies clean and reads back as merged", arguments: seeds.prefix(20))
    func mergedJournalVerifies(_ seed: UInt64) throws {
        let storage = MemoryStorage()
        let (a, b) = try Fixtures.divergedJournals(seed: seed, storage: storage)
        let report = try Merge.merge(a: "a", b: "b", output: "m", storage: storage)
        let verify = try JournalVerifier.verify(path: "m", storage: storage)
        #expect(verify.isClean, "\(verify.ruleViolations) \(verify.seqGaps)")
        #expect(try EventReader.events(path: "m", storage: storage) == Merge.merge(a, b).events)
        #expect(try MergeTests.storedLines("m", storage) == MergeTests.lines(Merge.merge(a, b).events))
        #expect(report.output == report.shared + report.onlyA + report.onlyB)
    }

    /// The lines of the journal at `path` as stored.
    static func storedLines(_ path: String, _ storage: any Storage) throws -> [String] {
        var lines: [String] = []
        try EventReader.forEachLine(path: path, storage: storage) { line, _ in lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    /// Writes `lines` as a journal at `path`, one append each.
    static func write(_ lines: [String], to path: String, _ storage: any Storage) throws {
        let writer = try JournalWriter(path: path, storage: storage)
        defer { writer.close() }
        for line in lines { try writer.append([Array(line.utf8)]) }
    }

    @Test("merged files hold each event's canonical line: a renamed collision, an erasure's numbering, a copy's repeats")
    func mergedFileLines() throws {
        let storage = MemoryStorage()
        let marker = #"{"v":1,"seq":5,"id":"ph-a","at":"2026-02-01T09:00:00.000+01:00","type":"data.erased","through_seq":4,"events":4}"#
        let started = #"{"v":1,"seq":6,"id":"ph-1","at":"2026-02-01T10:00:00.000+01:00","type":"workout.started","workout":"w1","name":"Push","session":null}"#
        let profile = #"{"v":1,"seq":7,"id":"ph-2","at":"2026-02-01T10:01:00.000+01:00","type":"profile.updated","unit":"lb"}"#
        // b repeats a's marker and profile under other seqs, and holds another version of ph-1 (rule 5).
        let other = #"{"v":1,"seq":2,"id":"ph-1","at":"2026-02-01T10:00:00.000+01:00","type":"workout.started","workout":"w9","name":"Legs","session":null}"#
        try MergeTests.write([marker, started, profile], to: "a", storage)
        try MergeTests.write([#"{"v":1,"seq":1,"id":"ph-a","at":"2026-02-01T09:00:00.000+01:00","type":"data.erased","through_seq":4,"events":4}"#,
                              other, #"{"v":1,"seq":3,"id":"ph-2","at":"2026-02-01T10:01:00.000+01:00","type":"profile.updated","unit":"lb"}"#],
                             to: "b", storage)
        let report = try Merge.merge(a: "a", b: "b", output: "m", storage: storage)
        #expect((report.eventsA, report.eventsB, report.shared, report.onlyA, report.onlyB, report.output) == (3, 3, 2, 1, 1, 4))
        #expect(report.renamed.map(\.to) == ["ph-1~5b4d6353"])
        #expect(try MergeTests.storedLines("m", storage) == [
            marker,
            started,
            #"{"v":1,"seq":7,"id":"ph-1~5b4d6353","at":"2026-02-01T10:00:00.000+01:00","type":"workout.started","workout":"w9","name":"Legs","session":null}"#,
            #"{"v":1,"seq":8,"id":"ph-2","at":"2026-02-01T10:01:00.000+01:00","type":"profile.updated","unit":"lb"}"#,
        ])
    }

    @Test("conflicting edits of the same set are both kept, and the later one wins in the projection", arguments: seeds.prefix(20))
    func conflictingEdits(_ seed: UInt64) throws {
        let (a, b) = try Fixtures.divergedJournals(seed: seed, storage: MemoryStorage())
        let edits = (a + b).filter { $0.type == "set.edited" }
        guard edits.count == 2 else { return }  // no shared workout in this seed
        let merged = Merge.merge(a, b).events
        let kept = merged.filter { $0.type == "set.edited" }
        #expect(kept.count == 2)
        let later = edits.max { ($0.at.epochMilliseconds, $0.device ?? "") < ($1.at.epochMilliseconds, $1.device ?? "") }!
        #expect(kept.last?.id == later.id)
    }

    @Test("journals of two different users are refused with both e-mails named")
    func differentUsers() throws {
        let storage = MemoryStorage()
        for (path, email) in [("a", "sam@example.com"), ("b", "alex@example.com")] {
            let journal = try EventJournal(path: path, storage: storage, device: "ph", clock: { Fixtures.start })
            try journal.record(.object(["type": "account.created", "email": .string(email)]))
            journal.close()
        }
        #expect(throws: Merge.Problem.differentUsers(a: "a", emailsA: ["sam@example.com"], b: "b", emailsB: ["alex@example.com"])) {
            _ = try Merge.merge(a: "a", b: "b", output: "m", storage: storage)
        }
        #expect(Merge.Problem.differentUsers(a: "a", emailsA: ["sam@example.com"], b: "b", emailsB: ["alex@example.com"]).description
            == "a and b belong to different users (a: sam@example.com; b: alex@example.com); refusing to merge")
        #expect(!storage.exists("m"))
    }

    @Test("a damaged input is refused: salvage it first")
    func damagedInputRefused() throws {
        let storage = MemoryStorage()
        try Fixtures.smallJournal(at: "a", storage: storage)
        try Fixtures.smallJournal(at: "b", storage: storage)
        let bytes = storage.contents(of: "b")!
        storage.setContents(of: "b", to: Corrupt.flippingBit(bytes, 8 * 40))
        #expect(throws: Merge.Problem.self) { _ = try Merge.merge(a: "a", b: "b", output: "m", storage: storage) }
    }

    @Test("one id with two different contents keeps both; the extra version gets the same new id whichever order")
    func idCollisionKeepsBoth() throws {
        let at = Fixtures.start
        let x = Event(seq: 1, id: "ph-1", at: at, type: "workout.started", fields: ["workout": "w1", "name": "Push", "session": nil])
        let y = Event(seq: 1, id: "ph-1", at: at, type: "workout.started", fields: ["workout": "w9", "name": "Legs", "session": nil])
        let (ab, report) = Merge.merge([x], [y])
        let ba = Merge.merge([y], [x]).events
        #expect(ab.count == 2)
        #expect(MergeTests.lines(ab) == MergeTests.lines(ba))
        #expect(report.renamed.count == 1)
        #expect(ab.map(\.id).contains("ph-1"))
        #expect(ab.map(\.id).contains { $0.hasPrefix("ph-1~") && $0.count == 13 })
    }
}
