import JournalEvents
import JournalModel

/// A built-in programme template (`Data/templates/*.json`), seed 002.
public struct ProgrammeTemplate: Sendable {
    public var id: String
    public var name: String
    public var rank: Int
    public var split: String
    /// `beginner`, `intermediate`, `advanced`.
    public var experience: [String]
    /// `get_stronger`, `build_muscle`, `tone_up`.
    public var goals: [String]
    public var days: [Int]
    public var weeks: Int
    public var summary: String
    /// Cycle the sessions to fill the week (PPL at 5 days: Push, Pull, Legs, Push, Pull).
    public var repeatSessionsToDays: Bool
    let sessions: [JSONValue]

    init(json: JSONValue, file: String) throws {
        guard let id = json["id"]?.stringValue, let name = json["name"]?.stringValue, let split = json["split"]?.stringValue,
              let sessions = json["sessions"]?.arrayValue else {
            throw ProgrammeError.malformedRuleset(file: "templates/\(file)", reason: "needs \"id\", \"name\", \"split\" and \"sessions\"")
        }
        self.id = id
        self.name = name
        self.split = split
        self.sessions = sessions
        rank = json["rank"]?.intValue ?? 1000
        experience = json["experience"]?.stringArray ?? []
        goals = json["goals"]?.stringArray ?? []
        days = (json["days"]?.arrayValue ?? []).compactMap(\.intValue)
        weeks = json["weeks"]?.intValue ?? 8
        summary = json["summary"]?.stringValue ?? ""
        repeatSessionsToDays = json["repeat_sessions_to_days"]?.boolValue ?? false
    }

    /// The sessions' names, in order (`Workout A`, `Workout B`).
    public var sessionNames: [String] { sessions.compactMap { $0["name"]?.stringValue } }

    /// Exercise ids in the order they first appear.
    public var exerciseIDs: [String] {
        var seen: [String] = []
        for session in sessions {
            for item in session["exercises"]?.arrayValue ?? [] {
                if let id = item["exercise"]?.stringValue, !seen.contains(id) { seen.append(id) }
            }
        }
        return seen
    }
}

/// One ranked template for a set of answers.
public struct TemplateRecommendation: Equatable, Sendable {
    public var template: String
    public var name: String
    /// 0–100: the share of the template's exercises the lifter can do (a swap for an alternative counts half).
    public var score: Int
    public var rationale: String
    /// Filters that had to be dropped to find any template (`days`, `goal`), empty when all held.
    public var relaxed: [String]
}

/// The `templates` engine (seed 002): filter templates by experience, goal and days; score by equipment fit;
/// recommend the top ones; instantiate the chosen one (answer `template`, else the best) with starting weights.
struct TemplateEngine {
    let rules: RuleSet
    let catalogue: ExerciseCatalogue
    let inventory: EquipmentInventory?

    func level(_ answers: Answers) -> String { rules.json["levels"]?[answers.experience]?.stringValue ?? "beginner" }

    /// The exercise to use for `id`: itself if usable, else its first usable alternative, else a usable exercise with
    /// the same first primary muscle and pattern. Nil when nothing fits.
    func resolve(_ id: String, _ usability: Usability) -> (exercise: Exercise, swapped: Bool)? {
        guard let exercise = catalogue.exercise(id: id) else { return nil }
        if usability.usable(exercise) { return (exercise, false) }
        for alternative in exercise.alternatives.compactMap(catalogue.exercise(id:)) where usability.usable(alternative) {
            return (alternative, true)
        }
        let fallback = catalogue.exercises.filter {
            usability.usable($0) && $0.primaryMuscles.first == exercise.primaryMuscles.first && $0.pattern == exercise.pattern
                && $0.mechanic == exercise.mechanic
        }.sorted { ($0.difficulty.rank, $0.id) < ($1.difficulty.rank, $1.id) }.first
        return fallback.map { ($0, true) }
    }

