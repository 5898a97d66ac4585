@testable import JournalFile
import JournalEvents
import JournalStore
import JournalTesting
import Testing

/// `Merge.absorb`: the in-place merge `journal sync` does with the events it pulls (SYNC.md §"The device side").
@Suite("Merging pulled events into a journal in place")
struct MergeAbsorbTests {
    @Test("absorbing the other device's events gives merge's journal; absorbing them again leaves the file untouched")
    func absorbIsMergeAndIdempotent() throws {
        for seed: UInt64 in 1...20 {
            let storage = MemoryStorage()
            let (a, b) = try Fixtures.divergedJournals(seed: seed, storage: storage)
            let first = try Merge.absorb(b, into: "a", storage: storage)
            #expect(first.events == Merge.merge(a, b).events)
            #expect(first.rewritten == (first.events != a))
            #expect(try EventReader.events(path: "a", storage: storage) == Merge.merge(a, b).events)
            let bytes = storage.contents(of: "a")
            let again = try Merge.absorb(b, into: "a", storage: storage)
            #expect(again.rewritten == false)
            #expect(again.report.onlyB == 0)
            #expect(storage.contents(of: "a") == bytes)
            let report = try JournalVerifier.verify(path: "a", storage: storage)
            #expect(report.scan.isClean && report.badLines.isEmpty && report.seqGaps.isEmpty && report.duplicateIDs.isEmpty)
        }
    }

    @Test("the append-only merge of an open journal is merge's journal whenever it applies, and it applies to events that come after the journal's")
    func appendedOnlyIsMerge() throws {
        var applied = 0, declined = 0
        for (seed, a, b, all, cut, local) in try Self.cutJournals() {
            // Another device's journal, part of which comes before this one's last event: merge decides.
            let other = Merge.merge(a, []).events
            if let tail = Merge.appendedOnly(other, b) { #expect(other + tail == Merge.merge(other, b).events) } else { declined += 1 }
            for incoming in [b, Array(all[cut...]), Array(all[max(cut - 2, 0)...]), Array(a.reversed()), []] {
                let merged = Merge.merge(local, incoming).events
                if let tail = Merge.appendedOnly(local, incoming) {
                    #expect(local + tail == merged, "seed \(seed), cut \(cut)")
                    applied += 1
                } else {
                    declined += 1
                }
            }
            // What follows the journal's last event, in any order and with what it already holds, is appended.
            #expect(Merge.appendedOnly(local, Array(all[cut...].reversed()) + local.suffix(1)) == Array(all[cut...]).enumerated().map { index, event in
                var event = event
                event.seq = cut + index + 1
                return event
            })
        }
        print("appendedOnly: \(applied) applied, \(declined) declined to merge")
        #expect((applied, declined) == (100, 20))
    }

    @Test("the append-only merge from a mark (the events after the journal's event at the mark, the incoming ones it holds before the mark left out) is merge's journal whenever it applies, and applies exactly when the whole one does")
    func appendedOnlyFromAMarkIsMerge() throws {
        var applied = 0, declined = 0
        for (seed, _, b, all, cut, local) in try Self.cutJournals() where cut > 0 {
            for mark in Set([1, max(local.count / 2, 1), local.count]).sorted() {
                let last = local[mark - 1]
                let preceding = (key: Merge.SortKey(id: last.id, at: last.at.epochMilliseconds, isMarker: last.knownType == .dataErased), seq: last.seq)
                let before = Set(local.prefix(mark).map(\.id))
                // Another device's event at the instant of the journal's first: before its last one unless it has one.
                var early = local[0]
                early.id = "zz-1"
                for incoming in [b, Array(all[cut...]), Array(all[max(cut - 2, 0)...]), [early], []] {
                    let whole = Merge.appendedOnly(local, incoming)
                    let fromMark = Merge.appendedOnly(Array(local[mark...]), incoming.filter { !before.contains($0.id) }, after: preceding)
                    #expect(fromMark == whole, "seed \(seed), cut \(cut), mark \(mark)")
                    if let fromMark {
                        #expect(local + fromMark == Merge.merge(local, incoming).events)
                        applied += 1
                    } else {
                        declined += 1
                    }
                }
            }
        }
        #expect((applied, declined) == (180, 45))
    }

    /// Two diverged journals (seeds 1…5), their merge `all`, and journals of `all`'s first `cut` events (0, a third,
    /// a half, all but one).
    static func cutJournals() throws -> [(seed: UInt64, a: [Event], b: [Event], all: [Event], cut: Int, local: [Event])] {
        try (UInt64(1)...5).flatMap { seed in
            let (a, b) = try Fixtures.divergedJournals(seed: seed, storage: MemoryStorage())
            let all = Merge.merge(a, b).events
            return [0, all.count / 3, all.count / 2, all.count - 1].map { cut in (seed, a, b, all, cut, Merge.merge(Array(all.prefix(cut)), []).events) }
        }
    }

    @Test("a journal open for recording is not rewritten under its writer: absorb fails with locked and changes nothing")
    func absorbRespectsTheWriterLock() throws {
        let scratch = ScratchDirectory("absorb")
        let path = scratch.file("phone.journal")
        let events = try Fixtures.smallJournal(at: path, storage: PosixStorage(), device: "ph", workouts: 1, setsPerWorkout: 1, openSets: 0)
        let writer = try EventJournal(path: path, device: "ph", clock: { Fixtures.start })
        defer { writer.close() }
        var other = events[0]
        other.id = "wa-1"
        other.fields["workout"] = .string("wa1")
        let before = readFileBytes(path)
        let error = #expect(throws: JournalError.self) { try Merge.absorb([other], into: path) }
        guard case .store(.locked(let lockedPath))? = error else { Issue.record("expected locked, got \(String(describing: error))"); return }
        #expect(lockedPath == path)
        #expect(readFileBytes(path) == before)
    }
}

extension MergeAbsorbTests {
    @Test("another user's events are refused (merge's rule 6) and the journal is unchanged")
    func absorbRefusesAnotherUser() throws {
        let storage = MemoryStorage()
        let (a, _) = try Fixtures.divergedJournals(seed: 3, storage: storage)
        var stranger = a[0]
        stranger.fields["email"] = .string("kim@example.com")
        let before = storage.contents(of: "a")
        #expect(throws: Merge.Problem.differentUsers(a: "a", emailsA: ["sam@example.com"], b: "the server's copy", emailsB: ["kim@example.com"])) {
            try Merge.absorb([stranger], into: "a", incomingName: "the server's copy", storage: storage)
        }
        #expect(storage.contents(of: "a") == before)
    }
}
