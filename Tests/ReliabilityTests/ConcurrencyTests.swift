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

/// Two writers and a reader on one journal, as real processes (RELIABILITY.md §"Concurrency").
@Suite("Concurrent writers and readers")
struct ConcurrencyTests {
    @Test("a second journal record on a journal being written fails with exit 3 and the lock message, writing nothing")
    func secondWriterFailsClearly() throws {
        let scratch = ScratchDirectory("two-writers")
        defer { scratch.remove() }
        let path = scratch.file("j.journal")
        let binary = try journalBinary()
        let first = try Subprocess(binary, ["record", path, "--device", "ph"], errorPath: scratch.file("first.err"))
        let drafts = Fixtures.lines(Fixtures.workoutDrafts("w1", sets: 2))
        first.write(drafts[0] + "\n")
        #expect(first.readLine() == "1")  // the first writer holds the lock and waits for more input
        let before = readFileBytes(path)
        let second = try Subprocess.run(binary, ["record", path, "--device", "wa"],
                                        stdin: Fixtures.lines(Fixtures.workoutDrafts("w2", sets: 1)).joined(separator: "\n") + "\n",
                                        scratch: scratch.path)
        #expect(second.status == 3)
        #expect(second.stdout == "")
        #expect(second.stderr == "journal: \(path): another process is writing to this journal (it holds the writer lock); wait for it to finish and try again\n")
        #expect(readFileBytes(path) == before)
        first.write(drafts[1...].joined(separator: "\n") + "\n")
        first.closeInput()
        #expect(first.readAllLines() == ["2", "3", "4"])
        #expect(first.wait() == 0)
        // Once the first is done, the second can write.
        let again = try Subprocess.run(binary, ["record", path, "--device", "wa"],
                                       stdin: Fixtures.lines(Fixtures.workoutDrafts("w2", sets: 1)).joined(separator: "\n") + "\n", scratch: scratch.path)
        #expect(again.status == 0)
        #expect(again.stdout == "5\n6\n7\n")
        #expect(try JournalVerifier.verify(path: path).isClean)
    }

    @Test("writers racing for one journal never interleave: each one's events are all there in one run, or none are")
    func racingWritersNeverInterleave() throws {
        let scratch = ScratchDirectory("race")
        defer { scratch.remove() }
        let path = scratch.file("j.journal")
        let binary = try journalBinary()
        var outcomes: [(device: String, status: Int32, acknowledged: [String])] = []
        for round in 0..<12 {
            var children: [(String, Subprocess)] = []
            for writer in 0..<3 {
                let device = "d\(round)x\(writer)"
                let child = try Subprocess(binary, ["record", path, "--device", device], errorPath: "/dev/null")
                child.write(Fixtures.lines(Fixtures.workoutDrafts("w-\(device)", sets: 3,
                                                                  at: Fixtures.start.adding(milliseconds: Int64(round * 3 + writer) * 86_400_000)))
                    .joined(separator: "\n") + "\n")
                child.closeInput()
                children.append((device, child))
            }
            for (device, child) in children {
                let acknowledged = child.readAllLines()
                outcomes.append((device, child.wait(), acknowledged))
            }
        }
        let events = try EventReader.events(path: path)
        #expect(try JournalVerifier.verify(path: path).isClean)
        var runs: [String] = []  // the device of each maximal run of events
        for event in events where runs.last != event.device { runs.append(event.device ?? "?") }
        #expect(runs.count == Set(runs).count, "a writer's events are split: \(runs)")
        for outcome in outcomes {
            let mine = events.filter { $0.device == outcome.device }
            if outcome.status == 0 {
                #expect(mine.count == 5)
                #expect(outcome.acknowledged == mine.map { String($0.seq) })
            } else {
                #expect(outcome.status == 3, "\(outcome.device) exited \(outcome.status)")
                #expect(outcome.acknowledged == [])
                #expect(mine.isEmpty)
            }
        }
        #expect(outcomes.contains { $0.status == 0 })
        print("racing writers: \(outcomes.filter { $0.status == 0 }.count) of \(outcomes.count) got the lock, \(events.count) events, no interleaving")
    }

    @Test("a reader running while a writer appends and seals sees only whole events, in order, each time a prefix of the final journal")
    func readerSeesOnlyWholeEvents() throws {
        let scratch = ScratchDirectory("reader")
        defer { scratch.remove() }
        let path = scratch.file("j.journal")
        let binary = try journalBinary()
        var drafts: [JSONValue] = []
        for index in 0..<40 {
            drafts += Fixtures.workoutDrafts("w\(index)", sets: 4, at: Fixtures.start.adding(milliseconds: Int64(index) * 86_400_000))
        }
        let writer = try Subprocess(binary, ["record", path, "--device", "ph"], errorPath: "/dev/null")
        writer.write(Fixtures.lines(drafts).joined(separator: "\n") + "\n")
        writer.closeInput()
        var snapshots: [[Event]] = []
        var tornTailsSeen = 0
        var problems: [String] = []
        var finished = false
        while !finished {
            var status: Int32 = 0
            finished = waitpid(writer.pid, &status, WNOHANG) != 0
            guard access(path, F_OK) == 0 else { continue }
            var events: [Event] = []
            var badLines = 0
            do {
                let report = try EventReader.forEach(path: path, badLines: { _ in badLines += 1 }) { events.append($0) }
                if !report.corruption.isEmpty { problems.append("reader saw damage: \(report.corruption)") }
                if report.tornTail != nil { tornTailsSeen += 1 }
            } catch {
                problems.append("reader failed: \(error)")
            }
            if badLines > 0 { problems.append("reader saw \(badLines) lines that are not events") }
            if events.map(\.seq) != Array(0..<events.count).map({ $0 + 1 }) { problems.append("reader saw seqs \(events.map(\.seq))") }
            snapshots.append(events)
        }
        let acknowledged = writer.readAllLines()
        #expect(writer.wait() == 0)
        let final = try EventReader.events(path: path)
        #expect(final.count == drafts.count)
        #expect(acknowledged.count == drafts.count)
        for snapshot in snapshots where Array(final.prefix(snapshot.count)) != snapshot { problems.append("a snapshot of \(snapshot.count) events is not a prefix") }
        #expect(problems == [])
        #expect(snapshots.count >= 2)
        print("reader during writes: \(snapshots.count) reads of a journal growing to \(final.count) events (\(Set(snapshots.map(\.count)).count) distinct sizes, \(tornTailsSeen) with a frame being written), all whole events")
    }
}
