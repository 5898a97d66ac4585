import Foundation
import Testing

/// `journal record --batch` and the batch writes of `import`, through the real binary (FORMAT.md §5 "Batches").
@Suite("journal record --batch, end to end")
struct RecordBatchCommandTests {
    static func set(_ number: Int, reps: Int = 8) -> String {
        #"{"type":"set.completed","at":"2026-11-21T18:0\#(number):00.000+01:00","workout":"w1","exercise":"barbell-bench-press","set":\#(number),"weight":60,"unit":"kg","reps":\#(reps),"kind":"working"}"#
    }
    static let started = #"{"type":"workout.started","at":"2026-11-21T18:00:00.000+01:00","workout":"w1","name":"Push","session":0}"#

    @Test("--batch acknowledges every event by its seq, writes batches of --batch-lines as sealed frames, and checks every event")
    func batches() throws {
        let path = try CLI.temporaryDirectory() + "/a.journal"
        let input = ([Self.started] + (1...4).map { Self.set($0) }).joined(separator: "\n") + "\n"
        let result = try CLI.run(["record", path, "--device", "ph", "--batch", "--batch-lines", "2"], stdin: input)
        #expect(result == CLI.Result(status: 0, stdout: "1\n2\n3\n4\n5\n", stderr: ""))
        let stats = try CLI.run(["stats", path])
        #expect(stats.stdout.hasPrefix("events:      5 in 3 frames (1 unsealed)\n"))
        #expect(try CLI.run(["verify", path]).status == 0)
    }

    @Test("a refused line refuses its batch: the batches before it stay, the message names the line, the field and the batch's lines")
    func refusedBatch() throws {
        let path = try CLI.temporaryDirectory() + "/a.journal"
        let input = [Self.started, Self.set(1), Self.set(2), "", Self.set(3, reps: 101), Self.set(4)].joined(separator: "\n") + "\n"
        let result = try CLI.run(["record", path, "--device", "ph", "--batch", "--batch-lines", "2"], stdin: input)
        #expect(result == CLI.Result(status: 1, stdout: "1\n2\n", stderr: """
            journal: \(path): input line 5 was refused: set.completed: field "reps" is 101 but must be between 0 and 100; \
            nothing of its batch (input lines 3–5) was written, every seq printed before it is durable

            """))
        #expect(try CLI.run(["cat", path]).stdout.split(separator: "\n").count == 2)

        let notJSON = try CLI.run(["record", path, "--device", "ph", "--batch"], stdin: Self.set(3) + "\n{\"type\":\n" + Self.set(4) + "\n")
        #expect(notJSON == CLI.Result(status: 1, stdout: "", stderr: """
            journal: \(path): input line 2 is not JSON: invalid JSON at byte 8 of the line: expected a value, found end of line; \
            nothing of its batch (input lines 1–2) was written, every seq printed before it is durable

            """))
        #expect(try CLI.run(["cat", path]).stdout.split(separator: "\n").count == 2)
        #expect(try CLI.run(["record", path, "--batch", "--event", Self.started]).status == 64)
    }

    @Test("--batch-ms acknowledges a waiting batch while the input stays open")
    func byTime() throws {
        let path = try CLI.temporaryDirectory() + "/a.journal"
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["record", path, "--device", "ph", "--batch", "--batch-ms", "50"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data((Self.started + "\n").utf8))
        // The input stays open: only the time limit can acknowledge the event. Should it never come, the process is
        // ended after 20 s and the read sees the end of its output instead.
        let watchdog = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: watchdog)
        let first = output.fileHandleForReading.availableData
        watchdog.cancel()
        #expect(String(decoding: first, as: UTF8.self) == "1\n")
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("import writes its events as one batch, in sealed frames of 512 events")
    func importFrames() throws {
        let directory = try CLI.temporaryDirectory()
        var csv = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE\n"
        for index in 0..<600 {
            csv += "2024-01-\(String(format: "%02d", index / 24 + 1)) \(String(format: "%02d", index % 24)):00:00,\"Legs\",30m,\"Squat (Barbell)\",1,100,5,0,0,\"\",\"\",\n"
        }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: directory + "/strong.csv"))
        let journal = directory + "/ana.journal"
        let imported = try CLI.run(["import", journal, "--from", "strong", directory + "/strong.csv", "--utc-offset", "+00:00"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try CLI.run(["stats", journal]).stdout.hasPrefix("events:      1800 in 4 frames (0 unsealed)\n"))
    }
}
