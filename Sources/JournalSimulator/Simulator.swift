import JournalEvents

/// Writes a deterministic, realistic life of a lifter as event drafts: onboarding, a
/// generated programme, training days (some missed), warm-ups, sets with progressive
/// overload and deloads, rests taken and skipped, a swapped exercise, an undone set,
/// a discarded workout, a move to another time zone. Same seed and profile, same events.
///
/// Drafts carry `type`, `at` and the payload; the recorder fills `seq`, `id` and `v`.
/// They come in batches: each batch is what one acknowledgement would cover in the app
/// (the onboarding, one workout, one settings change).
public struct Simulator {
    /// Chooses the programme for the answers: (rule set name, version, `programme` object).
    public typealias ProgrammeSource = ([String: JSONValue]) -> (ruleset: String, version: Int, programme: JSONValue)

    public let seed: UInt64
    public let weeks: Int
    public let profile: SimulationProfile
    public let startDay: LocalDate
    let programmeSource: ProgrammeSource

    public init(seed: UInt64, weeks: Int, profile: SimulationProfile, start: LocalDate,
                programme: @escaping ProgrammeSource = BuiltInProgramme.choose) {
        self.seed = seed
        self.weeks = weeks
        self.profile = profile
        startDay = start
        programmeSource = programme
    }

    struct ExerciseState {
        var kg: Double
        var failures = 0
        var sessions = 0
        var readiness = 0.0
    }

