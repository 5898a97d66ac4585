import JournalFile
import JournalEvents
import JournalStore

/// `journal export --format journal`: a backup of a journal in a new file — its bytes, or its events re-recorded
/// (redacted) — read back and compared event for event before anyone relies on it.
public enum JournalCopy {
    /// What was written: the events read back, and whether the copy verifies clean.
    public struct Written: Sendable {
        /// The events the copy reads back.
        public var events: Int
        /// Whether the copy verifies clean (`journal verify`).
        public var clean: Bool
    }

    /// Why no usable copy was written.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// `output` already exists: a backup is never overwritten.
        case outputExists(output: String)
        /// `source` cannot be read.
        case sourceUnreadable(source: String)
        /// The redacted events of `source` could not be recorded (`cause`); nothing was written.
        case notReRecorded(source: String, cause: String)
        /// The copy at `output` reads back `events` events where `expected` were written; it must not be relied on.
        case readsBackDifferently(output: String, events: Int, expected: Int)

        /// A stable code (README.md §"Error codes").
        public var code: String {
            switch self {
            case .outputExists: return "copy.output_exists"
            case .sourceUnreadable: return "copy.source_unreadable"
            case .notReRecorded: return "copy.not_re_recorded"
            case .readsBackDifferently: return "copy.reads_back_differently"
            }
        }

        /// What went wrong, naming the file, and what to do.
        public var description: String {
            switch self {
            case .outputExists(let output):
                return "\(output): already exists; remove it or choose another -o (a backup is never overwritten)"
            case .sourceUnreadable(let source):
                return "\(source): cannot be read"
            case .notReRecorded(let source, let cause):
                return "\(source): could not be re-recorded redacted (\(cause)); nothing was written"
            case .readsBackDifferently(let output, let events, let expected):
                return "\(output): verification failed: it reads back \(events) events, expected \(expected); do not rely on this backup"
            }
        }
    }

    /// Copies `source` to `output` byte for byte (`events` nil), or records `events` — the source's, changed in their
    /// payloads only (`Redaction`) — into a new journal at `output` with their seq, id and time; then verifies the
    /// output and reads it back. `output` must not exist. A journal re-recorded only in part is removed again.
    public static func write(source: String, reRecording events: [Event]?, to output: String, storage: any Storage = PosixStorage(),
                             clock: @escaping @Sendable () -> Timestamp = JournalDirectory.systemClock) throws -> Written {
        if storage.exists(output) { throw Failure.outputExists(output: output) }
        let expected: [Event]
        if let events {
            var options = EventJournal.Options()
            options.allowUnknownTypes = true
            do {
                let journal = try EventJournal(path: output, storage: storage, device: "export", options: options, clock: clock)
                defer { journal.close() }
                try journal.record(batch: events.map(envelope), framing: .batch)
            } catch {
                try? storage.remove(output)
                throw Failure.notReRecorded(source: source, cause: "\(error)")
            }
            expected = events
        } else {
            let bytes: [UInt8]
            do {
                let file = try storage.openForReading(source)
                defer { file.close() }
                bytes = try file.readAll()
            } catch {
                throw Failure.sourceUnreadable(source: source)
            }
            try DurableFile.write(bytes, to: output, storage: storage)
            expected = try EventReader.events(path: source, storage: storage)
        }
        let report = try JournalVerifier.verify(path: output, storage: storage)
        let back = try EventReader.events(path: output, storage: storage)
        guard back == expected else {
            throw Failure.readsBackDifferently(output: output, events: back.count, expected: expected.count)
        }
        return Written(events: back.count, clean: report.isClean)
    }

    /// A stored event as a draft that keeps its envelope (`v`, `seq`, `id`, `at`, `type`) and payload, in that order.
    static func envelope(_ event: Event) -> JSONValue {
        var object = JSONObject([JSONField("v", .int(event.v)), JSONField("seq", .int(event.seq)), JSONField("id", .string(event.id)),
                                 JSONField("at", .string(event.at.rfc3339)), JSONField("type", .string(event.type))])
        object.fields += event.fields.fields
        return .object(object)
    }
}
