import JournalEvents
import JournalModel
import TrainingDomain

/// Writes a deterministic, realistic life of a lifter as event drafts: onboarding, a programme from
/// the training domain's generator, training days (some missed), warm-ups, sets whose weights follow
/// the progression engine (with deloads after failures), rests taken and skipped, a swapped exercise,
/// an undone set, a discarded workout, supersets, cardio, templates, history edits, a move to another
/// time zone. Same seed, weeks, profile and start: same events.
///
/// Drafts carry `type`, `at` and the payload; the recorder fills `seq`, `id` and `v`. They come in
/// batches: each batch is what one acknowledgement covers in the app (the onboarding, one workout, …).
public struct Simulator {
    /// Chooses the programme for the answers: (rule set name, version, `programme` object).
    public typealias ProgrammeSource = ([String: JSONValue]) -> (ruleset: String, version: Int, programme: JSONValue)

    public let seed: UInt64
    public let weeks: Int
    public let profile: SimulationProfile
    public let startDay: LocalDate
    let programmeSource: ProgrammeSource
    let catalogue = ExerciseCatalogue.builtIn
    /// Sessions of history the progression engine sees (bounded so long simulations stay linear).
    static let historyWindow = 30

    public init(seed: UInt64, weeks: Int, profile: SimulationProfile, start: LocalDate,
                programme: ProgrammeSource? = nil) {
        self.seed = seed
        self.weeks = weeks
        self.profile = profile
        startDay = start
        programmeSource = programme ?? Simulator.generated(ruleset: profile.ruleset, start: start)
    }

    /// The training domain's generator for `ruleset`, falling back to the built-in programme when the
    /// answers do not satisfy that rule set.
    public static func generated(ruleset: String, start: LocalDate) -> ProgrammeSource {
        { answers in
            if let programme = try? ProgrammeGenerator.generate(ruleset: ruleset, answers: answers, asOf: start) {
                return (programme.ruleset, programme.rulesetVersion, programme.jsonValue)
            }
            return BuiltInProgramme.choose(answers)
        }
    }

    /// The simulated lifter's true strength on one exercise (hidden from the app).
    struct Lifter {
        var oneRepMaxKg: Double
        var ceilingKg: Double
        var history: [CompletedSession] = []
    }

