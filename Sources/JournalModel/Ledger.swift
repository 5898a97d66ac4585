import JournalEvents

/// Everything the screens are computed from: one pure fold over the journal, as of a time T
/// (PROJECTIONS.md §"As of" and §"data.cleared"). Views (`HomeState`, `HistoryState`, …) are pure
/// functions of a ledger, so one replay pass feeds them all.
///
///     var ledger = Ledger(asOf: t)
///     for event in events { Ledger.fold(&ledger, event) }
public struct Ledger: Equatable, Sendable, Codable {
    /// Events whose `at` is later than this instant are ignored, and so are events the fold does not admit
    /// (`SchemaValidator.admitsToFold`: a number out of its field's range at any depth, an array past its length;
    /// PROJECTIONS.md §"Views are total").
    public var asOf: Timestamp
    /// Events folded since the last `data.cleared` (ignored ones not counted).
    public internal(set) var eventCount = 0
    /// The seq of the last `data.cleared` at or before T, if any.
    public internal(set) var clearedAtSeq: Int?
    public internal(set) var profile = Profile()
    /// Latest answer per question.
    public internal(set) var answers: [String: JSONValue] = [:]
    public internal(set) var programme: RecordedProgramme?
    /// Every workout ever started, in journal order.
    public internal(set) var workouts: [WorkoutRecord] = []
    public internal(set) var templates: [Template] = []
    public internal(set) var plans: [PlannedWorkout] = []
    public internal(set) var customExercises: [String: CustomExercise] = [:]
    /// At most 10, in the order they were added.
    public internal(set) var favourites: [String] = []
    public internal(set) var progression: [String: ProgressionSettings] = [:]
    public internal(set) var settings: [String: JSONValue] = [:]
    /// Per-exercise default rest from `rest.configured` (seconds; 0 = Off).
    public internal(set) var restSettings: [String: Int] = [:]
    /// Every `equipment.updated`, in order.
    public internal(set) var equipment: [EquipmentUpdate] = []
    /// `exercise.linked`: custom or imported exercise → the catalogue exercise it is filed under (`Ledger+Links.swift`).
    /// Nil until the first link, so a snapshot of a journal without links encodes as before.
    public internal(set) var exerciseLinks: [String: String]?
    /// `data.exported`, in order (seed 003's exports history). Nil until the first, so a snapshot of a journal without
    /// exports encodes as before.
    public internal(set) var exports: [ExportRecord]?
    var workoutIndex: [String: Int] = [:]
    /// The workout the last event named, so the open workout's events skip hashing its id. A cache, not
    /// state: ledgers compare equal whatever it holds, and it is not in a snapshot (`CodingKeys`), so a decoded
    /// ledger starts with it empty and finds it again on the next event that names a workout.
    var recentWorkout = RecentWorkout()

    /// What a snapshot stores (`Ledger+Snapshot.swift`): every stored property except the cache `recentWorkout`.
    enum CodingKeys: String, CodingKey {
        case asOf, eventCount, clearedAtSeq, profile, answers, programme, workouts, templates, plans, customExercises
        case favourites, progression, settings, restSettings, workoutIndex, equipment, exerciseLinks, exports
    }

    public init(asOf: Timestamp) { self.asOf = asOf }

    /// Folds a whole journal (in seq order).
    public init(events: some Sequence<Event>, asOf: Timestamp) {
        self.init(asOf: asOf)
        for event in events { apply(event) }
    }

    /// The fold, `(inout State, Event)`.
    public static func fold(_ state: inout Ledger, _ event: Event) { state.apply(event) }

    public var displayUnit: WeightUnit { profile.unit ?? .kg }

    public func workout(_ id: String) -> WorkoutRecord? { position(ofWorkout: id).map { workouts[$0] } }

    /// Where `workout(id)` is in `workouts`. The recording rules read the workout an event names in place, through
    /// this position: a copy of a `WorkoutRecord` retains each of its arrays and strings (a quarter of the rules'
    /// cost per event when they took one).
    public func position(ofWorkout id: String) -> Int? {
        // The rules ask for the workout the last event named on almost every event: no hashing for it.
        if recentWorkout.index >= 0 && sameID(recentWorkout.id, id) { return recentWorkout.index }
        return workoutIndex[id]
    }

