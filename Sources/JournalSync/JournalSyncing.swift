import JournalFile
import Foundation
import JournalEvents
import JournalStore

/// `journal sync` and `journal restore` as library calls (SYNC.md §"The device side"): a device's journal file
/// and a server's copy of the same user's journal become the same events, with `journal merge`'s rules.
///
/// A sync is: pull every event after the device's cursor, merge them into the journal durably
/// (`Merge.absorb`), push the journal's events the server does not have yet (batches of
/// `SyncProtocol.maximumPushEvents`, each acknowledged only once committed), then save the cursor and the
/// ids the server has in `<journal>.sync`. A sync interrupted anywhere is completed by the next one:
/// pulls merge idempotently and pushes are idempotent by event id. A pull that brings another device's
/// erasure marker erases the journal first (SYNC.md §"Account erasure").
public enum JournalSyncing {
    /// Where a sync is, for a progress bar.
    public enum Progress: Equatable, Sendable {
        case pulled(events: Int)
        case merged(newEvents: Int)
        case pushed(events: Int, of: Int)
    }

    public struct SyncReport: Equatable, Sendable {
        public var user: String
        /// Events received from the server (some may already have been on the device).
        public var pulled = 0
        /// Events the device lacked, now in its journal.
        public var merged = 0
        /// Events sent to the server, and how many of them it did not have.
        public var pushed = 0
        public var storedByServer = 0
        /// Events in the device's journal afterwards.
        public var events = 0
        public var cursor: String = "0"
        /// Set when the account was erased on another device and this sync erased the device's journal.
        public var erasure: Erasure?
        /// Events of the device's journal this sync read from its file: those after the mark of the sync before
        /// (SYNC.md §"Rounds that read what changed"), or the whole journal, more than once, when it had to read it.
        /// Not in `jsonValue`.
        public var eventsRead = 0

        /// `journal sync --json`: these keys in this order; `erasure` only when the sync erased the journal.
        public var jsonValue: JSONValue {
            var object: JSONObject = ["user": .string(user), "pulled": .int(pulled), "merged": .int(merged), "pushed": .int(pushed),
                                      "stored_by_server": .int(storedByServer), "events": .int(events), "cursor": .string(cursor)]
            if let erasure {
                object.fields.append(JSONField("erasure", .object(["marker": .string(erasure.marker), "at": .string(erasure.at),
                                                                   "erased": .int(erasure.erased), "kept": .int(erasure.kept)])))
            }
            return .object(object)
        }
    }

    /// What a sync did to the device's journal after the account was erased on another device (SYNC.md §"Account
    /// erasure"): it was erased physically through `EventJournal.eraseAllData(adopting:)`, keeping only the events the
    /// server holds after the erasure.
    public struct Erasure: Equatable, Sendable {
        /// The erasure's marker (`data.erased`), now this journal's first event.
        public var marker: String
        /// The marker's `at`: when the erasing device's clock said it erased (no rule reads it).
        public var at: String
        /// Events of the device's journal erased (every one it held that the server's copy no longer holds), and
        /// events of it kept (those the server holds after the erasure).
        public var erased: Int
        public var kept: Int
    }

    public struct RestoreReport: Equatable, Sendable {
        public var user: String
        public var events: Int
        public var cursor: String

        /// `journal restore --json`: these keys in this order, `output` the journal written.
        public func jsonValue(output: String) -> JSONValue {
            .object(["user": .string(user), "events": .int(events), "cursor": .string(cursor), "output": .string(output)])
        }
    }

    public enum Problem: Error, Sendable, CustomStringConvertible {
        case server(SyncClient.Failure)
        case journal(String)

        public var description: String {
            switch self {
            case .server(let failure): return "\(failure)"
            case .journal(let message): return message
            }
        }
    }

    /// The device's sync state beside its journal: `<journal>.sync`.
    public static func statePath(_ journal: String) -> String { journal + ".sync" }