    public func batches() -> [[JSONValue]] {
        var rng = SplitMix64(seed: seed)
        var batches: [[JSONValue]] = []
        var offset = profile.offsetSeconds
        let unit = WeightUnit(rawValue: profile.unit) ?? .kg
        func draft(_ type: EventType, _ time: Timestamp, _ fields: KeyValuePairs<PayloadKey, JSONValue?> = [:]) -> JSONValue {
            .draft(type, at: time, fields)
        }

        // Onboarding, the evening before the first training week.
        var clock = localTime(day: startDay.day - 1, hour: 20, minute: 5, offset: offset)
        var onboarding: [JSONValue] = [draft(.questionnaireStarted, clock)]
        var answers: [String: JSONValue] = [:]
        for (question, answer) in profile.answers {
            clock = clock.adding(milliseconds: Int64(rng.int(4_000...15_000)))
            onboarding.append(draft(.questionnaireAnswered, clock, [.question: .string(question), .answer: answer]))
            answers[question] = answer
        }
        clock = clock.adding(milliseconds: 2_000)
        onboarding.append(draft(.questionnaireCompleted, clock))
        let chosen = programmeSource(answers)
        clock = clock.adding(milliseconds: 3_000)
        onboarding.append(draft(.programmeGenerated, clock, [
            .ruleset: .string(chosen.ruleset), .rulesetVersion: .int(chosen.version), .programme: chosen.programme,
        ]))
        clock = clock.adding(milliseconds: 40_000)
        onboarding.append(draft(.accountCreated, clock, [.name: .string(profile.displayName), .email: .string(profile.email), .method: "email"]))
        onboarding.append(draft(.profileUpdated, clock.adding(milliseconds: 10), [
            .name: .string(profile.displayName), .unit: .string(profile.unit),
        ]))
        clock = clock.adding(milliseconds: 25_000)
        onboarding.append(draft(.subscriptionStarted, clock, [
            .plan: "annual", .price: 99.99, .currency: "GBP", .trialDays: 7,
            .nextBillingDate: .string(LocalDate(day: startDay.day + 6).description),
        ]))
        batches.append(onboarding)
        if profile.onboardingOnly { return batches }

        let sessions = chosen.programme.objectValue?["sessions"]?.arrayValue ?? []
        let daysPerWeek = chosen.programme.objectValue?["days_per_week"]?.intValue ?? sessions.count
        let weekdays = Simulator.trainingWeekdays(daysPerWeek)
        var lifters: [String: Lifter] = [:]
        var workoutCounter = 0
        var discardedOnce = false, swappedOnce = false, undoneOnce = false, templateSaved = false
        var plannedOnce = false, repeatedOnce = false
        /// The latest finished workout of each programme session (what "repeat" copies).
        var lastFinishedBySession: [Int: String] = [:]
        var editedOnce = false, deletedOnce = false, backdatedOnce = false
        var lastFinished: (id: String, exercise: String, set: Int, weight: Double, reps: Int)?
        var templateID: String?
        var templateSession = -1, templateSuperset = false

        for week in 0..<weeks {
            if let move = profile.move, week == move.week { offset = move.offsetSeconds }
            for (slot, weekday) in weekdays.enumerated() {
                let day = startDay.day + week * 7 + (weekday - 1)
                if rng.chance(profile.missRate) { continue }
                guard !sessions.isEmpty else { break }
                let sessionIndex = slot % sessions.count
                let session = sessions[sessionIndex].objectValue ?? [:]
                let name = session["name"]?.stringValue ?? "Workout"
                workoutCounter += 1
                let workout = "w\(workoutCounter)"
                var t = localTime(day: day, hour: rng.int(17...19), minute: rng.int(0...59), offset: offset)
                var batch: [JSONValue] = []
                var started: KeyValuePairs<PayloadKey, JSONValue?> = [.workout: .string(workout), .name: .string(name), .session: .int(sessionIndex)]
                // Now and then the workout is started from the saved template, when it is of the same session (its exercises).
                var fromTemplate = false
                if let templateID, rng.chance(0.15), sessionIndex == templateSession {
                    fromTemplate = true
                    started = [.workout: .string(workout), .name: .string(name), .session: .int(sessionIndex), .template: .string(templateID)]
                }
                if week == 3 && !plannedOnce {
                    // Once, the lifter plans the session in the afternoon (seed 003 WorkoutPlanner), then starts the plan.
                    plannedOnce = true
                    fromTemplate = false
                    let items: [JSONValue] = (session["exercises"]?.arrayValue ?? []).compactMap(\.objectValue).map { spec in
                        .object(JSONObject(spec.fields.filter { ["exercise", "sets", "reps", "rest_s", "note"].contains($0.key) }))
                    }
                    batches.append([draft(.workoutPlanned, t.adding(milliseconds: -1_200_000), [
                        .plan: "p1", .name: .string(name), .exercises: .array(items), .date: .string(LocalDate(day: day).description),
                    ])])
                    started = [.workout: .string(workout), .name: .string(name), .session: .int(sessionIndex), .plan: "p1"]
                } else if week == 5 && !repeatedOnce, let previous = lastFinishedBySession[sessionIndex] {
                    // Once, "Repeat" on the last workout of this session (seed 003): its exercises and sets are the prescription.
                    repeatedOnce = true
                    fromTemplate = false
                    started = [.workout: .string(workout), .name: .string(name), .session: .int(sessionIndex), .repeatOf: .string(previous)]
                }
                batch.append(draft(.workoutStarted, t, started))
                if rng.chance(0.6) {
                    batch.append(draft(.warmupStarted, t.adding(milliseconds: 20_000), [.workout: .string(workout), .minutes: 5]))
                    t = t.adding(milliseconds: 320_000)
                    batch.append(draft(.warmupCompleted, t, [.workout: .string(workout)]))
                } else {
                    t = t.adding(milliseconds: 15_000)
                    batch.append(draft(.warmupSkipped, t, [.workout: .string(workout)]))
                }
                let discardThis = !discardedOnce && workoutCounter >= 4 && rng.chance(0.25)
                var completedAny = false
                var exercises = (session["exercises"]?.arrayValue ?? []).compactMap(\.objectValue)
                // Now and then the last two exercises are done as a superset (seed 004).
                let rolled = exercises.count >= 4 && rng.chance(0.3)
                // A template's superset is restored when the workout starts from it (seed 004).
                let linkedByTemplate = fromTemplate && templateSuperset
                let superset = rolled || linkedByTemplate
                if rolled && !linkedByTemplate {
                    let pair = exercises.suffix(2).compactMap { $0["exercise"] }
                    batch.append(draft(.supersetLinked, t, [.workout: .string(workout), .group: .string("\(workout)-s1"), .exercises: .array(pair)]))
                }
                var finishedNames: [String] = []
                for (exerciseIndex, spec) in exercises.enumerated() {
                    guard var exercise = spec["exercise"]?.stringValue else { continue }
                    if !swappedOnce && workoutCounter >= 3 && exerciseIndex == 1,
                       let alternative = catalogue.exercise(id: exercise)?.alternatives.first {
                        swappedOnce = true
                        t = t.adding(milliseconds: 30_000)
                        batch.append(draft(.exerciseSwapped, t, [.workout: .string(workout), .from: .string(exercise), .to: .string(alternative), .reason: "machine busy"]))
                        exercise = alternative
                        exercises[exerciseIndex]["exercise"] = .string(exercise)
                    }
                    let sets = spec["sets"]?.intValue ?? 3
                    let range = BuiltInProgramme.repRange(spec["reps"]?.stringValue ?? "8-12")
                    let rest = spec["rest_s"]?.intValue ?? 90
                    let entry = catalogue.exercise(id: exercise)
                    let bodyweight = entry.map(Simulator.isBodyweight) ?? false
                    var lifter = lifters[exercise] ?? startingLifter(exercise, entry: entry, prescribedKg: spec["weight"]?.doubleValue.map { kilograms($0, spec["unit"]?.stringValue) }, range: range, rng: &rng)
                    // The progression engine chooses today's weight from the sessions so far.
                    let rule = ProgressionRule.suggested(for: entry, unit: unit)
                    let target = try? Progression.nextTarget(exercise: exercise, history: Array(lifter.history.suffix(Simulator.historyWindow)), rule: rule)
                    let startWeight = roundWeight(lifter.oneRepMaxKg / (1 + Double(range.upperBound) / 30))
                    let weight = bodyweight ? 0 : (target?.weight ?? startWeight)
                    let weightKg = kilograms(weight, profile.unit)
                    var setNumber = 0
                    if exerciseIndex == 0 && !bodyweight {
                        // Seed 000's suggested warm-up set.
                        let warm = WarmUp.suggestedSet(workingWeight: weight, unit: unit)
                        t = t.adding(milliseconds: 60_000)
                        setNumber += 1
                        batch.append(setDraft(workout, exercise, setNumber, warm?.weight ?? roundWeight(weightKg * 0.6), warm?.reps ?? 10, "warmup", t))
                    }
                    var done: [CompletedSet] = []
                    for index in 0..<sets {
                        setNumber += 1
                        t = t.adding(milliseconds: Int64(rng.int(35_000...70_000)))
                        let reps = simulatedReps(lifter: lifter, weightKg: weightKg, bodyweight: bodyweight, setIndex: index, range: range, rng: &rng)
                        // A set with no rep done is a failed attempt (reps ≥ 1 on a working set, seed 000).
                        batch.append(setDraft(workout, exercise, setNumber, weight, reps, reps == 0 ? "failure" : "working", t))
                        done.append(CompletedSet(weight: weight, unit: unit, reps: reps))
                        completedAny = true
                        lastFinished = (workout, exercise, setNumber, weight, reps)
                        if !undoneOnce && workoutCounter >= 2 && index == 1 {
                            undoneOnce = true
                            t = t.adding(milliseconds: 4_000)
                            batch.append(draft(.setUncompleted, t, [.workout: .string(workout), .exercise: .string(exercise), .set: .int(setNumber)]))
                            t = t.adding(milliseconds: 6_000)
                            // A set with no rep done is a failed attempt (reps ≥ 1 on a working set, seed 000).
                        batch.append(setDraft(workout, exercise, setNumber, weight, reps, reps == 0 ? "failure" : "working", t))
                        }
                        // In a superset the rest timer starts only after the group's last exercise.
                        let insideSuperset = superset && exerciseIndex == exercises.count - 2
                        if !insideSuperset && (index < sets - 1 || exerciseIndex < exercises.count - 1) {
                            t = t.adding(milliseconds: 2_000)
                            batch.append(draft(.restStarted, t, [.workout: .string(workout), .exercise: .string(exercise), .seconds: .int(rest)]))
                            if rng.chance(0.1) {
                                t = t.adding(milliseconds: 20_000)
                                batch.append(draft(.restAdjusted, t, [.workout: .string(workout), .exercise: .string(exercise), .deltaS: 30]))
                                t = t.adding(milliseconds: Int64(rest + 10) * 1000)
                                batch.append(draft(.restFinished, t, [.workout: .string(workout), .exercise: .string(exercise)]))
                            } else if rng.chance(0.2) {
                                let taken = rng.int(rest / 3...max(rest / 3, rest - 5))
                                t = t.adding(milliseconds: Int64(taken) * 1000)
                                batch.append(draft(.restSkipped, t, [.workout: .string(workout), .exercise: .string(exercise), .remainingS: .int(rest - taken)]))
                            } else {
                                t = t.adding(milliseconds: Int64(rest) * 1000)
                                batch.append(draft(.restFinished, t, [.workout: .string(workout), .exercise: .string(exercise)]))
                            }
                        }
                        if discardThis && exerciseIndex == 0 && index == 1 { break }
                    }
                    if discardThis && exerciseIndex == 0 { break }
                    if exerciseIndex == exercises.count - 1 && !bodyweight && rng.chance(0.15) {
                        // A drop set to finish: lighter, straight after the last set, and no rest timer (seed 004).
                        setNumber += 1
                        t = t.adding(milliseconds: 25_000)
                        batch.append(setDraft(workout, exercise, setNumber, roundWeight(weightKg * 0.7), rng.int(6...10), "drop", t))
                    }
                    t = t.adding(milliseconds: 5_000)
                    batch.append(draft(.exerciseSubmitted, t, [.workout: .string(workout), .exercise: .string(exercise)]))
                    finishedNames.append(exercise)
                    lifter.history.append(CompletedSession(workout: workout, exercise: exercise, at: t, sets: done,
                                                           targetReps: range.upperBound, targetSets: sets))
                    // Training makes the lifter a little stronger, less so near the ceiling.
                    let room = max(0, 1 - lifter.oneRepMaxKg / lifter.ceilingKg)
                    lifter.oneRepMaxKg *= 1 + 0.025 * room + (rng.unit() - 0.5) * 0.004
                    lifters[exercise] = lifter
                }
                if completedAny && !discardThis && rng.chance(0.25) {
                    // Ten minutes on a cardio machine at the end (seed 004 cardio: minutes and kilometres).
                    let machine = ["treadmill-run", "stationary-bike", "rowing-machine"][rng.int(0...2)]
                    t = t.adding(milliseconds: 600_000)
                    let km = (Double(rng.int(15...25)) / 10)
                    batch.append(draft(.cardioLogged, t, [.workout: .string(workout), .exercise: .string(machine), .minutes: 10, .km: .number(km)]))
                }
                t = t.adding(milliseconds: 30_000)
                if discardThis {
                    discardedOnce = true
                    batch.append(draft(.workoutDiscarded, t, [.workout: .string(workout)]))
                } else if completedAny {
                    if rng.chance(0.1) { batch.append(draft(.workoutNoted, t, [.workout: .string(workout), .note: "Felt strong today"])) }
                    batch.append(draft(.workoutFinished, t.adding(milliseconds: 1_000), [.workout: .string(workout)]))
                    lastFinishedBySession[sessionIndex] = workout
                } else {
                    batch.append(draft(.workoutDiscarded, t, [.workout: .string(workout)]))
                }
                batches.append(batch)

                // After the first finished workout, save it as a template (seed 004).
                if !templateSaved && completedAny && !discardThis {
                    templateSaved = true
                    templateID = "t1"
                    templateSession = sessionIndex
                    templateSuperset = superset
                    let items: [JSONValue] = exercises.prefix(finishedNames.count).map { spec in
                        var item: JSONObject = ["exercise": spec["exercise"] ?? "", "sets": spec["sets"] ?? 3, "reps": spec["reps"] ?? "8-12",
                                                "rest_s": spec["rest_s"] ?? 90]
                        if superset, exercises.suffix(2).contains(where: { $0["exercise"] == spec["exercise"] }) { item["superset"] = "s1" }
                        return .object(item)
                    }
                    batches.append([draft(.templateCreated, t.adding(milliseconds: 60_000), [
                        .template: "t1", .name: .string("My \(name)"), .exercises: .array(items), .fromWorkout: .string(workout),
                    ])])
                }
                // A week later the lifter notices a typo in that workout and corrects it (seed 003/004 history edits).
                if !editedOnce, workoutCounter >= 6, let last = lastFinished, !discardThis {
                    editedOnce = true
                    batches.append([draft(.setEdited, t.adding(milliseconds: 3_600_000), [
                        .workout: .string(last.id), .exercise: .string(last.exercise), .set: .int(last.set),
                        .reps: .int(last.reps + 1),
                    ])])
                }
            }
            // Once: a workout logged afterwards for a past day, then deleted as a duplicate.
            if week == 2 && !backdatedOnce, let first = sessions.first?.objectValue, let firstExercise = first["exercises"]?.arrayValue?.first?.objectValue?["exercise"] {
                backdatedOnce = true
                workoutCounter += 1
                let workout = "w\(workoutCounter)"
                let now = localTime(day: startDay.day + week * 7 + 6, hour: 10, minute: 0, offset: offset)
                let then = localTime(day: startDay.day + week * 7 + 5, hour: 9, minute: 0, offset: offset)
                let name = first["name"]?.stringValue ?? "Workout"
                let start = roundWeight(lifters[firstExercise.stringValue ?? ""]?.oneRepMaxKg ?? 40) * 0.6
                batches.append([
                    draft(.workoutStarted, now, [.workout: .string(workout), .name: .string(name), .session: .null, .startedAt: .string(then.rfc3339)]),
                    setDraft(workout, firstExercise.stringValue ?? "", 1, roundWeight(start), 10, "working", now.adding(milliseconds: 1_000)),
                    draft(.workoutFinished, now.adding(milliseconds: 2_000), [.workout: .string(workout), .finishedAt: .string(then.adding(milliseconds: 2_700_000).rfc3339)]),
                    draft(.workoutEdited, now.adding(milliseconds: 60_000), [.workout: .string(workout), .name: .string("\(name) (outdoors)")]),
                ])
                if !deletedOnce {
                    deletedOnce = true
                    batches.append([draft(.workoutDeleted, now.adding(milliseconds: 7_200_000), [.workout: .string(workout)])])
                }
            }
            // Now and then, a body-weight check-in on Sunday morning.
            if week % 4 == 3 {
                let sunday = localTime(day: startDay.day + week * 7 + 6, hour: 9, minute: 30, offset: offset)
                let kg = 78.0 + Double(week) * 0.05
                let value = profile.unit == "lb" ? (kg / 0.45359237 * 10).rounded() / 10 : (kg * 10).rounded() / 10
                batches.append([draft(.profileUpdated, sunday, [.bodyWeight: .object(["value": .number(value), "unit": .string(profile.unit)])])])
            }
            if week == 1 {
                let monday = localTime(day: startDay.day + 7, hour: 7, minute: 45, offset: offset)
                batches.append([
                    draft(.settingsChanged, monday, [.key: "rest_compound_s", .value: 120]),
                    draft(.exerciseFavourited, monday.adding(milliseconds: 5_000), [.exercise: sessions.first?.objectValue?["exercises"]?.arrayValue?.first?.objectValue?["exercise"] ?? "barbell-back-squat"]),
                    // Seed 004's per-exercise rest picker, on the first session's last exercise.
                    draft(.restConfigured, monday.adding(milliseconds: 10_000), [.exercise: sessions.first?.objectValue?["exercises"]?.arrayValue?.last?.objectValue?["exercise"] ?? "barbell-back-squat", .seconds: 90]),
                ])
            }
        }
        return batches

        func setDraft(_ workout: String, _ exercise: String, _ set: Int, _ weight: Double, _ reps: Int, _ kind: String, _ time: Timestamp) -> JSONValue {
            draft(.setCompleted, time, [
                .workout: .string(workout), .exercise: .string(exercise), .set: .int(set),
                .weight: .number(weight), .unit: .string(profile.unit), .reps: .int(reps), .kind: .string(kind),
            ])
        }
    }