    // MARK: The fold

    public mutating func apply(_ event: Event) {
        guard event.at.epochMilliseconds <= asOf.epochMilliseconds, SchemaValidator.admitsToFold(event) else { return }
        eventCount += 1
        switch event.knownType {
        // Workouts and sets: the hot path.
        case .setCompleted: setCompleted(event)
        case .setUncompleted:
            withWorkout(event) { workout in
                guard let exercise = event.string(.exercise), let number = event.int(.set) else { return }
                if let index = workout.sets.firstIndex(where: { $0.set == number && $0.exercise == exercise }) {
                    let set = workout.sets.remove(at: index)
                    if !workout.rows.contains(where: { $0.set == number && $0.exercise == exercise }) {
                        workout.rows.append(SetRow(exercise: exercise, set: number, weight: set.weight, unit: set.unit, reps: set.reps, kind: set.kind))
                    }
                }
            }
        case .setAdded:
            withWorkout(event) { workout in
                guard let exercise = event.string(.exercise), let number = event.int(.set) else { return }
                workout.ensureExercise(exercise)
                workout.restoreRow(exercise, number)
                let row = SetRow(exercise: exercise, set: number, weight: event.double(.weight), unit: WeightUnit(event.string(.unit)),
                                 reps: event.int(.reps), kind: SetKind(event.string(.kind)))
                if let index = workout.rows.firstIndex(where: { $0.set == number && $0.exercise == exercise }) {
                    workout.rows[index] = row
                } else {
                    workout.rows.append(row)
                }
            }
        case .setRemoved:
            withWorkout(event) { workout in
                guard let exercise = event.string(.exercise), let number = event.int(.set) else { return }
                workout.sets.removeAll { $0.set == number && $0.exercise == exercise }
                workout.rows.removeAll { $0.set == number && $0.exercise == exercise }
                if workout.status == .open, workout.removedRows?.contains(where: { $0.set == number && $0.exercise == exercise }) != true {
                    workout.removedRows = (workout.removedRows ?? []) + [SetRow(exercise: exercise, set: number)]
                }
                workout.markEdited()
            }
        case .setEdited:
            withWorkout(event) { workout in
                guard let exercise = event.string(.exercise), let number = event.int(.set) else { return }
                if let index = workout.sets.firstIndex(where: { $0.set == number && $0.exercise == exercise }) {
                    if let weight = event.double(.weight) { workout.sets[index].weight = weight }
                    if let unit = WeightUnit(event.string(.unit)) { workout.sets[index].unit = unit }
                    if let reps = event.int(.reps) { workout.sets[index].reps = reps }
                    if let kind = event.string(.kind) { workout.sets[index].kind = SetKind(kind) }
                    if let rpe = event.double(.rpe) { workout.sets[index].rpe = rpe }
                    if workout.status == .open, event[.weight] != nil || event[.reps] != nil {
                        // Seed 004: an edited value carries to the later incomplete rows; the row remembers it was entered.
                        let set = workout.sets[index]
                        let row = SetRow(exercise: exercise, set: number, weight: set.weight, unit: set.unit, reps: set.reps, kind: set.kind)
                        if let rowIndex = workout.rows.firstIndex(where: { $0.set == number && $0.exercise == exercise }) { workout.rows[rowIndex] = row }
                        else { workout.rows.append(row) }
                    }
                } else if let index = workout.rows.firstIndex(where: { $0.set == number && $0.exercise == exercise }) {
                    if let weight = event.double(.weight) { workout.rows[index].weight = weight }
                    if let unit = WeightUnit(event.string(.unit)) { workout.rows[index].unit = unit }
                    if let reps = event.int(.reps) { workout.rows[index].reps = reps }
                    if let kind = event.string(.kind) { workout.rows[index].kind = SetKind(kind) }
                } else if workout.status == .open {
                    // Editing a prefilled row of an open workout enters its values.
                    workout.ensureExercise(exercise)
                    workout.rows.append(SetRow(exercise: exercise, set: number, weight: event.double(.weight), unit: WeightUnit(event.string(.unit)),
                                               reps: event.int(.reps), kind: SetKind(event.string(.kind))))
                }
                workout.markEdited()
            }
        case .setRated:
            withWorkout(event) { workout in
                guard let exercise = event.string(.exercise), let number = event.int(.set),
                      let index = workout.sets.firstIndex(where: { $0.set == number && $0.exercise == exercise }) else { return }
                workout.sets[index].rpe = event.double(.rpe)
            }
        case .setNoted:
            withWorkout(event) { workout in
                guard let exercise = event.string(.exercise), let number = event.int(.set), let text = event.string(.note) else { return }
                if let index = workout.sets.firstIndex(where: { $0.set == number && $0.exercise == exercise }) { workout.sets[index].note = text }
                workout.notes.append(Note(exercise: exercise, set: number, text: text))
            }
        case .restStarted:
            withWorkout(event) { workout in
                workout.rest = RestTimer(exercise: event.string(.exercise) ?? "", startedAt: event.at, seconds: event.int(.seconds) ?? 0)
            }
        case .restAdjusted:
            withWorkout(event) { workout in
                guard workout.rest?.ending == nil else { return }
                // Never below zero remaining (seed 004): clamp so the timer ends no earlier than now.
                guard var rest = workout.rest else { return }
                rest.adjustmentSeconds += event.int(.deltaS) ?? 0
                let floor = Int((event.at.epochMilliseconds - rest.startedAt.epochMilliseconds) / 1000) - rest.seconds
                if rest.adjustmentSeconds < floor { rest.adjustmentSeconds = floor }
                workout.rest = rest
            }
        case .restSkipped:
            withWorkout(event) { workout in
                if workout.rest != nil, workout.rest?.ending == nil { workout.rest?.ending = .skipped(remainingSeconds: event.int(.remainingS) ?? 0) }
            }
        case .restFinished:
            withWorkout(event) { workout in
                if workout.rest != nil, workout.rest?.ending == nil { workout.rest?.ending = .finished }
            }
        case .cardioLogged:
            withWorkout(event) { workout in
                guard let exercise = event.string(.exercise) else { return }
                workout.ensureExercise(exercise)
                let entry = CardioEntry(exercise: exercise, minutes: event.double(.minutes) ?? 0, km: event.double(.km), calories: event.double(.calories))
                if let index = workout.cardio.firstIndex(where: { $0.exercise == exercise }) { workout.cardio[index] = entry } else { workout.cardio.append(entry) }
                workout.markEdited()
            }
        case .workoutStarted: workoutStarted(event)
        case .workoutFinished:
            withWorkout(event) { workout in
                guard workout.status == .open else { return }
                workout.status = .finished
                workout.finishedAt = event.string(.finishedAt).flatMap(Timestamp.init(rfc3339:)) ?? event.at
                if workout.pausedAt != nil { workout.pausedMilliseconds = workout.paused(until: workout.finishedAt!); workout.pausedAt = nil }
                workout.rest = nil
                workout.dropUnperformed()
            }
        case .workoutPaused:
            withWorkout(event) { workout in if workout.status == .open && workout.pausedAt == nil { workout.pausedAt = event.at } }
        case .workoutResumed:
            withWorkout(event) { workout in
                guard workout.status == .open, workout.pausedAt != nil else { return }
                workout.pausedMilliseconds = workout.paused(until: event.at)
                workout.pausedAt = nil
            }
        case .workoutDiscarded:
            withWorkout(event) { workout in if workout.status == .open { workout.status = .discarded } }
        case .workoutDeleted:
            withWorkout(event) { workout in if workout.status == .finished { workout.status = .deleted } }
        case .workoutEdited:
            withWorkout(event) { workout in
                if let name = event.string(.name) { workout.name = name }
                if let start = event.string(.startedAt).flatMap(Timestamp.init(rfc3339:)) { workout.startedAt = start }
                if let finish = event.string(.finishedAt).flatMap(Timestamp.init(rfc3339:)), workout.status == .finished { workout.finishedAt = finish }
                workout.edited = true
            }
        case .workoutNoted:
            withWorkout(event) { workout in if let text = event.string(.note) { workout.notes.append(Note(text: text)) } }
        case .exerciseAdded:
            withWorkout(event) { workout in
                guard let exercise = event.string(.exercise) else { return }
                var prescription = Prescription(exercise: exercise)
                prescription.sets = event.int(.sets)
                prescription.reps = event.string(.reps)
                prescription.restSeconds = event.int(.restS)
                if let index = workout.exercises.firstIndex(where: { $0.exercise == exercise }) {
                    workout.exercises[index].prescription = prescription
                } else {
                    let position = min(max(0, event.int(.position) ?? workout.exercises.count), workout.exercises.count)
                    workout.exercises.insert(WorkoutExercise(exercise: exercise, prescription: prescription), at: position)
                }
                workout.markEdited()
            }
        case .exerciseRemoved:
            withWorkout(event) { workout in
                guard let exercise = event.string(.exercise) else { return }
                workout.exercises.removeAll { $0.exercise == exercise }
                workout.sets.removeAll { $0.exercise == exercise }
                workout.rows.removeAll { $0.exercise == exercise }
                workout.removedRows?.removeAll { $0.exercise == exercise }
                workout.cardio.removeAll { $0.exercise == exercise }
                workout.submitted.removeAll { $0 == exercise }
                for index in workout.supersets.indices { workout.supersets[index].exercises.removeAll { $0 == exercise } }
                workout.supersets.removeAll { $0.exercises.count < 2 }
                workout.markEdited()
            }
        case .exercisesReordered:
            withWorkout(event) { workout in
                let order = event.array(.order)?.compactMap(\.stringValue) ?? []
                var reordered: [WorkoutExercise] = []
                for id in order { if let entry = workout.exercises.first(where: { $0.exercise == id }), !reordered.contains(entry) { reordered.append(entry) } }
                for entry in workout.exercises where !reordered.contains(where: { $0.exercise == entry.exercise }) { reordered.append(entry) }
                workout.exercises = reordered
            }
        case .exerciseSwapped:
            withWorkout(event) { workout in
                guard let from = event.string(.from), let to = event.string(.to),
                      let index = workout.exercises.firstIndex(where: { $0.exercise == from }),
                      !workout.exercises.contains(where: { $0.exercise == to }) else { return }
                workout.exercises[index].exercise = to
                workout.exercises[index].prescription?.exercise = to
                for row in workout.rows.indices where workout.rows[row].exercise == from { workout.rows[row].exercise = to }
                workout.removedRows = workout.removedRows?.map { var row = $0; if row.exercise == from { row.exercise = to }; return row }
                for set in workout.sets.indices where workout.sets[set].exercise == from { workout.sets[set].exercise = to }
                for group in workout.supersets.indices {
                    workout.supersets[group].exercises = workout.supersets[group].exercises.map { $0 == from ? to : $0 }
                }
            }
        case .exerciseNoted:
            withWorkout(event) { workout in
                if let text = event.string(.note) { workout.notes.append(Note(exercise: event.string(.exercise), text: text)) }
            }
        case .exerciseSubmitted:
            withWorkout(event) { workout in
                if let exercise = event.string(.exercise), !workout.submitted.contains(exercise) { workout.submitted.append(exercise) }
            }
        case .injuryWarningAnswered:
            withWorkout(event) { workout in
                guard let exercise = event.string(.exercise), let muscle = event.string(.muscle), let choice = event.string(.choice) else { return }
                workout.injuryAnswers.removeAll { $0.exercise == exercise && $0.muscle == muscle }
                workout.injuryAnswers.append(InjuryAnswer(exercise: exercise, muscle: muscle, choice: choice))
            }
        case .supersetLinked:
            withWorkout(event) { workout in
                guard let group = event.string(.group) else { return }
                let members = event.array(.exercises)?.compactMap(\.stringValue) ?? []
                for index in workout.supersets.indices { workout.supersets[index].exercises.removeAll { members.contains($0) } }
                workout.supersets.removeAll { $0.exercises.count < 2 || $0.group == group }
                workout.supersets.append(SupersetGroup(group: group, exercises: members))
            }
        case .supersetUnlinked:
            withWorkout(event) { workout in workout.supersets.removeAll { $0.group == event.string(.group) } }
        case .warmupStarted:
            withWorkout(event) { workout in workout.warmup = WarmupCard(state: .running, minutes: event.double(.minutes), startedAt: event.at) }
        case .warmupCompleted:
            withWorkout(event) { workout in workout.warmup = WarmupCard(state: .completed, minutes: workout.warmup?.minutes, startedAt: workout.warmup?.startedAt) }
        case .warmupSkipped:
            withWorkout(event) { workout in workout.warmup = WarmupCard(state: .skipped, minutes: workout.warmup?.minutes, startedAt: workout.warmup?.startedAt) }

        // Everything else is rare.
        default: applyRare(event)
        }
    }

