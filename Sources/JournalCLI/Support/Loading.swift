import EventJournal
import JournalEvents
import Foundation

/// How every view reads a journal: all decoded events in seq order, optionally only up to `untilSeq`.
/// (Temporary: reads plain JSONL until the store lands; the signature stays.)
enum JournalLoader {
    static func events(path: String, untilSeq: Int? = nil) throws -> [Event] {
        let data = try String(contentsOfFile: path, encoding: .utf8)
        var events: [Event] = []
        for line in data.split(separator: "\n") {
            let event = try EventCodec.decode(String(line))
            if let untilSeq, event.seq > untilSeq { break }
            events.append(event)
        }
        return events
    }
}

/// The wall clock, injected everywhere else: only the CLI asks the system for the time.
enum SystemClock {
    /// Now, in this machine's current UTC offset.
    static func now() -> Timestamp {
        let date = Date()
        let offset = TimeZone.current.secondsFromGMT(for: date)
        return Timestamp(epochMilliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)), offsetSeconds: Int32(offset))
    }
}
