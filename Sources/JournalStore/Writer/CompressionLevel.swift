/// The zstd level of each kind of data frame a writer writes: the one place these numbers live. FORMAT.md
/// §"Compression levels" gives the table they were chosen from (`scripts/bench-levels`) and the rule; a level never
/// changes the format (a reader does not know it), so journals written at other levels read and append as before.
/// `CompressionLevelTests` recompresses the frames each write path writes at these levels and compares the bytes.
public enum CompressionLevel {
    /// One-line tail frames of a live append: on the acknowledgement path (FORMAT.md §5).
    public static let tail: Int32 = 3
    /// The frame a seal writes after live appends: one workout's events, off the acknowledgement path (FORMAT.md §6).
    public static let seal: Int32 = 9
    /// The frames of batch writes, each up to `JournalWriter.linesPerBatchFrame` lines: `journal record --batch`,
    /// `import`, `merge`, `salvage`, `restore`, `sync`'s merge, `journal simulate --bulk-events` (FORMAT.md §5 "Batches").
    public static let batch: Int32 = 1
}
