import Foundation
import Testing

/// Seed 003's exports history through the real binary: `journal export --record` writes the export, then records
/// `data.exported`, and `journal profile` lists the exports newest first; a clear forgets them.
@Suite("journal: the exports history", .serialized)
struct ExportsHistoryCommandTests {
    @Test("export --record adds to the profile's exports, newest first; without --record nothing is recorded", arguments: ["kg", "lb"])
    func history(_ unit: String) throws {
        let path = try SeedFidelityCommandTests.recorded("""
            {"type":"profile.updated","at":"2026-11-01T09:00:00.000+00:00","name":"Ana","unit":"\(unit)"}
            {"type":"workout.started","at":"2026-11-02T18:00:00.000+00:00","workout":"w1","name":"Push","session":null}
            {"type":"set.completed","at":"2026-11-02T18:01:00.000+00:00","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":100,"unit":"\(unit)","reps":5,"kind":"working"}
            {"type":"workout.finished","at":"2026-11-02T18:45:00.000+00:00","workout":"w1"}

            """)
        let directory = try CLI.temporaryDirectory()
        let plain = try CLI.run(["export", path, "--format", "jsonl"])
        #expect(plain.status == 0 && plain.stdout.split(separator: "\n").count == 4)
        let jsonl = try CLI.run(["export", path, "--format", "jsonl", "-o", directory + "/backup.jsonl", "--record"])
        #expect(jsonl.status == 0, "\(jsonl.stderr)")
        let csv = try CLI.run(["export", path, "--format", "strong-csv", "-o", directory + "/strong.csv", "--record"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let profile = try SeedFidelityCommandTests.json(["profile", path, "--as-of", "2099-01-01T00:00:00Z"])
        let exports = try #require(profile["exports"] as? [[String: Any]])
        #expect(exports.map { $0["format"] as? String } == ["strong-csv", "jsonl"])
        #expect(exports.map { $0["events"] as? Int } == [nil, 4])
        #expect(exports.map { $0["workouts"] as? Int } == [1, nil])
        #expect(exports.map { $0["destination"] as? String } == [directory + "/strong.csv", directory + "/backup.jsonl"])
        let text = try CLI.run(["profile", path, "--as-of", "2099-01-01T00:00:00Z"])
        #expect(text.stdout.contains(": strong-csv (1 workouts) to \(directory)/strong.csv\n"), "\(text.stdout)")
        #expect(text.stdout.contains(": jsonl (4 events) to \(directory)/backup.jsonl\n"), "\(text.stdout)")

        // A clear forgets the history like the rest.
        _ = try CLI.run(["record", path], stdin: #"{"type":"data.cleared"}"# + "\n")
        let cleared = try SeedFidelityCommandTests.json(["profile", path, "--as-of", "2099-01-01T00:00:00Z"])
        #expect((cleared["exports"] as? [Any])?.isEmpty == true)
    }
}
