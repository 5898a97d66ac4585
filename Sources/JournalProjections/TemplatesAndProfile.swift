import JournalEvents
import JournalModel
import TrainingDomain

/// Saved templates, last used first, then newest created (seed 004 Templates, seed 002 routines).
public struct TemplatesState: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        public struct Exercise: Equatable, Sendable {
            public var exercise: String
            public var name: String
            public var sets: Int
            public var reps: String?
            /// Per-set configurations in the display unit (empty when given as a count).
            public var setConfigs: [PrescribedSet]
            public var superset: String?
            public var restSeconds: Int?
            public var note: String?
            /// Cardio presets (seed 004: duration and distance instead of sets).
            public var minutes: Double?
            public var km: Double?
            public init(exercise: String, name: String, sets: Int, reps: String?, setConfigs: [PrescribedSet], superset: String?,
                        restSeconds: Int? = nil, note: String? = nil, minutes: Double? = nil, km: Double? = nil) {
                self.exercise = exercise; self.name = name; self.sets = sets; self.reps = reps; self.setConfigs = setConfigs; self.superset = superset
                self.restSeconds = restSeconds; self.note = note; self.minutes = minutes; self.km = km
            }
        }
        public var template: String
        public var name: String
        public var exercises: [Exercise]
        /// Distinct muscle groups (first primary muscle of each exercise), in order.
        public var muscles: [String]
        public var note: String?
        public var createdAt: Timestamp
        public var lastUsedAt: Timestamp?
        public init(template: String, name: String, exercises: [Exercise], muscles: [String], note: String?, createdAt: Timestamp, lastUsedAt: Timestamp?) {
            self.template = template; self.name = name; self.exercises = exercises; self.muscles = muscles; self.note = note
            self.createdAt = createdAt; self.lastUsedAt = lastUsedAt
        }
    }
    public var templates: [Item]
    public init(templates: [Item]) { self.templates = templates }

    public init(_ analysis: Analysis) {
        let unit = analysis.unit
        let sorted = analysis.ledger.templates.sorted {
            let a = $0.lastUsedAt?.epochMilliseconds ?? Int64.min, b = $1.lastUsedAt?.epochMilliseconds ?? Int64.min
            return a != b ? a > b : $0.createdAt.epochMilliseconds > $1.createdAt.epochMilliseconds
        }
        self.init(templates: sorted.map { template in
            var muscles: [String] = []
            for prescription in template.exercises {
                if let muscle = analysis.muscles(prescription.exercise).first, !muscles.contains(muscle) { muscles.append(muscle) }
            }
            return Item(template: template.id, name: template.name, exercises: template.exercises.map { p in
                Item.Exercise(exercise: p.exercise, name: analysis.exerciseName(p.exercise), sets: p.setCount, reps: p.reps,
                              setConfigs: p.setConfigs.map { config in
                                  var converted = config
                                  if let weight = config.weight {
                                      converted.weight = DisplayWeight(kilograms: (config.unit ?? .kg).kilograms(weight), in: unit).weight
                                      converted.unit = unit
                                  }
                                  return converted
                              }, superset: p.superset, restSeconds: p.restSeconds, note: p.note, minutes: p.minutes, km: p.km)
            }, muscles: muscles, note: template.note, createdAt: template.createdAt, lastUsedAt: template.lastUsedAt)
        })
    }
}

extension ProfileState {
    /// A subscription's state on T's local date (seed 000/001's plan card):
    /// - `cancelled` from `subscription.cancelled` until its `effective_date`, `expired` on and after it (right away
    ///   without one: **Decision:** a cancellation without a date ends the plan at once);
    /// - `trial` during the `trial_days` after it started;
    /// - `lapsed` once `next_billing_date` has passed with no `subscription.renewed` moving it (a missed renewal);
    ///   a `lifetime` plan never lapses;
    /// - else `active`.
    public static func subscriptionStatus(_ subscription: Subscription, asOf: Timestamp) -> String {
        let today = asOf.localDay
        if subscription.cancelledAt != nil {
            guard let effective = subscription.effectiveDate.flatMap(LocalDate.init(iso:)) else { return "expired" }
            return today < effective.day ? "cancelled" : "expired"
        }
        if let days = subscription.trialDays, days > 0, today < subscription.startedAt.localDay + days { return "trial" }
        if subscription.plan != "lifetime", let due = subscription.nextBillingDate.flatMap(LocalDate.init(iso:)), today > due.day { return "lapsed" }
        return "active"
    }
}

/// Profile and settings (seed 000 §13, seed 001 §8, seed 004 Settings).
public struct ProfileState: Equatable, Sendable {
    public var name: String?
    public var email: String?
    public var memberSince: LocalDate?
    public var unit: WeightUnit
    public var birthDate: String?
    public var gender: String?
    public var height: Quantity?
    public var bodyWeight: Quantity?
    public var subscription: Subscription?
    /// As of T (`ProfileState.subscriptionStatus(_:asOf:)`): `trial`, `active`, `cancelled`, `expired` or `lapsed`; nil
    /// without a subscription.
    public var subscriptionStatus: String?
    /// The questionnaire's latest answers (seed 001's profile shows age, gender, height, weight, goals and
    /// motivations), in the questionnaire's order, then any other question by key.
    public var answers: [JSONField]
    public var programme: RecordedProgramme?
    public var favourites: [String]
    /// Every `settings.changed` key with its latest value, sorted by key.
    public var settings: [JSONField]
    public var workouts: Int
    /// Each exercise's own rest (`rest.configured`, seed 004's picker; 0 = Off), by exercise id.
    public var exerciseRest: [(exercise: String, seconds: Int)]
    /// The exports made (`data.exported`, seed 003's exports history), newest first.
    public var exports: [ExportRecord] = []

    public static func == (a: ProfileState, b: ProfileState) -> Bool {
        a.name == b.name && a.email == b.email && a.memberSince == b.memberSince && a.unit == b.unit && a.birthDate == b.birthDate
            && a.gender == b.gender && a.height == b.height && a.bodyWeight == b.bodyWeight && a.subscription == b.subscription
            && a.subscriptionStatus == b.subscriptionStatus && a.programme == b.programme && a.favourites == b.favourites
            && a.settings == b.settings && a.workouts == b.workouts && a.answers == b.answers
            && a.exerciseRest.map(\.exercise) == b.exerciseRest.map(\.exercise) && a.exerciseRest.map(\.seconds) == b.exerciseRest.map(\.seconds)
            && a.exports == b.exports
    }

    public init(_ analysis: Analysis) {
        let ledger = analysis.ledger
        let profile = ledger.profile
        name = profile.name
        email = profile.email
        memberSince = profile.memberSince.map { LocalDate(day: $0.localDay) }
        unit = ledger.displayUnit
        birthDate = profile.birthDate
        gender = profile.gender
        height = profile.height
        bodyWeight = profile.bodyWeight
        subscription = profile.subscription
        subscriptionStatus = profile.subscription.map { ProfileState.subscriptionStatus($0, asOf: ledger.asOf) }
        let order = Onboarding.questionOrder
        answers = (order.filter { ledger.answers[$0] != nil } + ledger.answers.keys.filter { !order.contains($0) }.sorted())
            .map { JSONField($0, ledger.answers[$0]!) }
        programme = ledger.programme
        favourites = ledger.favourites
        settings = ledger.settings.keys.sorted().map { JSONField($0, ledger.settings[$0]!) }
        workouts = analysis.finished.count
        exerciseRest = ledger.restSettings.keys.sorted().map { ($0, ledger.restSettings[$0]!) }
        exports = (ledger.exports ?? []).reversed()
    }
}