    @inline(__always) mutating func withWorkout(_ event: Event, _ body: (inout WorkoutRecord) -> Void) {
        guard let id = event.string(.workout), let index = remember(workout: id) else { return }
        let status = workouts[index].status
        guard status == .open || status == .finished else { return }
        body(&workouts[index])
    }

    /// `position(ofWorkout:)`, remembering `id` as the workout the last event named.
    @inline(__always) mutating func remember(workout id: String) -> Int? {
        if recentWorkout.index >= 0 && sameID(recentWorkout.id, id) { return recentWorkout.index }
        guard let index = workoutIndex[id] else { return nil }
        recentWorkout = RecentWorkout(id: id, index: index)
        return index
    }

    /// The hot path: one pass over the payload instead of a lookup per key.
    mutating func setCompleted(_ event: Event) {
        var workoutID: String?, exercise: String?, number: Int?, weight: Double?, reps: Int?, rpe: Double?, note: String?
        var unit = WeightUnit.kg, kind = SetKind.working, edited = false
        // Each value is read in place (`fields[position].value`): copying a field would retain its key and value.
        let fields = event.fields.fields
        for position in fields.indices {
            switch event.payloadKey(at: position) {
            case .workout: workoutID = fields[position].value.stringValue
            case .exercise: exercise = fields[position].value.stringValue
            case .set: number = fields[position].value.intValue
            case .weight: weight = fields[position].value.doubleValue
            case .unit: unit = WeightUnit(fields[position].value.stringValue) ?? .kg
            case .reps: reps = fields[position].value.intValue
            case .kind: kind = SetKind(fields[position].value.stringValue)
            case .rpe: rpe = fields[position].value.doubleValue
            case .note: note = fields[position].value.stringValue
            case .edited: edited = fields[position].value.boolValue ?? false
            default: break
            }
        }
        guard let workoutID, let index = remember(workout: workoutID), let exercise, let number, let weight, let reps else { return }
        let status = workouts[index].status
        guard status == .open || status == .finished else { return }
        let set = LoggedSet(exercise: exercise, set: number, weight: weight, unit: unit, reps: reps, kind: kind, rpe: rpe, note: note, at: event.at)
        if let existing = workouts[index].sets.firstIndex(where: { $0.set == number && sameID($0.exercise, exercise) }) {
            workouts[index].sets[existing] = set
        } else {
            workouts[index].ensureExercise(exercise)
            workouts[index].sets.append(set)
            workouts[index].restoreRow(exercise, number)
        }
        if edited { workouts[index].markEdited() }
    }

