import TrainingDomain
/// Typed calls for the rest of the vocabulary an app records: account and subscription facts, the warm-up card, the
/// session timer, the rest timer running out, the injury warning, the questionnaire's start, equipment, progression
/// settings and custom exercises. Each is one event through `record(_:)`, so the same rules apply (FORMAT.md §10).
extension UserJournal {
    /// How a user signs in (`account.created`, `account.logged_in`); `automatic` only for a login.
    public enum SignInMethod: String, Sendable, CaseIterable {
        /// With an email address and a password.
        case email
        /// With Sign in with Apple.
        case apple
        /// With a Google account.
        case google
        /// A session restored without the user (`account.logged_in` only).
        case automatic = "auto"
    }

    /// A subscription's plan (`subscription.started`, `subscription.renewed`).
    public enum SubscriptionPlan: String, Sendable, CaseIterable {
        /// Billed every month.
        case monthly
        /// Billed every year.
        case annual
        /// Paid once.
        case lifetime
    }

    /// What the lifter chose when the injury warning was shown (`injury.warning_answered`).
    public enum InjuryChoice: String, Sendable, CaseIterable {
        /// Went on with the exercise.
        case continueAnyway = "continue"
        /// Went back without doing it.
        case goBack = "go_back"
        /// Swapped it for another exercise.
        case swap
    }

    /// A bar the lifter owns (`equipment.updated` `bars`), in the update's unit: the model's `OwnedBar`.
    public typealias Bar = OwnedBar

    /// A weight-stack machine (`equipment.updated` `machines`), in the update's unit: the model's `MachineStack`.
    public typealias Machine = MachineStack

    // MARK: Account and subscription (facts only, never credentials: FORMAT.md §13)

    /// The user created an account; its time is "member since". `sign-in method` is not a credential.
    @discardableResult
    public func recordAccountCreated(name: String? = nil, email: String? = nil, method: SignInMethod? = nil) throws(JournalError) -> Event {
        try send(.accountCreated, [.name: UserJournal.text(name), .email: UserJournal.text(email), .method: UserJournal.text(method?.rawValue)])
    }

    /// The user logged in on a device.
    @discardableResult
    public func recordLogin(method: SignInMethod? = nil, deviceName: String? = nil) throws(JournalError) -> Event {
        try send(.accountLoggedIn, [.method: UserJournal.text(method?.rawValue), .deviceName: UserJournal.text(deviceName)])
    }

    /// The user logged out on this device (`account.logged_out`).
    @discardableResult
    public func recordLogout() throws(JournalError) -> Event { try send(.accountLoggedOut, [:]) }

    /// The user reset the password: the fact only, no code and no password.
    @discardableResult
    public func recordPasswordReset() throws(JournalError) -> Event { try send(.accountPasswordReset, [:]) }

    /// The user asked to delete the account. The data goes with `eraseAllData()` (physical) or `clearAllData()`.
    @discardableResult
    public func recordAccountDeletionRequested(reason: String? = nil) throws(JournalError) -> Event {
        try send(.accountDeleted, [.reason: UserJournal.text(reason)])
    }

    /// A subscription started (`subscription.started`): its plan, and its price, currency, free trial and next billing
    /// date when known.
    @discardableResult
    public func recordSubscriptionStarted(plan: SubscriptionPlan, price: Double? = nil, currency: String? = nil, trialDays: Int? = nil,
                                          nextBillingDate: LocalDate? = nil) throws(JournalError) -> Event {
        try send(.subscriptionStarted, [.plan: .string(plan.rawValue), .price: UserJournal.number(price), .currency: UserJournal.text(currency),
                                        .trialDays: UserJournal.int(trialDays), .nextBillingDate: UserJournal.date(nextBillingDate)])
    }

    /// The subscription renewed (`subscription.renewed`), on `plan` when it changed, until `nextBillingDate`.
    @discardableResult
    public func recordSubscriptionRenewed(plan: SubscriptionPlan? = nil, nextBillingDate: LocalDate? = nil) throws(JournalError) -> Event {
        try send(.subscriptionRenewed, [.plan: UserJournal.text(plan?.rawValue), .nextBillingDate: UserJournal.date(nextBillingDate)])
    }

    /// The subscription was cancelled (`subscription.cancelled`), ending on `effectiveDate` when known.
    @discardableResult
    public func recordSubscriptionCancelled(effectiveDate: LocalDate? = nil) throws(JournalError) -> Event {
        try send(.subscriptionCancelled, [.effectiveDate: UserJournal.date(effectiveDate)])
    }

    // MARK: Onboarding, equipment, progression, exercises

    /// The user began the questionnaire of `ruleset` (the answers and the programme: `onboardingDrafts`).
    @discardableResult
    public func startQuestionnaire(ruleset: String? = nil) throws(JournalError) -> Event {
        try send(.questionnaireStarted, [.ruleset: UserJournal.text(ruleset)])
    }