    /// `<journal>.sync` (FORMAT.md §"Files"): JSON, keys sorted.
    struct State: Codable {
        var server: String
        var user: String
        var cursor: String
        /// Ids the server is known to hold that `known_ranges` cannot write, sorted (every id it holds, in a state
        /// written before `known_ranges`).
        var known: [String]
        /// `KnownIDs.rangesText` of the ids the server is known to hold.
        var knownRanges: String?
        /// Where the next round reads the journal from (`Merge.TailMark`): every event before it is known to the
        /// server. Absent: the next round reads the whole journal.
        var mark: Mark?

        /// A `Merge.TailMark` under the keys of FORMAT.md §"The sync state".
        struct Mark: Codable {
            var value: Merge.TailMark

            enum CodingKeys: String, CodingKey {
                case offset, linesBefore = "lines_before", prefixHash = "prefix_hash", lastLine = "last_line", lastID = "last_id",
                     lastSeq = "last_seq", lastAt = "last_at_ms", lastIsMarker = "last_is_marker"
            }

            init(_ value: Merge.TailMark) { self.value = value }

            init(from decoder: any Decoder) throws {
                let keys = try decoder.container(keyedBy: CodingKeys.self)
                let hex = try keys.decode(String.self, forKey: .prefixHash)
                guard hex.utf8.count == 16, let hash = UInt64(hex, radix: 16) else {
                    throw DecodingError.dataCorruptedError(forKey: .prefixHash, in: keys, debugDescription: "not 16 hex digits")
                }
                let position = JournalPosition(offset: try keys.decode(Int.self, forKey: .offset),
                                               linesBefore: try keys.decode(Int.self, forKey: .linesBefore), prefixHash: hash)
                value = Merge.TailMark(position: position, lastLine: try keys.decode(Int.self, forKey: .lastLine),
                                       lastID: try keys.decode(String.self, forKey: .lastID), lastSeq: try keys.decode(Int.self, forKey: .lastSeq),
                                       lastAt: try keys.decode(Int64.self, forKey: .lastAt), lastIsMarker: try keys.decode(Bool.self, forKey: .lastIsMarker))
            }

            func encode(to encoder: any Encoder) throws {
                var keys = encoder.container(keyedBy: CodingKeys.self)
                let hex = String(value.position.prefixHash, radix: 16)
                try keys.encode(String(repeating: "0", count: 16 - hex.count) + hex, forKey: .prefixHash)
                try keys.encode(value.position.offset, forKey: .offset)
                try keys.encode(value.position.linesBefore, forKey: .linesBefore)
                try keys.encode(value.lastLine, forKey: .lastLine)
                try keys.encode(value.lastID, forKey: .lastID)
                try keys.encode(value.lastSeq, forKey: .lastSeq)
                try keys.encode(value.lastAt, forKey: .lastAt)
                try keys.encode(value.lastIsMarker, forKey: .lastIsMarker)
            }
        }

        enum CodingKeys: String, CodingKey {
            case server, user, cursor, known, knownRanges = "known_ranges", mark
        }

        init(server: String, user: String, cursor: String, known: KnownIDs, mark: Merge.TailMark?) {
            self.server = server
            self.user = user
            self.cursor = cursor
            self.known = known.others.sorted()
            knownRanges = known.rangesText
            self.mark = mark.map(Mark.init)
        }

        /// The ids the server is known to hold; nil when `known_ranges` is not its text form.
        var knownIDs: KnownIDs? {
            guard let knownRanges else { return KnownIDs(known) }
            return KnownIDs(rangesText: knownRanges, others: known)
        }
    }

    /// Syncs the journal at `path` (created when absent) with the server `client` talks to, as `user`
    /// (the token's own user when nil). The journal must not be open for recording in another process; one open in
    /// this process is synced through its own writer by `sync(_:client:user:progress:)` with the `UserJournal`
    /// (`JournalDirectory.sync` finds it).
    public static func sync(_ path: String, client: SyncClient, user: String? = nil,
                            progress: @Sendable (Progress) -> Void = { _ in }) async throws(Problem) -> SyncReport {
        try await sync(JournalFileAtPath(path: path), client: client, user: user, progress: progress)
    }

