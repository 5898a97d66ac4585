import JournalEvents

/// One completed set as it stands after replacements and edits (PROJECTIONS.md §"Sets").
public struct LoggedSet: Equatable, Hashable, Sendable {
    public var exercise: String
    public var set: Int
    public var weight: Double
    public var unit: WeightUnit
    public var reps: Int
    public var kind: SetKind
    public var rpe: Double?
    public var note: String?
    /// When the set was ticked (the `at` of its latest `set.completed`).
    public var at: Timestamp

    public init(exercise: String, set: Int, weight: Double, unit: WeightUnit, reps: Int, kind: SetKind = .working,
                rpe: Double? = nil, note: String? = nil, at: Timestamp) {
        self.exercise = exercise; self.set = set; self.weight = weight; self.unit = unit; self.reps = reps
        self.kind = kind; self.rpe = rpe; self.note = note; self.at = at
    }

    @inline(__always) public var kilograms: Double { unit.kilograms(weight) }
    @inline(__always) public var volumeKilograms: Double { unit.kilograms(weight) * Double(reps) }
    @inline(__always) public var isWorking: Bool { kind.isWorking }
}

/// A set row added to an open workout before it is ticked (`set.added`, or an unticked set).
public struct SetRow: Equatable, Hashable, Sendable, Codable {
    public var exercise: String
    public var set: Int
    public var weight: Double?
    public var unit: WeightUnit?
    public var reps: Int?
    public var kind: SetKind
    public init(exercise: String, set: Int, weight: Double? = nil, unit: WeightUnit? = nil, reps: Int? = nil, kind: SetKind = .working) {
        self.exercise = exercise; self.set = set; self.weight = weight; self.unit = unit; self.reps = reps; self.kind = kind
    }
}

public struct CardioEntry: Equatable, Hashable, Sendable, Codable {
    public var exercise: String
    public var minutes: Double
    public var km: Double?
    public var calories: Double?
    public init(exercise: String, minutes: Double, km: Double? = nil, calories: Double? = nil) {
        self.exercise = exercise; self.minutes = minutes; self.km = km; self.calories = calories
    }
}

/// One prescribed set of a template or plan (`sets` given as an array).
public struct PrescribedSet: Equatable, Hashable, Sendable, Codable {
    public var weight: Double?
    public var unit: WeightUnit?
    public var reps: Int?
    public var repsRange: String?
    public var kind: SetKind
    public var rpe: Double?
    public init(weight: Double? = nil, unit: WeightUnit? = nil, reps: Int? = nil, repsRange: String? = nil, kind: SetKind = .working, rpe: Double? = nil) {
        self.weight = weight; self.unit = unit; self.reps = reps; self.repsRange = repsRange; self.kind = kind; self.rpe = rpe
    }

    init(_ object: JSONObject) {
        self.init(weight: object["weight"]?.doubleValue, unit: WeightUnit(object["unit"]?.stringValue),
                  reps: object["reps"]?.intValue, repsRange: object["reps_range"]?.stringValue,
                  kind: SetKind(object["kind"]?.stringValue), rpe: object["rpe"]?.doubleValue)
    }
}

/// An exercise as a programme session, template, plan or `exercise.added` prescribes it.
public struct Prescription: Equatable, Hashable, Sendable, Codable {
    public var exercise: String
    /// The number of sets when given as a count.
    public var sets: Int?
    /// Per-set configuration when `sets` was given as an array (templates, seed 004).
    public var setConfigs: [PrescribedSet]
    public var reps: String?
    public var restSeconds: Int?
    public var weight: Double?
    public var unit: WeightUnit?
    public var superset: String?
    public var note: String?
    public var minutes: Double?
    public var km: Double?
    /// The target RPE of its working sets (seed 002's routine `targetRPE`); a set's own `rpe` wins (`targetRPE(ofSet:kind:)`).
    public var rpe: Double?

