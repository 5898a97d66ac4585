import JournalEvents
import JournalModel
import TrainingDomain

/// The workout in progress (seed 000 §14, seed 001 §6–7, seed 004 logger).
public struct ActiveWorkoutState: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        /// Where a row's values come from.
        public enum Source: String, Equatable, Sendable {
            case completed, entered, propagated, template, lastSession = "last_session", programme, none
            /// The exercise's next target (`next_target`): a planned working row weighs it.
            case target
            /// "Add set": a row past the plan copies the last set completed in this workout.
            case previousSet = "previous_set"
        }
        public var set: Int
        public var weight: Double?
        public var unit: WeightUnit
        public var reps: Int?
        public var kind: SetKind
        public var completed: Bool
        public var source: Source
        /// "+N" over the same set of the previous workout of the same name, 0 when not more.
        public var plus: Int
        /// The plates to load on each side of the exercise's bar for `weight` (seed 002's inline plate calculator);
        /// nil for an exercise not loaded on a bar, or a weight below the bar.
        public var plates: PlateLoading?
        /// The RPE the prescription asks of this set (seed 002's routine target RPE).
        public var targetRPE: Double?
        public init(set: Int, weight: Double?, unit: WeightUnit, reps: Int?, kind: SetKind = .working, completed: Bool, source: Source, plus: Int = 0,
                    plates: PlateLoading? = nil, targetRPE: Double? = nil) {
            self.set = set; self.weight = weight; self.unit = unit; self.reps = reps; self.kind = kind; self.completed = completed
            self.source = source; self.plus = plus; self.plates = plates; self.targetRPE = targetRPE
        }
    }
    public struct InjuryWarning: Equatable, Sendable {
        public var muscle: String
        public var injury: String
        public var message: String
        /// `continue`, `go_back` or `swap` once answered.
        public var answer: String?
        public init(muscle: String, injury: String, message: String, answer: String? = nil) {
            self.muscle = muscle; self.injury = injury; self.message = message; self.answer = answer
        }
    }
    public struct Exercise: Equatable, Sendable {
        public var exercise: String
        public var name: String
        public var prescribedSets: Int
        public var reps: String?
        public var restSeconds: Int
        public var rows: [Row]
        public var completedSets: Int
        /// Submitted, or every row ticked with at least the prescribed number of sets.
        public var completed: Bool
        public var submitted: Bool
        /// Completed working reps so far minus the same sets last time (shown as "+N" when > 0).
        public var repCounter: Int
        public var warmup: WarmupSuggestionState?
        public var nextTarget: DisplayWeight?
        /// "Great Work!", "Good Session" or "Keep Pushing", once submitted.
        public var feedback: String?
        public var injuryWarnings: [InjuryWarning]
        public var superset: String?
        public var cardio: CardioEntry?
        /// The latest finished workout's cardio entry for this exercise: the prefill of the minutes and km fields.
        public var lastCardio: CardioEntry?
        /// What the minutes and km fields show before the entry is logged (seed 004): the template's or plan's
        /// cardio preset, each value falling back to `lastCardio`'s; nil for a strength exercise with neither.
        public var cardioPrefill: CardioEntry?
        /// Notes on the exercise and its sets (`exercise.noted`, `set.noted`), in order.
        public var notes: [String]
        /// The cable attachment it is done with; nil for none.
        public var attachment: Attachment?
        /// An assisted exercise (`SetRanking`): its rows' weights and its target are help (DOMAIN.md §"Assisted exercises").
        public var assisted = false
        public init(exercise: String, name: String, prescribedSets: Int, reps: String?, restSeconds: Int, rows: [Row], completedSets: Int,
                    completed: Bool, submitted: Bool, repCounter: Int, warmup: WarmupSuggestionState?, nextTarget: DisplayWeight?,
                    feedback: String?, injuryWarnings: [InjuryWarning], superset: String? = nil, cardio: CardioEntry? = nil, lastCardio: CardioEntry? = nil,
                    cardioPrefill: CardioEntry? = nil, notes: [String] = [], attachment: Attachment? = nil, assisted: Bool = false) {
            self.assisted = assisted
            self.exercise = exercise; self.name = name; self.prescribedSets = prescribedSets; self.reps = reps; self.restSeconds = restSeconds
            self.rows = rows; self.completedSets = completedSets; self.completed = completed; self.submitted = submitted
            self.repCounter = repCounter; self.warmup = warmup; self.nextTarget = nextTarget; self.feedback = feedback
            self.injuryWarnings = injuryWarnings; self.superset = superset; self.cardio = cardio; self.lastCardio = lastCardio
            self.cardioPrefill = cardioPrefill; self.notes = notes; self.attachment = attachment
        }
    }
    /// The cable attachment an exercise is done with (seed 002's inventory lists the lifter's).
    public struct Attachment: Equatable, Sendable {
        /// The attachment's id (`rope`, `straight-bar`, `v-bar`, `single-handle`, `lat-bar`, `ankle-strap`).
        public var name: String
        /// Whether the lifter's inventory lists it; nil when it lists no attachments.
        public var owned: Bool?
        public init(name: String, owned: Bool?) { self.name = name; self.owned = owned }
    }
    public struct WarmupSuggestionState: Equatable, Sendable {
        public var weight: Double
        public var unit: WeightUnit
        public var reps: Int
        public var percent: String
        /// The plates per side for `weight` on the exercise's own bar, as its rows show them; nil when not on a bar.
        public var plates: PlateLoading?
        public init(weight: Double, unit: WeightUnit, reps: Int, percent: String, plates: PlateLoading? = nil) {
            self.weight = weight; self.unit = unit; self.reps = reps; self.percent = percent; self.plates = plates
        }
    }
    public struct Rest: Equatable, Sendable {
        public enum State: String, Equatable, Sendable { case running, finished, skipped }
        public var exercise: String
        public var state: State
        public var seconds: Int
        public var remainingSeconds: Int
        public var endsAt: Timestamp
        public init(exercise: String, state: State, seconds: Int, remainingSeconds: Int, endsAt: Timestamp) {
            self.exercise = exercise; self.state = state; self.seconds = seconds; self.remainingSeconds = remainingSeconds; self.endsAt = endsAt
        }

        /// The timer as of `asOf`: running with the whole seconds left (rounded up) until `endsAt`, finished when
        /// none are left or `rest.finished` was recorded, skipped with the seconds left when it was skipped.
        public init(_ timer: RestTimer, asOf: Timestamp) {
            let seconds = timer.seconds + timer.adjustmentSeconds
            switch timer.ending {
            case nil:
                let remaining = Rest.remainingSeconds(until: timer.endsAt, asOf: asOf)
                self.init(exercise: timer.exercise, state: remaining > 0 ? .running : .finished, seconds: seconds, remainingSeconds: remaining,
                          endsAt: timer.endsAt)
            case .skipped(let left)?:
                self.init(exercise: timer.exercise, state: .skipped, seconds: seconds, remainingSeconds: left, endsAt: timer.endsAt)
            case .finished?:
                self.init(exercise: timer.exercise, state: .finished, seconds: seconds, remainingSeconds: 0, endsAt: timer.endsAt)
            }
        }

        /// The whole seconds from `asOf` to `endsAt`, rounded up (0 once it is reached): 90 at the start of a 90 s
        /// rest, 89 from one millisecond later.
        public static func remainingSeconds(until endsAt: Timestamp, asOf: Timestamp) -> Int {
            Int(max(0, (endsAt.epochMilliseconds - asOf.epochMilliseconds + 999) / 1000))
        }

        /// When the running countdown shows its next value (one second less) after `asOf`; nil once it shows 0.
        public static func nextTick(until endsAt: Timestamp, asOf: Timestamp) -> Timestamp? {
            let remaining = remainingSeconds(until: endsAt, asOf: asOf)
            return remaining > 0 ? endsAt.adding(milliseconds: -Int64(remaining - 1) * 1000) : nil
        }
    }
    public struct Warmup: Equatable, Sendable {
        public enum State: String, Equatable, Sendable { case pending, running, completed, skipped }
        public var state: State
        public var remainingSeconds: Int?
        public init(state: State, remainingSeconds: Int? = nil) { self.state = state; self.remainingSeconds = remainingSeconds }
    }

    public var workout: String
    public var name: String
    public var startedAt: Timestamp
    public var elapsedSeconds: Int
    public var exercises: [Exercise]
    public var rest: Rest?
    public var warmup: Warmup
    public var sets: Int
    public var reps: Int
    public var volumeKilograms: Double
    /// At least one completed set or cardio entry.
    public var canFinish: Bool
    /// The previous workout of the same name, compared against.
    public var previousWorkout: String?
    /// The session timer is paused (`workout.paused`, seed 003): `elapsed_s` stands still and leaves paused time out.
    public var paused = false

    public init(workout: String, name: String, startedAt: Timestamp, elapsedSeconds: Int, exercises: [Exercise], rest: Rest?, warmup: Warmup,
                sets: Int, reps: Int, volumeKilograms: Double, canFinish: Bool, previousWorkout: String?) {
        self.workout = workout; self.name = name; self.startedAt = startedAt; self.elapsedSeconds = elapsedSeconds; self.exercises = exercises
        self.rest = rest; self.warmup = warmup; self.sets = sets; self.reps = reps; self.volumeKilograms = volumeKilograms
        self.canFinish = canFinish; self.previousWorkout = previousWorkout
    }

    public static let emptyMessage = "No workout in progress."

    /// The workout this screen shows: `id` when it is open, else the latest open workout; nil when none is open.
    public static func openWorkout(_ ledger: Ledger, id: String? = nil) -> WorkoutRecord? {
        guard let workout = id.map({ ledger.workout($0) }) ?? ledger.workouts.last(where: { $0.status == .open }),
              workout.status == .open else { return nil }
        return workout
    }

    /// The latest open workout (or `id`); nil when none is open as of T.
    public init?(_ analysis: Analysis, workout id: String? = nil) {
        let ledger = analysis.ledger
        guard let workout = ActiveWorkoutState.openWorkout(ledger, id: id) else { return nil }
        let unit = analysis.unit
        let inventory = EquipmentInventory.from(ledger: ledger, defaultUnit: unit)
        let asOf = analysis.asOf
        let previous = analysis.finished.last { $0.name == workout.name && $0.startedAt.epochMilliseconds <= workout.startedAt.epochMilliseconds }
        let injuries = ledger.answers["injuries"]?.arrayValue?.compactMap(\.stringValue) ?? []

        var exercises: [Exercise] = []
        var totalSets = 0, totalReps = 0, volume = 0.0
        for entry in workout.exercises {
            let exercise = entry.exercise
            let addsVolume = analysis.ledger.addsVolume(exercise)
            let prescription = entry.prescription
            // What the lifter's equipment can be set to for this exercise (DOMAIN.md §7 "Equipment").
            let gear = analysis.equipment(exercise)
            let loadable = inventory.loadableWeights(for: exercise, equipment: gear)
            func suggested(_ kilograms: Double, from source: WeightUnit) -> Double { ActiveWorkoutState.suggested(kilograms, from: source, in: unit, on: loadable) }
            let completedSets = workout.sets(of: exercise)
            let lastSession = analysis.sessionIndices[exercise]?.last.map { analysis.finished[$0].sets(of: exercise) } ?? []
            let prescribedCount = prescription?.setCount ?? 0
            let isCardio = analysis.context.isCardio(exercise) || prescription?.minutes != nil || prescription?.km != nil
                || workout.cardio.contains { $0.exercise == exercise } || analysis.finished.contains { $0.cardio.contains { $0.exercise == exercise } }
            // The rows the workout plans, by kind (PROJECTIONS.md §"Active workout").
            let plan = ActiveWorkoutState.plannedKinds(prescription: prescription, lastSession: lastSession, cardio: isCardio)
            var numbers = Set(plan.indices.map { $0 + 1 }.filter { number in
                workout.removedRows?.contains { $0.set == number && $0.exercise == exercise } != true
            })
            for row in workout.rows where row.exercise == exercise { numbers.insert(row.set) }
            for set in completedSets { numbers.insert(set.set) }
            let target = analysis.context.nextTarget(analysis.progressionInput(exercise, prescription: prescription)).map {
                unit.kilograms(Units.loadable(unit.fromKilograms($0), from: unit, to: unit, on: loadable))
            }
            let targetWeight = target.map { DisplayWeight(kilograms: $0, in: unit).weight }

            let thenWorking = previous.map { $0.workingSets(of: exercise) } ?? []
            var rows: [Row] = []
            // Seed 004: a value entered in a row carries to the later incomplete rows of the same kind.
            var carried: [SetKind: (weight: Double?, reps: Int?)] = [:]
            var workingIndex = 0, counter = 0
            for number in numbers.sorted() {
                if let set = completedSets.first(where: { $0.set == number }) {
                    var plus = 0
                    if set.isWorking {
                        let then = workingIndex < thenWorking.count ? thenWorking[workingIndex].reps : 0
                        // No comparison when the previous workout did not have this exercise.
                        if !thenWorking.isEmpty { counter += set.reps - then }
                        if workingIndex < thenWorking.count, set.reps > then { plus = set.reps - then }
                        workingIndex += 1
                        totalSets += 1; totalReps += set.reps; if addsVolume { volume += set.volumeKilograms }
                    }
                    var row = Row(set: number, weight: DisplayWeight(kilograms: set.kilograms, in: unit).weight, unit: unit, reps: set.reps,
                                  kind: set.kind, completed: true, source: .completed, plus: plus)
                    row.plates = row.weight.flatMap { inventory.plates(for: exercise, equipment: gear, weight: $0, in: unit) }
                    row.targetRPE = prescription?.targetRPE(ofSet: number, kind: row.kind)
                    // Values typed into this row before or after ticking it keep carrying to the later incomplete rows.
                    if let typed = workout.rows.first(where: { $0.exercise == exercise && $0.set == number }), typed.weight != nil || typed.reps != nil {
                        carried[row.kind] = (typed.weight != nil ? row.weight : carried[row.kind]?.weight,
                                             typed.reps != nil ? row.reps : carried[row.kind]?.reps)
                    }
                    rows.append(row)
                    continue
                }
                let entered = workout.rows.first { $0.exercise == exercise && $0.set == number }
                let config = prescription?.setConfigs[safe: number - 1]
                let kind = entered?.kind ?? plan[safe: number - 1] ?? .working
                var row = Row(set: number, weight: nil, unit: unit, reps: nil, kind: kind, completed: false, source: .none)
                // What the row shows before anything is typed (PROJECTIONS.md §"Active workout"): a row past the plan
                // ("Add set") copies the last set completed in this workout; a planned working row weighs the
                // exercise's target; otherwise the template's values, the last session's set of the same kind, or
                // the programme's prescription.
                let ordinal = plan.prefix(max(0, number - 1)).filter { ($0 == .warmup) == (kind == .warmup) }.count
                let sameKind = lastSession.filter { ($0.kind == .warmup) == (kind == .warmup) }
                let last = sameKind[safe: ordinal] ?? sameKind.last
                let latest = completedSets.filter { ($0.kind == .warmup) == (kind == .warmup) }.max { $0.at.epochMilliseconds < $1.at.epochMilliseconds }
                if number > plan.count, let latest {
                    row.weight = DisplayWeight(kilograms: latest.kilograms, in: unit).weight
                    row.reps = latest.reps
                    row.source = .previousSet
                } else {
                    if let config, config.weight != nil || config.reps != nil {
                        row.weight = config.weight.map { suggested((config.unit ?? .kg).kilograms($0), from: config.unit ?? .kg) }
                            ?? last.map { suggested($0.kilograms, from: $0.unit) }
                        row.reps = config.reps ?? last?.reps
                        row.source = .template
                    } else if let last {
                        // A template row with only a kind (a warm-up) keeps its kind, with the last session's values.
                        row.weight = suggested(last.kilograms, from: last.unit)
                        row.reps = last.reps
                        row.source = .lastSession
                    } else if let weight = prescription?.weight {
                        row.weight = suggested((prescription?.unit ?? .kg).kilograms(weight), from: prescription?.unit ?? .kg)
                        row.reps = prescription?.repRange?.lower
                        row.source = .programme
                    }
                    if kind == .working, let targetWeight {
                        row.weight = targetWeight
                        row.reps = row.reps ?? prescription?.repRange?.lower
                        row.source = .target
                    }
                }
                // Seed 004: a value typed into an earlier row of the same kind carries here, field by field.
                if let values = carried[kind] {
                    if let weight = values.weight { row.weight = weight; row.source = .propagated }
                    if let reps = values.reps { row.reps = reps; row.source = .propagated }
                }
                // A value typed into this row replaces that field only; the other keeps what the row showed.
                if let entered, entered.weight != nil || entered.reps != nil {
                    let weight = entered.weight.map { DisplayWeight(kilograms: (entered.unit ?? .kg).kilograms($0), in: unit).weight }
                    if let weight { row.weight = weight }
                    if let reps = entered.reps { row.reps = reps }
                    row.source = .entered
                    carried[kind] = (weight ?? carried[kind]?.weight, entered.reps ?? carried[kind]?.reps)
                }
                row.plates = row.weight.flatMap { inventory.plates(for: exercise, equipment: gear, weight: $0, in: unit) }
                row.targetRPE = prescription?.targetRPE(ofSet: number, kind: kind)
                rows.append(row)
            }

            let doneCount = rows.filter(\.completed).count
            let submitted = workout.submitted.contains(exercise)
            let repRange = prescription?.repRange
            let working = target ?? rows.first(where: { $0.kind.isWorking && $0.weight != nil }).map { unit.kilograms($0.weight!) }
            // The warm-up set is a suggestion too: a weight the exercise's dumbbells or stack allow, or loaded on the
            // exercise's own bar (never below it) with that bar's plates. None on an assisted exercise, whose weight is
            // help (half the help would be a harder set).
            let assisted = analysis.ledger.isAssisted(exercise)
            let bar = inventory.barWeight(for: exercise, equipment: gear, in: unit)
            let warmup = working.flatMap { assisted ? nil : analysis.context.warmup(exercise, $0, unit, bar) }.map {
                let weight = suggested($0.kilograms, from: unit)
                return WarmupSuggestionState(weight: weight, unit: unit, reps: $0.reps, percent: "\($0.percentLow)-\($0.percentHigh)%",
                                            plates: inventory.plates(for: exercise, equipment: gear, weight: weight, in: unit))
            }
            var feedback: String?
            if submitted {
                let done = completedSets.filter(\.isWorking).map(\.reps)
                if let repRange {
                    if done.isEmpty || done.count < prescribedCount || done.contains(where: { $0 < repRange.lower }) {
                        feedback = "Keep Pushing"
                    } else if repRange.upper > repRange.lower ? done.allSatisfy({ $0 >= repRange.upper }) : done.allSatisfy({ $0 > repRange.upper }) {
                        feedback = "Great Work!"
                    } else {
                        feedback = "Good Session"
                    }
                } else {
                    feedback = counter > 0 ? "Great Work!" : counter == 0 ? "Good Session" : "Keep Pushing"
                }
            }
            var warnings: [InjuryWarning] = []
            let muscles = analysis.workedMuscles(exercise)
            for injury in injuries {
                for muscle in analysis.context.injuryMuscles(injury) where muscles.contains(muscle) {
                    warnings.append(InjuryWarning(
                        muscle: muscle, injury: injury,
                        message: "This exercise targets \(muscle), which may affect your \(injury). Proceed with caution or consider swapping.",
                        answer: workout.injuryAnswers.last { $0.exercise == exercise && $0.muscle == muscle }?.choice))
                }
            }
            let rest = ActiveWorkoutState.defaultRest(exercise, prescription: prescription, analysis)
            let lastCardio = analysis.finished.last { $0.cardio.contains { $0.exercise == exercise } }?.cardio.first { $0.exercise == exercise }
            var cardioPrefill = lastCardio
            if prescription?.minutes != nil || prescription?.km != nil {
                cardioPrefill = CardioEntry(exercise: exercise, minutes: prescription?.minutes ?? lastCardio?.minutes ?? 0,
                                            km: prescription?.km ?? lastCardio?.km)
            }
            exercises.append(Exercise(
                exercise: exercise, name: analysis.exerciseName(exercise), prescribedSets: prescribedCount, reps: prescription?.reps,
                restSeconds: rest, rows: rows, completedSets: doneCount,
                completed: submitted || (!rows.isEmpty && doneCount == rows.count && doneCount >= prescribedCount),
                submitted: submitted, repCounter: counter, warmup: warmup, nextTarget: target.map { DisplayWeight(kilograms: $0, in: unit) },
                feedback: feedback, injuryWarnings: warnings, superset: workout.supersets.first { $0.exercises.contains(exercise) }?.group,
                cardio: workout.cardio.first { $0.exercise == exercise }, lastCardio: lastCardio, cardioPrefill: cardioPrefill,
                notes: workout.notes.filter { $0.exercise == exercise }.map(\.text),
                attachment: analysis.context.attachment(exercise).map { Attachment(name: $0, owned: inventory.hasAttachment($0)) },
                assisted: assisted))
        }

        let rest = workout.rest.map { Rest($0, asOf: asOf) }
        var warmup = Warmup(state: .pending)
        if let card = workout.warmup {
            switch card.state {
            case .running:
                let total = Int64(saturating: ((card.minutes ?? 5) * 60_000).rounded())
                let left = (card.startedAt?.epochMilliseconds ?? asOf.epochMilliseconds) + total - asOf.epochMilliseconds
                warmup = left > 0 ? Warmup(state: .running, remainingSeconds: Int((left + 999) / 1000)) : Warmup(state: .completed)
            case .completed: warmup = Warmup(state: .completed)
            case .skipped: warmup = Warmup(state: .skipped)
            }
        }
        self.init(workout: workout.id, name: workout.name, startedAt: workout.startedAt,
                  elapsedSeconds: max(0, Int((asOf.epochMilliseconds - workout.startedAt.epochMilliseconds - workout.paused(until: asOf)) / 1000)),
                  exercises: exercises, rest: rest, warmup: warmup, sets: totalSets, reps: totalReps,
                  volumeKilograms: Rounding.kilograms(volume), canFinish: workout.hasPerformance,
                  previousWorkout: previous?.id)
        paused = workout.pausedAt != nil
    }
}

