import JournalEvents

extension Ledger {
    /// Seed 004: at most 10 favourites (the fold ignores an eleventh; the recording rules refuse it).
    public static let maximumFavourites = 10

    /// The event types of the vocabulary the fold deliberately leaves out of the model, each with the reason. Every
    /// other type changes the ledger when it applies (`LedgerCoverageTests` folds one of each into a ledger with an
    /// open and a finished workout and checks both halves, so a type added to the vocabulary must be handled in
    /// `apply(_:)` or listed here).
    public static let ignoredEventTypes: [EventType: String] = [
        .accountLoggedIn: "a session fact of one device: nothing a screen shows depends on it",
        .accountLoggedOut: "a session fact of one device: nothing a screen shows depends on it",
        .accountPasswordReset: "a credential fact: the journal keeps no credentials and shows nothing of it",
        .accountDeleted: "the request only; the `data.cleared` that follows it is what empties the model",
        .questionnaireStarted: "only the answers (`questionnaire.answered`) and the programme count",
        .questionnaireCompleted: "only the answers (`questionnaire.answered`) and the programme count",
    ]
}