    public init(exercise: String, sets: Int? = nil, setConfigs: [PrescribedSet] = [], reps: String? = nil, restSeconds: Int? = nil,
                weight: Double? = nil, unit: WeightUnit? = nil, superset: String? = nil, note: String? = nil,
                minutes: Double? = nil, km: Double? = nil, rpe: Double? = nil) {
        self.exercise = exercise; self.sets = sets; self.setConfigs = setConfigs; self.reps = reps; self.restSeconds = restSeconds
        self.weight = weight; self.unit = unit; self.superset = superset; self.note = note; self.minutes = minutes; self.km = km
        self.rpe = rpe
    }

    /// Parses one element of a `programme.sessions[].exercises`, template or plan `exercises` array.
    init?(_ value: JSONValue) {
        guard let object = value.objectValue, let exercise = object["exercise"]?.stringValue else { return nil }
        self.init(exercise: exercise)
        switch object["sets"] {
        case .number?: sets = object["sets"]?.intValue
        case .array(let list)?: setConfigs = list.compactMap { $0.objectValue.map(PrescribedSet.init) }
        default: break
        }
        reps = object["reps"]?.stringValue
        restSeconds = object["rest_s"]?.intValue
        weight = object["weight"]?.doubleValue
        unit = WeightUnit(object["unit"]?.stringValue)
        superset = object["superset"]?.stringValue
        note = object["note"]?.stringValue
        minutes = object["minutes"]?.doubleValue
        km = object["km"]?.doubleValue
        rpe = object["rpe"]?.doubleValue
    }

    static func list(_ value: JSONValue?) -> [Prescription] { value?.arrayValue?.compactMap(Prescription.init) ?? [] }

    /// The target RPE of set `number` (from 1) of `kind`: its own `rpe` when the sets are configured one by one, else
    /// the exercise's for a working set; nil for a warm-up without one.
    public func targetRPE(ofSet number: Int, kind: SetKind) -> Double? {
        if setConfigs.indices.contains(number - 1), let own = setConfigs[number - 1].rpe { return own }
        return kind.isWorking ? rpe : nil
    }

    /// How many set rows the prescription asks for.
    public var setCount: Int { setConfigs.isEmpty ? (sets ?? 0) : setConfigs.count }
    public var repRange: RepRange? { RepRange(reps ?? setConfigs.first(where: { $0.kind.isWorking })?.repsRange ?? setConfigs.first(where: { $0.kind.isWorking })?.reps.map(String.init)) }
}

public struct Note: Equatable, Hashable, Sendable, Codable {
    /// Nil for a workout note; the exercise (and set) it is attached to otherwise.
    public var exercise: String?
    public var set: Int?
    public var text: String
    public init(exercise: String? = nil, set: Int? = nil, text: String) { self.exercise = exercise; self.set = set; self.text = text }
}

public struct SupersetGroup: Equatable, Hashable, Sendable, Codable {
    public var group: String
    public var exercises: [String]
    public init(group: String, exercises: [String]) { self.group = group; self.exercises = exercises }
}

public struct InjuryAnswer: Equatable, Hashable, Sendable, Codable {
    public var exercise: String
    public var muscle: String
    public var choice: String
    public init(exercise: String, muscle: String, choice: String) { self.exercise = exercise; self.muscle = muscle; self.choice = choice }
}

/// The rest timer of an open workout, as its `rest.*` events left it.
public struct RestTimer: Equatable, Hashable, Sendable, Codable {
    public enum Ending: Equatable, Hashable, Sendable, Codable { case skipped(remainingSeconds: Int), finished }
    public var exercise: String
    public var startedAt: Timestamp
    public var seconds: Int
    /// The sum of `rest.adjusted` deltas.
    public var adjustmentSeconds: Int
    public var ending: Ending?
    public init(exercise: String, startedAt: Timestamp, seconds: Int, adjustmentSeconds: Int = 0, ending: Ending? = nil) {
        self.exercise = exercise; self.startedAt = startedAt; self.seconds = seconds; self.adjustmentSeconds = adjustmentSeconds; self.ending = ending
    }
    /// When it runs out, never before it started.
    public var endsAt: Timestamp { startedAt.adding(milliseconds: Int64(max(0, seconds + adjustmentSeconds)) * 1000) }
}