extension ActiveWorkoutState {
    /// A weight the workout suggests (a prefill) in the display unit `unit`: `Units.loadable` on the exercise's
    /// equipment, so a pound lifter is never offered 132.28 lb for a 60 kg set, nor a dumbbell pair he does not own.
    static func suggested(_ kilograms: Double, from source: WeightUnit, in unit: WeightUnit, on equipment: LoadableWeights = .step(nil)) -> Double {
        Rounding.display(Units.loadable(source.fromKilograms(kilograms), from: source, to: unit, on: equipment))
    }

    /// The rows a workout plans for an exercise before anything is typed, by kind (PROJECTIONS.md §"Active workout"):
    /// a template's per-set kinds; else the last session's warm-ups (as warm-ups) and then the prescribed number of
    /// working rows; with no count prescribed, the last session's working sets again, or `defaultRowCount` rows
    /// (seed 004 keeps at least one row); none for a cardio exercise, which is logged as minutes and km.
    public static func plannedKinds(prescription: Prescription?, lastSession: [LoggedSet], cardio: Bool) -> [SetKind] {
        if let configs = prescription?.setConfigs, !configs.isEmpty { return configs.map(\.kind) }
        if cardio { return [] }
        let warmups = lastSession.filter { $0.kind == .warmup }.map(\.kind)
        let prescribed = prescription?.sets ?? 0
        let working = prescribed > 0 ? prescribed : max(defaultRowCount, lastSession.count - warmups.count)
        return warmups + Array(repeating: SetKind.working, count: working)
    }

    /// Rows of an exercise added with no prescribed count and no last session (seed 004: a set row, never none).
    public static let defaultRowCount = 1

    /// The rest after a set of `exercise` (PROJECTIONS.md §"Active workout"): the exercise's own setting
    /// (`rest.configured`, 0 = Off), else what the workout prescribes, else the `rest_compound_s` / `rest_isolation_s`
    /// setting, else `rest_default_s`, else the default of the rule set that made the programme (`context.defaultRest`).
    public static func defaultRest(_ exercise: String, prescription: Prescription?, _ analysis: Analysis) -> Int {
        let ledger = analysis.ledger
        let compound = analysis.isCompound(exercise)
        return ledger.restSettings[exercise] ?? prescription?.restSeconds
            ?? (compound ? ledger.settings["rest_compound_s"] : ledger.settings["rest_isolation_s"])?.intValue
            ?? ledger.settings["rest_default_s"]?.intValue ?? analysis.context.defaultRest(ledger.programme?.ruleset, compound)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