    mutating func workoutStarted(_ event: Event) {
        guard let id = event.string(.workout), workoutIndex[id] == nil else { return }
        var workout = WorkoutRecord(id: id, name: event.string(.name) ?? "Workout", session: event.int(.session),
                                    template: event.string(.template), plan: event.string(.plan), repeatOf: event.string(.repeatOf),
                                    source: event.string(.source),
                                    startedAt: event.string(.startedAt).flatMap(Timestamp.init(rfc3339:)) ?? event.at, seq: event.seq)
        var prescriptions: [Prescription] = []
        if let plan = workout.plan, let index = plans.firstIndex(where: { $0.id == plan }) {
            prescriptions = plans[index].exercises
            plans[index].startedWorkout = id
        } else if let template = workout.template, let index = templates.firstIndex(where: { $0.id == template }) {
            prescriptions = templates[index].exercises
        } else if let session = workout.session, let programme, programme.sessions.indices.contains(session) {
            prescriptions = programme.sessions[session].exercises
        } else if let previous = workout.repeatOf.flatMap({ self.workout($0) }) {
            prescriptions = previous.repeatPrescriptions
        }
        if let template = workout.template, let index = templates.firstIndex(where: { $0.id == template }) {
            templates[index].lastUsedAt = event.at
        }
        for prescription in prescriptions where !workout.exercises.contains(where: { $0.exercise == prescription.exercise }) {
            workout.exercises.append(WorkoutExercise(exercise: prescription.exercise, prescription: prescription))
        }
        var groups: [SupersetGroup] = []
        for prescription in prescriptions {
            guard let group = prescription.superset else { continue }
            if let index = groups.firstIndex(where: { $0.group == group }) { groups[index].exercises.append(prescription.exercise) }
            else { groups.append(SupersetGroup(group: group, exercises: [prescription.exercise])) }
        }
        workout.supersets = groups.filter { $0.exercises.count >= 2 }
        workoutIndex[id] = workouts.count
        workouts.append(workout)
    }