public struct WarmupCard: Equatable, Hashable, Sendable, Codable {
    public enum State: String, Equatable, Hashable, Sendable, Codable { case running, completed, skipped }
    public var state: State
    public var minutes: Double?
    public var startedAt: Timestamp?
    public init(state: State, minutes: Double? = nil, startedAt: Timestamp? = nil) { self.state = state; self.minutes = minutes; self.startedAt = startedAt }
}

/// One performed exercise of a workout (`WorkoutRecord.performed`): its completed sets ordered by set number, and
/// the working ones among them (the same array when there is no warm-up).
public struct PerformedExercise: Equatable, Sendable {
    public let exercise: String
    public let sets: [LoggedSet]
    public let workingSets: [LoggedSet]
}

/// One workout as its events left it, finished or not.
public struct WorkoutRecord: Equatable, Hashable, Sendable, Codable {
    public enum Status: String, Equatable, Hashable, Sendable, Codable { case open, finished, discarded, deleted }

    public var id: String
    public var name: String
    /// Index into the programme's sessions, when started from one.
    public var session: Int?
    public var template: String?
    public var plan: String?
    public var repeatOf: String?
    public var source: String?
    public var startedAt: Timestamp
    public var finishedAt: Timestamp?
    public var status: Status
    /// The journal position of its `workout.started` (breaks ties between equal start times).
    public var seq: Int
    /// Exercises in display order with what was prescribed for each (nil when only logged).
    public var exercises: [WorkoutExercise]
    /// Completed sets in the order they were first ticked.
    public var sets: [LoggedSet]
    public var rows: [SetRow]
    /// Rows of an open workout the lifter deleted (`set.removed`, seed 004's swipe) and not added back: a planned
    /// row among them is no longer shown. Nil when none.
    public var removedRows: [SetRow]?
    public var cardio: [CardioEntry]
    public var notes: [Note]
    public var submitted: [String]
    public var supersets: [SupersetGroup]
    public var injuryAnswers: [InjuryAnswer]
    public var rest: RestTimer?
    public var warmup: WarmupCard?
    /// True once a history edit (`workout.edited`, `set.edited`, an edited `set.completed`, …) touched it after it finished.
    public var edited: Bool
    /// Time the session timer spent paused (`workout.paused` … `workout.resumed`), and the pause in progress.
    public var pausedMilliseconds: Int64?
    public var pausedAt: Timestamp?

    public init(id: String, name: String, session: Int? = nil, template: String? = nil, plan: String? = nil, repeatOf: String? = nil,
                source: String? = nil, startedAt: Timestamp, finishedAt: Timestamp? = nil, status: Status = .open, seq: Int,
                exercises: [WorkoutExercise] = [], sets: [LoggedSet] = [], rows: [SetRow] = [], cardio: [CardioEntry] = [],
                notes: [Note] = [], submitted: [String] = [], supersets: [SupersetGroup] = [], injuryAnswers: [InjuryAnswer] = [],
                rest: RestTimer? = nil, warmup: WarmupCard? = nil, edited: Bool = false) {
        self.id = id; self.name = name; self.session = session; self.template = template; self.plan = plan; self.repeatOf = repeatOf
        self.source = source; self.startedAt = startedAt; self.finishedAt = finishedAt; self.status = status; self.seq = seq
        self.exercises = exercises; self.sets = sets; self.rows = rows; self.cardio = cardio; self.notes = notes
        self.submitted = submitted; self.supersets = supersets; self.injuryAnswers = injuryAnswers; self.rest = rest
        self.warmup = warmup; self.edited = edited
    }

    public var isFinished: Bool { status == .finished }

    /// At least one completed set or cardio entry: what a workout needs to be finished, and what a finished workout
    /// keeps through every history edit (FORMAT.md §10; DOMAIN.md §"Edits keep the rules whole").
    public var hasPerformance: Bool { !sets.isEmpty || !cardio.isEmpty }

    /// Why a history edit that would leave finished workout `id` with no completed set is refused.
    public static func emptiedByEdit(_ id: String) -> String {
        "would leave finished workout \"\(id)\" with no completed set or cardio entry (a workout cannot be finished without one); delete the workout instead (workout.deleted)"
    }

