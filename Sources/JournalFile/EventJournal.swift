import JournalEvents
import JournalModel
import JournalStore

/// A user's journal opened for recording: the store's single writer plus the recording rules
/// folded over every event already there. Events are checked, then appended durably; the
/// tail is sealed into one new frame when a workout ends (FORMAT.md §"Sealing").
public final class EventJournal {
    public struct Options: Sendable {
        public var store = JournalWriter.Options()
        /// Seal once this many events sit in one-event frames, even mid-workout.
        public var sealAfterEvents = 64
        /// Event types after which the tail is sealed.
        public var sealAfterTypes: Set<String> = ["workout.finished", "workout.discarded", "questionnaire.completed",
                                                  "programme.generated", "data.cleared", "template.created"]
        /// Accept event types this version does not know (written by a newer app).
        public var allowUnknownTypes = false
        /// The catalogue's exercise ids: events naming any other exercise that is not a custom one are refused
        /// (`RecordingRules(catalogue:)`). Nil: exercise ids are only checked for shape.
        public var catalogue: Set<String>?
        /// The catalogue's cardio exercise ids: new sets on them and new cardio entries on its other exercises are
        /// refused (`RecordingRules(cardio:)`). Empty: not checked.
        public var cardio: Set<String> = []
        /// Refuse a live `workout.started` while another live workout is open (`RecordingRules(oneOpenWorkout:)`).
        public var oneOpenWorkout = false
        public init() {}

        /// Empty recording rules with these options: what the writer folds the journal into when it opens it, and
        /// again after a merge or an erasure replaces the file.
        func emptyRules() -> RecordingRules {
            RecordingRules(catalogue: catalogue, oneOpenWorkout: oneOpenWorkout, cardio: cardio)
        }
    }

    public let path: String
    public let device: String
    public let options: Options
    public private(set) var rules = RecordingRules()
    /// The last seal that failed after its events were already durable (they stay acknowledged).
    public private(set) var lastSealError: (any Error)?
    private(set) var writer: JournalWriter
    let storage: any Storage
    let clock: () -> Timestamp
    /// Events in the journal (the count an erasure records).
    public private(set) var eventCount = 0

    public var recovery: JournalWriter.Recovery { writer.recovery }
    public var scanReport: ScanReport { writer.report }

