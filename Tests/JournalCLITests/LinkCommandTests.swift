import Foundation
import Testing

@Suite("journal exercises --imported and journal link, end to end", .serialized)
struct LinkCommandTests {
    @Test("imported names are listed with their filing, and a link re-files a custom exercise's sets")
    func listAndLink() throws {
        let (_, csv, journal) = try InterchangeCommandTests.setUp()
        #expect(try CLI.run(["import", journal, "--from", "auto", csv, "--utc-offset", "+01:00"]).status == 0)
        let listed = try CLI.run(["exercises", journal, "--imported"])
        #expect(listed.stdout == """
        Bench Press (Barbell) (strong) → barbell-bench-press (catalogue, 2 sets)
        Quokka Toss (strong) → custom-quokka-toss (custom, not linked, 1 sets)
        Squat (Barbell) (strong) → barbell-back-squat (catalogue, 1 sets)

        """)
        let refused = try CLI.run(["link", journal, "Bench Press (Barbell)", "dumbbell-bench-press"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "journal: \"Bench Press (Barbell)\" is filed under the catalogue exercise barbell-bench-press by the import, not a custom exercise; only custom exercises are linked\n")
        let linked = try CLI.run(["link", journal, "Quokka Toss", "Kettlebell Swing"])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stdout == "linked custom-quokka-toss to kettlebell-swing: its 1 sets count as Kettlebell Swing in every view\n")
        let history = try CLI.run(["exercise", journal, "kettlebell-swing", "--json"])
        #expect(history.stdout.contains("\"reps\":6"))
        #expect(try CLI.run(["exercises", journal, "--imported"]).stdout.contains("Quokka Toss (strong) → custom-quokka-toss (custom, linked to kettlebell-swing, 1 sets)"))
        // The dry run of a later export shows where the custom name will count.
        let later = csv + ".later.csv"
        try Data("""
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
            2024-03-08 07:00:00,"Push B",50m,"Quokka Toss",1,14,6,0,0,"","",

            """.utf8).write(to: URL(fileURLWithPath: later))
        let dry = try CLI.run(["import", journal, "--from", "auto", later, "--dry-run"])
        #expect(dry.stdout.contains("  Quokka Toss → custom-quokka-toss (custom, linked to kettlebell-swing, 1 sets)\n"))
        let undone = try CLI.run(["link", journal, "custom-quokka-toss", "none"])
        #expect(undone.stdout == "unlinked custom-quokka-toss: its 1 sets count as itself again\n")
    }
}
