import JournalStore
import JournalTesting
import Testing

/// A crash at every step of `seal()`: the redo file created, written, synced; the journal
/// rewritten in part, truncated or not, synced or not; the redo file removed or not. Each is
/// followed by each kind of power loss, then a reopen: no record lost, none duplicated.
@Suite("Crash at every step of a seal")
struct SealCrashTests {
    static let records = (1...6).map { Array("{\"n\":\($0)}".utf8) }

    /// Three records sealed into one frame, then three one-record frames; `seal()` under `configure`.
    static func run(_ configure: (ScriptedStorage) -> Void) throws -> (memory: MemoryStorage, sealOperations: [ScriptedStorage.Operation]) {
        let memory = MemoryStorage()
        let options = JournalWriter.Options()
        let setup = try JournalWriter(path: "j", storage: memory, options: options)
        try setup.append(Array(records[0..<3]))
        try setup.seal()
        setup.close()
        let scripted = ScriptedStorage(base: memory)
        let writer = try JournalWriter(path: "j", storage: scripted, options: options)
        for record in records[3...] { try writer.append([record]) }
        let start = scripted.trace.count
        configure(scripted)
        _ = try? writer.seal()
        writer.close()
        return (memory, Array(scripted.trace[start...]))
    }

    @Test("the seal writes, syncs and removes a redo file around the rewrite, after the sealed frame, which it never touches")
    func steps() throws {
        let (memory, operations) = try SealCrashTests.run { _ in }
        #expect(operations.map(\.description) == [
            "create j.seal", "truncate j.seal to 0", "write j.seal [0, 69)", "fsync j.seal", "fsync directory of j.seal",
            // After the header (16 bytes) and the first sealed block (16…61): a 33-byte frame and its
            // 12-byte checksum frame over the three one-record frames; the padding goes.
            "write j [61, 106)", "truncate j to 106", "fsync j", "unlink j.seal", "fsync directory of j.seal",
        ])
        let (records, report) = try JournalReader.records(path: "j", storage: memory)
        #expect(report.frames == 2)
        #expect(report.tailRun.isEmpty)
        #expect(records == SealCrashTests.records)
    }

    @Test("a crash at any step of seal(), whatever the disk kept, recovers every record exactly once")
    func crashAtEveryStep() throws {
        let operations = try SealCrashTests.run { _ in }.sealOperations
        var problems: [String] = []
        var runs = 0
        for step in operations.indices {
            for keep in [0, 1, 30] {
                for lossIndex in 0..<5 {
                    let (memory, _) = try SealCrashTests.run { scripted in
                        scripted.crashAt = scripted.trace.count + step
                        scripted.crashingWriteKeeps = keep
                    }
                    let size = memory.contents(of: "j")!.count
                    let losses: [MemoryStorage.PowerLoss] = [.dropUnsynced, .keepUnsynced, .keepUnsyncedUpTo(offset: max(0, size / 2)),
                                                             .keepUnsyncedUpTo(offset: 20), .garbleUnsyncedFrom(offset: 0, pattern: 0xA5)]
                    memory.powerLoss(losses[lossIndex])
                    let label = "crash at \(operations[step]) keeping \(keep) bytes, then \(losses[lossIndex])"
                    do {
                        let reopened = try JournalWriter(path: "j", storage: memory)
                        reopened.close()
                        let (lines, report) = try JournalReader.records(path: "j", storage: memory)
                        if lines != SealCrashTests.records { problems.append("\(label): records \(lines.map { String(decoding: $0, as: UTF8.self) })") }
                        if !report.isClean { problems.append("\(label): not clean \(report.damage)") }
                        if memory.exists("j.seal") { problems.append("\(label): redo file left") }
                    } catch {
                        problems.append("\(label): reopen failed: \(error)")
                    }
                    runs += 1
                }
            }
        }
        #expect(problems == [])
        #expect(runs == operations.count * 15)
    }
}
