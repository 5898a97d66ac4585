#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JournalEvents
import JournalStore

extension Merge {
    /// What `absorb` did.
    public struct Absorbed: Sendable {
        public var report: Report
        /// True when the merge was written to a new file renamed over the journal.
        public var rewritten: Bool
        /// The journal's events afterwards.
        public var events: [Event]
        /// How many events were appended after the journal's own, without rewriting it (an open journal's
        /// `EventJournal.absorb`, when the merged order only adds events after its last one); 0 otherwise. When
        /// neither this nor `rewritten` is set, `incoming` held nothing the journal lacked (the file was not touched).
        public var appended = 0
    }

    /// Merges `incoming` into the journal at `path` (created when absent) with `merge`'s rules — what
    /// `journal sync` does with the events it pulls. Holds the journal's writer lock throughout (a
    /// concurrent `journal record` gets "locked", exit 3); writes the merge to a temporary file beside it
    /// in sealed frames, fsyncs it, renames it over the journal and fsyncs the directory: a crash leaves
    /// either the old journal or the merged one, never a mix. When nothing is new the file is untouched.
    /// Throws `Merge.Problem.damaged` for a journal with an undecodable line, `.differentUsers` (rule 6) when the
    /// journal and `incoming` name account e-mails and share none, `JournalError` for the rest.
    public static func absorb(_ incoming: [Event], into path: String, incomingName: String = "the incoming events",
                              storage: any Storage = PosixStorage()) throws -> Absorbed {
        var local: [Event] = []
        var bad: (line: Int, offset: Int, problem: EventCodec.DecodingError)?
        let writer: JournalWriter
        do {
            writer = try JournalWriter(path: path, storage: storage) { line, location in
                switch Result(catching: { () throws(EventCodec.DecodingError) -> Event in try EventCodec.decode(Array(line)) }) {
                case .success(let event): local.append(event)
                case .failure(let error): bad = bad ?? (location.lineNumber, location.frameOffset, error)
                }
            }
        } catch let error as StoreError {
            throw JournalError.store(error)
        }
        defer { writer.close() }
        if let bad {
            throw Problem.damaged(path: path, offset: bad.offset, reason: "line \(bad.line) is not an event: \(bad.problem)")
        }
        return try absorb(incoming, local: local, into: path, incomingName: incomingName, storage: storage, append: nil)
    }

    /// The merge of `incoming` into `local`, the events of the journal at `path` whose writer lock the caller holds:
    /// nothing to do; or, with `append`, the new events handed to it when the merged order is `local` followed by
    /// them (each new event sorts after the journal's last one, the usual case while two devices record live); or
    /// the merge written to a temporary file in sealed frames, fsynced, renamed over the journal and the directory
    /// fsynced (the caller's writer then holds the replaced file).
    static func absorb(_ incoming: [Event], local: [Event], into path: String, incomingName: String, storage: any Storage,
                       append: (([Event]) throws -> Void)?) throws -> Absorbed {
        try checkSameUser(local, named: path, incoming, named: incomingName)
        if let append, let tail = appendedOnly(local, incoming) {
            // The merge's result without sorting and encoding the whole journal (an open journal's common case).
            var report = Report()
            (report.eventsA, report.eventsB, report.onlyB) = (local.count, incoming.count, tail.count)
            report.shared = Set(incoming.map(\.id)).count - tail.count
            report.onlyA = local.count - report.shared
            report.output = local.count + tail.count
            if !tail.isEmpty { try append(tail) }
            return Absorbed(report: report, rewritten: false, events: local + tail, appended: tail.count)
        }
        let (events, lines, report) = mergeLines(local, incoming)
        guard events != local else {
            return Absorbed(report: report, rewritten: false, events: local)
        }
        if let append, events.count > local.count, events.starts(with: local) {
            try append(Array(events[local.count...]))
            return Absorbed(report: report, rewritten: false, events: events, appended: events.count - local.count)
        }
        let temporary = path + ".merge-\(getpid())"
        try? storage.remove(temporary)
        do {
            var out = try NewJournal(path: temporary, storage: storage)
            for line in lines { out.append(line) }
            try out.finish()
            do {
                try storage.rename(temporary, to: path)
                try storage.syncDirectory(of: path)
            } catch { throw JournalError.store(error) }
        } catch {
            try? storage.remove(temporary)
            throw error
        }
        return Absorbed(report: report, rewritten: true, events: events)
    }

    /// The events `merge(local, incoming)` adds after `local`, renumbered, when its result is `local` followed by
    /// them; nil when it may be anything else (then `merge` decides). That is so when `local` is in rule 2's order
    /// and numbered as `merge` numbers it, every incoming event whose id `local` holds has the same content there
    /// (rule 1), the other incoming ids are distinct, and each of those events sorts after `local`'s last one.
    /// Costs a pass over `local`'s keys, not the encoding and sorting of every event. With `preceding`, `local` is
    /// the journal's events after the one `preceding` describes (a merge that reads from a `TailMark`): they must
    /// sort after it and be numbered from its seq + 1.
    static func appendedOnly(_ local: [Event], _ incoming: [Event], after preceding: (key: SortKey, seq: Int)? = nil) -> [Event]? {
        var held: [String: Int] = [:]
        held.reserveCapacity(local.count)
        for (index, event) in local.enumerated() where held.updateValue(index, forKey: event.id) != nil { return nil }
        var fresh: [String: Event] = [:]
        for event in incoming {
            if let index = held[event.id] {
                guard identity(local[index]) == identity(event) else { return nil }
            } else if let other = fresh.updateValue(event, forKey: event.id), identity(other) != identity(event) {
                return nil
            }
        }
        let base = preceding?.seq ?? local.first.flatMap { $0.knownType == .dataErased ? $0.int("through_seq") : nil } ?? 0
        guard local.last.map({ $0.seq == base + local.count }) ?? true, local.first.map({ $0.seq == base + 1 }) ?? true else { return nil }
        // Keys without the line: distinct ids never tie, so the line is never compared.
        func key(_ event: Event) -> SortKey { SortKey(event, []) }
        var previous: SortKey? = preceding?.key
        for event in local {
            let current = key(event)
            if let previous, !(previous < current) { return nil }
            previous = current
        }
        var tail = fresh.values.sorted { key($0) < key($1) }
        if let previous, let first = tail.first, !(previous < key(first)) { return nil }
        if local.isEmpty, preceding == nil, tail.first?.knownType == .dataErased { return nil }
        let next = local.last?.seq ?? preceding?.seq ?? 0
        for index in tail.indices { tail[index].seq = next + index + 1 }
        return tail
    }
}