    /// The plates, bars, dumbbell pairs, machines, cable attachments and equipment the lifter owns; only what is
    /// given changes (DOMAIN.md §7 "Equipment"). Weights are in `unit`, else the inventory's unit.
    @discardableResult
    public func updateEquipment(unit: WeightUnit? = nil, plates: [PlateStock]? = nil, bars: [Bar]? = nil, dumbbells: [Double]? = nil,
                                machines: [Machine]? = nil, attachments: [String]? = nil,
                                equipment: [String]? = nil) throws(JournalError) -> Event {
        func exercises(_ ids: [String]) -> JSONValue? { ids.isEmpty ? nil : .array(ids.map(JSONValue.string)) }
        return try send(.equipmentUpdated, [
            .unit: UserJournal.text(unit?.rawValue),
            .plates: plates.map { .array($0.map { .object(["weight": .number($0.weight), "count": .int($0.count)]) }) },
            .bars: bars.map { .array($0.map { bar in
                var object: JSONObject = [:]
                if let name = bar.name { object["name"] = .string(name) }
                object["weight"] = .number(bar.weight)
                if bar.isDefault { object["default"] = .bool(true) }
                if let ids = exercises(bar.exercises) { object["exercises"] = ids }
                return .object(object)
            }) },
            .dumbbells: dumbbells.map { .array($0.map(JSONValue.number)) },
            .machines: machines.map { .array($0.map { machine in
                var object: JSONObject = ["name": .string(machine.name), "min_weight": .number(machine.minimum),
                                          "max_weight": .number(machine.maximum), "increment": .number(machine.increment)]
                if let ids = exercises(machine.exercises) { object["exercises"] = ids }
                return .object(object)
            }) },
            .attachments: attachments.map { .array($0.map(JSONValue.string)) },
            .equipment: equipment.map { .array($0.map(JSONValue.string)) },
        ])
    }

    /// The progression rule of `exercise`; only what is given changes. `target` sets the next target by hand, in
    /// `unit`, else the lifter's unit.
    @discardableResult
    public func configureProgression(_ exercise: ExerciseID, increment: Double? = nil, unit: WeightUnit? = nil,
                                     trigger: ProgressionTrigger? = nil, deloadPercent: Double? = nil,
                                     failuresBeforeDeload: Int? = nil, target: Double? = nil) throws(JournalError) -> Event {
        try send(.progressionConfigured, [.exercise: .string(exercise), .increment: UserJournal.number(increment),
                                          .unit: UserJournal.text(unit?.rawValue), .trigger: UserJournal.text(trigger?.rawValue),
                                          .deloadPercent: UserJournal.number(deloadPercent),
                                          .failuresBeforeDeload: UserJournal.int(failuresBeforeDeload), .target: UserJournal.number(target)])
    }

    /// Creates a custom exercise and returns its id: `id` when given, else `custom-` and the name in kebab case
    /// (`StableID.customExercise`). Muscles are the vocabulary's (`EventVocabulary.muscles`).
    @discardableResult
    public func createExercise(name: String, id: ExerciseID? = nil, primaryMuscles: [String]? = nil, secondaryMuscles: [String]? = nil,
                               equipment: [String]? = nil, mechanic: Mechanic? = nil, category: String? = nil) throws(JournalError) -> ExerciseID {
        let exercise = id ?? ExerciseID(StableID.customExercise(name: name))
        try send(.exerciseCreated, [.exercise: .string(exercise), .name: .string(name),
                                    .primaryMuscles: primaryMuscles.map { .array($0.map(JSONValue.string)) },
                                    .secondaryMuscles: secondaryMuscles.map { .array($0.map(JSONValue.string)) },
                                    .equipment: equipment.map { .array($0.map(JSONValue.string)) },
                                    .mechanic: UserJournal.text(mechanic?.rawValue), .category: UserJournal.text(category)])
        return exercise
    }

    /// Files a custom or imported exercise under the catalogue exercise `catalogueExercise`; nil undoes the link.
    /// Every view re-files its sets.
    @discardableResult
    public func linkExercise(_ exercise: ExerciseID, to catalogueExercise: ExerciseID?) throws(JournalError) -> Event {
        try send(.exerciseLinked, [.exercise: .string(exercise), .to: .some(catalogueExercise.map(JSONValue.string) ?? .null)])
    }

    // MARK: The workout's timers and cards

    /// The warm-up card's timer started (`minutes`, when the card shows a length).
    @discardableResult
    public func startWarmup(_ workout: WorkoutID, minutes: Double? = nil) throws(JournalError) -> Event {
        try send(.warmupStarted, [.workout: .string(workout), .minutes: UserJournal.number(minutes)])
    }

    /// The warm-up timer ran out.
    @discardableResult
    public func completeWarmup(_ workout: WorkoutID) throws(JournalError) -> Event { try send(.warmupCompleted, [.workout: .string(workout)]) }

    /// The user dismissed the warm-up card.
    @discardableResult
    public func skipWarmup(_ workout: WorkoutID) throws(JournalError) -> Event { try send(.warmupSkipped, [.workout: .string(workout)]) }

    /// The session timer paused: paused time is not workout time.
    @discardableResult
    public func pauseWorkout(_ workout: WorkoutID) throws(JournalError) -> Event { try send(.workoutPaused, [.workout: .string(workout)]) }

    /// The session timer resumed after `pauseWorkout` (`workout.resumed`).
    @discardableResult
    public func resumeWorkout(_ workout: WorkoutID) throws(JournalError) -> Event { try send(.workoutResumed, [.workout: .string(workout)]) }

    /// The rest timer of `exercise` ran out (the app's countdown reached zero).
    @discardableResult
    public func finishRest(_ workout: WorkoutID, exercise: ExerciseID) throws(JournalError) -> Event {
        try send(.restFinished, [.workout: .string(workout), .exercise: .string(exercise)])
    }

    /// The injury warning for `muscle` was shown before `exercise` and answered.
    @discardableResult
    public func answerInjuryWarning(_ workout: WorkoutID, exercise: ExerciseID, muscle: String, choice: InjuryChoice) throws(JournalError) -> Event {
        try send(.injuryWarningAnswered, [.workout: .string(workout), .exercise: .string(exercise), .muscle: .string(muscle),
                                          .choice: .string(choice.rawValue)])
    }

    static func date(_ value: LocalDate?) -> JSONValue? { value.map { .string($0.description) } }
}
