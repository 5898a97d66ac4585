import JournalEvents

/// What a lifter types, as the seeds' forms validate it (FORMAT.md §10, for new events only): a name is never blank,
/// a cardio exercise takes minutes and km and a strength exercise weight and reps. Workouts imported from another app
/// or logged afterwards keep what was written (`recordedAfterwards`), as the 0-rep rule does.
extension RecordingRules {
    /// The manual-entry ranges a refusal names.
    static let strengthFields = "weight (0–\(formatNumber(EventVocabulary.maximumWeight["kg"] ?? 0)) kg or "
        + "0–\(formatNumber(EventVocabulary.maximumWeight["lb"] ?? 0)) lb) and reps (0–\(EventVocabulary.maximumReps)) with set.completed"
    static let cardioFields = "minutes (0–\(formatNumber(EventVocabulary.maximumCardioMinutes))) and "
        + "km (0–\(formatNumber(EventVocabulary.maximumCardioKilometres))) with cardio.logged"

    /// Whether `exercise` is a cardio exercise (true), a strength exercise (false), or not known to be either (nil: a
    /// custom exercise without a category, or no catalogue given).
    func isCardio(_ exercise: String) -> Bool? {
        if ledger.customExercises[exercise] != nil {
            guard let category = customCategories[exercise] else { return nil }
            return category == "cardio"
        }
        guard let catalogue, catalogue.contains(exercise), !cardio.isEmpty else { return nil }
        return cardio.contains(exercise)
    }

    func checkEntry(_ event: Event) -> EventRuleViolation? {
        func refuse(_ field: String, _ rule: String) -> EventRuleViolation {
            EventRuleViolation(type: event.type, field: field, value: event[field], rule: rule)
        }
        // Seed 001's "Full Name Required (non-empty)", and every name a list or a title shows.
        if let name = event.string(.name), name.trimmed.isEmpty {
            return refuse("name", "must not be empty (1–200 bytes of text)")
        }
        guard let workout = event.string(.workout), !recordedAfterwards.contains(workout), let exercise = event.string(.exercise) else { return nil }
        switch event.knownType {
        case .setCompleted?, .setAdded?, .setEdited?:
            guard isCardio(exercise) == true, let field = ["weight", "reps"].first(where: { event[$0] != nil }) else { return nil }
            return refuse(field, "is a strength field and \(exercise) is a cardio exercise: log \(RecordingRules.cardioFields)")
        case .cardioLogged?:
            guard isCardio(exercise) == false else { return nil }
            return refuse("minutes", "is a cardio field and \(exercise) is a strength exercise: log \(RecordingRules.strengthFields)")
        default:
            return nil
        }
    }
}
