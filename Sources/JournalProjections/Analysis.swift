import JournalEvents
import JournalModel
import TrainingDomain

/// What every view derives from a ledger first: the finished workouts in chronological order, each
/// exercise's sessions and the personal records (PROJECTIONS.md §"Finished workouts", §"Records").
public struct Analysis: Sendable {
    public let ledger: Ledger
    public let context: ProjectionContext
    /// Finished workouts ordered by start time, then journal position.
    public let finished: [WorkoutRecord]
    /// Every record achieved, in the order of `finished`.
    public let records: [PersonalRecord]
    /// For each exercise, the indices into `finished` of the workouts with at least one working set of it.
    public let sessionIndices: [String: [Int]]
    /// `finished[i].performed`: each finished workout's exercises with their sets, grouped once for every view.
    public let performed: [[PerformedExercise]]

    public init(_ ledger: Ledger, context: ProjectionContext = .standard) {
        self.ledger = ledger
        self.context = context
        let finished = ledger.finishedWorkouts
        self.finished = finished
        let performed = finished.map(\.performed)
        self.performed = performed
        var indices: [String: [Int]] = [:]
        for (index, exercises) in performed.enumerated() {
            for exercise in exercises where !exercise.workingSets.isEmpty {
                indices[exercise.exercise, default: []].append(index)
            }
        }
        sessionIndices = indices
        var finder = RecordFinder()
        var records = finished.indices.flatMap { finder.records(of: finished[$0], performed: performed[$0], ranking: ledger.ranking) }
        for index in records.indices { records[index].name = ledger.exerciseName(records[index].exercise, context: context) }
        self.records = records
    }

    /// The sessions of `exercise` the progression rules read (`WorkoutRecord.session(of:)`), oldest first.
    public func sessions(of exercise: String) -> [ProgressionInput.Session] {
        (sessionIndices[exercise] ?? []).compactMap { finished[$0].session(of: exercise) }.map(ProgressionInput.Session.init)
    }

    public var unit: WeightUnit { ledger.displayUnit }
    public var asOf: Timestamp { ledger.asOf }

    public func exerciseName(_ id: String) -> String { ledger.exerciseName(id, context: context) }
    public func muscles(_ id: String) -> [String] {
        if let custom = ledger.customExercises[id], !custom.primaryMuscles.isEmpty { return custom.primaryMuscles }
        return context.muscles(id)
    }
    public func workedMuscles(_ id: String) -> [String] {
        if let custom = ledger.customExercises[id], !custom.primaryMuscles.isEmpty { return custom.primaryMuscles }
        return context.workedMuscles(id)
    }
    /// The equipment an exercise needs: a custom exercise's own (`exercise.created`), else the context's.
    public func equipment(_ id: String) -> [String] {
        if let custom = ledger.customExercises[id], !custom.equipment.isEmpty { return custom.equipment }
        return context.equipment(id)
    }
    public func isCompound(_ id: String) -> Bool {
        if let mechanic = ledger.customExercises[id]?.mechanic { return mechanic == "compound" }
        return context.isCompound(id)
    }

    /// An exercise id for what the user typed: an id seen in the journal, a custom or catalogue name
    /// (case-insensitive), or the context's matcher; nil when nothing matches.
    public func resolveExercise(_ text: String) -> String? {
        if sessionIndices[text] != nil || ledger.customExercises[text] != nil { return text }
        let lowered = text.lowercased()
        var seen: [String] = Array(sessionIndices.keys).sorted()
        seen += ledger.customExercises.keys.sorted()
        for id in seen where exerciseName(id).lowercased() == lowered || id == lowered { return id }
        if let id = context.exerciseID(text) { return id }
        return EventVocabulary.isSlug(text) ? text : nil
    }

