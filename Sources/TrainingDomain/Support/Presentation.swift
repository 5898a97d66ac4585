import JournalEvents
import JournalModel

// Plain renderings for command-line tools and logs. Pure: the CLI only prints them.

extension Exercise {
    /// `{"id", "name", "primary_muscles", "secondary_muscles", "equipment", "mechanic", "pattern", "difficulty", "alternatives", "custom",
    /// "category", "instructions", "attachment"}` (`instructions`: {`setup`, `steps`, `cues`} or null; `attachment`: a cable
    /// attachment's id, present only for an exercise that needs one).
    public var jsonValue: JSONValue {
        var object: JSONObject = [
            "id": .string(id), "name": .string(name),
            "primary_muscles": .array(primaryMuscles.map(JSONValue.string)),
            "secondary_muscles": .array(secondaryMuscles.map(JSONValue.string)),
            "equipment": .array(equipment.map(JSONValue.string)),
            "mechanic": .string(mechanic.rawValue),
        ]
        object["pattern"] = pattern.map { .string($0.rawValue) } ?? .null
        object["difficulty"] = .string(difficulty.rawValue)
        object["alternatives"] = .array(alternatives.map(JSONValue.string))
        if isCustom { object["custom"] = true }
        object["category"] = categoryTab.map(JSONValue.string) ?? .null
        object["instructions"] = instructions.map { how in
            .object(["setup": .string(how.setup), "steps": .array(how.steps.map(JSONValue.string)), "cues": .array(how.cues.map(JSONValue.string))])
        } ?? .null
        if let attachment { object["attachment"] = .string(attachment) }
        return .object(object)
    }

    /// `Setup: …`, the numbered steps and `Cues: …; …`, indented two spaces; none without instructions.
    public var instructionLines: [String] {
        guard let how = instructions else { return [] }
        return ["  Setup: \(how.setup)"] + how.steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }
            + ["  Cues: " + how.cues.joined(separator: " ")]
    }

    /// `barbell-bench-press  Barbell Bench Press  chest (+shoulders, triceps)  barbell, flat-bench  compound`.
    public var line: String {
        let muscles = primaryMuscles.joined(separator: ", ") + (secondaryMuscles.isEmpty ? "" : " (+\(secondaryMuscles.joined(separator: ", ")))")
        return [id, name, muscles, equipment.joined(separator: ", "), mechanic.rawValue].joined(separator: "  ")
    }
}

extension ProgrammeTemplate {
    /// The built-in template as `journal programme templates --json` lists it.
    public var jsonValue: JSONValue {
        .object([
            "template": .string(id), "name": .string(name), "split": .string(split), "experience": .array(experience.map(JSONValue.string)),
            "goals": .array(goals.map(JSONValue.string)), "days": .array(days.map(JSONValue.int)), "weeks": .int(weeks),
            "sessions": .array(sessionNames.map(JSONValue.string)), "exercises": .array(exerciseIDs.map(JSONValue.string)),
            "summary": .string(summary),
        ])
    }

    /// `starting-strength  Starting Strength  beginner  3 days  12 weeks  Workout A, Workout B` and its summary.
    public var lines: [String] {
        let days = days.count > 1 && days == Array((days.min() ?? 0)...(days.max() ?? 0)) ? "\(days.min() ?? 0)–\(days.max() ?? 0)"
            : days.map(String.init).joined(separator: ", ")
        return ["\(id)  \(name)  \(experience.joined(separator: "/"))  \(days) days  \(weeks) weeks  \(sessionNames.joined(separator: ", "))",
                "  \(summary)"]
    }
}

extension PlateLoading {
    public var jsonValue: JSONValue {
        .object([
            "target": .number(target), "bar": .number(barWeight), "unit": .string(unit.rawValue),
            "per_side": .array(perSide.map(JSONValue.number)), "achieved": .number(achieved),
            "difference": .number(difference), "exact": .bool(isExact),
        ])
    }

    /// One line for a logger row: `per side 25, 10 on the 20 kg bar`, and when inexact `(closest 97.5 kg, 2.5 kg short)`.
    public var summary: String {
        let u = unit.rawValue
        var text = "per side \(perSide.isEmpty ? "nothing" : perSide.map(formatWeight).joined(separator: ", ")) on the \(formatWeight(barWeight)) \(u) bar"
        if !isExact { text += " (closest \(formatWeight(achieved)) \(u), \(formatWeight(abs(difference))) \(u) \(difference > 0 ? "short" : "over"))" }
        return text
    }

    /// `100 kg: bar 20 kg + per side 25, 10, 5` and, when inexact, the closest weight and the gap.
    public var lines: [String] {
        let u = unit.rawValue
        let side = perSide.isEmpty ? "nothing" : perSide.map(formatWeight).joined(separator: ", ")
        var lines = ["\(formatWeight(achieved)) \(u): bar \(formatWeight(barWeight)) \(u) + per side \(side)"]
        if !isExact {
            lines.append("\(formatWeight(target)) \(u) cannot be loaded exactly with these plates: closest is \(formatWeight(achieved)) \(u), "
                + "\(formatWeight(abs(difference))) \(u) \(difference > 0 ? "short" : "over")")
        }
        return lines
    }
}

extension Programme {
    /// A readable programme: heading, one block per session, the rationale.
    public func lines(catalogue: ExerciseCatalogue = .builtIn) -> [String] {
        var lines = ["\(split): \(daysPerWeek) days a week for \(weeks) weeks (rule set \(ruleset) v\(rulesetVersion)"
            + (template.map { ", template \($0)" } ?? "") + ")"]
        for (index, session) in sessions.enumerated() {
            lines.append("")
            lines.append("Day \(index + 1): \(session.name)" + (session.focus.map { " (\($0))" } ?? ""))
            for exercise in session.exercises {
                let name = catalogue.exercise(id: exercise.exercise)?.name ?? exercise.exercise
                var text = "  \(name): \(exercise.sets) × \(exercise.reps), rest \(exercise.restSeconds) s"
                if let weight = exercise.weight { text += ", start at \(formatWeight(weight)) \(exercise.unit?.rawValue ?? "kg")" }
                if let note = exercise.note { text += " (\(note))" }
                lines.append(text)
            }
        }
        if let rationale {
            lines.append("")
            lines.append("Why: \(rationale)")
        }
        return lines
    }
}
