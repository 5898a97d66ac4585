import JournalFile
import JournalEvents
import JournalStore
import JournalTesting
import Testing

/// Erasure is physical (FORMAT.md §6 "Erasure", RELIABILITY.md): after `eraseAllData`, no file the engine wrote —
/// the journal, its snapshots, torn-tail files, seal and temporary files, its backups — holds a byte of the erased
/// data, compressed or not; a crash at any step of the erasure leaves the journal whole or erased, and the next open
/// (plus running the erasure again when it had not become durable) erases everything.
@Suite("Erasure erases")
struct ErasureTests {
    static let path = "zelda.journal"
    /// What must disappear: the name, the e-mail and a weight no one else lifts.
    static let needles = ["Zelda Quintanilla", "zelda.q@example.org", "137.25"]

    /// Every file in `memory` holding erased data, with what it holds.
    static func leaks(_ memory: MemoryStorage) -> [String] {
        memory.paths.compactMap { path in
            let hits = Leaks.found(needles, in: memory.contents(of: path) ?? [])
            return hits.isEmpty ? nil : "\(path): \(hits.joined(separator: ", "))"
        }
    }

    /// Zelda's journal with a sealed workout, an open one, a torn tail kept in `.torn-<offset>`, snapshots (as the
    /// facade writes them: her name inside), a temporary snapshot file, and a backup recorded in `.backups`.
    static func prepare() throws -> MemoryStorage {
        let memory = MemoryStorage()
        let clock = ManualClock()
        let journal = try EventJournal(path: path, storage: memory, device: "ph", clock: clock.now)
        try journal.record(.object(["type": "account.created", "at": "2026-01-05T17:00:00.000+01:00",
                                    "name": "Zelda Quintanilla", "email": "zelda.q@example.org"]))
        try journal.record(.object(["type": "profile.updated", "at": "2026-01-05T17:01:00.000+01:00", "name": "Zelda Quintanilla", "unit": "kg"]))
        var drafts = Fixtures.workoutDrafts("w1", sets: 2)
        drafts.insert(.object(["type": "set.completed", "at": "2026-01-05T18:00:30.000+01:00", "workout": "w1",
                               "exercise": "barbell-back-squat", "set": 1, "weight": .number(137.25), "unit": "kg",
                               "reps": 5, "kind": "working"]), at: 1)
        try journal.record(batch: drafts)
        for draft in Fixtures.workoutDrafts("w2", sets: 1, at: Fixtures.start.adding(milliseconds: 86_400_000), finished: false) {
            try journal.record(draft)
        }
        journal.close()
        _ = try JournalBackup.backup(source: path, destination: "usb/zelda.journal", storage: memory)
        // A torn tail holding her e-mail: half of a frame, which the next open moves to `.torn-<offset>`.
        var bytes = memory.contents(of: path)!
        let report = try JournalReader.records(path: path, storage: memory).report
        let line = Array(#"{"v":1,"seq":99,"id":"ph-2r","at":"2026-01-06T18:00:00.000+01:00","type":"profile.updated","email":"zelda.q@example.org"}"#.utf8)
        let frame = Layout.block(Zstd().compressFrame(line + [0x0A], level: 3), version: .v2)
        bytes.replaceSubrange(report.validEnd..<bytes.count, with: frame.prefix(frame.count - 3))
        memory.setContents(of: path, to: bytes)
        try EventJournal(path: path, storage: memory, device: "ph", clock: clock.now).close()
        let state = Array("JSNAP state: Zelda Quintanilla, zelda.q@example.org, best squat 137.25 kg".utf8)
        for side in [".snapshot", ".home-snapshot", ".home-snapshot.tmp-41-7"] { memory.setContents(of: path + side, to: state) }
        return memory
    }

    @Test("after erasure no file the engine wrote holds the name, the e-mail or the weight; the marker stays, recording goes on")
    func erasureErases() throws {
        let memory = try ErasureTests.prepare()
        // Before: the data is everywhere.
        let before = ErasureTests.leaks(memory)
        let torn = try #require(memory.paths.first { $0.hasPrefix(ErasureTests.path + ".torn-") })
        #expect(before.map { String($0.prefix { $0 != ":" }) } == [
            "usb/zelda.journal", "zelda.journal", "zelda.journal.home-snapshot", "zelda.journal.home-snapshot.tmp-41-7",
            "zelda.journal.snapshot", torn,
        ])

