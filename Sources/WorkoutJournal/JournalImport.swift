import JournalEvents
import JournalFile
import JournalInterchange
import JournalModel

/// Another app's CSV export as this journal's events: what an app's "Import from Strong" and `journal import` do
/// (INTERCHANGE.md §"Import"). `plan` reads the file and plans every row against the journal's events so far (names
/// matched to the catalogue, ids derived from the file, so that importing it twice adds nothing); `UserJournal.record(_:)`
/// then records the plan as one all-or-nothing batch.
public enum JournalImport {
    /// How the file is read where it does not say.
    public struct Options: Sendable {
        /// The app that wrote the file, or `.auto` to detect it from the header.
        public var source: ExportReader.Source
        /// The unit of weights the file does not label. Nil: the journal's display unit; for a new journal, pounds
        /// when the weights are in pound plate steps, else kilograms.
        public var unit: WeightUnit?
        /// The UTC offset of the file's wall-clock times, in seconds. Nil: the offset of the journal's last event, else
        /// `now`'s.
        public var utcOffsetSeconds: Int32?
        /// Keep values beyond the sanity limits, marked `out_of_range`, instead of skipping their rows.
        public var keepOutOfRange: Bool
        /// Refuse the whole file at the first row that cannot be read as written, instead of repairing or skipping it.
        public var strict: Bool

        /// Options with the defaults above: the app detected, the unit and offset from the journal.
        public init(source: ExportReader.Source = .auto, unit: WeightUnit? = nil, utcOffsetSeconds: Int32? = nil,
                    keepOutOfRange: Bool = false, strict: Bool = false) {
            self.source = source
            self.unit = unit
            self.utcOffsetSeconds = utcOffsetSeconds
            self.keepOutOfRange = keepOutOfRange
            self.strict = strict
        }
    }

    /// Plans `text`, the export read from `file` (its name is only for messages), as events after `existing`, the
    /// journal's events. `now` gives the offset when neither the options nor the journal do. The summary says which
    /// offset was used and where it came from (`summary.offsetOrigin`: "--utc-offset" when given).
    public static func plan(text: String, file: String, existing: [Event], options: Options = Options(),
                            now: Timestamp) throws(InterchangeError) -> ImportPlan {
        let displayUnit = existing.isEmpty ? WeightUnit.kg : Ledger(events: existing, asOf: Ledger.everything).displayUnit
        let parsed = try ExportReader.read(text: text, file: file, source: options.source,
                                           defaultUnit: options.unit ?? displayUnit, strict: options.strict,
                                           guessUnit: options.unit == nil && existing.isEmpty)
        let offset: Int32, origin: String
        if let given = options.utcOffsetSeconds { (offset, origin) = (given, "--utc-offset") }
        else if let last = existing.last { (offset, origin) = (last.at.offsetSeconds, "the offset of the journal's last event") }
        else { (offset, origin) = (now.offsetSeconds, "this machine's offset now") }
        var plan = ImportPlanner(offsetSeconds: offset, keepOutOfRange: options.keepOutOfRange)
            .plan(parsed, file: file, existing: existing)
        plan.summary.offsetOrigin = origin
        return plan
    }
}

extension UserJournal {
    /// Records an import's plan (`JournalImport.plan`) as one batch in sealed frames: every event, or none with the
    /// journal unchanged. The events recorded.
    @discardableResult
    public func record(_ plan: ImportPlan) throws(JournalError) -> [Event] {
        try record(batch: plan.drafts.map(EventJournal.Draft.typed), framing: .batch)
    }
}