    /// Syncs `journal` (a file at a path, or a journal open for recording in this process, which merges through its
    /// own writer and tells its observers) with the server `client` talks to, as `user` (the token's own user when nil).
    public static func sync(_ journal: some SyncedJournal, client: SyncClient, user: String? = nil,
                            progress: @Sendable (Progress) -> Void = { _ in }) async throws(Problem) -> SyncReport {
        let path = journal.path
        let user = try await resolveUser(user, client: client)
        var state = loadState(path)
        if state?.server != client.server.absoluteString || state?.user != user { state = nil }
        // A state whose ranges do not read is no state: the sync starts from 0 and reads the whole journal.
        let stateKnown = state?.knownIDs
        if stateKnown == nil { state = nil }
        var known = stateKnown ?? KnownIDs()
        var cursor = state.flatMap { SyncCursor($0.cursor) } ?? .start
        var mark = state?.mark?.value
        var report = SyncReport(user: user)

        // 1. Pull everything after the cursor. An unknown cursor (the server's copy was erased or
        //    replaced) means: start again from 0 and push everything.
        let before = cursor
        var pulled: [Event] = []
        do {
            pulled = try await pullAll(client: client, user: user, after: &cursor, progress: progress)
        } catch .refused(410, "unknown_cursor", _) {
            cursor = .start
            known = KnownIDs()
            mark = nil
            do { pulled = try await pullAll(client: client, user: user, after: &cursor, progress: progress) } catch { throw .server(error) }
        } catch {
            throw .server(error)
        }
        report.pulled = pulled.count

        // 2. A round that reads only what changed (SYNC.md §"Rounds that read what changed"): the journal from the
        //    mark on, the pulled events the server had not given or acknowledged before merged after it. Not when
        //    the pull may erase (a new epoch, an erasure among the pulled events).
        var tail: Merge.TailAbsorbed?
        if let mark, cursor.epoch == before.epoch, !pulled.contains(where: AccountErasure.mayTrigger) {
            let fresh = pulled.filter { !known.contains($0.id) }
            do { tail = try journal.absorb(fresh, after: mark) } catch { throw .journal("\(error)") }
            if let tail { report.merged = tail.appended }
        }
        for event in pulled { known.insert(event.id) }

        if tail == nil {
            // 3. Account erasure, in the order this device learnt of each event (`AccountErasure`), never by `at`.
            //    (Read only when something was pulled: otherwise there is nothing to erase or to keep out.)
            var local: [Event] = []
            if !pulled.isEmpty {
                do { local = try journal.events() } catch { throw .journal("\(error)") }
            }
            let pulledIDs = Set(pulled.map(\.id))
            var incoming = pulled
            if !before.isStart && cursor.epoch > before.epoch {
                // The server's copy was erased since this device last synced: everything the device held came before
                // the erasure (the pull is the server's journal from the erasure on).
                let held = local.filter { !pulledIDs.contains($0.id) }
                let order = held + pulled
                // An erasure this journal holds (its own, pushed since) was applied when the device made it.
                if let start = AccountErasure.lastErasure(in: order), start >= held.count, !local.contains(where: { $0.id == order[start].id }) {
                    let erased = held.count
                    if order[start].knownType == .dataErased, !local.isEmpty {
                        let marker = order[start]
                        do {
                            try journal.erase(adopting: marker)
                        } catch { throw .journal("\(path): cannot erase the journal as the account was erased (marker \(marker.id)): \(error); run the sync again") }
                        report.erasure = Erasure(marker: marker.id, at: marker.at.rfc3339, erased: erased, kept: local.count - erased)
                    } else {
                        // An erasure without a marker to adopt (`data.cleared` after `account.deleted`): the journal
                        // keeps the erased events, hidden by it, and never pushes them back.
                        for event in held { known.insert(event.id) }
                    }
                }
            } else if let first = local.first, first.knownType == .dataErased, !known.contains(first.id) {
                // This journal's own erasure has not reached the server yet: what the pull brings was stored before it
                // and is erased there when it arrives.
                let order = pulled + local
                let survivors = Set(AccountErasure.survivors(of: order).map(\.id))
                incoming = pulled.filter { survivors.contains($0.id) }
            }

            // 4. Merge them into the journal, durably, then read it whole for the push and the next mark.
            let absorbed: Merge.Absorbed
            do {
                absorbed = try journal.absorb(incoming, incomingName: "the server's journal of user \(user)")
                tail = try journal.absorb([], after: nil)
            } catch { throw .journal("\(error)") }
            report.merged = absorbed.report.onlyB
            report.eventsRead = local.count + absorbed.report.eventsA
        }
        guard let tail else { throw .journal("\(path): the journal could not be read after the merge; run the sync again") }
        report.eventsRead += tail.read
        progress(.merged(newEvents: report.merged))

        // 5. Push what the server lacks: every event before the mark is known to it.
        try await push(tail.events.filter { !known.contains($0.id) }, client: client, user: user,
                       cursor: &cursor, known: &known, report: &report, progress: progress)
        report.events = tail.before + tail.events.count
        report.cursor = cursor.description

        // 6. Remember where this device is.
        do {
            try saveState(State(server: client.server.absoluteString, user: user, cursor: cursor.description, known: known, mark: tail.next), for: path)
        } catch { throw .journal("\(statePath(path)): cannot save the sync state: \(error)") }
        return report
    }