    func recommend(_ answers: Answers) throws(ProgrammeError) -> [TemplateRecommendation] {
        let all = ProgrammeGenerator.templates
        guard !all.isEmpty else { throw .noTemplate(ruleset: rules.name) }
        let level = level(answers)
        let usability = Usability(catalogue: catalogue, answers: answers, rules: rules.json, inventory: inventory)
        var relaxed: [String] = []
        var pool = all.filter { $0.experience.contains(level) && $0.goals.contains(answers.goal) && $0.days.contains(answers.days) }
        if pool.isEmpty {
            relaxed.append("days")
            pool = all.filter { $0.experience.contains(level) && $0.goals.contains(answers.goal) }
        }
        if pool.isEmpty {
            relaxed.append("goal")
            pool = all.filter { $0.experience.contains(level) }
        }
        if pool.isEmpty {
            relaxed.append("experience")
            pool = all
        }
        let top = rules.json["top"]?.intValue ?? 3
        let scored = pool.map { template -> TemplateRecommendation in
            let ids = template.exerciseIDs
            var direct = 0, swapped = 0
            for id in ids {
                guard let resolved = resolve(id, usability) else { continue }
                if resolved.swapped { swapped += 1 } else { direct += 1 }
            }
            let score = ids.isEmpty ? 0 : Int(((Double(direct) + Double(swapped) / 2) / Double(ids.count) * 100).rounded())
            var rationale = "\(template.name): \(template.summary); for \(template.experience.joined(separator: "/")) lifters, "
                + "goals \(template.goals.joined(separator: "/")), \(template.days.map(String.init).joined(separator: "/")) days a week; "
                + "equipment fit \(score)% (\(direct) of \(ids.count) exercises as written"
                + (swapped > 0 ? ", \(swapped) swapped for alternatives" : "") + ")"
            if !relaxed.isEmpty { rationale += "; no template matched every answer, so the \(relaxed.joined(separator: " and ")) filter was dropped" }
            rationale += Usability.inventoryNote(inventory, assumed: Usability.assumedEquipment(answers: answers, rules: rules.json, inventory: inventory))
            return TemplateRecommendation(template: template.id, name: template.name, score: score, rationale: rationale, relaxed: relaxed)
        }
        let rank = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.id, $0) })
        return Array(scored.sorted { (-$0.score, rank[$0.template] ?? 0) < (-$1.score, rank[$1.template] ?? 0) }.prefix(top))
    }

    func generate(_ answers: Answers) throws(ProgrammeError) -> Programme {
        let recommendations = try recommend(answers)
        let all = ProgrammeGenerator.templates
        let chosenID = answers.template ?? recommendations.first?.template
        guard let chosenID, let template = all.first(where: { $0.id == chosenID }) else {
            throw .unknownTemplate(id: answers.template ?? "", known: all.map(\.id))
        }
        let usability = Usability(catalogue: catalogue, answers: answers, rules: rules.json, inventory: inventory)
        let level = level(answers)
        let unit = answers.bodyWeight?.unit ?? .kg
        var sessions: [ProgrammeSession] = []
        for session in template.sessions {
            var exercises: [PrescribedExercise] = []
            for item in session["exercises"]?.arrayValue ?? [] {
                guard let id = item["exercise"]?.stringValue, let resolved = resolve(id, usability) else { continue }
                var prescribed = PrescribedExercise(exercise: resolved.exercise.id, sets: item["sets"]?.intValue ?? 3,
                                                    reps: item["reps"]?.stringValue ?? "8-12", restSeconds: item["rest_s"]?.intValue ?? 90,
                                                    note: item["note"]?.stringValue, rpe: item["rpe"]?.doubleValue)
                if resolved.swapped {
                    prescribed.note = "instead of \(catalogue.exercise(id: id)?.name ?? id), which your equipment or injuries rule out"
                } else if let start = item["start"], let minimum = start["minimum"]?.doubleValue {
                    // Starting weight: a share of body weight by level, rounded down to 2.5 kg (5 lb), never below the minimum.
                    let minimumInUnit = unit == .kg ? minimum : Units.roundDown(Units.pounds(minimum, from: .kg), to: 5)
                    var weight = minimumInUnit
                    if let body = answers.bodyWeight, let ratio = start["bodyweight"]?[level]?.doubleValue {
                        weight = max(minimumInUnit, Units.roundDown(Units.convert(body.value, from: body.unit, to: unit) * ratio, to: unit.loadingStep))
                    }
                    // With a recorded inventory: a weight its pairs or stack allow, never below the exercise's own bar.
                    if let inventory {
                        let gear = resolved.exercise.equipment
                        weight = Units.loadable(weight, from: unit, to: unit, on: inventory.loadableWeights(for: resolved.exercise.id, equipment: gear))
                        weight = max(weight, inventory.barWeight(for: resolved.exercise.id, equipment: gear, in: unit) ?? 0)
                    }
                    prescribed.weight = weight
                    prescribed.unit = unit
                }
                exercises.append(prescribed)
            }
            sessions.append(ProgrammeSession(name: session["name"]?.stringValue ?? "Session", exercises: exercises,
                                             focus: session["focus"]?.stringValue))
        }
        if template.repeatSessionsToDays && !sessions.isEmpty {
            let base = sessions
            sessions = (0..<answers.days).map { base[$0 % base.count] }
        }
        let chosen = recommendations.first { $0.template == template.id }
        var rationale = chosen?.rationale ?? "\(template.name): chosen by the answer \"template\"; it did not pass the filters"
        let others = recommendations.filter { $0.template != template.id }.map { "\($0.name) (\($0.score)%)" }
        if !others.isEmpty { rationale += "; also recommended: \(others.joined(separator: ", "))" }
        return Programme(ruleset: rules.name, rulesetVersion: rules.version, split: template.split, daysPerWeek: answers.days,
                         weeks: template.weeks, sessions: sessions, sessionMinutes: answers.sessionMinutes,
                         priorityMuscles: answers.priorityMuscles, goal: answers.goal, experience: answers.experience,
                         rationale: rationale, template: template.id)
    }
}