    /// Whole seconds from start to finish less the paused time (0 when not finished or edited into the past).
    public var durationSeconds: Int {
        guard let finishedAt else { return 0 }
        return max(0, Int((finishedAt.epochMilliseconds - startedAt.epochMilliseconds - (pausedMilliseconds ?? 0)) / 1000))
    }

    /// Milliseconds paused up to `time`: the pauses ended, plus the one in progress.
    public func paused(until time: Timestamp) -> Int64 {
        (pausedMilliseconds ?? 0) + (pausedAt.map { max(0, time.epochMilliseconds - $0.epochMilliseconds) } ?? 0)
    }

    /// The local day a workout counts on: the day it finished, in the offset it finished in (PROJECTIONS.md §"Finished workouts").
    public var day: Int { (finishedAt ?? startedAt).localDay }

    /// Exercises that have at least one completed set or a cardio entry, in display order.
    public var performedExercises: [String] {
        var result: [String] = []
        for entry in exercises where sets.contains(where: { sameID($0.exercise, entry.exercise) }) || cardio.contains(where: { $0.exercise == entry.exercise }) {
            result.append(entry.exercise)
        }
        return result
    }

    /// `performedExercises`, each with its `sets(of:)` and `workingSets(of:)`, built in one go: what the views read
    /// of a finished workout (`Analysis.performed` keeps them, so no view filters a workout's sets again).
    public var performed: [PerformedExercise] {
        // One pass over the sets, each filed under the first entry of its exercise (not a scan of every set per
        // exercise): each exercise's sets in journal order, sorted by number only when out of order, as `sets(of:)`.
        let ids = exercises.map(\.exercise)
        var groups = [[LoggedSet]](repeating: [], count: ids.count)
        var lastNumber = [Int](repeating: .min, count: ids.count), inOrder = [Bool](repeating: true, count: ids.count)
        for set in sets {
            var at = 0
            while at < ids.count && !sameID(ids[at], set.exercise) { at += 1 }
            guard at < ids.count else { continue }
            if lastNumber[at] > set.set { inOrder[at] = false }
            lastNumber[at] = set.set
            groups[at].append(set)
        }
        var result: [PerformedExercise] = []
        for index in ids.indices {
            var first = 0
            while !sameID(ids[first], ids[index]) { first += 1 }
            var sets = groups[first]
            guard !sets.isEmpty || cardio.contains(where: { $0.exercise == ids[index] }) else { continue }
            if !inOrder[first] { sets.sort { $0.set < $1.set } }
            result.append(PerformedExercise(exercise: ids[index], sets: sets, workingSets: sets.allSatisfy(\.isWorking) ? sets : sets.filter(\.isWorking)))
        }
        return result
    }

    /// Completed sets of one exercise ordered by set number.
    public func sets(of exercise: String) -> [LoggedSet] { sets(of: exercise, workingOnly: false) }

    /// Working sets of one exercise ordered by set number.
    public func workingSets(of exercise: String) -> [LoggedSet] { sets(of: exercise, workingOnly: true) }

    /// The sets of `exercise` ordered by set number (ties in journal order): counted first so the result is
    /// allocated once, and sorted only when the journal had them out of order. Every view asks this per exercise
    /// and per workout, so it is on replay's hot path (BENCHMARKS.md
    /// §"Replay and verify: what keeps them cheap").
    private func sets(of exercise: String, workingOnly: Bool) -> [LoggedSet] {
        var count = 0
        for set in sets where sameID(set.exercise, exercise) && (!workingOnly || set.isWorking) { count += 1 }
        guard count > 0 else { return [] }
        var result: [LoggedSet] = []
        result.reserveCapacity(count)
        var inOrder = true
        for set in sets where sameID(set.exercise, exercise) && (!workingOnly || set.isWorking) {
            if let last = result.last, last.set > set.set { inOrder = false }
            result.append(set)
        }
        if !inOrder { result.sort { $0.set < $1.set } }
        return result
    }

