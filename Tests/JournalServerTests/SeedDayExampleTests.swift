import Foundation
import JournalTesting
import Testing

/// The example app package (Examples/SeedDay) built and run as an app would use the library: the whole day on the
/// phone, then the phone and the watch syncing live through a real server with both journals open and observed.
@Suite("Examples/SeedDay runs the seed apps' day through the public API")
struct SeedDayExampleTests {
    static let scratch = ScratchDirectory("seed-day")

    @Test("the day's output, line for line, then the watch gets the phone's workout and set and both end with the same events")
    func theDay() async throws {
        let (_, token) = try await PostgresFixture.freshPrincipal("seedday")
        let binary = try builtExecutable("SeedDay", override: "SEED_DAY_BIN")
        let folder = Self.scratch.file("day-\(UUID().uuidString)")
        try await withServer { server in
            let run = try await Subprocess.runDetached(binary, [folder, server.absoluteString, token], scratch: Self.scratch.path)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stdout.split(separator: "\n", omittingEmptySubsequences: false) == [
                "programme: Full Body, week 1 of 8, 3 days a week",
                "this week: 0 of 3; next: Full Body A, Barbell Back Squat, Barbell Bench Press, Barbell Bent-Over Row, Romanian Deadlift, Dumbbell Biceps Curl",
                "Barbell Back Squat: set 1 40 kg x 8",
                "  rest 120 s, 60 s left after a minute",
                "Barbell Back Squat: set 2 40 kg x 8",
                "  rest 120 s, 60 s left after a minute",
                "Barbell Back Squat: set 3 40 kg x 8",
                "  rest 120 s, 60 s left after a minute",
                "Barbell Back Squat: set 4 40 kg x 8",
                "  rest 120 s, 60 s left after a minute",
                "superset g1: Barbell Bench Press 30 kg x 8",
                "superset g1: Barbell Bent-Over Row 30 kg x 8",
                "history: 1 workout, Full Body A, 6 sets, 49 reps",
                "Barbell Back Squat: best set 40 kg x 9, 1 session",
                "home: 1 of 3 this week, streak 1 day",
                "in pounds: Barbell Back Squat 90 lb x 8, target 90 lb",
                "  warm-up 55 lb x 10 (50-70%)",
                "watch: the phone's workout arrived, Full Body A",
                "watch: the phone's set arrived",
                "phone and watch: 30 events each, the same: true",
                "",
            ])
        }
    }

    @Test("the example imports the two products an app adds and nothing under them, and its manifest names only those")
    func publicAPIOnly() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = try String(contentsOf: root.appendingPathComponent("Examples/SeedDay/Sources/SeedDay/main.swift"), encoding: .utf8)
        let imports = source.split(separator: "\n").filter { $0.hasPrefix("import ") }.map { String($0.dropFirst("import ".count)) }
        #expect(imports == ["Foundation", "WorkoutJournal", "WorkoutJournalSync"])
        let manifest = try String(contentsOf: root.appendingPathComponent("Examples/SeedDay/Package.swift"), encoding: .utf8)
        let products = manifest.components(separatedBy: ".product(name: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(products == ["WorkoutJournal", "WorkoutJournalSync"])
    }
}