    /// Writes the server's whole copy of `user`'s journal (the token's user when nil) to `output`,
    /// which must not exist, as a journal `journal merge` would have written.
    public static func restore(to output: String, client: SyncClient, user: String? = nil,
                               progress: @Sendable (Progress) -> Void = { _ in }) async throws(Problem) -> RestoreReport {
        let user = try await resolveUser(user, client: client)
        if FileManager.default.fileExists(atPath: output) {
            throw .journal("\(output) already exists; choose another output (-o), or remove it first")
        }
        var cursor = SyncCursor.start
        let events: [Event]
        do { events = try await pullAll(client: client, user: user, after: &cursor, progress: progress) } catch { throw .server(error) }
        let absorbed: Merge.Absorbed
        do { absorbed = try Merge.absorb(events, into: output) } catch { throw .journal("\(error)") }
        progress(.merged(newEvents: absorbed.events.count))
        return RestoreReport(user: user, events: absorbed.events.count, cursor: cursor.description)
    }

    /// Pushes `events` in batches within both limits, remembering each acknowledged id.
    static func push(_ events: [Event], client: SyncClient, user: String, cursor: inout SyncCursor, known: inout KnownIDs,
                     report: inout SyncReport, progress: @Sendable (Progress) -> Void) async throws(Problem) {
        var sent = 0
        for batch in batches(events) {
            let answer: SyncClient.PushAnswer
            do { answer = try await client.push(user: user, events: batch) } catch { throw .server(error) }
            for id in answer.acknowledged { known.insert(id) }
            // When the positions this push filled directly follow the cursor, nobody else pushed in between:
            // the cursor may skip them (the next pull would only bring these events back).
            if let after = SyncCursor(answer.cursor), cursor.isStart || after.epoch == cursor.epoch,
               after.position == cursor.position + Int64(answer.stored) {
                cursor = after
            }
            sent += batch.count
            report.pushed += batch.count
            report.storedByServer += answer.stored
            progress(.pushed(events: sent, of: events.count))
        }
    }

    static func resolveUser(_ user: String?, client: SyncClient) async throws(Problem) -> String {
        if let user { return user }
        do { return try await client.whoami().user } catch { throw .server(error) }
    }

