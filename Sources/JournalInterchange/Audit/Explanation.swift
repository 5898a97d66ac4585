import JournalEvents
import JournalModel
import JournalProjections
import TrainingDomain

/// `journal explain` (INTERCHANGE.md §"Explain"): the events behind a number, so support can answer "why is my streak
/// 0?" or "why did my weight drop?". Every answer is derived from the model's analysis and the domain's own rules
/// (the streaks and records the views show, `Progression.target` over `Progression.sessions(for:in:)` with the
/// exercise's settings, as the active workout computes it); nothing here re-derives them. `number` formats a
/// figure for people (the CLI passes its own).
public struct Explanation: Equatable, Sendable, JSONRepresentable {
    public var text: String
    public var jsonValue: JSONValue

    public init(text: String, json: JSONValue) { self.text = text; self.jsonValue = json }

    /// The weeks (Monday first) that make the current week streak, newest first, with their finished workouts.
    public static func streak(_ analysis: Analysis) -> Explanation {
        let streaks = HomeState(analysis).streak
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
        return Explanation(text: lines.joined(separator: "\n"), json: [
            "current_weeks": .int(streaks.currentWeeks), "longest_weeks": .int(streaks.longestWeeks),
            "current_days": .int(streaks.currentDays), "longest_days": .int(streaks.longestDays),
            "weeks": .array(weeks), "break_week": .string(LocalDate(day: week).description)])
    }

    /// Every record of the exercise in order, with the set that made it: the working set of its workout whose weight
    /// and reps are the ones the record finder kept (`PersonalRecord.weightKilograms`, `reps`); for session volume,
    /// the workout's biggest set.
    public static func record(_ analysis: Analysis, exercise id: String, number: (Double) -> String) -> Explanation {
        let records = analysis.records.filter { $0.exercise == id && $0.kind != .repsAtWeight }
        let unit = analysis.unit
        var lines = ["\(analysis.exerciseName(id)): \(records.count) records (a record must beat the previous best by a gram; no record on the first session)"]
        var json: [JSONValue] = []
        for record in records {
            let workout = analysis.index(of: record.workout).map { analysis.finished[$0] }
            let sets = workout?.workingSets(of: id) ?? []
            let set = record.weightKilograms.map { kilograms in
                sets.first { Rounding.kilograms($0.kilograms) == kilograms && $0.reps == record.reps }
            } ?? sets.max { $0.volumeKilograms < $1.volumeKilograms }   // session volume: its biggest set
            let value = Units.convert(record.value, from: .kg, to: unit)
            let previous = Units.convert(record.previous, from: .kg, to: unit)
            lines.append("\(record.date) \(record.kind.label): \(number(value)) \(unit.rawValue) (previous best \(number(previous))) in \(record.workout)"
                         + (set.map { ", set \($0.set): \(number($0.weight)) \($0.unit.rawValue) × \($0.reps) recorded at \($0.at.rfc3339)" } ?? ""))
            var entry = JSONObject()
            entry["date"] = .string(record.date.description)
            entry["kind"] = .string(record.kind.rawValue)
            entry["value"] = .number(Rounding.display(value))
            entry["previous"] = .number(Rounding.display(previous))
            entry["workout"] = .string(record.workout)
            entry["set"] = set.map { JSONValue.int($0.set) } ?? .null
            json.append(.object(entry))
        }
        return Explanation(text: lines.joined(separator: "\n"), json: ["exercise": .string(id), "records": .array(json)])
    }

    /// The target the app shows for `exercise` as of the analysis (`ProjectionContext.progressionTarget`: the domain's
    /// `Progression.target` over the model's sessions in the lifter's unit, with the exercise's
    /// `progression.configured` settings). Nil without a finished session.
    public static func progressionTarget(_ analysis: Analysis, exercise id: String, catalogue: ExerciseCatalogue = .builtIn) -> ProgressionTarget? {
        ProjectionContext.progressionTarget(analysis.progressionInput(id), catalogue: catalogue)
    }

    /// The progression fold over the exercise's sessions, step by step, as the next-target engine runs it.
    public static func deload(_ analysis: Analysis, exercise id: String, catalogue: ExerciseCatalogue = .builtIn,
                              number: (Double) -> String) -> Explanation {
        guard let target = progressionTarget(analysis, exercise: id, catalogue: catalogue) else {
            return Explanation(text: "\(analysis.exerciseName(id)): no finished session, so no target and no deload",
                               json: ["exercise": .string(id), "deloads": .array([])])
        }
        var lines = ["\(analysis.exerciseName(id)): rule \(number(target.rule.increment)) \(target.rule.unit.rawValue) per success, deload \(number(target.rule.deloadPercent))% after \(target.rule.failuresBeforeDeload) failures",
                     target.explanation]
        if target.deloads.isEmpty { lines.append("no deload so far") }
        for deload in target.deloads {
            lines.append("deload: \(number(deload.from)) → \(number(deload.to)) (-\(number(deload.percent))%) after failing in \(deload.causedBy.joined(separator: ", "))")
        }
        return Explanation(text: lines.joined(separator: "\n"), json: [
            "exercise": .string(id), "target": target.weight.map { .number($0) } ?? .null, "unit": .string(target.unit.rawValue),
            "explanation": .string(target.explanation),
            "deloads": .array(target.deloads.map { ["from": .number($0.from), "to": .number($0.to), "percent": .number($0.percent), "caused_by": .array($0.causedBy.map { .string($0) })] }),
        ])
    }

    /// The next session of the programme's week and, per exercise, its target in the display unit with the explanation.
    public static func nextWorkout(_ analysis: Analysis, catalogue: ExerciseCatalogue = .builtIn, number: (Double) -> String) -> Explanation {
        let home = HomeState(analysis)
        guard let next = home.nextWorkout else {
            return Explanation(text: "no next workout: the journal has no programme (programme.generated) or it is complete", json: ["next": .null])
        }
        var lines = ["next workout: session \(next.session) \"\(next.name)\" — the first session of the programme's week not yet completed (journal home shows the week)"]
        var exercises: [JSONValue] = []
        for exercise in next.exercises {
            let target = progressionTarget(analysis, exercise: exercise.exercise, catalogue: catalogue)
            lines.append("  \(exercise.name): \(exercise.sets) sets" + (exercise.reps.map { " × \($0)" } ?? "")
                         + (target.flatMap { target in target.weight.map { " at \(number(Units.convert($0, from: target.unit, to: analysis.unit))) \(analysis.unit.rawValue)" } }
                            ?? " (no history: the programme's prescription)"))
            if let target { lines.append("    " + target.explanation.replacingOccurrences(of: "\n", with: "\n    ")) }
            exercises.append(["exercise": .string(exercise.exercise), "target": target?.weight.map { .number($0) } ?? .null,
                              "explanation": target.map { .string($0.explanation) } ?? .null])
        }
        return Explanation(text: lines.joined(separator: "\n"), json: ["session": .int(next.session), "name": .string(next.name), "exercises": .array(exercises)])
    }
}

import Foundation