    /// What the progression rule sees for `exercise`: its finished sessions (working sets, each workout's
    /// prescription), its `progression.configured` settings and the lifter's unit.
    public func progressionInput(_ exercise: String, prescription: Prescription? = nil) -> ProgressionInput {
        let history = (sessionIndices[exercise] ?? []).map { index -> ProgressionInput.Session in
            let past = finished[index]
            let prescribed = past.prescription(of: exercise)
            return ProgressionInput.Session(
                workout: past.id, at: past.startedAt,
                sets: (performance(of: exercise, inFinished: index)?.workingSets ?? []).map { ProgressionInput.Set(kilograms: $0.kilograms, reps: $0.reps, unit: $0.unit) },
                targetReps: prescribed?.repRange?.upper, targetSets: prescribed.map(\.setCount).flatMap { $0 > 0 ? $0 : nil })
        }
        return ProgressionInput(
            exercise: exercise, sessions: history, repRange: prescription?.repRange,
            prescribedKilograms: prescription?.weight.map { unit.kilograms(Units.loadable($0, from: prescription?.unit ?? .kg, to: unit)) },
            settings: ledger.progression[exercise],
            unit: unit, assisted: ledger.isAssisted(exercise))
    }

    // MARK: Comparisons

    /// The latest finished workout before `finished[index]` with the same name.
    public func previousSameName(_ index: Int) -> Int? {
        let name = finished[index].name
        var i = index - 1
        while i >= 0 { if finished[i].name == name { return i }; i -= 1 }
        return nil
    }

    public func index(of workout: String) -> Int? { finished.firstIndex { $0.id == workout } }

    /// `exercise` as `finished[index]` performed it; nil when that workout has no set or cardio entry of it.
    public func performance(of exercise: String, inFinished index: Int) -> PerformedExercise? {
        performed[index].first { $0.exercise == exercise }
    }

    /// Reps and volume deltas of one exercise between two workouts, and the per-set "+N".
    /// The i-th working set of `now` is compared with the i-th working set of `then`; warm-ups are skipped on both
    /// sides. One walk over each side, with nothing copied (this runs for every exercise of every finished workout).
    /// Volume is `ranking`'s: on an assisted exercise less help is more (DOMAIN.md §"Assisted exercises").
    public static func compare(_ now: [LoggedSet], _ then: [LoggedSet], ranking: SetRanking = SetRanking(assisted: false)) -> ExerciseComparison {
        var nowReps = 0, nowVolume = 0.0, thenReps = 0, thenVolume = 0.0
        var plus: [Int: Int] = [:]
        // Sets are read in place through buffers, never copied: a copy of a `LoggedSet` retains its strings.
        now.withUnsafeBufferPointer { now in
            then.withUnsafeBufferPointer { then in
                var cursor = then.startIndex
                for index in now.indices where now[index].isWorking {
                    nowReps += now[index].reps; nowVolume += ranking.volume(now[index])
                    while cursor < then.endIndex, !then[cursor].isWorking { cursor += 1 }
                    guard cursor < then.endIndex else { continue }
                    let n = now[index].reps - then[cursor].reps
                    if n > 0 { plus[now[index].set] = n }
                    cursor += 1
                }
                for index in then.indices where then[index].isWorking { thenReps += then[index].reps; thenVolume += ranking.volume(then[index]) }
            }
        }
        return ExerciseComparison(repsDelta: nowReps - thenReps, volumeDeltaKilograms: Rounding.kilograms(nowVolume - thenVolume), plus: plus)
    }

}

/// The records of finished workouts taken in order (PROJECTIONS.md §"Records"): the bests so far per exercise, so
/// the records of one more workout that sorts after all the others cost that workout alone (the home page's
/// snapshot keeps one, `HomeFold`).
public struct RecordFinder: Equatable, Sendable, Codable {
    struct Bests: Equatable, Sendable, Codable {
        var weight = 0.0, e1rm = 0.0, setVolume = 0.0, sessionVolume = 0.0, repsAtWeight: [Int64: Int] = [:]

        enum CodingKeys: CodingKey { case weight, e1rm, setVolume, sessionVolume, repsAtWeight }