    mutating func applyRare(_ event: Event) {
        switch event.knownType {
        case .dataCleared, .dataErased:
            // A clear keeps what its `keep` names (DOMAIN.md §11); an erasure keeps nothing.
            let keep = event.knownType == .dataCleared ? Set(event.array(.keep)?.compactMap(\.stringValue) ?? []) : []
            let (keptProfile, keptSettings, keptRest) = (profile, settings, restSettings)
            let asOf = self.asOf
            self = Ledger(asOf: asOf)
            clearedAtSeq = event.seq
            if keep.contains(Ledger.ClearKeep.settings.rawValue) {
                settings = keptSettings
                restSettings = keptRest
                if let unit = WeightUnit(keptSettings["unit"]?.stringValue) { profile.unit = unit }
            }
            if keep.contains(Ledger.ClearKeep.profile.rawValue) {
                profile = keptProfile
                if let unit = keptSettings["unit"] { settings["unit"] = unit }
            }
        case .accountCreated:
            profile.memberSince = event.at
            if let name = event.string(.name) { profile.name = name }
            if let email = event.string(.email) { profile.email = email }
        case .profileUpdated:
            if let name = event.string(.name) { profile.name = name }
            if let email = event.string(.email) { profile.email = email }
            if let unit = WeightUnit(event.string(.unit)) { profile.unit = unit }
            if let birthDate = event.string(.birthDate) { profile.birthDate = birthDate }
            if let gender = event.string(.gender) { profile.gender = gender }
            if let height = Quantity(event[.height]) { profile.height = height }
            if let bodyWeight = Quantity(event[.bodyWeight]) { profile.bodyWeight = bodyWeight }
        case .settingsChanged:
            guard let key = event.string(.key), let value = event[.value] else { return }
            settings[key] = value
            if key == "unit", let unit = WeightUnit(value.stringValue) { profile.unit = unit }
        case .subscriptionStarted:
            profile.subscription = Subscription(plan: event.string(.plan) ?? "monthly", startedAt: event.at, price: event.double(.price),
                                                currency: event.string(.currency), trialDays: event.int(.trialDays),
                                                nextBillingDate: event.string(.nextBillingDate))
        case .subscriptionRenewed:
            if let plan = event.string(.plan) { profile.subscription?.plan = plan }
            if let date = event.string(.nextBillingDate) { profile.subscription?.nextBillingDate = date }
            profile.subscription?.cancelledAt = nil
            profile.subscription?.effectiveDate = nil
        case .subscriptionCancelled:
            profile.subscription?.cancelledAt = event.at
            profile.subscription?.effectiveDate = event.string(.effectiveDate)
        case .questionnaireAnswered:
            if let question = event.string(.question), let answer = event[.answer] { answers[question] = answer }
        case .programmeGenerated:
            guard let object = event.object(.programme) else { return }
            let sessions: [RecordedProgramme.Session] = object["sessions"]?.arrayValue?.compactMap { value in
                guard let session = value.objectValue, let name = session["name"]?.stringValue else { return nil }
                return RecordedProgramme.Session(name: name, focus: session["focus"]?.stringValue, exercises: Prescription.list(session["exercises"]))
            } ?? []
            programme = RecordedProgramme(split: object["split"]?.stringValue ?? "", daysPerWeek: object["days_per_week"]?.intValue ?? sessions.count,
                                  weeks: object["weeks"]?.intValue ?? 1, sessions: sessions,
                                  sessionMinutes: object["session_minutes"]?.stringValue,
                                  priorityMuscles: object["priority_muscles"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                                  goal: object["goal"]?.stringValue, ruleset: event.string(.ruleset) ?? "", generatedAt: event.at,
                                  generatedSeq: event.seq)
        case .programmeReset:
            // Retaking the quiz: the programme ends and the new answers start from nothing.
            programme = nil
            answers = [:]
        case .restConfigured:
            if let id = event.string(.exercise), let seconds = event.int(.seconds) { restSettings[id] = seconds }
        case .exerciseCreated:
            guard let id = event.string(.exercise), let name = event.string(.name) else { return }
            customExercises[id] = CustomExercise(id: id, name: name, primaryMuscles: event.array(.primaryMuscles)?.compactMap(\.stringValue) ?? [],
                                                 mechanic: event.string(.mechanic),
                                                 secondaryMuscles: event.array(.secondaryMuscles)?.compactMap(\.stringValue) ?? [],
                                                 equipment: event.array(.equipment)?.compactMap(\.stringValue) ?? [],
                                                 assisted: event.bool(.assisted) == true)
        case .equipmentUpdated:
            let plates = event.array(.plates)?.compactMap { plate -> PlateStock? in
                guard let weight = plate.objectValue?["weight"]?.doubleValue, let count = plate.objectValue?["count"]?.intValue else { return nil }
                return PlateStock(weight: weight, count: count)
            }
            let bars = event.array(.bars)?.compactMap { bar -> OwnedBar? in
                guard let object = bar.objectValue, let weight = object["weight"]?.doubleValue else { return nil }
                return OwnedBar(name: object["name"]?.stringValue, weight: weight, isDefault: object["default"]?.boolValue ?? false,
                                exercises: object["exercises"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            }
            let machines = event.array(.machines)?.compactMap { machine -> MachineStack? in
                guard let object = machine.objectValue, let name = object["name"]?.stringValue, let low = object["min_weight"]?.doubleValue,
                      let high = object["max_weight"]?.doubleValue, let step = object["increment"]?.doubleValue else { return nil }
                return MachineStack(name: name, minimum: low, maximum: high, increment: step,
                                    exercises: object["exercises"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            }
            equipment.append(EquipmentUpdate(unit: event.string(.unit).flatMap(WeightUnit.init(parsing:)), plates: plates, bars: bars,
                                             dumbbells: event.array(.dumbbells)?.compactMap(\.doubleValue), machines: machines,
                                             attachments: event.array(.attachments)?.compactMap(\.stringValue),
                                             equipment: event.array(.equipment)?.compactMap(\.stringValue)))
        case .exerciseLinked: link(event)
        case .dataExported:
            guard let format = event.string(.format) else { return }
            exports = (exports ?? []) + [ExportRecord(at: event.at, format: format, events: event.int(.events), workouts: event.int(.workouts),
                                                      destination: event.string(.destination))]
        case .exerciseFavourited:
            if let id = event.string(.exercise), !favourites.contains(id), favourites.count < Ledger.maximumFavourites { favourites.append(id) }
        case .exerciseUnfavourited:
            favourites.removeAll { $0 == event.string(.exercise) }
        case .progressionConfigured:
            guard let id = event.string(.exercise) else { return }
            var rule = progression[id] ?? ProgressionSettings()
            if let increment = event.double(.increment) { rule.increment = increment }
            if let unit = WeightUnit(event.string(.unit)) { rule.unit = unit }
            if let trigger = event.string(.trigger) { rule.trigger = trigger }
            if let deload = event.double(.deloadPercent) { rule.deloadPercent = deload }
            if let failures = event.int(.failuresBeforeDeload) { rule.failuresBeforeDeload = failures }
            if let target = event.double(.target) {
                rule.target = target
                rule.targetUnit = WeightUnit(event.string(.unit)) ?? displayUnit
                rule.targetAt = event.at
            }
            progression[id] = rule
        case .templateCreated:
            guard let id = event.string(.template), !templates.contains(where: { $0.id == id }) else { return }
            templates.append(Template(id: id, name: event.string(.name) ?? "Template", exercises: Prescription.list(event[.exercises]),
                                      note: event.string(.note), fromWorkout: event.string(.fromWorkout), source: event.string(.source),
                                      createdAt: event.at))
        case .templateUpdated:
            guard let index = templates.firstIndex(where: { $0.id == event.string(.template) }) else { return }
            if let name = event.string(.name) { templates[index].name = name }
            if event[.exercises] != nil { templates[index].exercises = Prescription.list(event[.exercises]) }
            if let note = event.string(.note) { templates[index].note = note }
            templates[index].updatedAt = event.at
        case .templateDeleted:
            templates.removeAll { $0.id == event.string(.template) }
        case .workoutPlanned:
            guard let id = event.string(.plan) else { return }
            var exercises = Prescription.list(event[.exercises])
            if exercises.isEmpty, let previous = event.string(.repeatOf).flatMap({ workout($0) }), previous.isFinished {
                // "Repeat last workout" with nothing listed: the repeated workout's exercises and sets are the plan.
                exercises = previous.repeatPrescriptions
            }
            let plan = PlannedWorkout(id: id, name: event.string(.name) ?? "Workout", exercises: exercises,
                                      date: event.string(.date), repeatOf: event.string(.repeatOf), plannedAt: event.at)
            if let index = plans.firstIndex(where: { $0.id == id }) { plans[index] = plan } else { plans.append(plan) }
        default:
            break
        }
    }
}

extension WorkoutRecord {
    mutating func ensureExercise(_ exercise: String) {
        if !exercises.contains(where: { sameID($0.exercise, exercise) }) { exercises.append(WorkoutExercise(exercise: exercise)) }
    }

    mutating func markEdited() { if status == .finished { edited = true } }

    /// A row added or completed again is no longer a deleted one.
    mutating func restoreRow(_ exercise: String, _ number: Int) {
        removedRows?.removeAll { $0.set == number && $0.exercise == exercise }
        if removedRows?.isEmpty == true { removedRows = nil }
    }

    /// Seed 004: finishing discards incomplete sets and removes exercises with no completed set (or cardio entry).
    mutating func dropUnperformed() {
        let performed = performedExercises
        exercises.removeAll { !performed.contains($0.exercise) }
        rows = []
        removedRows = nil
        for index in supersets.indices { supersets[index].exercises.removeAll { !performed.contains($0) } }
        supersets.removeAll { $0.exercises.count < 2 }
        submitted.removeAll { !performed.contains($0) }
    }

    /// What repeating this workout, or saving it as a template, prescribes: its performed exercises in order, each
    /// with its completed sets as per-set configurations (warm-ups kept), its cardio, and its superset groups.
    public var repeatPrescriptions: [Prescription] {
        performedExercises.map { exercise in
            let cardio = cardio.first { $0.exercise == exercise }
            return Prescription(exercise: exercise, setConfigs: sets(of: exercise).map {
                PrescribedSet(weight: $0.weight, unit: $0.unit, reps: $0.reps, kind: $0.kind)
            }, superset: supersets.first { $0.exercises.contains(exercise) }?.group, minutes: cardio?.minutes, km: cardio?.km)
        }
    }
}

/// `a == b` for ids, lengths first: ids from the decoder are equal by identity (no call) or mostly differ in
/// length, so few pairs need the full comparison.
@inline(__always) func sameID(_ a: String, _ b: String) -> Bool { a.utf8.count == b.utf8.count && a == b }

/// `Ledger.recentWorkout`: the last workout id looked up and its position in `workouts` (-1: none).
struct RecentWorkout: Sendable, Equatable {
    var id = ""
    var index = -1

    init() {}
    init(id: String, index: Int) { self.id = id; self.index = index }

    // A cache: always equal (and never encoded: `Ledger.CodingKeys` leaves it out).
    static func == (_: RecentWorkout, _: RecentWorkout) -> Bool { true }
}