    func startingLifter(_ exercise: String, entry: Exercise?, prescribedKg: Double?, range: ClosedRange<Int>, rng: inout SplitMix64) -> Lifter {
        let workingKg = profile.startingKg[exercise] ?? prescribedKg ?? BuiltInProgramme.starting[exercise]
            ?? Simulator.typicalStartKg(entry)
        // Strong enough to do the top of the range at the starting weight, with a little in reserve.
        let oneRepMax = workingKg * (1 + Double(range.upperBound + 1) / 30) * (1 + rng.unit() * 0.05)
        return Lifter(oneRepMaxKg: oneRepMax, ceilingKg: oneRepMax * (1.5 + rng.unit() * 0.3))
    }

    /// Equipment that adds no load: these exercises are logged at 0 with the lifter's own body weight.
    static let unloadedEquipment: Set<String> = ["bodyweight", "pull-up-bar", "dip-station", "back-extension-bench", "flat-bench", "incline-bench", "decline-bench"]

    static func isBodyweight(_ exercise: Exercise) -> Bool { exercise.equipment.allSatisfy(unloadedEquipment.contains) }

    /// A plausible first working weight for someone new to an exercise.
    static func typicalStartKg(_ exercise: Exercise?) -> Double {
        guard let exercise else { return 20 }
        if exercise.mechanic == .isolation { return exercise.equipment.contains("barbell") ? 20 : 10 }
        let machine = exercise.equipment.contains { $0.contains("machine") || $0 == "leg-press" || $0 == "hack-squat" }
        switch exercise.pattern {
        case .squat?, .hinge?: return machine ? 100 : 60
        case .carry?: return 24
        default: return exercise.equipment.contains("dumbbells") ? 16 : 40
        }
    }

