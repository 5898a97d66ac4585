import JournalEvents
import JournalStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always)
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, bytes, count)
    #else
    return Darwin.write(fd, bytes, count)
    #endif
}

/// Writes big simulated journals fast, for benchmarks (`journal simulate --bulk`): the same events
/// the recorder would write, already sealed — the version-2 header, then lines packed into frames of
/// at most 256 KiB of content at the chosen level, each with its checksum frame (FORMAT.md
/// §"Grammar", §"Sealing"), one `write` per frame and one `fsync` at the end — instead of one
/// acknowledged, sealed batch per workout.
///
/// A life longer than one simulator run is a chain of runs ("segments"), each starting the day
/// after the previous one ends with the next seed; workout ids of later segments get the prefix
/// `s<n>-` so ids stay unique. Envelopes are filled as `EventJournal` fills them: `v` from the
/// vocabulary, `seq` from 1, `id` = `<device>-<seq in base 36>`.
public struct BulkJournalWriter {
    public var seed: UInt64
    public var weeksPerSegment: Int
    public var profile: SimulationProfile
    public var start: LocalDate
    public var device = "ph"
    /// A batch write's level (FORMAT.md §"Compression levels").
    public var level = CompressionLevel.batch
    public var frameContentLimit = 256 << 10

    public init(seed: UInt64, weeksPerSegment: Int, profile: SimulationProfile, start: LocalDate) {
        self.seed = seed
        self.weeksPerSegment = weeksPerSegment
        self.profile = profile
        self.start = start
    }

    public struct Written: Sendable {
        public var events: Int
        public var frames: Int
        public var bytes: Int
        public var plainBytes: Int
    }

    /// Writes at least `minimumEvents` (and at least one segment) to a new file at `path`.
    public func write(path: String, minimumEvents: Int) throws(StoreError) -> Written {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw StoreError.io(path: path, operation: "create", errno: errno, message: String(cString: strerror(errno))) }
        defer { close(fd) }
        let zstd = Zstd()
        var written = Written(events: 0, frames: 0, bytes: 0, plainBytes: 0)
        var pending: [UInt8] = []
        pending.reserveCapacity(frameContentLimit)
        var batchLines: [UInt8] = []

        func write(_ frame: [UInt8]) throws(StoreError) {
            var offset = 0
            while offset < frame.count {
                let n = frame.withUnsafeBytes { raw in systemWrite(fd, raw.baseAddress! + offset, raw.count - offset) }
                guard n > 0 else { throw StoreError.io(path: path, operation: "write", errno: errno, message: String(cString: strerror(errno))) }
                offset += n
            }
            written.bytes += frame.count
        }

        func flush() throws(StoreError) {
            guard !pending.isEmpty else { return }
            try write(Layout.block(zstd.compressFrame(pending, level: level), version: .v2))
            written.frames += 1
            written.plainBytes += pending.count
            pending.removeAll(keepingCapacity: true)
        }

        try write(Layout.header)
        var segment = 0
        var segmentStart = start
        while segment == 0 || written.events < minimumEvents {
            let simulator = Simulator(seed: seed &+ UInt64(segment), weeks: weeksPerSegment, profile: profile, start: segmentStart)
            for batch in simulator.batches() {
                batchLines.removeAll(keepingCapacity: true)
                for draft in batch {
                    guard case .object(let object) = draft else { continue }
                    written.events += 1
                    let event = envelope(object, seq: written.events, segment: segment)
                    EventCodec.encode(event, into: &batchLines)
                    batchLines.append(0x0A)
                }
                if pending.count + batchLines.count > frameContentLimit { try flush() }
                pending.append(contentsOf: batchLines)
            }
            segment += 1
            segmentStart = LocalDate(day: segmentStart.day + weeksPerSegment * 7 + 7)
        }
        try flush()
        guard fsync(fd) == 0 else { throw StoreError.io(path: path, operation: "fsync", errno: errno, message: String(cString: strerror(errno))) }
        return written
    }

    func envelope(_ draft: JSONObject, seq: Int, segment: Int) -> Event {
        let type = draft["type"]?.stringValue ?? ""
        let at = draft["at"]?.stringValue.flatMap { Timestamp(rfc3339: $0) } ?? Timestamp(epochMilliseconds: 0, offsetSeconds: 0)
        var fields: [JSONField] = []
        fields.reserveCapacity(draft.count)
        for field in draft.fields where field.key != "type" && field.key != "at" {
            if segment > 0, field.key == "workout", let id = field.value.stringValue {
                fields.append(JSONField("workout", .string("s\(segment)-\(id)")))
            } else {
                fields.append(field)
            }
        }
        return Event(v: EventVocabulary.schema(for: type)?.version ?? 1, seq: seq, id: "\(device)-\(String(seq, radix: 36))",
                     at: at, type: type, fields: JSONObject(fields))
    }
}
