import Foundation
import Testing

/// Every view, chart, explanation, export and the report of a journal holding events no recording rule of this build
/// checked (known types at a newer `v` with absurd numbers, as an older build stored them): each command succeeds and
/// shows the journal without them (PROJECTIONS.md §"Views are total"). The journal is a conformance case, made by
/// `SampleJournals/conformance/make.py`.
@Suite("Views are total (the real binary)")
struct TotalViewsCommandTests {
    static let file = CLI.packageRoot + "/SampleJournals/conformance/line-newer-version-out-of-range.journal"
    static let asOf = ["--as-of", "2026-11-22T10:00:00+01:00"]

    static let commands: [[String]] = [
        ["replay", file] + asOf, ["replay", file, "--json"] + asOf,
        ["home", file] + asOf, ["home", file, "--json", "--no-snapshot"] + asOf,
        ["history", file] + asOf, ["history", file, "--json"] + asOf,
        ["progress", file, "--range", "ALL"] + asOf, ["calendar", file] + asOf, ["active", file] + asOf,
        ["exercise", file, "barbell-bench-press"] + asOf, ["exercise", file, "barbell-bench-press", "--json"] + asOf,
        ["explain", file, "streak"] + asOf, ["explain", file, "record", "barbell-bench-press"] + asOf,
        ["explain", file, "deload", "barbell-bench-press"] + asOf, ["explain", file, "next-workout"] + asOf,
        ["timeline", file] + asOf, ["chart", file, "--exercise", "barbell-bench-press"] + asOf,
        ["chart", file, "--frequency"] + asOf, ["chart", file, "--muscles"] + asOf,
        ["templates", file] + asOf, ["profile", file] + asOf, ["stats", file], ["cat", file],
    ]

    @Test("every view and chart succeeds", arguments: commands)
    func viewSucceeds(_ arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test("every export and the report succeed", arguments: ["json", "jsonl", "strong-csv", "hevy-csv", "report"])
    func exportSucceeds(_ format: String) throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("total-\(getpid())-\(format)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let arguments = format == "report" ? ["report", Self.file, "--output", output] + Self.asOf
            : ["export", Self.file, "--format", format, "--output", output]
        let result = try CLI.run(arguments)
        #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test("the summary and history count only the one set within its ranges")
    func absurdEventsLeftOut() throws {
        let replay = try CLI.run(["replay", Self.file] + Self.asOf)
        #expect(replay.stdout.split(separator: "\n").prefix(5).joined(separator: "\n") == """
            events:             8 (last seq 8)
            workouts finished:  1
            workouts discarded: 0
            working sets:       1 (+0 warm-up)
            volume:             480 kg
            """)
        let history = try CLI.run(["history", Self.file] + Self.asOf)
        #expect(history.stdout == """
            DATE        WORKOUT  NAME  DURATION  EXERCISES  SETS  REPS  VOLUME  +REPS  +LOAD
            2026-11-21  w1       Push     30:00          1     1     8  480 kg  first  first

            """)
    }
}