    public func prescription(of exercise: String) -> Prescription? {
        exercises.first(where: { $0.exercise == exercise })?.prescription
    }
}

public struct WorkoutExercise: Equatable, Hashable, Sendable, Codable {
    public var exercise: String
    public var prescription: Prescription?
    public init(exercise: String, prescription: Prescription? = nil) { self.exercise = exercise; self.prescription = prescription }
}

public struct Quantity: Equatable, Hashable, Sendable, Codable {
    public var value: Double
    public var unit: String
    public init(value: Double, unit: String) { self.value = value; self.unit = unit }
    init?(_ value: JSONValue?) {
        guard let object = value?.objectValue, let v = object["value"]?.doubleValue, let u = object["unit"]?.stringValue else { return nil }
        self.init(value: v, unit: u)
    }
}

public struct Subscription: Equatable, Hashable, Sendable, Codable {
    public var plan: String
    public var startedAt: Timestamp
    public var price: Double?
    public var currency: String?
    public var trialDays: Int?
    public var nextBillingDate: String?
    public var cancelledAt: Timestamp?
    public var effectiveDate: String?
    public init(plan: String, startedAt: Timestamp, price: Double? = nil, currency: String? = nil, trialDays: Int? = nil,
                nextBillingDate: String? = nil, cancelledAt: Timestamp? = nil, effectiveDate: String? = nil) {
        self.plan = plan; self.startedAt = startedAt; self.price = price; self.currency = currency; self.trialDays = trialDays
        self.nextBillingDate = nextBillingDate; self.cancelledAt = cancelledAt; self.effectiveDate = effectiveDate
    }
}

extension Ledger {
    /// What a `data.cleared` may keep (its `keep`, DOMAIN.md §11); by default it keeps nothing.
    public enum ClearKeep: String, Sendable, CaseIterable {
        /// The profile facts: name, email, member since, unit, birth date, gender, height, body weight, subscription
        /// (seed 004's Settings profile, kept in the app's preferences).
        case profile
        /// The settings (`settings.changed`) and each exercise's rest (`rest.configured`).
        case settings

        /// Whether `type` records a fact this kind of keep holds (`account.created`, `profile.updated` and the
        /// subscription for `profile`; `settings.changed` and `rest.configured` for `settings`). A `settings.changed`
        /// of `unit` is a profile fact too (it sets the profile's unit).
        public func holds(_ event: Event) -> Bool {
            switch (self, event.knownType) {
            case (.profile, .accountCreated?), (.profile, .profileUpdated?), (.profile, .subscriptionStarted?),
                 (.profile, .subscriptionRenewed?), (.profile, .subscriptionCancelled?): return true
            case (.profile, .settingsChanged?): return event.string(.key) == "unit"
            case (.settings, .settingsChanged?), (.settings, .restConfigured?): return true
            default: return false
            }
        }
    }
}

public struct Profile: Equatable, Hashable, Sendable, Codable {
    public var name: String?
    public var email: String?
    public var memberSince: Timestamp?
    /// The display unit; nil means kilograms.
    public var unit: WeightUnit?
    public var birthDate: String?
    public var gender: String?
    public var height: Quantity?
    public var bodyWeight: Quantity?
    public var subscription: Subscription?
    public init(name: String? = nil, email: String? = nil, memberSince: Timestamp? = nil, unit: WeightUnit? = nil, birthDate: String? = nil,
                gender: String? = nil, height: Quantity? = nil, bodyWeight: Quantity? = nil, subscription: Subscription? = nil) {
        self.name = name; self.email = email; self.memberSince = memberSince; self.unit = unit; self.birthDate = birthDate
        self.gender = gender; self.height = height; self.bodyWeight = bodyWeight; self.subscription = subscription
    }
}

extension RecordedProgramme {
    /// One session of a recorded programme: its name and prescribed exercises.
    public struct Session: Equatable, Hashable, Sendable, Codable {
        public var name: String
        public var focus: String?
        public var exercises: [Prescription]
        public init(name: String, focus: String? = nil, exercises: [Prescription]) { self.name = name; self.focus = focus; self.exercises = exercises }
    }
}