    static func pullAll(client: SyncClient, user: String, after cursor: inout SyncCursor,
                        progress: @Sendable (Progress) -> Void) async throws(SyncClient.Failure) -> [Event] {
        var events: [Event] = []
        while true {
            let page = try await client.pull(user: user, after: cursor)
            events += page.events
            cursor = page.cursor
            progress(.pulled(events: events.count))
            if !page.more { return events }
        }
    }

    /// Runs of at most `SyncProtocol.maximumPushEvents` events whose push body stays under the body limit.
    static func batches(_ events: [Event]) -> [[Event]] {
        var result: [[Event]] = []
        var current: [Event] = []
        var bytes = 16
        let budget = SyncProtocol.maximumBodyBytes - 1024
        for event in events {
            let size = EventCodec.encode(event).count + 1
            if !current.isEmpty && (current.count == SyncProtocol.maximumPushEvents || bytes + size > budget) {
                result.append(current)
                current = []
                bytes = 16
            }
            current.append(event)
            bytes += size
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    static func loadState(_ path: String) -> State? {
        guard let data = FileManager.default.contents(atPath: statePath(path)) else { return nil }
        return try? JSONDecoder().decode(State.self, from: data)
    }

    /// Temporary file, fsync, rename, fsync of the directory: the old state or the new one, never half.
    static func saveState(_ state: State, for path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(state)
        let target = statePath(path)
        let temporary = target + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        try handle.synchronize()
        try handle.close()
        guard rename(temporary, target) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let directory = (target as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY)
        if fd >= 0 { _ = fsync(fd); close(fd) }
    }
}

/// The device's journal a sync reads, merges into and erases (SYNC.md §"The device side"): a file no one has open
/// (`JournalFileAtPath`, `journal sync FILE`), or a journal open for recording in this process (`UserJournal`, in
/// `WorkoutJournalSync`), which does all three through its own writer and lock.
public protocol SyncedJournal: Sendable {
    /// The journal file; its sync state is kept beside it (`JournalSyncing.statePath`).
    var path: String { get }
    /// Every event of the journal in file order; none when there is no file yet.
    func events() throws -> [Event]
    /// `Merge.absorb`'s merge of `incoming` into the journal.
    func absorb(_ incoming: [Event], incomingName: String) throws -> Merge.Absorbed
    /// The merge of `incoming` reading only the journal's events after `mark` (all of them when it is nil), or nil
    /// when it needs the whole journal, having written nothing (`Merge.absorb(_:after:into:storage:append:)`).
    /// `incoming` leaves out what the journal holds before `mark`.
    func absorb(_ incoming: [Event], after mark: Merge.TailMark?) throws -> Merge.TailAbsorbed?
    /// Erases the journal physically, adopting another device's erasure marker (`EventJournal.eraseAllData(adopting:)`).
    func erase(adopting marker: Event) throws
}

/// A journal file that no writer of this process holds: each step opens it (and takes its writer lock) for itself.
public struct JournalFileAtPath: SyncedJournal {
    public let path: String
    public init(path: String) { self.path = path }

    public func events() throws -> [Event] {
        FileManager.default.fileExists(atPath: path) ? try EventReader.events(path: path) : []
    }

    public func absorb(_ incoming: [Event], incomingName: String) throws -> Merge.Absorbed {
        try Merge.absorb(incoming, into: path, incomingName: incomingName)
    }

    /// Reads the events after `mark`; a merge that would append to the file is left to `absorb` (which takes the
    /// file's writer lock).
    public func absorb(_ incoming: [Event], after mark: Merge.TailMark?) throws -> Merge.TailAbsorbed? {
        try Merge.absorb(incoming, after: mark, into: path)
    }

    public func erase(adopting marker: Event) throws {
        let journal = try EventJournal(path: path, device: "sync", clock: { marker.at })
        defer { journal.close() }
        try journal.eraseAllData(adopting: marker)
    }
}
