/// Interned identities of the vocabulary's event types and payload keys, so that folds switch on
/// a byte instead of comparing strings (`switch event.knownType { case .setCompleted: … }`,
/// `event.string(.workout)`). The decoder sets them from its string table at no cost; every other
/// way of making an `Event` works them out from the strings, so they always agree with `type` and
/// the payload's keys (tests: `InternedNamesTests`, and the differential decoder tests compare
/// whole events).

/// An event type of `EventVocabulary.all`, in table order (`Event.knownType`; nil for types outside it).
public enum EventType: UInt8, CaseIterable, Sendable {
    case accountCreated = 1
    case accountLoggedIn
    case accountLoggedOut
    case accountPasswordReset
    case accountDeleted
    case subscriptionStarted
    case subscriptionRenewed
    case subscriptionCancelled
    case profileUpdated
    case settingsChanged
    case dataCleared
    case questionnaireStarted
    case questionnaireAnswered
    case questionnaireCompleted
    case programmeGenerated
    case programmeReset
    case equipmentUpdated
    case progressionConfigured
    case exerciseCreated
    case exerciseFavourited
    case exerciseUnfavourited
    case workoutPlanned
    case templateCreated
    case templateUpdated
    case templateDeleted
    case workoutStarted
    case workoutFinished
    case workoutDiscarded
    case workoutEdited
    case workoutDeleted
    case workoutNoted
    case warmupStarted
    case warmupCompleted
    case warmupSkipped
    case exerciseAdded
    case exerciseRemoved
    case exercisesReordered
    case exerciseSwapped
    case exerciseNoted
    case exerciseSubmitted
    case injuryWarningAnswered
    case supersetLinked
    case supersetUnlinked
    case setAdded
    case setRemoved
    case setCompleted
    case setUncompleted
    case setEdited
    case setRated
    case setNoted
    case cardioLogged
    case restStarted
    case restAdjusted
    case restSkipped
    case restFinished
    case restConfigured
    case exerciseLinked
    case dataErased
    case workoutPaused
    case workoutResumed
    case dataExported

    /// The type's name as written in a line: `set.completed`.
    public var name: String {
        switch self {
        case .accountCreated: return "account.created"
        case .accountLoggedIn: return "account.logged_in"
        case .accountLoggedOut: return "account.logged_out"
        case .accountPasswordReset: return "account.password_reset"
        case .accountDeleted: return "account.deleted"
        case .subscriptionStarted: return "subscription.started"
        case .subscriptionRenewed: return "subscription.renewed"
        case .subscriptionCancelled: return "subscription.cancelled"
        case .profileUpdated: return "profile.updated"
        case .settingsChanged: return "settings.changed"
        case .dataCleared: return "data.cleared"
        case .questionnaireStarted: return "questionnaire.started"
        case .questionnaireAnswered: return "questionnaire.answered"
        case .questionnaireCompleted: return "questionnaire.completed"
        case .programmeGenerated: return "programme.generated"
        case .programmeReset: return "programme.reset"
        case .equipmentUpdated: return "equipment.updated"
        case .progressionConfigured: return "progression.configured"
        case .exerciseCreated: return "exercise.created"
        case .exerciseFavourited: return "exercise.favourited"
        case .exerciseUnfavourited: return "exercise.unfavourited"
        case .workoutPlanned: return "workout.planned"
        case .templateCreated: return "template.created"
        case .templateUpdated: return "template.updated"
        case .templateDeleted: return "template.deleted"
        case .workoutStarted: return "workout.started"
        case .workoutFinished: return "workout.finished"
        case .workoutDiscarded: return "workout.discarded"
        case .workoutEdited: return "workout.edited"
        case .workoutDeleted: return "workout.deleted"
        case .workoutNoted: return "workout.noted"
        case .warmupStarted: return "warmup.started"
        case .warmupCompleted: return "warmup.completed"
        case .warmupSkipped: return "warmup.skipped"
        case .exerciseAdded: return "exercise.added"
        case .exerciseRemoved: return "exercise.removed"
        case .exercisesReordered: return "exercises.reordered"
        case .exerciseSwapped: return "exercise.swapped"
        case .exerciseNoted: return "exercise.noted"
        case .exerciseSubmitted: return "exercise.submitted"
        case .injuryWarningAnswered: return "injury.warning_answered"
        case .supersetLinked: return "superset.linked"
        case .supersetUnlinked: return "superset.unlinked"
        case .setAdded: return "set.added"
        case .setRemoved: return "set.removed"
        case .setCompleted: return "set.completed"
        case .setUncompleted: return "set.uncompleted"
        case .setEdited: return "set.edited"
        case .setRated: return "set.rated"
        case .setNoted: return "set.noted"
        case .cardioLogged: return "cardio.logged"
        case .restStarted: return "rest.started"
        case .restAdjusted: return "rest.adjusted"
        case .restSkipped: return "rest.skipped"
        case .restFinished: return "rest.finished"
        case .restConfigured: return "rest.configured"
        case .exerciseLinked: return "exercise.linked"
        case .dataErased: return "data.erased"
        case .workoutPaused: return "workout.paused"
        case .workoutResumed: return "workout.resumed"
        case .dataExported: return "data.exported"
        }
    }

    /// The vocabulary type named `name`, if any.
    public init?(name: String) {
        guard let type = EventType.byName[name] else { return nil }
        self = type
    }

    static let byName: [String: EventType] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })
}

/// A key that the vocabulary uses in payloads (top level or nested), for `Event`'s lookups by key
/// (`event.string(.workout)`) and `Event.payloadKey(at:)`. Raw values are the codes `Event` keeps.
public enum PayloadKey: UInt8, CaseIterable, Sendable {
    /// One past the largest code: the size of a table indexed by `rawValue`.
    public static let tableSize = Int(allCases.map(\.rawValue).max() ?? 0) + 1

