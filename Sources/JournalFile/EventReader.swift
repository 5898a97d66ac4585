import JournalEvents
import JournalStore

/// Reads events from a journal without changing it.
public enum EventReader {
    /// A line that is inside an intact frame but is not a valid event.
    public struct BadLine: Equatable, Sendable, CustomStringConvertible {
        public var line: Int
        public var frameOffset: Int
        public var problem: EventCodec.DecodingError
        public var description: String { "line \(line) (frame at byte \(frameOffset)): \(problem)" }
    }

    /// Streams every decodable event in file order to `body`, up to and including `untilSeq`.
    @discardableResult
    public static func forEach(path: String, storage: any Storage = PosixStorage(), untilSeq: Int? = nil,
                               badLines: ((BadLine) -> Void)? = nil,
                               progress: ((_ frameOffset: Int) -> Void)? = nil,
                               _ body: (Event) throws -> Void) throws(JournalError) -> ScanReport {
        struct Stop: Error {}
        let decoder = EventCodec.StreamDecoder()
        return try storeErrors(path) {
            do {
                return try JournalReader.read(path: path, storage: storage) { line, location in
                    progress?(location.frameOffset)
                    do {
                        let event = try decoder.decode(line)
                        if let untilSeq, event.seq > untilSeq { throw Stop() }
                        try body(event)
                    } catch let error as EventCodec.DecodingError {
                        badLines?(BadLine(line: location.lineNumber, frameOffset: location.frameOffset, problem: error))
                    }
                }
            } catch is Stop {
                return ScanReport()
            }
        }
    }

    /// `forEach` for a merge: each stored line goes to `stored` first, and a line it does not take is decoded and
    /// handed to `body`.
    static func forEach(path: String, storage: any Storage, badLines: (BadLine) -> Void,
                        stored: (UnsafeBufferPointer<UInt8>) -> Bool,
                        _ body: (Event) -> Void) throws(JournalError) -> ScanReport {
        let decoder = EventCodec.StreamDecoder()
        return try storeErrors(path) {
            try JournalReader.read(path: path, storage: storage) { line, location in
                if stored(line) { return }
                do {
                    body(try decoder.decode(line))
                } catch let error as EventCodec.DecodingError {
                    badLines(BadLine(line: location.lineNumber, frameOffset: location.frameOffset, problem: error))
                }
            }
        }
    }

    /// Streams every stored line of the intact frames in file order, exactly as stored (without its newline), with
    /// its 1-based line number: `journal cat`. Damaged bytes are skipped; the returned scan lists them (`damage`).
    @discardableResult
    public static func forEachLine(path: String, storage: any Storage = PosixStorage(),
                                   _ body: (_ line: UnsafeBufferPointer<UInt8>, _ lineNumber: Int) throws -> Void) throws(JournalError) -> ScanReport {
        try storeErrors(path) { try JournalReader.read(path: path, storage: storage) { line, location in try body(line, location.lineNumber) } }
    }

    /// Runs a read of the store, its errors as `JournalError`.
    static func storeErrors<T>(_ path: String, _ read: () throws -> T) throws(JournalError) -> T {
        do {
            return try read()
        } catch let error as StoreError {
            throw .store(error)
        } catch let error as JournalError {
            throw error
        } catch {
            throw .store(.io(path: path, operation: "read", errno: 0, message: "\(error)"))
        }
    }

    /// All events (for views over ordinary journals).
    public static func events(path: String, storage: any Storage = PosixStorage(), untilSeq: Int? = nil) throws(JournalError) -> [Event] {
        var events: [Event] = []
        try forEach(path: path, storage: storage, untilSeq: untilSeq) { events.append($0) }
        return events
    }
}
