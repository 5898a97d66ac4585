import Foundation
import JournalEvents
import JournalModel
import Testing
@testable import JournalProjections

/// The home page's own state (`HomeFold`, PROJECTIONS.md §"Snapshots"): compacted from a ledger, folded on, and
/// answering exactly what `HomeState(Analysis(ledger))` answers.
@Suite("Home state")
struct HomeFoldTests {
    static let asOf = t("2026-01-09T00:00:00.000+01:00")

    static func page(_ ledger: Ledger) -> String {
        var ledger = ledger
        ledger.asOf = asOf
        return HomeState(Analysis(ledger)).jsonString
    }

    @Test("compacting keeps open workouts whole, summarises finished ones and retires their ids")
    func compacts() throws {
        let full = Ledger(events: LedgerSnapshotTests.events, asOf: Ledger.everything)
        let home = HomeFold(compacting: full)
        #expect(home.ledger.workouts.map(\.id) == ["w2"])
        #expect(home.ledger.workout("w2")?.sets.count == 1)
        #expect(home.retired == ["w1"])
        #expect(home.finished == [FinishedWorkout(full.workout("w1")!, addsVolume: full.addsVolume)])
        #expect(home.finished[0].exerciseCount == 2 && home.finished[0].volumeKilograms == 600 && home.finished[0].durationSeconds == 2700)
        #expect(home.homeView(asOf: Self.asOf, context: .standard)?.jsonString == Self.page(full))
        // Every stored property is coded (FinishedWorkout by hand).
        let decoded = try JSONDecoder().decode(HomeFold.self, from: JSONEncoder().encode(home))
        #expect(decoded == home)
    }

    /// The encoded home state of `LedgerSnapshotTests.events` as of version `HomeFold.snapshotVersion`.
    static let pinned = (version: 3, digest: UInt64(0x6efb_d9c8_84ba_95ac))   // assisted sets add no volume (the encoding is the same, what it holds is not)

    @Test("a change to what the home state stores or computes cannot reuse old home snapshots: its encoding is pinned to the version")
    func goldenDigest() throws {
        let home = HomeFold(compacting: Ledger(events: LedgerSnapshotTests.events, asOf: Ledger.everything))
        let digest = LedgerSnapshotTests.digest(try LedgerSnapshotTests.canonicalJSON(home))
        #expect(HomeFold.snapshotVersion == Self.pinned.version && digest == Self.pinned.digest, """
            The home state's encoding changed (digest \(String(digest, radix: 16)), pinned \(String(Self.pinned.digest, radix: 16)) \
            for version \(Self.pinned.version)). If you changed what HomeFold, FinishedWorkout or RecordFinder store or how \
            records are found, bump HomeFold.snapshotVersion in Sources/JournalProjections/HomeFold.swift so that existing \
            <journal>.home-snapshot files are rebuilt, then pin the new version and digest here (HomeFoldTests.pinned).
            """)
    }

    @Test("folding on: an event naming a retired workout is refused; the open workout finishing adds its records")
    func foldsOn() throws {
        let events = LedgerSnapshotTests.events
        var home = HomeFold(compacting: Ledger(events: events.prefix(15), asOf: Ledger.everything))
        #expect(home.retired.isEmpty && home.ledger.workouts.map(\.id) == ["w1"])
        var full = Ledger(events: events.prefix(15), asOf: Ledger.everything)
        for event in events.dropFirst(15) {
            let folded = home.apply(event)
            #expect(folded, "\(event.type)")
            full.apply(event)
        }
        #expect(home.homeView(asOf: Self.asOf, context: .standard)?.jsonString == Self.page(full))
        let compacted = HomeFold(compacting: full)
        var refusing = compacted
        let noteOnRetired = refusing.apply(ev("workout.noted", at: "2026-01-08T19:00:00.000+01:00", ["workout": "w1", "note": "late"]))
        let noteOnOpen = refusing.apply(ev("workout.noted", at: "2026-01-08T19:00:00.000+01:00", ["workout": "w2", "note": "now"]))
        let repeatOfRetired = refusing.apply(ev("workout.planned", at: "2026-01-08T19:00:00.000+01:00",
                                                ["plan": "p2", "name": "Again", "repeat_of": "w1", "exercises": []]))
        #expect(!noteOnRetired && noteOnOpen && !repeatOfRetired)
    }

    @Test("data.cleared after the compaction starts over, as the ledger does: old ids are forgotten, a reused id is a new workout")
    func clearedStartsOver() throws {
        let full = Ledger(events: LedgerSnapshotTests.events, asOf: Ledger.everything)
        var home = HomeFold(compacting: full)
        var ledger = full
        let after = [
            ev("data.cleared", at: "2026-01-08T19:00:00.000+01:00"),
            ev("workout.noted", at: "2026-01-08T19:01:00.000+01:00", ["workout": "w1", "note": "ignored: cleared"]),
            ev("workout.started", at: "2026-01-08T19:02:00.000+01:00", ["workout": "w1", "name": "Fresh start"]),
            ev("set.completed", at: "2026-01-08T19:03:00.000+01:00", ["workout": "w1", "exercise": "barbell-back-squat", "set": 1,
                                                                     "weight": 70, "unit": "kg", "reps": 5, "kind": "working"]),
            ev("workout.finished", at: "2026-01-08T19:30:00.000+01:00", ["workout": "w1"]),
        ]
        for event in after {
            let folded = home.apply(event)
            #expect(folded, "\(event.type)")
            ledger.apply(event)
        }
        #expect(home.retired.isEmpty && home.finished.isEmpty)
        let page = try #require(home.homeView(asOf: Self.asOf, context: .standard))
        #expect(page.jsonString == Self.page(ledger))
        #expect(page.lastWorkouts.map(\.name) == ["Fresh start"] && page.lastWorkouts[0].volumeKilograms == 350)
        #expect(page.name == nil && page.recentRecords.isEmpty)
    }

    @Test("retired ids are found by halving in UTF-8 byte order")
    func retiredSearch() {
        var home = HomeFold(compacting: Ledger(asOf: Self.asOf))
        home.retired = ["w1", "w10", "w2", "wé", "x"].sorted(by: HomeFold.byteOrder)
        #expect(home.retired == ["w1", "w10", "w2", "wé", "x"])
        for id in ["w1", "w10", "w2", "wé", "x"] { #expect(home.isRetired(id), "\(id)") }
        for id in ["", "w", "w0", "w11", "w3", "y"] { #expect(!home.isRetired(id), "\(id)") }
    }
}
