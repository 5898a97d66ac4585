import JournalEvents
import JournalStore

extension Merge {
    /// A point in a journal that a later merge reads from instead of its start (SYNC.md §"Rounds that read what
    /// changed"): a position where a read can resume (`JournalReader.read(resumingAt:)`, at the start of the unsealed
    /// tail or the end of the data, keyed by the bytes before it) and the journal's last event when it was taken.
    /// Everything up to that event was in merge order (rule 2) and numbered as a merge numbers it.
    public struct TailMark: Equatable, Sendable {
        /// Where the next read starts, when the bytes before it still give its key.
        public var position: JournalPosition
        /// The line of the journal's last event (1-based; at or after `position`'s lines before).
        public var lastLine: Int
        /// That event's id, seq and `at` in milliseconds since the epoch, and whether it is an erasure marker (rule
        /// 2's order puts markers first).
        public var lastID: String
        public var lastSeq: Int
        public var lastAt: Int64
        public var lastIsMarker: Bool

        /// A mark as `<journal>.sync` stores it (FORMAT.md §"The sync state").
        public init(position: JournalPosition, lastLine: Int, lastID: String, lastSeq: Int, lastAt: Int64, lastIsMarker: Bool) {
            self.position = position
            self.lastLine = lastLine
            self.lastID = lastID
            self.lastSeq = lastSeq
            self.lastAt = lastAt
            self.lastIsMarker = lastIsMarker
        }

        init(position: JournalPosition, line: Int, last: Event) {
            self.init(position: position, lastLine: line, lastID: last.id, lastSeq: last.seq, lastAt: last.at.epochMilliseconds,
                      lastIsMarker: last.knownType == .dataErased)
        }

        var preceding: (key: SortKey, seq: Int) { (SortKey(id: lastID, at: lastAt, isMarker: lastIsMarker), lastSeq) }
    }

    /// What `absorb(_:after:…)` read and did.
    public struct TailAbsorbed: Sendable {
        /// The journal's events after the mark's last event (every event when there was no mark), as read, followed
        /// by the events appended.
        public var events: [Event]
        /// Events decoded from the file: `events` less those appended, and the mark's last event, read again to
        /// check it is still there when it is after the mark's position.
        public var read: Int
        /// Events of the journal before the first of `events`.
        public var before: Int
        /// How many of `events`, at the end, were appended (the incoming events the journal lacked).
        public var appended: Int
        /// Where the next merge may start reading, as of this read: nil when the journal is empty or damaged, or when
        /// what was read is not in merge order (the next merge then reads the whole journal).
        public var next: TailMark?
    }

    /// The journal's events after `mark`'s last event (all of them when `mark` is nil), the number of events before
    /// them and where a later read may resume; nil when the bytes before `mark`'s position changed (a merge or an
    /// erasure rewrote the file, it was replaced, or sealed by the older rule) or its last event is not there. Lines
    /// between the position and the mark's last event are skipped without being decoded. Throws for a line that is
    /// not an event.
    static func tail(path: String, storage: any Storage, after mark: TailMark?) throws -> (events: [Event], read: Int, before: Int, stable: JournalPosition?)? {
        if !storage.exists(path) { return mark == nil ? ([], 0, 0, nil) : nil }
        if let mark, mark.lastLine < mark.position.linesBefore || mark.lastLine < 1 { return nil }
        let decoder = EventCodec.StreamDecoder()
        let skipThrough = mark?.lastLine ?? 0
        var events: [Event] = []
        var decoded = 0
        var lastSeen = false
        var bad: (line: Int, offset: Int, problem: String)?
        let read: JournalReader.ResumedRead
        do {
            read = try JournalReader.read(path: path, storage: storage, resumingAt: mark?.position, stable: .unsealedTail, onFrame: { _ in }) { line, location in
                guard location.lineNumber >= skipThrough else { return }
                do {
                    let event = try decoder.decode(line)
                    decoded += 1
                    if let mark, location.lineNumber == mark.lastLine {
                        if event.id != mark.lastID || event.seq != mark.lastSeq {
                            bad = bad ?? (location.lineNumber, location.frameOffset, "is \(event.id) (seq \(event.seq)), not the \(mark.lastID) (seq \(mark.lastSeq)) of the sync's mark")
                        }
                        lastSeen = true
                    } else {
                        events.append(event)
                    }
                } catch let error as EventCodec.DecodingError {
                    bad = bad ?? (location.lineNumber, location.frameOffset, "is not an event: \(error)")
                }
            }
        } catch let error as StoreError {
            throw JournalError.store(error)
        }
        guard let mark else {
            if let bad { throw Problem.damaged(path: path, offset: bad.offset, reason: "line \(bad.line) \(bad.problem)") }
            return (events, decoded, 0, read.stable)
        }
        // A mark the journal no longer matches is no mark: the whole journal is read instead, which reports damage.
        guard bad == nil, read.resumed, lastSeen || mark.lastLine == mark.position.linesBefore else { return nil }
        return (events, decoded, mark.lastLine, read.stable)
    }

    /// The merge of `incoming` into the journal at `path` (whose writer lock the caller holds, when it appends) that
    /// reads only the events after `mark`'s last one: nil when it cannot decide from them alone (`mark` stale, an
    /// incoming event that names an account e-mail (rule 6), an incoming id held there with other content, an event
    /// that sorts before the journal's last, or events to append and no `append`); then `absorb` merges with the
    /// whole journal. `incoming` must hold no event the journal holds up to `mark` (a sync leaves out the ids the
    /// server is known to hold, SYNC.md §"Rounds that read what changed"). The events it lacks go to `append`,
    /// numbered after the journal's last, as `appendedOnly` would hand them.
    public static func absorb(_ incoming: [Event], after mark: TailMark?, into path: String, storage: any Storage = PosixStorage(),
                              append: (([Event]) throws -> Void)? = nil) throws -> TailAbsorbed? {
        guard !incoming.contains(where: namesEmail) else { return nil }
        guard let (local, read, before, stable) = try tail(path: path, storage: storage, after: mark) else { return nil }
        guard let fresh = appendedOnly(local, incoming, after: mark?.preceding) else {
            // Not in merge order: nothing can be appended here, and no mark is given (the next merge reads it all).
            guard incoming.isEmpty else { return nil }
            return TailAbsorbed(events: local, read: read, before: before, appended: 0, next: nil)
        }
        if !fresh.isEmpty {
            guard let append else { return nil }
            try append(fresh)
        }
        let events = local + fresh
        var next: TailMark?
        if let stable {
            if let last = events.last {
                next = TailMark(position: stable, line: before + events.count, last: last)
            } else if var same = mark {
                same.position = stable
                next = same
            }
        }
        return TailAbsorbed(events: events, read: read, before: before, appended: fresh.count, next: next)
    }
}
