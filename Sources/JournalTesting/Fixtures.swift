import JournalFile
import JournalEvents
import JournalSimulator
import JournalStore

/// Deterministic events and small journals for reliability tests. Everything here is built
/// from literal values: the same call always gives the same bytes.
public enum Fixtures {
    /// The first event's time in every fixture.
    public static let start = ScriptedWorkout.start

    /// One workout as drafts: `ScriptedWorkout.drafts`.
    public static func workoutDrafts(_ workout: String, sets: Int, at: Timestamp = start, finished: Bool = true,
                                     exercise: String = "barbell-bench-press") -> [JSONValue] {
        ScriptedWorkout.drafts(workout, sets: sets, at: at, finished: finished, exercise: exercise)
    }

    /// The JSON lines of `drafts`, as `journal record` reads them.
    public static func lines(_ drafts: [JSONValue]) -> [String] { drafts.map { JSONWriter.string($0) } }

    /// Options that keep each workout in its own sealed frame, so small journals have many frames
    /// to damage. Every seal writes its own frame now (sealed frames are immutable), so these are
    /// the defaults; the name stays for the tests that say what they rely on.
    public static var manyFrames: EventJournal.Options { EventJournal.Options() }

    /// A small journal: `workouts` finished workouts (each sealed into its own frame) followed by
    /// one open workout whose `openSets + 1` events stay as one-event frames. Returns its events.
    /// Its seals are at level 19, as every journal's before the levels of FORMAT.md §6 "Compression levels": a journal
    /// of that kind, whose bytes (offsets, sizes, checksums) the reliability tests and RELIABILITY.md cite.
    @discardableResult
    public static func smallJournal(at path: String, storage: any Storage, device: String = "ph", workouts: Int = 3,
                                    setsPerWorkout: Int = 3, openSets: Int = 2) throws -> [Event] {
        let clock = ManualClock(start)
        var options = manyFrames
        options.store.sealLevel = 19
        let journal = try EventJournal(path: path, storage: storage, device: device, options: options, clock: clock.now)
        defer { journal.close() }
        var events: [Event] = []
        var time = start
        for index in 0..<workouts {
            events += try journal.record(batch: workoutDrafts("w\(index + 1)", sets: setsPerWorkout, at: time))
            time = time.adding(milliseconds: 86_400_000)
        }
        if openSets > 0 {
            for draft in workoutDrafts("w\(workouts + 1)", sets: openSets, at: time, finished: false) {
                events.append(try journal.record(draft))
            }
        }
        return events
    }
}

extension Fixtures {
    /// A simulated lifter's journal (`journal simulate` with the same seed, weeks and profile), recorded
    /// with `options` (by default one sealed frame per workout). Returns its events.
    @discardableResult
    public static func simulatedJournal(at path: String, storage: any Storage, weeks: Int, profile: String = "ppl",
                                        seed: UInt64 = 1, device: String = "ph", options: EventJournal.Options = manyFrames) throws -> [Event] {
        let simulator = Simulator(seed: seed, weeks: weeks, profile: SimulationProfile.named(profile)!, start: LocalDate(iso: "2025-01-06")!)
        let clock = ManualClock(Timestamp(epochMilliseconds: 0, offsetSeconds: 0))
        let journal = try EventJournal(path: path, storage: storage, device: device, options: options, clock: clock.now)
        defer { journal.close() }
        var events: [Event] = []
        for batch in simulator.batches() {
            if let last = batch.last?.objectValue?["at"]?.stringValue, let time = Timestamp(rfc3339: last) { clock.time = time }
            events += try journal.record(batch: batch)
        }
        journal.seal()
        return events
    }

    /// The batches a simulated lifter records, as drafts.
    public static func simulatedBatches(weeks: Int, profile: String = "ppl", seed: UInt64 = 1) -> [[JSONValue]] {
        Simulator(seed: seed, weeks: weeks, profile: SimulationProfile.named(profile)!, start: LocalDate(iso: "2025-01-06")!).batches()
    }
}

/// A clock tests move by hand.
public final class ManualClock: Sendable {
    private let current: Locked<Timestamp>
    public init(_ time: Timestamp = Fixtures.start) { current = Locked(time) }
    public var time: Timestamp {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
    public func now() -> Timestamp { time }
    public func advance(milliseconds: Int64) { current.withLock { $0 = $0.adding(milliseconds: milliseconds) } }
}

extension Fixtures {
    /// Two copies of one user's journal that went apart: a shared prefix recorded on the phone
    /// ("ph"), then each device recording its own workouts while offline, at random times from
    /// `seed`, including a conflicting edit of the same set of a shared workout on both.
    /// Written to `a` and `b` in `storage`; returns their events.
    public static func divergedJournals(seed: UInt64, storage: MemoryStorage, a: String = "a", b: String = "b") throws -> (a: [Event], b: [Event]) {
        var random = TestRandom(seed: seed)
        let clock = ManualClock(start)
        let shared = random.int(0...3)
        let phone = try EventJournal(path: a, storage: storage, device: "ph", options: manyFrames, clock: clock.now)
        try phone.record(.object(["type": "account.created", "at": .string(start.adding(milliseconds: -3_600_000).rfc3339),
                                  "email": "sam@example.com", "name": "Sam"]))
        var day = 0
        for index in 0..<shared {
            try phone.record(batch: workoutDrafts("s\(index)", sets: random.int(1...4), at: start.adding(milliseconds: Int64(day) * 86_400_000)))
            day += 1
        }
        phone.close()
        storage.setContents(of: b, to: storage.contents(of: a)!)
        let base = start.adding(milliseconds: Int64(day) * 86_400_000)
        for (path, device) in [(a, "ph"), (b, "wa")] {
            let journal = try EventJournal(path: path, storage: storage, device: device, options: manyFrames, clock: clock.now)
            defer { journal.close() }
            for index in 0..<random.int(0...4) {
                // Random start times within four days: the devices' workouts interleave.
                let at = base.adding(milliseconds: Int64(random.int(0...(4 * 86_400))) * 1000)
                let drafts = workoutDrafts("\(device)\(index)", sets: random.int(1...4), at: at, finished: random.chance(0.8))
                for draft in drafts { try journal.record(draft) }
            }
            if shared > 0 {
                // Both devices correct set 1 of the first shared workout, with different weights.
                let at = base.adding(milliseconds: Int64(random.int(0...(5 * 86_400))) * 1000)
                try journal.record(.object(["type": "set.edited", "at": .string(at.rfc3339), "workout": "s0",
                                            "exercise": "barbell-bench-press", "set": 1, "weight": .number(Double(random.int(40...100))), "unit": "kg"]))
            }
        }
        return (try EventReader.events(path: a, storage: storage), try EventReader.events(path: b, storage: storage))
    }
}
