import JournalFile
import JournalEvents
import JournalStore

/// `journal stats`: the events of a journal counted by type, with its frames and its compressed and plain sizes.
public struct JournalStats: Sendable {
    /// The events in the journal.
    public var events = 0
    /// The frames holding them, sealed and unsealed (FORMAT.md).
    public var frames = 0
    /// The unsealed one-event frames at the end.
    public var unsealedFrames = 0
    /// The bytes the frames take on disk.
    public var compressedBytes = 0
    /// The bytes the frames hold uncompressed.
    public var plainBytes = 0
    /// Every type's count, most frequent first (ties by name, Z to A).
    public var byType: [(type: String, count: Int)] = []

    /// Plain bytes per compressed byte; 0 for an empty file.
    public var ratio: Double { compressedBytes > 0 ? Double(plainBytes) / Double(compressedBytes) : 0 }

    /// Reads `path` once without changing it.
    public static func read(path: String, storage: any Storage = PosixStorage()) throws(JournalError) -> JournalStats {
        var counts: [String: Int] = [:]
        var stats = JournalStats()
        let scan = try EventReader.forEach(path: path, storage: storage) { event in
            counts[event.type, default: 0] += 1
            stats.events += 1
        }
        stats.frames = scan.frames
        stats.unsealedFrames = scan.tailRun.count
        stats.compressedBytes = scan.fileSize
        stats.plainBytes = scan.plainBytes
        stats.byType = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
        return stats
    }
}