    /// Opens or creates the journal at `path`. `device` tags the ids this writer assigns;
    /// `clock` supplies `at` for events that have none.
    public init(path: String, storage: any Storage = PosixStorage(), device: String, options: Options = Options(),
                clock: @escaping () -> Timestamp) throws(JournalError) {
        guard EventID.isValidDeviceTag(device) else { throw .badDeviceTag(device) }
        self.path = path
        self.device = device
        self.options = options
        self.clock = clock
        self.storage = storage
        var rules = options.emptyRules()
        var count = 0
        do {
            writer = try JournalWriter(path: path, storage: storage, options: options.store) { line, location in
                switch Result(catching: { () throws(EventCodec.DecodingError) -> Event in try EventCodec.decode(line) }) {
                case .success(let event): rules.apply(event); count += 1
                case .failure(let problem):
                    throw JournalError.badStoredLine(path: path, line: location.lineNumber, frameOffset: location.frameOffset, problem: problem)
                }
            }
        } catch let error as JournalError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.io(path: path, operation: "open", errno: 0, message: "\(error)"))
        }
        self.rules = rules
        eventCount = count
    }

    /// Checks `draft` (a JSON object; envelope keys optional) and appends it durably.
    /// Returns the event as stored. On refusal the file is unchanged.
    @discardableResult
    public func record(_ draft: JSONValue, inputLine: Int? = nil, sealNow: Bool = true) throws(JournalError) -> Event {
        try record(batch: [draft], firstInputLine: inputLine, sealNow: sealNow)[0]
    }

    /// How a group commit lays its events out in the file.
    public enum Framing: Sendable {
        /// One-line tail frames, sealed by the rule of FORMAT.md §6 (a live session: the app, `journal record`).
        case live
        /// Written sealed, in frames of up to `JournalWriter.linesPerBatchFrame` lines at `CompressionLevel.batch`
        /// (FORMAT.md §5 "Batches"): imports, `journal record --batch`, re-recorded copies.
        case batch
    }

    /// Group commit: checks every draft in order (each against the journal plus the ones
    /// before it), then appends them all with one fsync. All or nothing.
    /// With `sealNow: false` a due seal waits for `sealIfDue()`, so a caller can acknowledge
    /// first (the events are durable either way; sealing only recompresses them).
    @discardableResult
    /// `inputLines`, when given, are the input lines of the drafts one by one (a refusal names its own), else
    /// `firstInputLine` + the draft's index.
    public func record(batch drafts: [JSONValue], firstInputLine: Int? = nil, inputLines: [Int]? = nil, sealNow: Bool = true,
                       framing: Framing = .live) throws(JournalError) -> [Event] {
        try record(batch: drafts.map(Draft.value), firstInputLine: firstInputLine, inputLines: inputLines, sealNow: sealNow, framing: framing)
    }

    /// A draft to record: a JSON object (envelope keys optional), a typed draft, or an event whose envelope is whole
    /// already.
    public enum Draft: Sendable {
        case value(JSONValue)
        /// Checked as `value` of its `jsonValue` would be, without building that JSON object (`journal import`).
        case typed(EventDraft)
        /// Decoded from a line holding a whole envelope (`EventCodec.decode`): checked as `value` of that line would be.
        case complete(Event)

        /// The draft of an input line: one pass into an event when the line is an event in canonical form, else its
        /// JSON value (which `JSONParser` refuses with its reason and offset when the line is not JSON).
        public init(line: [UInt8]) throws(JSONParser.Error) {
            if let event = EventCodec.decodeCanonical(line) { self = .complete(event); return }
            self = .value(try JSONParser.parse(line))
        }

        /// `init(line:)` for one line of a stream, read with the stream's decoder (which learns the strings of the
        /// lines before it).
        public init(line: [UInt8], decoder: EventCodec.StreamDecoder) throws(JSONParser.Error) {
            if let event = decoder.decodeCanonical(line) { self = .complete(event); return }
            self = .value(try JSONParser.parse(line))
        }
    }

    /// `record(batch:)` of drafts of either kind.
    @discardableResult
    public func record(batch drafts: [Draft], firstInputLine: Int? = nil, inputLines: [Int]? = nil, sealNow: Bool = true,
                       framing: Framing = .live) throws(JournalError) -> [Event] {
        var staged = rules
        var events: [Event] = []
        events.reserveCapacity(drafts.count)
        for (index, draft) in drafts.enumerated() {
            let prepared = switch draft {
            case .value(let value): staged.prepare(value, device: device, now: clock(), allowUnknownTypes: options.allowUnknownTypes)
            case .typed(let typed): staged.prepare(typed, device: device, allowUnknownTypes: options.allowUnknownTypes)
            case .complete(let event): staged.prepare(complete: event, allowUnknownTypes: options.allowUnknownTypes)
            }
            switch prepared {
            case .success(let event):
                staged.apply(event)
                events.append(event)
            case .failure(let problem):
                throw .refused(path: path, line: inputLines?[index] ?? firstInputLine.map { $0 + index }, problem: problem)
            }
        }
        do {
            switch framing {
            case .live: try writer.append(events.map { EventCodec.encode($0) })
            case .batch: try writer.appendBatch(events.map { EventCodec.encode($0) })
            }
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.io(path: path, operation: "append", errno: 0, message: "\(error)"))
        }
        rules = staged
        eventCount += events.count
        if events.contains(where: { options.sealAfterTypes.contains($0.type) }) { sealDue = true }
        if sealNow { sealIfDue() }
        return events
    }

    /// True when a workout ended (or another sealing type arrived) since the last seal.
    private var sealDue = false

    /// Seals when a sealing event arrived or the unsealed tail reached `sealAfterEvents`.
    public func sealIfDue() {
        guard sealDue || writer.tailRecordCount >= options.sealAfterEvents else { return }
        sealDue = false
        seal()
    }

    /// Seals the tail now. A failure here loses nothing: the events are already durable.
    public func seal() {
        do {
            try writer.seal()
            lastSealError = nil
        } catch {
            lastSealError = error
        }
    }

    /// Merges `incoming` (another copy's events: what a sync pulled) into this open journal with `journal merge`'s
    /// rules, through this writer and its lock: no second open of the file (SYNC.md §"Syncing an open journal").
    /// When the merged order only adds events after the journal's last one, they are appended (one-event frames,
    /// durable before this returns, sealed by the usual rule); otherwise the merge replaces the file as
    /// `Merge.absorb` does and this writer opens the new file. The recording rules are folded again either way.
    /// Throws as `Merge.absorb`; when the new file cannot be opened again (another process took its lock in the
    /// moment between), `JournalError.store(.locked)` and this journal records nothing more: open it again.
    public func absorb(_ incoming: [Event], incomingName: String = "the incoming events") throws -> Merge.Absorbed {
        let local = try EventReader.events(path: path, storage: storage)
        let absorbed = try Merge.absorb(incoming, local: local, into: path, incomingName: incomingName, storage: storage, append: appendMerged)
        if absorbed.appended > 0 { sealIfDue() }
        if absorbed.rewritten {
            writer.close()
            do { writer = try JournalWriter(path: path, storage: storage, options: options.store) } catch let error as StoreError {
                throw JournalError.store(error)
            }
            var fresh = options.emptyRules()
            for event in absorbed.events { fresh.apply(event) }
            rules = fresh
            eventCount = absorbed.events.count
            sealDue = false
        }
        return absorbed
    }

    /// `absorb` reading only the events after `mark` (all of them when it is nil; SYNC.md §"Rounds that read what
    /// changed"): the incoming events the journal lacks are appended through this writer when each sorts after its
    /// last event. Nil when that cannot be decided from those events (`Merge.absorb(_:after:into:storage:append:)`):
    /// nothing was written, and `absorb` merges with the whole journal. `incoming` must leave out the events the
    /// journal holds before `mark`.
    public func absorb(_ incoming: [Event], after mark: Merge.TailMark?) throws -> Merge.TailAbsorbed? {
        let absorbed = try Merge.absorb(incoming, after: mark, into: path, storage: storage, append: appendMerged)
        if let absorbed, absorbed.appended > 0 { sealIfDue() }
        return absorbed
    }

    /// Appends events a merge numbered after the journal's last, and folds them.
    private func appendMerged(_ tail: [Event]) throws {
        do { try writer.append(tail.map { EventCodec.encode($0) }) } catch let error as StoreError { throw JournalError.store(error) }
        for event in tail { rules.apply(event) }
        eventCount += tail.count
        if tail.contains(where: { options.sealAfterTypes.contains($0.type) }) { sealDue = true }
    }

    /// What `eraseAllData` did.
    public struct Erasure: Sendable {
        /// The marker the journal now holds alone: `data.erased`, `through_seq` the last seq erased.
        public var marker: Event
        public var outcome: JournalErasure.Outcome
    }

    /// Erases every event physically (FORMAT.md §6 "Erasure"): afterwards the journal holds one event, the marker
    /// `data.erased` (seq = the last seq + 1, no personal data), and no file the engine wrote beside it keeps
    /// a byte of what was erased (`JournalWriter.erase`). Recording goes on after the marker.
    ///
    /// `adopting`: the marker of an erasure made on another device of the same user, which `journal sync` received
    /// (SYNC.md §"Account erasure"): it becomes this journal's marker as it is (its seq set to its `through_seq` + 1),
    /// so every device ends with the same event; a marker that is not a valid `data.erased` is refused, erasing nothing.
    @discardableResult
    public func eraseAllData(adopting adopted: Event? = nil) throws(JournalError) -> Erasure {
        guard rules.lastSeq > 0 else { throw .nothingToErase(path: path) }
        let marker: Event
        if var adopted {
            adopted.seq = (adopted.int("through_seq") ?? 0) + 1
            if adopted.knownType != .dataErased {
                throw .refused(path: path, line: nil, problem: .rule(EventRuleViolation(type: adopted.type, field: "type", value: .string(adopted.type), rule: "is not data.erased, the only event an erasure adopts")))
            }
            if let violation = RecordingRules().check(adopted) { throw .refused(path: path, line: nil, problem: .rule(violation)) }
            marker = adopted
        } else {
            marker = Event(v: 1, seq: rules.lastSeq + 1, id: rules.nextID(device: device), at: clock(), type: "data.erased",
                           fields: ["through_seq": .int(rules.lastSeq), "events": .int(eventCount)])
            if let violation = RecordingRules().check(marker) { preconditionFailure("the erasure marker breaks a rule: \(violation)") }
        }
        let line = EventCodec.encode(marker) + [0x0A]
        let version = writer.version
        let replacement = (version == .v2 ? Layout.header : []) + Layout.block(Zstd().compressFrame(line, level: options.store.sealLevel), version: version)
        do {
            let outcome = try writer.erase(replacingWith: replacement)
            writer = try JournalWriter(path: path, storage: storage, options: options.store)
            var fresh = options.emptyRules()
            fresh.apply(marker)
            rules = fresh
            eventCount = 1
            sealDue = false
            return Erasure(marker: marker, outcome: outcome)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.io(path: path, operation: "erase", errno: 0, message: "\(error)"))
        }
    }

    /// Gives back the padding reserved for appends (`JournalWriter.releaseReserve`): for a journal
    /// put at rest, such as the samples `journal simulate` writes.
    public func releaseReserve() throws(JournalError) {
        do { try writer.releaseReserve() } catch let error as StoreError { throw .store(error) } catch {
            throw .store(.io(path: path, operation: "truncate", errno: 0, message: "\(error)"))
        }
    }

    public func close() { writer.close() }
    /// Closes, removing the journal if this open created it and nothing was recorded
    /// (`JournalWriter.closeDiscardingIfEmpty`).
    @discardableResult
    public func closeDiscardingIfEmpty() -> Bool { writer.closeDiscardingIfEmpty() }
}