    /// Every batch, in order. Each draft is a JSON object.
    public func batches() -> [[JSONValue]] {
        var rng = SplitMix64(seed: seed)
        var batches: [[JSONValue]] = []
        var offset = profile.offsetSeconds
        // Onboarding happens the evening before the first training week.
        var clock = localTime(day: startDay.day - 1, hour: 20, minute: 5, offset: offset)
        func at(_ time: Timestamp) -> JSONValue { .string(time.rfc3339) }
        func draft(_ type: String, _ time: Timestamp, _ fields: KeyValuePairs<String, JSONValue> = [:]) -> JSONValue {
            var object: JSONObject = ["type": .string(type), "at": at(time)]
            for (key, value) in fields { object[key] = value }
            return .object(object)
        }

        var onboarding: [JSONValue] = []
        onboarding.append(draft("questionnaire.started", clock))
        var answers: [String: JSONValue] = [:]
        for (question, answer) in profile.answers {
            clock = clock.adding(milliseconds: Int64(rng.int(4_000...15_000)))
            onboarding.append(draft("questionnaire.answered", clock, ["question": .string(question), "answer": answer]))
            answers[question] = answer
        }
        clock = clock.adding(milliseconds: 2_000)
        onboarding.append(draft("questionnaire.completed", clock))
        let chosen = programmeSource(answers)
        clock = clock.adding(milliseconds: 3_000)
        onboarding.append(draft("programme.generated", clock, [
            "ruleset": .string(chosen.ruleset), "ruleset_version": .int(chosen.version), "programme": chosen.programme,
        ]))
        clock = clock.adding(milliseconds: 40_000)
        onboarding.append(draft("account.created", clock, ["name": .string(profile.displayName), "email": .string(profile.email), "method": "email"]))
        onboarding.append(draft("profile.updated", clock.adding(milliseconds: 10), [
            "name": .string(profile.displayName), "unit": .string(profile.unit),
        ]))
        clock = clock.adding(milliseconds: 25_000)
        onboarding.append(draft("subscription.started", clock, [
            "plan": "annual", "price": 99.99, "currency": "GBP", "trial_days": 7,
            "next_billing_date": .string(LocalDate(day: startDay.day + 6).description),
        ]))
        batches.append(onboarding)
        if profile.onboardingOnly { return batches }

        let sessions = chosen.programme.objectValue?["sessions"]?.arrayValue ?? []
        let daysPerWeek = chosen.programme.objectValue?["days_per_week"]?.intValue ?? sessions.count
        let weekdays = Simulator.trainingWeekdays(daysPerWeek)
        var states: [String: ExerciseState] = [:]
        var workoutCounter = 0
        var discardedOnce = false
        var swappedOnce = false
        var undoneOnce = false
        let increment = profile.unit == "lb" ? 5 * 0.45359237 : 2.5

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
                batch.append(draft("workout.started", t, ["workout": .string(workout), "name": .string(name), "session": .int(sessionIndex)]))
                if rng.chance(0.6) {
                    batch.append(draft("warmup.started", t.adding(milliseconds: 20_000), ["workout": .string(workout), "minutes": 5]))
                    t = t.adding(milliseconds: 320_000)
                    batch.append(draft("warmup.completed", t, ["workout": .string(workout)]))
                } else {
                    t = t.adding(milliseconds: 15_000)
                    batch.append(draft("warmup.skipped", t, ["workout": .string(workout)]))
                }
                let discardThis = !discardedOnce && workoutCounter >= 4 && rng.chance(0.25)
                var completedAny = false
                let exercises = session["exercises"]?.arrayValue ?? []
                for (exerciseIndex, item) in exercises.enumerated() {
                    guard let spec = item.objectValue, var exercise = spec["exercise"]?.stringValue else { continue }
                    if !swappedOnce && workoutCounter >= 3 && exerciseIndex == 1 {
                        swappedOnce = true
                        let alternative = BuiltInProgramme.alternative(for: exercise)
                        t = t.adding(milliseconds: 30_000)
                        batch.append(draft("exercise.swapped", t, ["workout": .string(workout), "from": .string(exercise), "to": .string(alternative), "reason": "machine busy"]))
                        exercise = alternative
                    }
                    let sets = spec["sets"]?.intValue ?? 3
                    let range = BuiltInProgramme.repRange(spec["reps"]?.stringValue ?? "8-12")
                    let rest = spec["rest_s"]?.intValue ?? 90
                    var state = states[exercise] ?? ExerciseState(kg: profile.startingKg[exercise] ?? BuiltInProgramme.startingKg(exercise))
                    let weight = roundWeight(state.kg)
                    if exerciseIndex == 0 {
                        // Seed 000's suggested warm-up: about 60% for 10 reps.
                        t = t.adding(milliseconds: 60_000)
                        batch.append(setDraft(workout, exercise, 1, roundWeight(state.kg * 0.6), 10, "warmup", t))
                    }
                    var allAtTop = true
                    var anyBelow = false
                    let firstWorking = exerciseIndex == 0 ? 2 : 1
                    for index in 0..<sets {
                        let setNumber = firstWorking + index
                        t = t.adding(milliseconds: Int64(rng.int(35_000...70_000)))
                        let fatigue = Double(index) * 0.7
                        let base = Double(range.upperBound) - 1.5 + state.readiness - fatigue + (rng.unit() * 3 - 1.2)
                        let reps = max(range.lowerBound - 2, min(range.upperBound + 2, Int(base.rounded())))
                        if reps < range.upperBound { allAtTop = false }
                        if reps < range.lowerBound { anyBelow = true }
                        batch.append(setDraft(workout, exercise, setNumber, weight, reps, "working", t))
                        completedAny = true
                        if !undoneOnce && workoutCounter >= 2 && index == 1 {
                            undoneOnce = true
                            t = t.adding(milliseconds: 4_000)
                            batch.append(draft("set.uncompleted", t, ["workout": .string(workout), "exercise": .string(exercise), "set": .int(setNumber)]))
                            t = t.adding(milliseconds: 6_000)
                            batch.append(setDraft(workout, exercise, setNumber, weight, reps, "working", t))
                        }
                        if index < sets - 1 || exerciseIndex < exercises.count - 1 {
                            t = t.adding(milliseconds: 2_000)
                            batch.append(draft("rest.started", t, ["workout": .string(workout), "exercise": .string(exercise), "seconds": .int(rest)]))
                            if rng.chance(0.2) {
                                let taken = rng.int(rest / 3...rest - 5)
                                t = t.adding(milliseconds: Int64(taken) * 1000)
                                batch.append(draft("rest.skipped", t, ["workout": .string(workout), "exercise": .string(exercise), "remaining_s": .int(rest - taken)]))
                            } else {
                                t = t.adding(milliseconds: Int64(rest) * 1000)
                                batch.append(draft("rest.finished", t, ["workout": .string(workout), "exercise": .string(exercise)]))
                            }
                        }
                        if discardThis && exerciseIndex == 0 && index == 1 { break }
                    }
                    if discardThis && exerciseIndex == 0 { break }
                    t = t.adding(milliseconds: 5_000)
                    batch.append(draft("exercise.submitted", t, ["workout": .string(workout), "exercise": .string(exercise)]))
                    // Progressive overload (seed 002): all sets at the top → add; three failures → deload 10%.
                    state.sessions += 1
                    if allAtTop {
                        state.kg += increment
                        state.failures = 0
                        state.readiness = -1
                    } else if anyBelow {
                        state.failures += 1
                        if state.failures >= 3 { state.kg *= 0.9; state.failures = 0; state.readiness = 0.5 }
                    } else {
                        state.readiness += 0.6
                    }
                    states[exercise] = state
                }
                t = t.adding(milliseconds: 30_000)
                if discardThis {
                    discardedOnce = true
                    batch.append(draft("workout.discarded", t, ["workout": .string(workout)]))
                } else if completedAny {
                    if rng.chance(0.1) { batch.append(draft("workout.noted", t, ["workout": .string(workout), "note": "Felt strong today"])) }
                    batch.append(draft("workout.finished", t.adding(milliseconds: 1_000), ["workout": .string(workout)]))
                } else {
                    batch.append(draft("workout.discarded", t, ["workout": .string(workout)]))
                }
                batches.append(batch)
            }
            // Now and then, a body-weight check-in on Sunday morning.
            if week % 4 == 3 {
                let sunday = localTime(day: startDay.day + week * 7 + 6, hour: 9, minute: 30, offset: offset)
                let kg = 78.0 + Double(week) * 0.05
                let value = profile.unit == "lb" ? (kg / 0.45359237 * 10).rounded() / 10 : (kg * 10).rounded() / 10
                batches.append([draft("profile.updated", sunday, ["body_weight": .object(["value": .number(value), "unit": .string(profile.unit)])])])
            }
        }
        return batches

        func setDraft(_ workout: String, _ exercise: String, _ set: Int, _ weight: Double, _ reps: Int, _ kind: String, _ time: Timestamp) -> JSONValue {
            draft("set.completed", time, [
                "workout": .string(workout), "exercise": .string(exercise), "set": .int(set),
                "weight": .number(weight), "unit": .string(profile.unit), "reps": .int(reps), "kind": .string(kind),
            ])
        }
    }

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
