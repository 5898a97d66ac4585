#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JournalFile
import JournalEvents
import JournalStore
import JournalSimulator

/// Kill-and-verify, as RocksDB's crash test does it: runs the real `journal record FILE` with
/// events on a pipe, kills it with SIGKILL at a random moment, then checks the journal:
///
/// - every seq the writer printed (acknowledged after fsync) is there, once, in order;
/// - nothing is there that was not sent, and what is there is a prefix of what was sent;
/// - a read-only reader and the repairing writer see the same events;
/// - after the next open repairs it, `JournalVerifier.verify` finds the file clean.
///
/// Trials continue the same journal (so each writer also recovers what the last kill left)
/// and start a new one every `trialsPerJournal` trials to keep each trial fast.
public final class CrashHarness {
    public struct Statistics: Sendable, CustomStringConvertible {
        public var trials = 0
        public var acknowledged = 0
        /// Events found durable although the kill came before their acknowledgement was read.
        public var durableButUnacknowledged = 0
        /// Trials whose kill left bytes of an unfinished frame (repaired on the next open).
        public var tornTails = 0
        /// Trials whose kill left a seal redo file (`<journal>.seal`) that the next open completed or discarded.
        public var pendingSeals = 0
        /// Trials where the writer had already read every line and exited before the kill.
        public var finishedBeforeKill = 0
        public var killedBeforeFirstAcknowledgement = 0
        public var description: String {
            "\(trials) trials: \(acknowledged) events acknowledged, \(durableButUnacknowledged) durable but unacknowledged, "
                + "\(tornTails) torn tails repaired, \(pendingSeals) pending seals recovered, "
                + "\(killedBeforeFirstAcknowledgement) killed before the first acknowledgement, \(finishedBeforeKill) finished before the kill"
        }
    }

    public let binary: String
    public let directory: ScratchDirectory
    public let trialsPerJournal: Int
    public private(set) var statistics = Statistics()
    var random: TestRandom
    var journalIndex = 0
    var journalPath = ""
    /// Events the journal held after the last check.
    var known: [Event] = []

    public init(binary: String, seed: UInt64, trialsPerJournal: Int = 25) {
        self.binary = binary
        self.directory = ScratchDirectory("crash")
        self.trialsPerJournal = trialsPerJournal
        random = TestRandom(seed: seed)
    }

