import JournalEvents
import JournalStore

/// What a writer killed in the middle of `write(2)` leaves behind (`journal simulate --torn-tail`): the first half of
/// the frame of one more event, where the next append would go, with no fsync.
public enum TornTail {
    /// Appends half of the frame of a `workout.started` with seq `seq + 1` at `time` to the journal at `path`.
    public static func append(to path: String, afterSeq seq: Int, at time: Timestamp, storage: any Storage = PosixStorage()) throws {
        let event = Event(seq: seq + 1, id: "ph-\(String(seq + 1, radix: 36))", at: time, type: EventType.workoutStarted.name,
                          fields: [PayloadKey.workout.name: "w-torn", PayloadKey.name.name: "Push", PayloadKey.session.name: 0])
        let report = try JournalReader.read(path: path, storage: storage) { _, _ in }
        let frame = Layout.block(Zstd().compressFrame(EventCodec.encode(event) + [0x0A], level: 3), version: report.version)
        let file = try storage.open(path, create: false)
        defer { file.close() }
        try file.write(Array(frame.prefix(frame.count / 2)), at: report.validEnd)
    }
}
