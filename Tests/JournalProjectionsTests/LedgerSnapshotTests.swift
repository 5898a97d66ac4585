import Foundation
import JournalEvents
@testable import JournalModel
import Testing
@testable import JournalProjections

/// The ledger as projection snapshots store it (`<journal>.snapshot`, PROJECTIONS.md §"Snapshots").
@Suite("Ledger snapshots")
struct LedgerSnapshotTests {
    /// A fixed journal touching every part of the ledger: account, profile, settings, answers, programme, custom
    /// exercise, equipment, progression, rest settings, favourites, template, plan, an open and a finished workout with sets,
    /// rows, a rest timer, a warm-up card, cardio, a superset, notes, an injury answer and a history edit.
    static let events: [Event] = journal([
        ev("account.created", at: "2026-01-05T09:00:00.000+01:00", ["name": "Ana Lima", "email": "ana@example.com"]),
        ev("profile.updated", at: "2026-01-05T09:01:00.000+01:00", ["unit": "kg", "body_weight": j(#"{"value": 61.5, "unit": "kg"}"#)]),
        ev("subscription.started", at: "2026-01-05T09:01:30.000+01:00", ["plan": "annual", "price": 59.99, "currency": "EUR", "trial_days": 7]),
        ev("settings.changed", at: "2026-01-05T09:02:00.000+01:00", ["key": "rest_default_s", "value": 90]),
        ev("questionnaire.answered", at: "2026-01-05T09:03:00.000+01:00", ["question": "injuries", "answer": ["shoulders"]]),
        ev("programme.generated", at: "2026-01-05T09:04:00.000+01:00", ["ruleset": "train", "split": "Full Body", "days_per_week": 3, "weeks": 8,
            "sessions": j(#"[{"name": "A", "exercises": [{"exercise": "barbell-back-squat", "sets": 3, "reps": "8-12", "rest_s": 120}]}]"#)]),
        ev("exercise.created", at: "2026-01-05T09:05:00.000+01:00", ["exercise": "sled-push", "name": "Sled Push", "primary_muscles": ["quads"], "mechanic": "compound",
            "secondary_muscles": ["glutes"], "equipment": ["sled"]]),
        ev("equipment.updated", at: "2026-01-05T09:05:30.000+01:00", ["unit": "kg", "plates": j(#"[{"weight": 20, "count": 2}]"#), "bars": j(#"[{"weight": 15}]"#)]),
        ev("progression.configured", at: "2026-01-05T09:06:00.000+01:00", ["exercise": "barbell-back-squat", "increment": 5, "unit": "kg"]),
        ev("rest.configured", at: "2026-01-05T09:07:00.000+01:00", ["exercise": "barbell-back-squat", "seconds": 150]),
        ev("exercise.favourited", at: "2026-01-05T09:08:00.000+01:00", ["exercise": "barbell-back-squat"]),
        ev("template.created", at: "2026-01-05T09:09:00.000+01:00", ["template": "t1", "name": "Legs", "exercises": j(#"[{"exercise": "barbell-back-squat", "sets": [{"weight": 60, "unit": "kg", "reps": 8}, {"reps": 8, "kind": "warmup"}]}]"#)]),
        ev("workout.planned", at: "2026-01-05T09:10:00.000+01:00", ["plan": "p1", "name": "Quick", "exercises": j(#"[{"exercise": "bench", "sets": 2, "reps": "5"}]"#)]),
        ev("workout.started", at: "2026-01-06T18:00:00.000+01:00", ["workout": "w1", "name": "A", "session": 0]),
        ev("warmup.started", at: "2026-01-06T18:00:10.000+01:00", ["workout": "w1"]),
        ev("set.completed", at: "2026-01-06T18:10:00.000+01:00", ["workout": "w1", "exercise": "barbell-back-squat", "set": 1, "weight": 40, "unit": "kg", "reps": 10, "kind": "warmup"]),
        ev("set.completed", at: "2026-01-06T18:15:00.000+01:00", ["workout": "w1", "exercise": "barbell-back-squat", "set": 2, "weight": 60, "unit": "kg", "reps": 9, "kind": "working"]),
        ev("set.rated", at: "2026-01-06T18:15:30.000+01:00", ["workout": "w1", "exercise": "barbell-back-squat", "set": 2, "rpe": 8.5]),
        ev("set.noted", at: "2026-01-06T18:16:00.000+01:00", ["workout": "w1", "exercise": "barbell-back-squat", "set": 2, "note": "deep"]),
        ev("cardio.logged", at: "2026-01-06T18:40:00.000+01:00", ["workout": "w1", "exercise": "sled-push", "minutes": 6, "km": 0.4]),
        ev("workout.finished", at: "2026-01-06T18:45:00.000+01:00", ["workout": "w1"]),
        ev("set.edited", at: "2026-01-07T08:00:00.000+01:00", ["workout": "w1", "exercise": "barbell-back-squat", "set": 2, "reps": 10]),
        ev("workout.started", at: "2026-01-08T18:00:00.000+01:00", ["workout": "w2", "name": "Quick", "plan": "p1"]),
        ev("superset.linked", at: "2026-01-08T18:01:00.000+01:00", ["workout": "w2", "group": "s1", "exercises": ["bench", "sled-push"]]),
        ev("set.added", at: "2026-01-08T18:02:00.000+01:00", ["workout": "w2", "exercise": "bench", "set": 3, "weight": 30, "unit": "kg", "reps": 5]),
        ev("set.completed", at: "2026-01-08T18:05:00.000+01:00", ["workout": "w2", "exercise": "bench", "set": 1, "weight": 32.5, "unit": "kg", "reps": 5, "kind": "working"]),
        ev("rest.started", at: "2026-01-08T18:05:00.000+01:00", ["workout": "w2", "exercise": "bench", "seconds": 90]),
        ev("rest.adjusted", at: "2026-01-08T18:05:30.000+01:00", ["workout": "w2", "exercise": "bench", "delta_s": 15]),
        ev("injury.warning_answered", at: "2026-01-08T18:06:00.000+01:00", ["workout": "w2", "exercise": "bench", "muscle": "shoulders", "choice": "proceed"]),
    ])

    static func folded() -> Ledger { Ledger(events: events, asOf: t("2026-01-09T00:00:00.000+01:00")) }

    /// 64-bit FNV-1a: a digest the test can pin.
    static func digest(_ bytes: Data) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    static func canonicalJSON(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    /// The encoded state of `events` as of version `Ledger.snapshotVersion`. A different digest means the fold or the
    /// state changed, so snapshots written by the old code would be trusted wrongly.
    static let pinned = (version: 6, digest: UInt64(0x58d5_e847_78c9_e02e))

    @Test("a fold or state change cannot reuse old snapshots: the encoded ledger of a fixed journal is pinned to the version")
    func goldenDigest() throws {
        let json = try Self.canonicalJSON(Self.folded())
        let digest = Self.digest(json)
        #expect(Ledger.snapshotVersion == Self.pinned.version && digest == Self.pinned.digest, """
            The ledger's encoded state changed (digest \(String(digest, radix: 16)), pinned \(String(Self.pinned.digest, radix: 16)) \
            for snapshot version \(Self.pinned.version)). If you changed Ledger.apply(_:) or any stored state, bump \
            Ledger.snapshotVersion in Sources/JournalModel/Ledger+Snapshot.swift so that existing <journal>.snapshot \
            files are rebuilt, then pin the new version and digest here (LedgerSnapshotTests.pinned).
            """)
    }

    @Test("the ledger round-trips through its Codable form whole (every stored property is encoded)")
    func roundTrips() throws {
        let ledger = Self.folded()
        #expect(ledger.workouts.count == 2 && ledger.workouts[0].sets.count == 2 && ledger.workouts[1].rest != nil)
        let json = try Self.canonicalJSON(ledger)
        let decoded = try JSONDecoder().decode(Ledger.self, from: json)
        #expect(decoded == ledger)
        #expect(decoded.workoutIndex == ledger.workoutIndex)
        // The cache of the last workout named is not state: not encoded, empty after decoding.
        #expect(ledger.recentWorkout.id == "w2" && ledger.recentWorkout.index == 1)
        #expect(decoded.recentWorkout.index == -1)
        #expect(String(decoding: json, as: UTF8.self).contains("recentWorkout") == false)
        // Folding on after decoding equals folding on the original.
        var a = ledger, b = decoded
        let more = ev("workout.finished", at: "2026-01-08T18:30:00.000+01:00", ["workout": "w2"])
        a.apply(more); b.apply(more)
        #expect(a == b)
    }
}