        let clock = ManualClock(Timestamp(rfc3339: "2026-02-01T09:00:00.000+01:00")!)
        let journal = try EventJournal(path: ErasureTests.path, storage: memory, device: "ph", clock: clock.now)
        let erasure = try journal.eraseAllData()
        #expect(EventCodec.encodeString(erasure.marker)
            == #"{"v":1,"seq":10,"id":"ph-a","at":"2026-02-01T09:00:00.000+01:00","type":"data.erased","through_seq":9,"events":9}"#)
        #expect(erasure.outcome.backupsRewritten == ["usb/zelda.journal"])
        #expect(erasure.outcome.backupsUnreachable == [])
        #expect(erasure.outcome.removed.sorted() == [
            "zelda.journal.home-snapshot", "zelda.journal.home-snapshot.tmp-41-7", "zelda.journal.snapshot", torn,
        ].sorted())
        #expect(ErasureTests.leaks(memory) == [])
        #expect(memory.paths == ["usb/zelda.journal", "zelda.journal", "zelda.journal.backups"])

        // The journal holds the marker; recording goes on after it, and it verifies clean.
        let next = try journal.record(.object(["type": "profile.updated", "at": "2026-02-01T09:01:00.000+01:00", "unit": "lb"]))
        #expect(next.seq == 11)
        journal.close()
        let events = try EventReader.events(path: ErasureTests.path, storage: memory)
        #expect(events.map(\.type) == ["data.erased", "profile.updated"])
        let report = try JournalVerifier.verify(path: ErasureTests.path, storage: memory)
        #expect(report.isClean)
        #expect(report.firstSeq == 10)
        // The backup is the erased journal, so the next backup copies only the new event.
        let backup = try JournalBackup.backup(source: ErasureTests.path, destination: "usb/zelda.journal", storage: memory)
        #expect(backup.kept > 0 && backup.copied < backup.bytes)
    }

    @Test("erasure adopting another device's marker (what journal sync does): the same physical erasure, that marker kept as it is; anything else refused, nothing erased")
    func erasureAdoptingAMarker() throws {
        let memory = try ErasureTests.prepare()
        let journal = try EventJournal(path: ErasureTests.path, storage: memory, device: "wa", clock: ManualClock().now)
        defer { journal.close() }
        let notAMarker = try EventCodec.decode(Array(#"{"v":1,"seq":3,"id":"ph-9","at":"2026-02-01T09:00:00.000+01:00","type":"data.cleared"}"#.utf8))
        do {
            try journal.eraseAllData(adopting: notAMarker)
            Issue.record("a data.cleared was adopted as an erasure marker")
        } catch {
            #expect("\(error)" == #"zelda.journal: the event was refused: data.cleared: field "type" is "data.cleared" but is not data.erased, the only event an erasure adopts; nothing was written"#)
        }
        #expect(ErasureTests.leaks(memory).count == 6)
        // Pulled from a server: its seq is the server's position; the erasure sets it to through_seq + 1.
        let pulled = try EventCodec.decode(Array(#"{"v":1,"seq":1,"id":"ph-a","at":"2026-02-01T09:00:00.000+01:00","type":"data.erased","through_seq":4,"events":4}"#.utf8))
        let erasure = try journal.eraseAllData(adopting: pulled)
        #expect(EventCodec.encodeString(erasure.marker)
            == #"{"v":1,"seq":5,"id":"ph-a","at":"2026-02-01T09:00:00.000+01:00","type":"data.erased","through_seq":4,"events":4}"#)
        #expect(ErasureTests.leaks(memory) == [])
        #expect(try EventReader.events(path: ErasureTests.path, storage: memory).map(\.id) == ["ph-a"])
        #expect(try JournalVerifier.verify(path: ErasureTests.path, storage: memory).isClean)
        // A merge numbers an erased journal from the marker's through_seq + 1, so it stays valid.
        let later = try EventCodec.decode(Array(#"{"v":1,"seq":1,"id":"wa-1","at":"2026-02-01T09:05:00.000+01:00","type":"profile.updated","unit":"lb"}"#.utf8))
        #expect(Merge.merge([pulled], [later]).events.map(\.seq) == [5, 6])
    }

    @Test("a data.erased given to record is refused: only erasure writes it")
    func markerNotRecordable() throws {
        let memory = try ErasureTests.prepare()
        let journal = try EventJournal(path: ErasureTests.path, storage: memory, device: "ph", clock: ManualClock().now)
        defer { journal.close() }
        #expect(throws: JournalError.self) {
            try journal.record(.object(["type": "data.erased", "through_seq": 9, "events": 9]))
        }
        do {
            try journal.record(.object(["type": "data.erased", "through_seq": 9, "events": 9]))
        } catch {
            #expect("\(error)" == #"zelda.journal: the event was refused: data.erased: field "type" is "data.erased" but is written only by erasure, as the first event of an erased journal (use `journal erase`); nothing was written"#)
        }
    }

    @Test("a crash at every step of the erasure, whatever the disk kept: the journal is whole or erased, and nothing leaks once it is done")
    func crashAtEveryStep() throws {
        let learn = ScriptedStorage(base: try ErasureTests.prepare())
        let clock = ManualClock(Timestamp(rfc3339: "2026-02-01T09:00:00.000+01:00")!)
        let journal = try EventJournal(path: ErasureTests.path, storage: learn, device: "ph", clock: clock.now)
        let start = learn.trace.count
        try journal.eraseAllData()
        journal.close()
        let steps = Array(learn.trace[start...])
        #expect(steps.count > 15)
        var problems: [String] = []
        var erasedAtReopen = 0, wholeAtReopen = 0
        for step in steps.indices {
            for keep in [0, 20] {
                for loss in 0..<3 {
                    let memory = try ErasureTests.prepare()
                    let scripted = ScriptedStorage(base: memory)
                    let journal = try EventJournal(path: ErasureTests.path, storage: scripted, device: "ph", clock: clock.now)
                    scripted.crashAt = scripted.trace.count + step
                    scripted.crashingWriteKeeps = keep
                    _ = try? journal.eraseAllData()
                    journal.close()
                    memory.powerLoss([.dropUnsynced, .keepUnsynced, .garbleUnsyncedFrom(offset: 0, pattern: 0x3C)][loss])
                    let label = "crash at \(steps[step]) keeping \(keep), loss \(loss)"
                    do {
                        // Readers see the journal whole or erased, never in between.
                        let seen = try EventReader.events(path: ErasureTests.path, storage: memory).map(\.type)
                        let reopened = try EventJournal(path: ErasureTests.path, storage: memory, device: "ph", clock: clock.now)
                        let after = try EventReader.events(path: ErasureTests.path, storage: memory).map(\.type)
                        if after == ["data.erased"] {
                            erasedAtReopen += 1
                        } else if after.count == 9 && after.first == "account.created" {
                            wholeAtReopen += 1
                            if ErasureTests.leaks(memory).isEmpty { problems.append("\(label): whole, yet nothing to find?") }
                            try reopened.eraseAllData()
                        } else {
                            problems.append("\(label): after reopening the journal holds \(after)")
                        }
                        if seen != after && seen != ["data.erased"] { problems.append("\(label): a reader saw \(seen), then \(after)") }
                        reopened.close()
                        let leaks = ErasureTests.leaks(memory)
                        if !leaks.isEmpty { problems.append("\(label): leaks \(leaks)") }
                        if !(try JournalVerifier.verify(path: ErasureTests.path, storage: memory).isClean) { problems.append("\(label): not clean") }
                        if memory.exists(JournalErasure.intentPath(ErasureTests.path)) { problems.append("\(label): intent left") }
                    } catch {
                        problems.append("\(label): \(error)")
                    }
                }
            }
        }
        print("erasure: \(steps.count) steps × 2 partial writes × 3 power losses = \(steps.count * 6) crashes; \(erasedAtReopen) erased by the reopening, \(wholeAtReopen) whole (then erased again)")
        #expect(problems == [])
        #expect(erasedAtReopen > 0 && wholeAtReopen > 0)
    }
}