/// The programme as `programme.generated` recorded it (not TrainingDomain's generator type).
public struct RecordedProgramme: Equatable, Hashable, Sendable, Codable {
    public var split: String
    public var daysPerWeek: Int
    public var weeks: Int
    public var sessions: [RecordedProgramme.Session]
    public var sessionMinutes: String?
    public var priorityMuscles: [String]
    public var goal: String?
    public var ruleset: String
    /// When `programme.generated` was recorded: week 1 is the local week containing it.
    public var generatedAt: Timestamp
    /// The seq of that `programme.generated`: the workouts started under this programme are those whose
    /// `workout.started` comes after it (`owns(_:)`).
    public var generatedSeq: Int
    public init(split: String, daysPerWeek: Int, weeks: Int, sessions: [RecordedProgramme.Session], sessionMinutes: String? = nil,
                priorityMuscles: [String] = [], goal: String? = nil, ruleset: String, generatedAt: Timestamp, generatedSeq: Int = 0) {
        self.split = split; self.daysPerWeek = daysPerWeek; self.weeks = weeks; self.sessions = sessions
        self.sessionMinutes = sessionMinutes; self.priorityMuscles = priorityMuscles; self.goal = goal; self.ruleset = ruleset
        self.generatedAt = generatedAt; self.generatedSeq = generatedSeq
    }

    /// The session a workout ticks in this programme: its `session` index when the workout was started under this
    /// programme (its `workout.started` seq after `generatedSeq`) and the index names one of its sessions; nil for a
    /// workout of an earlier programme, however its index reads (PROJECTIONS.md §"The week").
    public func session(ofWorkoutStartedAt seq: Int, index: Int?) -> Int? {
        guard seq > generatedSeq, let index, sessions.indices.contains(index) else { return nil }
        return index
    }
}

public struct Template: Equatable, Hashable, Sendable, Codable {
    public var id: String
    public var name: String
    public var exercises: [Prescription]
    public var note: String?
    public var fromWorkout: String?
    public var source: String?
    public var createdAt: Timestamp
    public var updatedAt: Timestamp?
    public var lastUsedAt: Timestamp?
    public init(id: String, name: String, exercises: [Prescription], note: String? = nil, fromWorkout: String? = nil, source: String? = nil,
                createdAt: Timestamp, updatedAt: Timestamp? = nil, lastUsedAt: Timestamp? = nil) {
        self.id = id; self.name = name; self.exercises = exercises; self.note = note; self.fromWorkout = fromWorkout; self.source = source
        self.createdAt = createdAt; self.updatedAt = updatedAt; self.lastUsedAt = lastUsedAt
    }
}

public struct PlannedWorkout: Equatable, Hashable, Sendable, Codable {
    public var id: String
    public var name: String
    public var exercises: [Prescription]
    public var date: String?
    public var repeatOf: String?
    public var plannedAt: Timestamp
    /// The workout started from this plan, if any.
    public var startedWorkout: String?
    public init(id: String, name: String, exercises: [Prescription], date: String? = nil, repeatOf: String? = nil, plannedAt: Timestamp, startedWorkout: String? = nil) {
        self.id = id; self.name = name; self.exercises = exercises; self.date = date; self.repeatOf = repeatOf; self.plannedAt = plannedAt; self.startedWorkout = startedWorkout
    }
}

public struct CustomExercise: Equatable, Hashable, Sendable, Codable {
    public var id: String
    public var name: String
    public var primaryMuscles: [String]
    public var mechanic: String?
    public var secondaryMuscles: [String]
    public var equipment: [String]
    /// `assisted` of its `exercise.created`: a set's weight is the help, less is better (DOMAIN.md §"Assisted exercises").
    public var assisted: Bool
    public init(id: String, name: String, primaryMuscles: [String] = [], mechanic: String? = nil, secondaryMuscles: [String] = [],
                equipment: [String] = [], assisted: Bool = false) {
        self.id = id; self.name = name; self.primaryMuscles = primaryMuscles; self.mechanic = mechanic
        self.secondaryMuscles = secondaryMuscles; self.equipment = equipment; self.assisted = assisted
    }
}

