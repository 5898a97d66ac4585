import JournalEvents
import JournalStore

/// `journal record --batch` (FORMAT.md §5 "Batches"): events read from a stream are recorded and acknowledged once
/// per batch — when the batch holds `Policy.lines` events, when `Policy.milliseconds` have passed since its first
/// event was read, and at the end of the input — each batch one group commit written sealed
/// (`EventJournal.Framing.batch`: one write, one sync). Every event is checked against the recording rules exactly as
/// `EventJournal.record` checks it, against the journal and the events before it. A refused line refuses its whole
/// batch: nothing of that batch is written, every batch before it stays acknowledged. Time is the caller's (`now`,
/// milliseconds on any monotonic clock), so the rule is deterministic.
public final class BatchRecorder {
    public struct Policy: Sendable, Equatable {
        /// Events per batch at most.
        public var lines: Int
        /// Longest wait, from reading a batch's first event, before the batch is recorded.
        public var milliseconds: Int64
        public init(lines: Int, milliseconds: Int64) {
            self.lines = lines
            self.milliseconds = milliseconds
        }
        /// Sixteen frames' worth of lines (8,192), or one second: a piped file is acknowledged every 8,192 events, a
        /// slower stream every second.
        public static let standard = Policy(lines: 16 * JournalWriter.linesPerBatchFrame, milliseconds: 1000)
    }

    /// A batch that was refused: nothing of it was written.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public var path: String
        /// The input line at fault, and what was wrong with it.
        public var line: Int
        public var reason: String
        /// The input lines of the refused batch (the faulty line among them).
        public var batch: ClosedRange<Int>
        public var description: String {
            let lines = batch.count == 1 ? "input line \(batch.lowerBound)" : "input lines \(batch.lowerBound)–\(batch.upperBound)"
            return "\(path): input line \(line) \(reason); nothing of its batch (\(lines)) was written, every seq printed before it is durable"
        }
    }

    public let journal: EventJournal
    public let policy: Policy
    var pending: [EventJournal.Draft] = []
    var lines: [Int] = []
    var openedAt: Int64 = 0
    /// The input's decoder: it learns the strings of the lines before (`EventJournal.Draft(line:decoder:)`).
    let decoder = EventCodec.StreamDecoder()

    public init(journal: EventJournal, policy: Policy = .standard) {
        precondition(policy.lines >= 1 && policy.milliseconds >= 0, "a batch holds at least one line and waits no negative time")
        self.journal = journal
        self.policy = policy
    }

    /// Events read but not yet recorded.
    public var pendingCount: Int { pending.count }

    /// Adds the draft read from input line `line` at time `now`; records the batch when it is full (returning its
    /// events, durable), else returns none.
    public func add(_ draft: JSONValue, line: Int, now: Int64) throws(Refusal) -> [Event] {
        try add(.value(draft), line: line, now: now)
    }

    /// Adds input line `line` (its bytes, without the line break) as `add` adds its draft (`EventJournal.Draft(line:)`:
    /// an event in canonical form is decoded in one pass); a line that is not JSON refuses the batch ("is not JSON: …").
    public func add(line bytes: [UInt8], line: Int, now: Int64) throws(Refusal) -> [Event] {
        let draft: EventJournal.Draft
        do { draft = try EventJournal.Draft(line: bytes, decoder: decoder) } catch { throw refuse(line: line, reason: "is not JSON: \(error)") }
        return try add(draft, line: line, now: now)
    }

    func add(_ draft: EventJournal.Draft, line: Int, now: Int64) throws(Refusal) -> [Event] {
        if pending.isEmpty { openedAt = now }
        pending.append(draft)
        lines.append(line)
        return pending.count >= policy.lines ? try flush() : []
    }

    /// Milliseconds until the pending batch is due by time (0: due now); nil when nothing is pending.
    public func millisecondsUntilDue(now: Int64) -> Int64? {
        pending.isEmpty ? nil : max(0, openedAt + policy.milliseconds - now)
    }

    /// Records the pending batch when its time has come.
    public func flushIfDue(now: Int64) throws(Refusal) -> [Event] {
        millisecondsUntilDue(now: now) == 0 ? try flush() : []
    }

    /// Records the pending batch now (at the end of the input): all or nothing.
    public func flush() throws(Refusal) -> [Event] {
        guard !pending.isEmpty else { return [] }
        let drafts = pending, numbers = lines
        pending = []
        lines = []
        let batch = numbers[0]...numbers[numbers.count - 1]
        do {
            return try journal.record(batch: drafts, inputLines: numbers, framing: .batch)
        } catch {
            if case .refused(_, let line?, let problem) = error {
                throw Refusal(path: journal.path, line: line, reason: "was refused: \(problem)", batch: batch)
            }
            throw Refusal(path: journal.path, line: numbers[0], reason: "could not be written: \(error)", batch: batch)
        }
    }

    /// Refuses input line `line` (`reason`: e.g. "is not JSON: …") and with it the pending batch, which is dropped.
    public func refuse(line: Int, reason: String) -> Refusal {
        let first = lines.first ?? line
        pending = []
        lines = []
        return Refusal(path: journal.path, line: line, reason: reason, batch: first...line)
    }
}
