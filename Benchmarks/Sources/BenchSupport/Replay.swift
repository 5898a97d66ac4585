import JournalFile
import Foundation
import JournalEvents
import JournalModel
import JournalProjections
import JournalStore
import WorkoutJournal

/// Our side: the journal read the way `journal replay` reads it.
public enum OurReplay {
    /// Decompress, decode, count: the summary's own part of `journal replay`'s work (its workouts, sets and volume
    /// are the ledger's, `replayWithProjections`).
    public static func replay(_ path: String) throws -> ReplaySummary {
        var summary = ReplaySummary()
        try EventReader.forEach(path: path) { summary.apply($0) }
        return summary
    }

    /// An as-of time after every event.
    public static let farFuture = Timestamp(epochMilliseconds: Int64.max / 2, offsetSeconds: 0)

    /// What `journal replay` folds: the summary and the projections' ledger (every screen's state).
    public static func replayWithProjections(_ path: String) throws -> (ReplaySummary, Int) {
        var summary = ReplaySummary()
        var ledger = Ledger(asOf: farFuture)
        try EventReader.forEach(path: path) { event in
            summary.apply(event)
            ledger.apply(event)
        }
        return (summary.describing(ledger), ledger.workouts.count)
    }

    /// The exercise with the most working sets in the journal (the history benchmark's subject).
    public static func busiestExercise(_ path: String) throws -> String {
        var counts: [String: Int] = [:]
        try EventReader.forEach(path: path) { event in
            if event.knownType == .setCompleted, let exercise = event.string(.exercise) { counts[exercise, default: 0] += 1 }
        }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? "barbell-bench-press"
    }

    /// The floor inside the process: read and decompress every frame, split lines, decode nothing.
    public static func decompressOnly(_ path: String) throws -> Int {
        var lines = 0
        try JournalReader.read(path: path, storage: PosixStorage()) { _, _ in lines += 1 }
        return lines
    }

    /// Decode already-decompressed lines (the decoder alone).
    public static func decode(_ lines: [[UInt8]]) throws -> Int {
        let decoder = EventCodec.StreamDecoder()
        var seqs = 0
        for line in lines { seqs &+= try decoder.decode(line).seq }
        return seqs
    }

    /// The home page question by replaying everything (no snapshot).
    public static func home(_ path: String) throws -> HomeAnswer {
        var fold = HomeFold()
        try EventReader.forEach(path: path) { fold.apply($0) }
        return fold.answer
    }

    /// The home page from the whole ledger, as `journal home --no-snapshot` computes it: `JournalRead` (a full
    /// replay), then `Analysis` with the CLI's context and `HomeState`.
    public static func homePage(_ path: String, now: Timestamp) throws -> (home: HomeState, answer: HomeAnswer) {
        let read = try JournalRead.read(path: path, asOf: nil, untilSeq: nil, now: now)
        let analysis = Analysis(read.ledger, context: .trainingDomain)
        return (HomeState(analysis), HomeAnswer(read.ledger))
    }

    /// The home page as `journal home` computes it now: `HomePage.read`, from `<journal>.home-snapshot` plus the
    /// events after it (the whole ledger only when that cannot answer).
    public static func homePageFromHomeSnapshot(_ path: String, now: Timestamp) throws -> (home: HomeState, outcome: SnapshotReplay.Outcome) {
        let page = try HomePage.read(path: path, asOf: nil, now: now, context: .trainingDomain)
        return (page.home, page.outcome)
    }

    /// Parts of the home-snapshot path: reading and decoding `<journal>.home-snapshot` alone (checksum included).
    public static func decodeHomeSnapshot(_ path: String) throws -> HomeFold {
        let bytes = try PosixStorage().openForReading(HomePage.snapshotPath(for: path)).readAll()
        return try ProjectionSnapshot<HomeSnapshotState>.decode(bytes, stateVersion: HomeSnapshotState.stateVersion).get().state.home
    }

    /// … and the page from a decoded home state (records of the workouts after it, streaks, the week, the cards).
    public static func homeFromHomeState(_ state: HomeFold, asOf: Timestamp) -> HomeState? {
        state.homeView(asOf: asOf, context: .trainingDomain)
    }

