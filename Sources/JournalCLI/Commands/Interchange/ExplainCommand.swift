import ArgumentParser
import JournalEvents
import JournalInterchange
import JournalProjections
import TrainingDomain

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Show the events behind a number: streak, record EXERCISE, deload EXERCISE, next-workout.",
        discussion: "So support can answer \"why is my streak 0?\" or \"why did my weight drop?\".")

    @OptionGroup var options: ViewOptions
    @Argument(help: "streak, record, deload or next-workout.") var topic: String
    @Argument(help: "The exercise (for record and deload).") var exercise: String?

    func validate() throws {
        guard ["streak", "record", "deload", "next-workout"].contains(topic) else {
            throw ValidationError("\"\(topic)\" is not one of streak, record EXERCISE, deload EXERCISE, next-workout")
        }
        if (topic == "record" || topic == "deload") && exercise == nil { throw ValidationError("explain \(topic) needs an EXERCISE") }
    }

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            let result: (text: String, json: JSONValue)
            switch topic {
            case "streak": result = streak(analysis)
            case "record": result = try record(analysis, try resolve(analysis))
            case "deload": result = try deload(analysis, try resolve(analysis))
            default: result = nextWorkout(analysis)
            }
            print(options.json ? JSONWriter.string(result.json) : result.text)
        }
    }

    func resolve(_ analysis: Analysis) throws -> String {
        guard let exercise, let id = analysis.resolveExercise(exercise) else {
            throw Failure(message: "no exercise \"\(exercise ?? "")\" in the catalogue or in \(options.file)")
        }
        return id
    }

    /// The weeks (Monday first) that make the current week streak, newest first, with their finished workouts.
    func streak(_ analysis: Analysis) -> (String, JSONValue) {
        let streaks = HomeView(analysis).streak
        let today = analysis.asOf.localDay
        let thisWeek = LocalDate.weekStart(ofDay: today)
        var byWeek: [Int: [WorkoutRecord]] = [:]
        for workout in analysis.finished { byWeek[LocalDate.weekStart(ofDay: workout.day), default: []].append(workout) }
        var lines = ["as of \(analysis.asOf.rfc3339) (week of \(LocalDate(day: thisWeek)))",
                     "week streak: \(streaks.currentWeeks) (longest \(streaks.longestWeeks)); day streak: \(streaks.currentDays) (longest \(streaks.longestDays))",
                     "rule: a week counts when it has a finished workout on its local day (the day it finished); the current week never breaks the streak"]
        var weeks: [JSONValue] = []
        var week = byWeek[thisWeek] == nil ? thisWeek - 7 : thisWeek
        if byWeek[thisWeek] == nil { lines.append("week of \(LocalDate(day: thisWeek)): no workout yet (does not break the streak)") }
        while let workouts = byWeek[week] {
            lines.append("week of \(LocalDate(day: week)): " + workouts.map { "\($0.id) \"\($0.name)\" finished \(LocalDate(day: $0.day)) (started at seq \($0.seq))" }.joined(separator: ", "))
            weeks.append(["week": .string(LocalDate(day: week).description), "workouts": .array(workouts.map { .string($0.id) })])
            week -= 7
        }
        lines.append("week of \(LocalDate(day: week)): no finished workout — the streak stops here")
        if let last = analysis.finished.last {
            lines.append("last finished workout: \(last.id) \"\(last.name)\" on \(LocalDate(day: last.day))")
        } else {
            lines.append("no finished workout in the journal as of this time (open or discarded workouts do not count)")
        }
        return (lines.joined(separator: "\n"), ["current_weeks": .int(streaks.currentWeeks), "longest_weeks": .int(streaks.longestWeeks),
                                                 "current_days": .int(streaks.currentDays), "longest_days": .int(streaks.longestDays),
                                                 "weeks": .array(weeks), "break_week": .string(LocalDate(day: week).description)])
    }

    /// Every record of the exercise in order, with the set that made it.
    func record(_ analysis: Analysis, _ id: String) throws -> (String, JSONValue) {
        let records = analysis.records.filter { $0.exercise == id && $0.kind != .repsAtWeight }
        let unit = analysis.unit
        var lines = ["\(analysis.exerciseName(id)): \(records.count) records (a record must beat the previous best by a gram; no record on the first session)"]
        var json: [JSONValue] = []
        for record in records {
            let workout = analysis.index(of: record.workout).map { analysis.finished[$0] }
            let set = workout?.workingSets(of: id).max { a, b in
                switch record.kind {
                case .heaviestWeight: return a.kilograms < b.kilograms
                case .bestE1RM: return a.kilograms * (1 + Double(a.reps) / 30) < b.kilograms * (1 + Double(b.reps) / 30)
                default: return a.volumeKilograms < b.volumeKilograms
                }
            }
            let value = Units.convert(record.value, from: .kg, to: unit)
            let previous = Units.convert(record.previous, from: .kg, to: unit)
            lines.append("\(record.date) \(record.kind.label): \(format(value)) \(unit.rawValue) (previous best \(format(previous))) in \(record.workout)"
                         + (set.map { ", set \($0.set): \(format($0.weight)) \($0.unit.rawValue) × \($0.reps) recorded at \($0.at.rfc3339)" } ?? ""))
            var entry = JSONObject()
            entry["date"] = .string(record.date.description)
            entry["kind"] = .string(record.kind.rawValue)
            entry["value"] = .number((value * 100).rounded() / 100)
            entry["previous"] = .number((previous * 100).rounded() / 100)
            entry["workout"] = .string(record.workout)
            entry["set"] = set.map { JSONValue.int($0.set) } ?? .null
            json.append(.object(entry))
        }
        return (lines.joined(separator: "\n"), ["exercise": .string(id), "records": .array(json)])
    }

    /// The progression fold over the exercise's sessions, step by step, as the next-target engine runs it.
    func deload(_ analysis: Analysis, _ id: String) throws -> (String, JSONValue) {
        guard let target = progressionTarget(analysis, id) else {
            return ("\(analysis.exerciseName(id)): no finished session, so no target and no deload", ["exercise": .string(id), "deloads": .array([])])
        }
        var lines = ["\(analysis.exerciseName(id)): rule \(format(target.rule.increment)) \(target.rule.unit.rawValue) per success, deload \(format(target.rule.deloadPercent))% after \(target.rule.failuresBeforeDeload) failures",
                     target.explanation]
        if target.deloads.isEmpty { lines.append("no deload so far") }
        for deload in target.deloads {
            lines.append("deload: \(format(deload.from)) → \(format(deload.to)) (-\(format(deload.percent))%) after failing in \(deload.causedBy.joined(separator: ", "))")
        }
        return (lines.joined(separator: "\n"), [
            "exercise": .string(id), "target": target.weight.map { .number($0) } ?? .null, "unit": .string(target.unit.rawValue),
            "explanation": .string(target.explanation),
            "deloads": .array(target.deloads.map { ["from": .number($0.from), "to": .number($0.to), "percent": .number($0.percent), "caused_by": .array($0.causedBy.map { .string($0) })] }),
        ])
    }

    func progressionTarget(_ analysis: Analysis, _ id: String) -> ProgressionTarget? {
        ProjectionContext.progressionTarget(analysis.progressionInput(id))
    }

    func nextWorkout(_ analysis: Analysis) -> (String, JSONValue) {
        let home = HomeView(analysis)
        guard let next = home.nextWorkout else {
            return ("no next workout: the journal has no programme (programme.generated) or it is complete", ["next": .null])
        }
        var lines = ["next workout: session \(next.session) \"\(next.name)\" — the first session of the programme's week not yet completed (journal home shows the week)"]
        var exercises: [JSONValue] = []
        for exercise in next.exercises {
            let target = progressionTarget(analysis, exercise.exercise)
            lines.append("  \(exercise.name): \(exercise.sets) sets" + (exercise.reps.map { " × \($0)" } ?? "")
                         + (target?.weight.map { " at \(format(Units.convert($0, from: target!.unit, to: analysis.unit))) \(analysis.unit.rawValue)" } ?? " (no history: the programme's prescription)"))
            if let target { lines.append("    " + target.explanation.replacingOccurrences(of: "\n", with: "\n    ")) }
            exercises.append(["exercise": .string(exercise.exercise), "target": target?.weight.map { .number($0) } ?? .null,
                              "explanation": target.map { .string($0.explanation) } ?? .null])
        }
        return (lines.joined(separator: "\n"), ["session": .int(next.session), "name": .string(next.name), "exercises": .array(exercises)])
    }

    func format(_ value: Double) -> String { Text.number(value) }
}