    /// Reps the lifter manages at `weightKg` (Epley inverted), tired a little more each set.
    func simulatedReps(lifter: Lifter, weightKg: Double, bodyweight: Bool, setIndex: Int, range: ClosedRange<Int>, rng: inout SplitMix64) -> Int {
        if bodyweight { return max(1, range.upperBound - setIndex + rng.int(-1...1)) }
        let fresh = lifter.oneRepMaxKg * (1 - 0.012 * Double(setIndex))
        let possible = 30 * (fresh / max(weightKg, 1) - 1) + (rng.unit() - 0.5) * 2
        return max(0, min(range.upperBound + 1, Int(possible.rounded(.down))))
    }

    func kilograms(_ value: Double, _ unit: String?) -> Double { unit == "lb" ? value * 0.45359237 : value }

    /// A weight in the profile's unit, rounded to what plates allow (2.5 kg or 5 lb).
    func roundWeight(_ kg: Double) -> Double {
        if profile.unit == "lb" { return ((kg / 0.45359237) / 5).rounded() * 5 }
        return (kg / 2.5).rounded() * 2.5
    }

    func localTime(day: Int, hour: Int, minute: Int, offset: Int32) -> Timestamp {
        let local = Int64(day) * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000)
        return Timestamp(epochMilliseconds: local - Int64(offset) * 1000, offsetSeconds: offset)
    }

    /// ISO weekdays (1 = Monday) on which a programme of `days` sessions trains.
    static func trainingWeekdays(_ days: Int) -> [Int] {
        switch days {
        case ...2: return [1, 4]
        case 3: return [1, 3, 5]
        case 4: return [1, 2, 4, 5]
        case 5: return [1, 2, 3, 5, 6]
        default: return [1, 2, 3, 4, 5, 6]
        }
    }
}