        init(weight: Double, e1rm: Double, setVolume: Double, sessionVolume: Double, repsAtWeight: [Int64: Int]) {
            self.weight = weight; self.e1rm = e1rm; self.setVolume = setVolume; self.sessionVolume = sessionVolume
            self.repsAtWeight = repsAtWeight
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            weight = try c.decode(Double.self, forKey: .weight)
            e1rm = try c.decode(Double.self, forKey: .e1rm)
            setVolume = try c.decode(Double.self, forKey: .setVolume)
            sessionVolume = try c.decode(Double.self, forKey: .sessionVolume)
            let pairs = try c.decode([Int64].self, forKey: .repsAtWeight)
            guard pairs.count % 2 == 0 else {
                throw DecodingError.dataCorruptedError(forKey: .repsAtWeight, in: c, debugDescription: "an odd count (\(pairs.count)) of grams and reps")
            }
            repsAtWeight = Dictionary(stride(from: 0, to: pairs.count, by: 2).map { (pairs[$0], Int(pairs[$0 + 1])) }, uniquingKeysWith: { _, last in last })
        }

        /// Reps at weight as [grams, reps, grams, reps, …] by grams, so the same bests always encode to the same bytes.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(weight, forKey: .weight)
            try c.encode(e1rm, forKey: .e1rm)
            try c.encode(setVolume, forKey: .setVolume)
            try c.encode(sessionVolume, forKey: .sessionVolume)
            try c.encode(repsAtWeight.sorted { $0.key < $1.key }.flatMap { [$0.key, Int64($0.value)] }, forKey: .repsAtWeight)
        }
    }
    var bests: [String: Bests] = [:]

    public init() {}

    /// The records `workout` sets against every workout passed before it (unnamed), in the order the views list them;
    /// `ranking` says how each exercise's sets compare (`Ledger.ranking(of:)`).
    public mutating func records(of workout: WorkoutRecord, ranking: (String) -> SetRanking) -> [PersonalRecord] {
        records(of: workout, performed: workout.performed, ranking: ranking)
    }

    /// The same, with `workout.performed` already at hand (`Analysis.performed`).
    mutating func records(of workout: WorkoutRecord, performed: [PerformedExercise], ranking: (String) -> SetRanking) -> [PersonalRecord] {
        var records: [PersonalRecord] = []
        let date = LocalDate(day: workout.day)
        for performance in performed {
            let exercise = performance.exercise, sets = performance.workingSets
            guard !sets.isEmpty else { continue }
            let rank = ranking(exercise)
            var heaviest = sets[0], bestE1RM = sets[0], bestVolume = sets[0]
            var sessionVolume = 0.0
            // The most reps at each weight (in grams) of this session: a few weights, searched in a list, not hashed.
            var repsAtWeight: [(grams: Int64, reps: Int, kilograms: Double)] = []
            for set in sets {
                let kg = set.kilograms
                if rank.load(set) > rank.load(heaviest) { heaviest = set }
                if rank.e1rm(set) > rank.e1rm(bestE1RM) { bestE1RM = set }
                if set.volumeKilograms > bestVolume.volumeKilograms { bestVolume = set }
                sessionVolume += set.volumeKilograms
                let key = Rounding.grams(kg)
                if let at = repsAtWeight.firstIndex(where: { $0.grams == key }) {
                    if set.reps > repsAtWeight[at].reps { repsAtWeight[at] = (key, set.reps, kg) }
                } else if set.reps > -1 {
                    repsAtWeight.append((key, set.reps, kg))
                }
            }
            // The bests keep the load (minus the help on an assisted exercise); the record says the weight.
            let load = rank.load(heaviest), e1rm = rank.e1rm(bestE1RM)
            guard let slot = bests.index(forKey: exercise) else {
                // The first session only sets the baseline.
                bests[exercise] = Bests(weight: load, e1rm: e1rm, setVolume: bestVolume.volumeKilograms, sessionVolume: sessionVolume,
                                        repsAtWeight: Dictionary(uniqueKeysWithValues: repsAtWeight.map { ($0.grams, $0.reps) }))
                continue
            }
            // Taken out of its slot while it changes, so its reps-at-weight table has one owner and is not copied.
            var best = bests.values[slot]
            bests.values[slot].repsAtWeight = [:]
            func record(_ kind: PersonalRecord.Kind, _ value: Double, _ previous: Double, _ set: LoggedSet?) {
                records.append(PersonalRecord(kind: kind, exercise: exercise, workout: workout.id, date: date,
                                              value: Rounding.kilograms(value), previous: Rounding.kilograms(previous),
                                              weightKilograms: set.map { Rounding.kilograms($0.kilograms) }, reps: set?.reps, assisted: rank.assisted))
            }
            // A record must beat the best by at least a gram: floating-point noise is no record.
            func beats(_ value: Double, _ best: Double) -> Bool { Rounding.kilograms(value) > Rounding.kilograms(best) }
            if beats(load, best.weight) { record(rank.loadRecord, abs(load), abs(best.weight), heaviest); best.weight = load }
            if beats(e1rm, best.e1rm) { record(.bestE1RM, e1rm, best.e1rm, bestE1RM); best.e1rm = e1rm }
            if rank.volumeCounts, beats(bestVolume.volumeKilograms, best.setVolume) {
                record(.bestSetVolume, bestVolume.volumeKilograms, best.setVolume, bestVolume); best.setVolume = bestVolume.volumeKilograms
            }
            if rank.volumeCounts, beats(sessionVolume, best.sessionVolume) {
                record(.bestSessionVolume, sessionVolume, best.sessionVolume, nil); best.sessionVolume = sessionVolume
            }
            repsAtWeight.sort { $0.grams < $1.grams }
            for (key, reps, kg) in repsAtWeight {
                if let previous = best.repsAtWeight[key] {
                    if reps > previous {
                        records.append(PersonalRecord(kind: .repsAtWeight, exercise: exercise, workout: workout.id, date: date,
                                                      value: Double(reps), previous: Double(previous),
                                                      weightKilograms: Rounding.kilograms(kg), reps: reps, assisted: rank.assisted))
                        best.repsAtWeight[key] = reps
                    }
                } else {
                    best.repsAtWeight[key] = reps
                }
            }
            bests.values[slot] = best
        }
        return records
    }
}