    case answer = 1
    case bars
    case birthDate
    case bodyWeight
    case calories
    case category
    case choice
    case count
    case currency
    case date
    case daysPerWeek
    case deloadPercent
    case deltaS
    case deviceName
    case edited
    case effectiveDate
    case email
    case equipment
    case exercise
    case exercises
    case experience
    case failuresBeforeDeload
    case finishedAt
    case focus
    case from
    case fromWorkout
    case gender
    case goal
    case group
    case height
    case increment
    case key
    case kind
    case km
    case mechanic
    case method
    case minutes
    case muscle
    case name
    case nextBillingDate
    case note
    case order
    case plan
    case plates
    case position
    case price
    case primaryMuscles
    case priorityMuscles
    case programme
    case question
    case rationale
    case reason
    case remainingS
    case repeatOf
    case reps
    case repsRange
    case restS
    case rpe
    case ruleset
    case rulesetVersion
    case secondaryMuscles
    case seconds
    case session
    case sessionMinutes
    case sessions
    case set
    case sets
    case source
    case split
    case startedAt
    case superset
    case target
    case template
    case to
    case trialDays
    case trigger
    case unit
    case value
    case weeks
    case weight
    case workout
    // Import fidelity: appended so that earlier codes stay as they were.
    case sourceName
    case sourceSet
    case sourceRpe
    case sourceSeconds
    case sourceKm
    case sourceRows
    case outOfRange
    case throughSeq
    case events
    case sourceCategory
    case assisted
    case sourceLayout
    // The equipment inventory, what a clear keeps and the exports history: appended so that earlier codes stay as they were.
    case dumbbells
    case machines
    case attachments
    case keep
    case format
    case destination
    case workouts
    // A negative weight read as help: appended so that earlier codes stay as they were.
    case sourceNegative

    /// The key as written in a line: `birth_date`.
    public var name: String {
        switch self {
        case .answer: return "answer"
        case .bars: return "bars"
        case .birthDate: return "birth_date"
        case .bodyWeight: return "body_weight"
        case .calories: return "calories"
        case .category: return "category"
        case .choice: return "choice"
        case .count: return "count"
        case .currency: return "currency"
        case .date: return "date"
        case .daysPerWeek: return "days_per_week"
        case .deloadPercent: return "deload_percent"
        case .deltaS: return "delta_s"
        case .deviceName: return "device_name"
        case .edited: return "edited"
        case .effectiveDate: return "effective_date"
        case .email: return "email"
        case .equipment: return "equipment"
        case .exercise: return "exercise"
        case .exercises: return "exercises"
        case .experience: return "experience"
        case .failuresBeforeDeload: return "failures_before_deload"
        case .finishedAt: return "finished_at"
        case .focus: return "focus"
        case .from: return "from"
        case .fromWorkout: return "from_workout"
        case .gender: return "gender"
        case .goal: return "goal"
        case .group: return "group"
        case .height: return "height"
        case .increment: return "increment"
        case .key: return "key"
        case .kind: return "kind"
        case .km: return "km"
        case .mechanic: return "mechanic"
        case .method: return "method"
        case .minutes: return "minutes"
        case .muscle: return "muscle"
        case .name: return "name"
        case .nextBillingDate: return "next_billing_date"
        case .note: return "note"
        case .order: return "order"
        case .plan: return "plan"
        case .plates: return "plates"
        case .position: return "position"
        case .price: return "price"
        case .primaryMuscles: return "primary_muscles"
        case .priorityMuscles: return "priority_muscles"
        case .programme: return "programme"
        case .question: return "question"
        case .rationale: return "rationale"
        case .reason: return "reason"
        case .remainingS: return "remaining_s"
        case .repeatOf: return "repeat_of"
        case .reps: return "reps"
        case .repsRange: return "reps_range"
        case .restS: return "rest_s"
        case .rpe: return "rpe"
        case .ruleset: return "ruleset"
        case .rulesetVersion: return "ruleset_version"
        case .secondaryMuscles: return "secondary_muscles"
        case .seconds: return "seconds"
        case .session: return "session"
        case .sessionMinutes: return "session_minutes"
        case .sessions: return "sessions"
        case .set: return "set"
        case .sets: return "sets"
        case .source: return "source"
        case .split: return "split"
        case .startedAt: return "started_at"
        case .superset: return "superset"
        case .target: return "target"
        case .template: return "template"
        case .to: return "to"
        case .trialDays: return "trial_days"
        case .trigger: return "trigger"
        case .unit: return "unit"
        case .value: return "value"
        case .weeks: return "weeks"
        case .weight: return "weight"
        case .workout: return "workout"
        case .sourceName: return "source_name"
        case .sourceSet: return "source_set"
        case .sourceRpe: return "source_rpe"
        case .sourceSeconds: return "source_seconds"
        case .sourceKm: return "source_km"
        case .sourceRows: return "source_rows"
        case .outOfRange: return "out_of_range"
        case .throughSeq: return "through_seq"
        case .events: return "events"
        case .sourceCategory: return "source_category"
        case .assisted: return "assisted"
        case .sourceLayout: return "source_layout"
        case .dumbbells: return "dumbbells"
        case .machines: return "machines"
        case .attachments: return "attachments"
        case .keep: return "keep"
        case .format: return "format"
        case .destination: return "destination"
        case .workouts: return "workouts"
        case .sourceNegative: return "source_negative"
        }
    }

    /// The vocabulary key named `name`, if any.
    public init?(name: String) {
        guard let key = PayloadKey.byName[name] else { return nil }
        self = key
    }

    static let byName: [String: PayloadKey] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })
}
