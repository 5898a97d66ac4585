import JournalFile
import JournalEvents
import JournalStore
import JournalTesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kill-and-verify with the real `journal record` process (RELIABILITY.md §"Crash consistency"): 300 trials in CI,
/// 10,000 with `JOURNAL_CAMPAIGNS=full`, or `JOURNAL_CRASH_TRIALS=N`.
@Suite("Crash consistency of a killed writer process")
struct CrashTests {
    static var trials: Int {
        if let text = getenv("JOURNAL_CRASH_TRIALS"), let n = Int(String(cString: text)), n > 0 { return n }
        return CampaignSize.ci(300, full: 10_000)
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
        // Most trials kill a writer that has acknowledged something: a harness whose writers refuse their input, or
        // die before their first acknowledgement, would pass while testing nothing.
        #expect(harness.statistics.killedBeforeFirstAcknowledgement * 3 < CrashTests.trials)
        #expect(harness.statistics.acknowledged > CrashTests.trials * 3)
    }

    @Test("the harness itself notices a writer that acknowledges events it never wrote")
    func harnessCatchesLostEvents() throws {
        let scratch = ScratchDirectory("liar")
        defer { scratch.remove() }
        // A "writer" that prints a seq for every line and writes nothing.
        let liar = scratch.file("liar.sh")
        writeFileBytes(liar, Array("#!/bin/sh\nn=0\nwhile read line; do n=$((n+1)); echo $n; done\n".utf8), mode: 0o700)
        let harness = CrashHarness(binary: liar, seed: 1)
        var failures: [String] = []
        for _ in 0..<20 { failures += try harness.runTrial() }
        #expect(failures.contains { $0.contains("does not read after the kill") || $0.contains("were acknowledged but only") })
    }
}
