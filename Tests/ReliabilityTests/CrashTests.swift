import EventJournal
import JournalEvents
import JournalStore
import JournalTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Kill-and-verify with the real `journal record` process (RELIABILITY.md §"Crash consistency").
/// `JOURNAL_CRASH_TRIALS=10000 swift test --filter CrashTests` runs the longer run.
@Suite("Crash consistency of a killed writer process")
struct CrashTests {
    static var trials: Int {
        if let text = getenv("JOURNAL_CRASH_TRIALS"), let n = Int(String(cString: text)), n > 0 { return n }
        return 1_000
    }

    @Test("every acknowledged event survives SIGKILL at a random moment, and the next open repairs the file to clean")
    func killedWriterLosesNoAcknowledgedEvent() throws {
        let harness = CrashHarness(binary: try journalBinary(), seed: 20261122)
        var failures: [String] = []
        for _ in 0..<CrashTests.trials {
            failures += try harness.runTrial()
            if failures.count > 20 { break }
        }
        print("crash harness: \(harness.statistics)")
        #expect(failures == [])
        #expect(harness.statistics.trials == CrashTests.trials)
        #expect(harness.statistics.acknowledged > 0)
    }
}
