import JournalEvents
import JournalModel

/// The events `journal onboard` records, as drafts for the journal writer: JSON objects with `type` and the
/// payload fields, envelope left to the writer (`RecordingRules.prepare`).
public enum Onboarding {
    /// Seed 000's screen order, then seed 001's extra questions; other questions follow alphabetically.
    public static let questionOrder = [
        "primary_goal", "experience", "priority_muscles", "equipment", "injuries", "days_per_week", "session_minutes",
        "motivations", "age", "birth_date", "gender", "height", "weight",
    ]

    /// `questionnaire.answered` × N (one per answer, in `questionOrder`), `questionnaire.completed`, then
    /// `programme.generated` with `ruleset`, `ruleset_version` and the programme. Whole numbers given as strings for
    /// `days_per_week` and `age` are written as numbers. Throws when the answers do not fit the rule set.
    ///
    /// When `existing` (the journal so far, as the model folded it) already holds answers or a programme since its
    /// last `programme.reset`,
    /// a `programme.reset` comes first, so earlier answers cannot leak into the new questionnaire (seed 001 "Retake Quiz").
    /// The equipment inventory it records (`EquipmentInventory.recorded(in:)`) is the generator's (DOMAIN.md §4).
    public static func drafts(ruleset: String, answers: [String: JSONValue], asOf: LocalDate? = nil,
                              existing: Ledger? = nil) throws(ProgrammeError) -> [JSONValue] {
        let programme = try ProgrammeGenerator.generate(ruleset: ruleset, answers: answers, asOf: asOf,
                                                        inventory: existing.flatMap(EquipmentInventory.recorded(in:)))
        let known = questionOrder.filter { answers[$0] != nil }
        let others = answers.keys.filter { !questionOrder.contains($0) }.sorted()
        var drafts: [JSONValue] = []
        if let existing, !existing.answers.isEmpty || existing.programme != nil {
            drafts.append(.object(["type": "programme.reset", "reason": "retook the questionnaire"]))
        }
        for question in known + others {
            guard var answer = answers[question] else { continue }
            if question == "days_per_week" || question == "age", let n = answer.looseInt { answer = .int(n) }
            drafts.append(.object(["type": "questionnaire.answered", "question": .string(question), "answer": answer]))
        }
        drafts.append(.object(["type": "questionnaire.completed"]))
        var generated: JSONObject = ["type": "programme.generated"]
        for field in programme.eventFields { generated[field.key] = field.value }
        drafts.append(.object(generated))
        return drafts
    }
}