    /// Runs one trial; returns what went wrong (empty when every guarantee held).
    public func runTrial() throws -> [String] {
        if statistics.trials % trialsPerJournal == 0 {
            journalIndex += 1
            journalPath = directory.file("crash-\(journalIndex).journal")
            known = []
        }
        let trial = statistics.trials
        statistics.trials += 1
        var failures: [String] = []
        func fail(_ message: String) { failures.append("trial \(trial) (\(journalPath)): \(message)") }

        // Two workouts of 4 sets each: 12 events, two seals (workout.finished seals the tail). A workout the last kill
        // left open is discarded first, as a lifter would: the recording rules refuse a second active workout, and a
        // writer that refuses its first line acknowledges nothing and tests nothing.
        let time = Fixtures.start.adding(milliseconds: Int64(trial) * 86_400_000)
        let discard = Self.openWorkout(in: known).map { [JSONValue.draft(.workoutDiscarded, at: time, [.workout: .string($0)])] } ?? []
        let drafts = discard
            + Fixtures.workoutDrafts("t\(trial)a", sets: 4, at: time.adding(milliseconds: 60_000))
            + Fixtures.workoutDrafts("t\(trial)b", sets: 4, at: time.adding(milliseconds: 3_600_000))
        let input = Fixtures.lines(drafts).joined(separator: "\n") + "\n"

        let child = try Subprocess(binary, ["record", journalPath, "--device", "cr"], errorPath: directory.file("stderr.log"))
        child.write(input)
        child.closeInput()
        var acknowledged: [String] = []
        let mode = random.next() % 8
        if mode < 2 {
            // Kill at a random moment after the start: during start-up, recovery, appends or seals.
            usleep(UInt32(random.next() % 30_000))
        } else {
            // Kill just after a random acknowledgement, while the next append (or a seal) runs.
            // Half of these aim at the seal that follows each workout.finished (lines 6 and 12):
            // it runs after that line's append and before its acknowledgement.
            let target = mode < 5 ? Int(random.next() % UInt64(drafts.count + 1)) : discard.count + (random.next() % 2 == 0 ? 5 : 11)
            while acknowledged.count < target, let line = child.readLine() { acknowledged.append(line) }
            usleep(UInt32(random.next() % (mode < 5 ? 400 : 1_500)))
        }
        child.kill()
        let status = child.wait()
        acknowledged += child.readAllLines()
        if status != 128 + SIGKILL { statistics.finishedBeforeKill += 1 }
        if acknowledged.isEmpty { statistics.killedBeforeFirstAcknowledgement += 1 }

        // Acknowledgements are the seqs after what the journal held, in order.
        let base = known.count
        let seqs = acknowledged.map { Int($0) }
        if seqs != Array((base + 1)..<(base + 1 + seqs.count)).map({ Optional($0) }) {
            fail("acknowledgements \(acknowledged) are not \(base + 1)… in order")
        }
        statistics.acknowledged += seqs.count

        // What a read-only reader sees now, before any repair.
        let sealPending = access(JournalWriter.sealPath(journalPath), F_OK) == 0
        if sealPending { statistics.pendingSeals += 1 }
        var seen: [Event] = []
        let scan: ScanReport
        do {
            scan = try EventReader.forEach(path: journalPath) { seen.append($0) }
        } catch {
            if base == 0 && seqs.isEmpty && access(journalPath, F_OK) != 0 { return failures }  // killed before creating the file
            fail("the journal does not read after the kill: \(error)")
            return failures
        }
        if !scan.corruption.isEmpty { fail("damage in the middle after a kill: \(scan.corruption)") }
        if scan.tornTail != nil { statistics.tornTails += 1 }
        check(seen, base: base, drafts: drafts, acknowledged: seqs.count, fail: fail)

        // The next open repairs; then the file must verify clean and hold the same events.
        do {
            let journal = try EventJournal(path: journalPath, device: "chk", clock: { Fixtures.start })
            journal.close()
            let report = try JournalVerifier.verify(path: journalPath)
            if !report.isClean {
                fail("not clean after recovery: damage \(report.scan.damage), bad lines \(report.badLines), gaps \(report.seqGaps), violations \(report.ruleViolations)")
            }
            let after = try EventReader.events(path: journalPath)
            if after != seen { fail("the repaired journal holds \(after.count) events, the reader saw \(seen.count) before the repair") }
            if access(JournalWriter.sealPath(journalPath), F_OK) == 0 { fail("the seal redo file is still there after recovery") }
        } catch {
            fail("reopening after the kill failed: \(error)")
        }
        statistics.durableButUnacknowledged += max(0, seen.count - base - seqs.count)
        known = seen
        return failures
    }

    /// The workout `events` leave open (started, neither finished nor discarded), if any.
    static func openWorkout(in events: [Event]) -> String? {
        var open: String?
        for event in events {
            switch event.type {
            case EventType.workoutStarted.name: open = event.string("workout")
            case EventType.workoutFinished.name, EventType.workoutDiscarded.name:
                if event.string("workout") == open { open = nil }
            default: break
            }
        }
        return open
    }

    func check(_ seen: [Event], base: Int, drafts: [JSONValue], acknowledged: Int, fail: (String) -> Void) {
        if seen.count < base + acknowledged {
            fail("\(base + acknowledged) events were acknowledged but only \(seen.count) are in the journal")
        }
        if seen.count > base + drafts.count { fail("\(seen.count) events in the journal, more than the \(base + drafts.count) sent") }
        if Array(seen.prefix(base)) != known { fail("events from earlier trials changed") }
        for (index, event) in seen.enumerated() where event.seq != index + 1 {
            fail("event \(index + 1) has seq \(event.seq)")
            break
        }
        var ids = Set<String>()
        for event in seen where !ids.insert(event.id).inserted { fail("id \(event.id) appears twice") }
        for (offset, event) in seen.dropFirst(base).enumerated() where offset < drafts.count {
            let draft = drafts[offset].objectValue!
            if event.type != draft["type"]?.stringValue || event.string("workout") != draft["workout"]?.stringValue
                || event.at.rfc3339 != draft["at"]?.stringValue || event.int("set") != draft["set"]?.intValue {
                fail("event seq \(event.seq) is \(EventCodec.encodeString(event)), but line \(offset + 1) sent was \(JSONWriter.string(drafts[offset]))")
                break
            }
        }
    }
}

/// The test schedules draw from the simulator's seedable generator (SplitMix64).
public typealias TestRandom = SplitMix64
