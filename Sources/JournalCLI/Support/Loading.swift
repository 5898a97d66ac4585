import EventJournal
import JournalStore
import JournalEvents
import Foundation

/// How every view reads a journal: all decoded events in seq order, optionally only up to `untilSeq`.
enum JournalLoader {
    static func events(path: String, untilSeq: Int? = nil) throws -> [Event] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure(message: "\(path): no such journal (check the path; `journal record \(path)` creates one)")
        }
        return try EventReader.events(path: path, untilSeq: untilSeq)
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

/// The size of `path` in bytes, or 0 when it cannot be read (for progress bars only).
func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
}

/// Removes a journal that this command created only to have its input refused: one that did not
/// exist before and holds no event (nothing but its header, FORMAT.md §"Grammar").
func removeJournalIfNothingWritten(_ path: String, existed: Bool) {
    guard !existed, let report = try? JournalReader.read(path: path, storage: PosixStorage(), onRecord: { _, _ in }),
          report.records == 0, report.isClean else { return }
    try? FileManager.default.removeItem(atPath: path)
}