public struct ExerciseComparison: Equatable, Sendable {
    public var repsDelta: Int
    public var volumeDeltaKilograms: Double
    /// "+N" by set number, only where N > 0.
    public var plus: [Int: Int]
    public init(repsDelta: Int, volumeDeltaKilograms: Double, plus: [Int: Int]) {
        self.repsDelta = repsDelta; self.volumeDeltaKilograms = volumeDeltaKilograms; self.plus = plus
    }
    /// A rosette when either delta is positive.
    public var rosette: Bool { repsDelta > 0 || volumeDeltaKilograms > 0 }
}

/// A personal record achieved in a finished workout (never in an exercise's first session).
public struct PersonalRecord: Equatable, Hashable, Sendable, Codable {
    public enum Kind: String, Equatable, Hashable, Sendable, CaseIterable, Codable {
        case heaviestWeight = "heaviest_weight"
        case bestE1RM = "best_e1rm"
        case bestSetVolume = "best_set_volume"
        case bestSessionVolume = "best_session_volume"
        case repsAtWeight = "reps_at_weight"
        /// On an assisted exercise (`SetRanking`): the least help yet, in kilograms.
        case leastAssistance = "least_assistance"

        public var label: String {
            switch self {
            case .heaviestWeight: return "Heaviest weight"
            case .bestE1RM: return "Best e1RM"
            case .bestSetVolume: return "Best set volume"
            case .bestSessionVolume: return "Best session volume"
            case .repsAtWeight: return "Most reps at weight"
            case .leastAssistance: return "Least assistance"
            }
        }
    }
    public var kind: Kind
    public var exercise: String
    /// The exercise's display name.
    public var name: String
    public var workout: String
    public var date: LocalDate
    /// Kilograms for the weight, assistance and volume kinds, reps for `reps_at_weight`.
    public var value: Double
    public var previous: Double
    /// The set behind it (nil for session volume).
    public var weightKilograms: Double?
    public var reps: Int?
    /// On an assisted exercise (`SetRanking`): `weightKilograms` is help, and so is a `least_assistance` value.
    public var assisted: Bool

    public init(kind: Kind, exercise: String, name: String = "", workout: String, date: LocalDate, value: Double, previous: Double,
                weightKilograms: Double? = nil, reps: Int? = nil, assisted: Bool = false) {
        self.kind = kind; self.exercise = exercise; self.name = name; self.workout = workout; self.date = date; self.value = value
        self.previous = previous; self.weightKilograms = weightKilograms; self.reps = reps; self.assisted = assisted
    }
}