/// How many plates of one weight the lifter owns (a pair is needed to load one per side).
public struct PlateStock: Equatable, Hashable, Sendable, Codable {
    public var weight: Double
    public var count: Int
    public init(weight: Double, count: Int) { self.weight = weight; self.count = count }
}

/// One export the user made (`data.exported`, seed 003's exports history).
public struct ExportRecord: Equatable, Hashable, Sendable, Codable {
    public var at: Timestamp
    public var format: String
    public var events: Int?
    public var workouts: Int?
    public var destination: String?
    public init(at: Timestamp, format: String, events: Int? = nil, workouts: Int? = nil, destination: String? = nil) {
        self.at = at; self.format = format; self.events = events; self.workouts = workouts; self.destination = destination
    }
}

/// A bar the lifter owns (`equipment.updated` `bars`), in its update's unit.
public struct OwnedBar: Equatable, Hashable, Sendable, Codable {
    public var name: String?
    public var weight: Double
    /// Marked as the bar of every barbell exercise no bar lists (`default`).
    public var isDefault: Bool
    /// The exercises loaded on this bar (an EZ bar's curls); empty for a general bar.
    public var exercises: [String]
    public init(name: String? = nil, weight: Double, isDefault: Bool = false, exercises: [String] = []) {
        self.name = name; self.weight = weight; self.isDefault = isDefault; self.exercises = exercises
    }
}

/// A weight-stack machine the lifter can use (`equipment.updated` `machines`), in its update's unit: it can be set
/// from `minimum` to `maximum` in steps of `increment`.
public struct MachineStack: Equatable, Hashable, Sendable, Codable {
    public var name: String
    public var minimum: Double
    public var maximum: Double
    public var increment: Double
    /// Exercises done on it besides those whose catalogue equipment names it.
    public var exercises: [String]
    public init(name: String, minimum: Double, maximum: Double, increment: Double, exercises: [String] = []) {
        self.name = name; self.minimum = minimum; self.maximum = maximum; self.increment = increment; self.exercises = exercises
    }
}

/// What one `equipment.updated` said, in journal order: the keys it carried (the domain's `EquipmentInventory`
/// applies them over its standard set).
public struct EquipmentUpdate: Equatable, Hashable, Sendable, Codable {
    public var unit: WeightUnit?
    public var plates: [PlateStock]?
    public var bars: [OwnedBar]?
    /// The weight of each dumbbell pair owned.
    public var dumbbells: [Double]?
    public var machines: [MachineStack]?
    /// Cable attachments (rope, straight bar, V-bar, …).
    public var attachments: [String]?
    public var equipment: [String]?
    public init(unit: WeightUnit? = nil, plates: [PlateStock]? = nil, bars: [OwnedBar]? = nil, dumbbells: [Double]? = nil,
                machines: [MachineStack]? = nil, attachments: [String]? = nil, equipment: [String]? = nil) {
        self.unit = unit; self.plates = plates; self.bars = bars; self.dumbbells = dumbbells; self.machines = machines
        self.attachments = attachments; self.equipment = equipment
    }
}

public struct ProgressionSettings: Equatable, Hashable, Sendable, Codable {
    public var increment: Double?
    public var unit: WeightUnit?
    public var trigger: String?
    public var deloadPercent: Double?
    public var failuresBeforeDeload: Int?
    /// The latest target set by hand (`progression.configured` `target`), in `targetUnit`, and when.
    public var target: Double?
    public var targetUnit: WeightUnit?
    public var targetAt: Timestamp?
    public init(increment: Double? = nil, unit: WeightUnit? = nil, trigger: String? = nil, deloadPercent: Double? = nil, failuresBeforeDeload: Int? = nil,
                target: Double? = nil, targetUnit: WeightUnit? = nil, targetAt: Timestamp? = nil) {
        self.increment = increment; self.unit = unit; self.trigger = trigger; self.deloadPercent = deloadPercent; self.failuresBeforeDeload = failuresBeforeDeload
        self.target = target; self.targetUnit = targetUnit; self.targetAt = targetAt
    }
}