    /// … and `Analysis` + `HomeState` over an already folded ledger.
    public static func homeFromLedger(_ ledger: Ledger) -> HomeState {
        HomeState(Analysis(ledger, context: .trainingDomain))
    }

    /// An exercise's history by replaying everything (no snapshot).
    public static func history(_ path: String, exercise: String) throws -> [HistoryRow] {
        var fold = HistoryFold(exercise: exercise)
        try EventReader.forEach(path: path) { fold.apply($0) }
        return fold.rows
    }
}

/// The home-page-ish question both stores answer: how many workouts are finished, and the last
/// one's working sets and volume (in the unit they were logged in).
public struct HomeAnswer: Codable, Equatable, Sendable, CustomStringConvertible {
    public var finished = 0
    public var lastWorkout: String?
    public var lastFinishedAt: String?
    public var lastSets = 0
    public var lastVolume = 0.0
    public var description: String {
        "\(finished) workouts; last \(lastWorkout ?? "—") at \(lastFinishedAt ?? "—"): \(lastSets) sets, volume \(lastVolume)"
    }
}

extension HomeAnswer {
    /// The same question answered from the projections' ledger: finished workouts (journal order of finishing), the
    /// last one finished, its working sets and volume in the logged units.
    public init(_ ledger: Ledger) {
        self.init()
        let finished = ledger.workouts.filter(\.isFinished)
        self.finished = finished.count
        guard let last = finished.max(by: { ($0.finishedAt?.epochMilliseconds ?? 0, $0.seq) < ($1.finishedAt?.epochMilliseconds ?? 0, $1.seq) }) else { return }
        lastWorkout = last.id
        lastFinishedAt = last.finishedAt?.rfc3339
        let working = last.sets.filter(\.isWorking)
        lastSets = working.count
        lastVolume = working.reduce(0.0) { $0 + $1.weight * Double($1.reps) }
    }
}

/// One workout in an exercise's history: its working sets, top weight and volume.
public struct HistoryRow: Equatable, Sendable {
    public var workout: String
    public var sets: Int
    public var topWeight: Double
    public var volume: Double
}

/// The home page fold; Codable so that a projection snapshot can hold it.
public struct HomeFold: Codable, Sendable {
    public struct Open: Codable, Sendable { var sets = 0; var volume = 0.0 }
    public var answer = HomeAnswer()
    var open: [String: Open] = [:]

    public init() {}

    public static func fold(_ state: inout HomeFold, _ event: Event) { state.apply(event) }

    public mutating func apply(_ event: Event) {
        switch event.type {
        case "workout.started":
            if let workout = event.string("workout") { open[workout] = Open() }
        case "set.completed":
            guard event.string("kind") == "working", let workout = event.string("workout"), let current = open[workout],
                  let weight = event.double("weight"), let reps = event.int("reps") else { return }
            open[workout] = Open(sets: current.sets + 1, volume: current.volume + weight * Double(reps))
        case "workout.finished":
            guard let workout = event.string("workout") else { return }
            answer.finished += 1
            let sets = open.removeValue(forKey: workout) ?? Open()
            answer.lastWorkout = workout
            answer.lastFinishedAt = event.at.rfc3339
            answer.lastSets = sets.sets
            answer.lastVolume = sets.volume
        default:
            break
        }
    }
}

struct HistoryFold {
    let exercise: String
    var rows: [HistoryRow] = []
    var index: [String: Int] = [:]

    init(exercise: String) { self.exercise = exercise }

    mutating func apply(_ event: Event) {
        guard event.type == "set.completed", event.string("exercise") == exercise, event.string("kind") == "working",
              let workout = event.string("workout"), let weight = event.double("weight"), let reps = event.int("reps") else { return }
        if let at = index[workout] {
            rows[at].sets += 1
            rows[at].topWeight = max(rows[at].topWeight, weight)
            rows[at].volume += weight * Double(reps)
        } else {
            index[workout] = rows.count
            rows.append(HistoryRow(workout: workout, sets: 1, topWeight: weight, volume: weight * Double(reps)))
        }
    }
}
