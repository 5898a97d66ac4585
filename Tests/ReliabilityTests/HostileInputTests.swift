import EventJournal
import JournalEvents
import JournalStore
import JournalTesting
import Testing

/// Hostile and malformed input gets a clear error naming the line and the field, never a crash
/// (RELIABILITY.md §"Hostile input and privacy"). Messages are pinned.
@Suite("Hostile input")
struct HostileInputTests {
    @Test("a time with more than three fractional digits parses (truncated to milliseconds) instead of crashing")
    func longFractionalSeconds() throws {
        #expect(Timestamp(rfc3339: "2026-11-21T18:04:05.1234+01:00")?.rfc3339 == "2026-11-21T18:04:05.123+01:00")
        #expect(Timestamp(rfc3339: "2026-11-21T18:04:05.123456789Z")?.rfc3339 == "2026-11-21T18:04:05.123+00:00")
        #expect(Timestamp(rfc3339: "2026-11-21T18:04:05.1234567890Z") == nil)
        let event = try EventCodec.decode(#"{"v":1,"seq":1,"id":"ph-1","at":"2025-01-14T18:35:20.00100+00:00","type":"workout.started","workout":"w1","name":"Push","session":null}"#)
        #expect(event.at.rfc3339 == "2025-01-14T18:35:20.001+00:00")
    }
}
