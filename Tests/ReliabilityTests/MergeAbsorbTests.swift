import JournalFile
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
