import Foundation
import Testing

/// "Clear All Data" through the real binary (DOMAIN.md §11): after `data.cleared` no view and no export shows the
/// cleared history or name, the JSONL export restores into a new journal, and `journal erase` is what removes the bytes.
@Suite("journal: clear all data", .serialized)
struct ClearDataCommandTests {
    static func journal(unit: String) -> String {
        """
        {"type":"profile.updated","at":"2026-11-01T09:00:00.000+00:00","name":"Secret Sam","email":"sam@example.com","unit":"\(unit)"}
        {"type":"workout.started","at":"2026-11-02T18:00:00.000+00:00","workout":"old","name":"Sams Day","session":null}
        {"type":"set.completed","at":"2026-11-02T18:01:00.000+00:00","workout":"old","exercise":"barbell-bench-press","set":1,"weight":100,"unit":"\(unit)","reps":5,"kind":"working","note":"felt like Sam"}
        {"type":"workout.finished","at":"2026-11-02T18:45:00.000+00:00","workout":"old"}
        {"type":"data.cleared","at":"2026-11-03T09:00:00.000+00:00"}
        {"type":"workout.started","at":"2026-11-04T18:00:00.000+00:00","workout":"new","name":"Fresh","session":null}
        {"type":"set.completed","at":"2026-11-04T18:01:00.000+00:00","workout":"new","exercise":"barbell-back-squat","set":1,"weight":60,"unit":"\(unit)","reps":5,"kind":"working"}
        {"type":"workout.finished","at":"2026-11-04T18:45:00.000+00:00","workout":"new"}

        """
    }

    @Test("views and the JSON, JSONL and CSV exports show none of the cleared history or name; the JSONL restores", arguments: ["kg", "lb"])
    func nothingClearedShows(_ unit: String) throws {
        let path = try SeedFidelityCommandTests.recorded(Self.journal(unit: unit))
        let asOf = ["--as-of", "2026-11-05T00:00:00Z"]
        for arguments in [["home", path] + asOf, ["history", path] + asOf, ["profile", path] + asOf, ["home", path, "--json"] + asOf,
                          ["export", path, "--format", "jsonl"], ["export", path, "--format", "json"], ["export", path, "--format", "strong-csv"],
                          ["export", path, "--format", "hevy-csv"], ["export", path, "--format", "fitnotes-csv"]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stdout.contains("Sam") && !result.stdout.contains("sam@") && !result.stdout.contains("Bench"), "\(arguments): \(result.stdout)")
        }
        let jsonl = try CLI.run(["export", path, "--format", "jsonl"])
        #expect(jsonl.stdout.split(separator: "\n").map { $0.contains(#""seq":"#) ? String($0.split(separator: ",")[1]) : "" } == [#""seq":1"#, #""seq":2"#, #""seq":3"#])
        let restored = try CLI.temporaryDirectory() + "/restored.journal"
        let record = try CLI.run(["record", restored], stdin: jsonl.stdout)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(try CLI.run(["verify", restored]).status == 0)
        let history = try CLI.run(["history", restored, "--as-of", "2026-11-05T00:00:00Z"])
        #expect(history.stdout.contains("Fresh"), "\(history.stdout)")
    }

    @Test("a clear that keeps the profile (seed 004) or the settings keeps just those; the JSONL export restores them with the rest",
          arguments: [("kg", #"["profile"]"#), ("lb", #"["profile"]"#), ("lb", #"["settings"]"#), ("kg", #"["profile","settings"]"#)])
    func keeping(_ unit: String, _ keep: String) throws {
        let events = """
            {"type":"profile.updated","at":"2026-11-01T09:00:00.000+00:00","name":"Secret Sam","unit":"\(unit)"}
            {"type":"settings.changed","at":"2026-11-01T09:01:00.000+00:00","key":"rest_default_s","value":75}
            {"type":"rest.configured","at":"2026-11-01T09:02:00.000+00:00","exercise":"barbell-bench-press","seconds":150}
            {"type":"workout.started","at":"2026-11-02T18:00:00.000+00:00","workout":"old","name":"Sams Day","session":null}
            {"type":"set.completed","at":"2026-11-02T18:01:00.000+00:00","workout":"old","exercise":"barbell-bench-press","set":1,"weight":100,"unit":"\(unit)","reps":5,"kind":"working"}
            {"type":"workout.finished","at":"2026-11-02T18:45:00.000+00:00","workout":"old"}
            {"type":"data.cleared","at":"2026-11-03T09:00:00.000+00:00","keep":\(keep)}
            {"type":"workout.started","at":"2026-11-04T18:00:00.000+00:00","workout":"new","name":"Fresh","session":null}
            {"type":"set.completed","at":"2026-11-04T18:01:00.000+00:00","workout":"new","exercise":"barbell-back-squat","set":1,"weight":60,"unit":"\(unit)","reps":5,"kind":"working"}
            {"type":"workout.finished","at":"2026-11-04T18:45:00.000+00:00","workout":"new"}

            """
        let path = try SeedFidelityCommandTests.recorded(events)
        let asOf = ["--as-of", "2026-11-05T00:00:00Z"]
        let profile = try SeedFidelityCommandTests.json(["profile", path] + asOf)
        let keepsProfile = keep.contains("profile"), keepsSettings = keep.contains("settings")
        #expect(profile["name"] as? String == (keepsProfile ? "Secret Sam" : nil))
        #expect(profile["unit"] as? String == (keepsProfile ? unit : "kg"))
        #expect(profile["settings"] as? [String: Int] == (keepsSettings ? ["rest_default_s": 75] : [:]))
        #expect(profile["exercise_rest"] as? [String: Int] == (keepsSettings ? ["barbell-bench-press": 150] : [:]))
        #expect(profile["workouts"] as? Int == 1)
        let history = try CLI.run(["history", path] + asOf)
        #expect(history.stdout.contains("Fresh") && !history.stdout.contains("Sams Day"), "\(history.stdout)")

        let jsonl = try CLI.run(["export", path, "--format", "jsonl"])
        #expect(jsonl.stdout.split(separator: "\n").count == (keepsProfile ? 1 : 0) + (keepsSettings ? 2 : 0) + 3)
        #expect(!jsonl.stdout.contains("Sams Day") && jsonl.stdout.contains("Secret Sam") == keepsProfile, "\(jsonl.stdout)")
        let restored = try CLI.temporaryDirectory() + "/restored.journal"
        let record = try CLI.run(["record", restored], stdin: jsonl.stdout)
        #expect(record.status == 0, "\(record.stderr)")
        let again = try SeedFidelityCommandTests.json(["profile", restored] + asOf)
        #expect(NSDictionary(dictionary: again) == NSDictionary(dictionary: profile))
    }
}
