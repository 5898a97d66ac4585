import Foundation
import JournalSync
import Testing
@testable import JournalServer

@Suite("Group reads: concurrent look-ups answered by one query each group")
struct GroupReadTests {
    /// The groups a fetch was called with, and a gate that holds the first call until opened.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [[String]] = []
        private var open = false
        func record(_ keys: [String]) { lock.withLock { calls.append(keys) } }
        var groups: [[String]] { lock.withLock { calls } }
        var isOpen: Bool { lock.withLock { open } }
        func openGate() { lock.withLock { open = true } }
    }

    @Test("reads that queue while a query runs are answered together, each with its own value, in order", .timeLimit(.minutes(1)))
    func grouping() async throws {
        let recorder = Recorder()
        let reads = GroupRead<String, String?>(runners: 1) { keys in
            recorder.record(keys)
            while !recorder.isOpen { try await Task.sleep(for: .milliseconds(10)) }
            return keys.map { $0 == "unknown" ? nil : "principal of \($0)" }
        }
        let first = Task { try await reads.read("t1") }
        try await Task.sleep(for: .milliseconds(100))
        let later = ["t2", "unknown", "t3", "t2"].map { key in Task { try await reads.read(key) } }
        try await Task.sleep(for: .milliseconds(200))
        recorder.openGate()
        #expect(try await first.value == "principal of t1")
        var answers: [String?] = []
        for task in later { answers.append(try await task.value) }
        #expect(answers == ["principal of t2", nil, "principal of t3", "principal of t2"])
        let groups = recorder.groups
        #expect(groups.count == 2)
        #expect(groups.first == ["t1"])
        #expect(Set(groups.last ?? []) == ["t2", "unknown", "t3"])
        #expect(groups.last?.count == 4)
    }

    @Test("a query past the deadline answers 503 to its group and frees the runner", .timeLimit(.minutes(1)))
    func deadline() async throws {
        let reads = GroupRead<String, Int>(runners: 1, deadline: .milliseconds(300)) { keys in
            if keys.contains("stuck") { try await Task.sleep(for: .seconds(3600)) }
            return keys.map(\.count)
        }
        do {
            _ = try await reads.read("stuck")
            Issue.record("a hung read was answered")
        } catch let failure as SyncFailure {
            #expect(failure.description == "503 database_unavailable: the database did not answer within 0.3 seconds; retry")
        }
        #expect(try await reads.read("abcd") == 4)
    }

    @Test("a query that answers the wrong number of values fails its group, naming both counts")
    func mismatch() async throws {
        let reads = GroupRead<String, Int>(runners: 1) { _ in [] }
        await #expect(throws: GroupReadMismatch.self) { try await reads.read("a") }
        do { _ = try await reads.read("a") } catch { #expect("\(error)" == "a group read of 1 keys answered 0 values") }
    }
}
