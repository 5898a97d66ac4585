import Foundation
import Testing

@Suite("journal CLI, end to end", .serialized)
struct CoreCommandTests {
    static let samples = ["new-user.journal", "ppl-12-weeks.journal", "upper-lower-2y-lb.journal", "torn-tail.journal",
                          "format-v1/new-user.journal", "format-v1/ppl-12-weeks.journal"]

    @Test("zstd -dc prints exactly what journal cat prints, for every sample", arguments: samples)
    func catEqualsZstd(sample: String) throws {
        let path = CLI.sample(sample)
        let cat = try CLI.run(["cat", path])
        #expect(cat.status == 0)
        let zstd = try CLI.tool("/usr/bin/zstd", ["-dc", "-q", path])
        if sample == "torn-tail.journal" {
            // zstd stops at the torn frame with an error; everything before it is identical.
            #expect(zstd.status != 0)
            #expect(cat.stderr.contains("torn tail at byte"))
        } else {
            #expect(zstd.status == 0)
        }
        #expect(String(decoding: zstd.stdout, as: UTF8.self) == cat.stdout)
        #expect(!cat.stdout.isEmpty)
    }

    @Test("verify is clean on every sample but the torn one", arguments: samples)
    func verifySamples(sample: String) throws {
        let result = try CLI.run(["verify", CLI.sample(sample)])
        if sample == "torn-tail.journal" {
            #expect(result.status == 1)
            #expect(result.stdout.contains("torn tail:        at byte"))
            #expect(result.stdout.hasSuffix("result:           NOT clean\n"))
        } else {
            #expect(result.status == 0, "\(result.stdout)")
            #expect(result.stdout.hasSuffix("result:           clean\n"))
        }
    }

    @Test("a version-1 journal reads as the same events as its version-2 twin, and `record` keeps appending version 1")
    func formatVersionOne() throws {
        let v1 = try CLI.run(["verify", CLI.sample("format-v1/ppl-12-weeks.journal")])
        #expect(v1.stdout.contains("\nformat:           version 1 (no header, no checksum frames: zstd's own checks only)\n"))
        let v2 = try CLI.run(["verify", CLI.sample("ppl-12-weeks.journal")])
        #expect(v2.stdout.contains("\nformat:           version 2 (header, CRC-32C after every frame)\n"))
        let asOf = ["--as-of", "2026-11-21T20:00:00-05:00", "--json"]
        let replayV1 = try CLI.run(["replay", CLI.sample("format-v1/ppl-12-weeks.journal")] + asOf)
        let replayV2 = try CLI.run(["replay", CLI.sample("ppl-12-weeks.journal")] + asOf)
        #expect(replayV1.status == 0)
        #expect(replayV1.stdout == replayV2.stdout)

        let directory = try CLI.temporaryDirectory()
        let path = directory + "/maya.journal"
        try FileManager.default.copyItem(atPath: CLI.sample("format-v1/new-user.journal"), toPath: path)
        let recorded = try CLI.run(["record", path, "--device", "ph"],
                                   stdin: "{\"type\":\"workout.started\",\"at\":\"2026-11-24T18:00:00.000+01:00\",\"workout\":\"w1\",\"name\":\"Push\",\"session\":0}\n")
        #expect(recorded == CLI.Result(status: 0, stdout: "19\n", stderr: ""))
        let after = try CLI.run(["verify", path, "--json"])
        #expect(after.status == 0)
        #expect(after.stdout.contains("\"format_version\":1,\"padding_bytes\":0,"))
        #expect(after.stdout.contains("\"events\":19,"))
    }

    @Test("the largest sample is at least 8x smaller than its JSONL")
    func largestSampleRatio() throws {
        let result = try CLI.run(["stats", "--json", CLI.sample("upper-lower-2y-lb.journal")])
        #expect(result.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let ratio = json["ratio"] as! Double
        #expect(ratio >= 8, "ratio \(ratio)")
        #expect((json["events"] as! Int) > 10_000)
    }

    @Test("record acknowledges each event with its seq and a refusal changes no byte")
    func recordAndRefuse() throws {
        let directory = try CLI.temporaryDirectory()
        let path = directory + "/a.journal"
        let input = """
        {"type":"workout.started","at":"2026-11-21T18:00:00.000+01:00","workout":"w1","name":"Push","session":0}
        {"type":"set.completed","at":"2026-11-21T18:03:00.000+01:00","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":8,"kind":"working"}

        """
        let first = try CLI.run(["record", path, "--device", "ph"], stdin: input)
        #expect(first == CLI.Result(status: 0, stdout: "1\n2\n", stderr: ""))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let bad = """
        {"type":"set.completed","at":"2026-11-21T18:05:00.000+01:00","workout":"w1","exercise":"barbell-bench-press","set":2,"weight":60,"unit":"kg","reps":101,"kind":"working"}
        """
        let refused = try CLI.run(["record", path], stdin: bad)
        #expect(refused.status == 1)
        #expect(refused.stdout == "")
        #expect(refused.stderr == "journal: \(path): input line 1 was refused: set.completed: field \"reps\" is 101 but must be between 0 and 100; nothing was written\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        let notJSON = try CLI.run(["record", path, "--event", "{\"type\":"])
        #expect(notJSON.status == 1)
        #expect(notJSON.stderr == "journal: \(path): --event is not JSON: invalid JSON at byte 8 of the line: expected a value, found end of line; nothing was written\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        let cat = try CLI.run(["cat", path, "--type", "set.*"])
        #expect(cat.stdout == #"{"v":1,"seq":2,"id":"ph-2","at":"2026-11-21T18:03:00.000+01:00","type":"set.completed","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":8,"kind":"working"}"# + "\n")
    }

    @Test("record checks the fields it knows of an event at a newer v (FORMAT.md §12): refused with the message of the current v, the file byte-identical; unknown keys kept")
    func recordNewerVersion() throws {
        let directory = try CLI.temporaryDirectory()
        let path = directory + "/newer.journal"
        let started = #"{"type":"workout.started","at":"2026-11-21T18:00:00.000+01:00","workout":"w1","name":"Push","session":0}"#
        #expect(try CLI.run(["record", path, "--device", "ph"], stdin: started + "\n") == CLI.Result(status: 0, stdout: "1\n", stderr: ""))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for (payload, message) in [
            (#""set":1,"weight":1e16,"unit":"kg""#, #"field "weight" is 1e+16 but must be between -1000000000 and 1000000000"#),
            (#""set":1,"weight":"heavy","unit":"kg""#, #"field "weight" is "heavy" but must be a number"#),
            (#""set":-5,"weight":60,"unit":"kg""#, #"field "set" is -5 but must be between 1 and 200"#),
            (#""set":1,"weight":60,"unit":"stone""#, #"field "unit" is "stone" but must be one of "kg", "lb""#),
        ] {
            let line = #"{"v":99,"type":"set.completed","at":"2026-11-21T18:03:00.000+01:00","workout":"w1","exercise":"barbell-bench-press",\#(payload),"reps":8,"kind":"working"}"#
            let refused = try CLI.run(["record", path, "--device", "ph"], stdin: line + "\n")
            #expect(refused == CLI.Result(status: 1, stdout: "",
                                          stderr: "journal: \(path): input line 1 was refused: set.completed: \(message); nothing was written\n"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
        let kept = #"{"v":2,"type":"set.completed","at":"2026-11-21T18:03:00.000+01:00","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":8,"kind":"working","tempo":"3-1-1"}"#
        #expect(try CLI.run(["record", path, "--device", "ph"], stdin: kept + "\n") == CLI.Result(status: 0, stdout: "2\n", stderr: ""))
        #expect(try CLI.run(["cat", path, "--type", "set.*"]).stdout
            == #"{"v":2,"seq":2,"id":"ph-2","at":"2026-11-21T18:03:00.000+01:00","type":"set.completed","workout":"w1","exercise":"barbell-bench-press","set":1,"weight":60,"unit":"kg","reps":8,"kind":"working","tempo":"3-1-1"}"# + "\n")
    }

    @Test("record repairs a torn tail before appending and says where the bytes went and what they were")
    func recordRepairsTornTail() throws {
        let directory = try CLI.temporaryDirectory()
        let event = #"{"type":"profile.updated","at":"2026-11-24T18:00:00.000+01:00","body_weight":{"value":80,"unit":"kg"}}"# + "\n"

        // A frame cut short: an append that never finished.
        let torn = directory + "/torn.journal"
        try FileManager.default.copyItem(atPath: CLI.sample("torn-tail.journal"), toPath: torn)
        let original = try Data(contentsOf: URL(fileURLWithPath: torn))
        let repaired = try CLI.run(["record", torn, "--device", "ph"], stdin: event)
        #expect(repaired == CLI.Result(status: 0, stdout: "647\n", stderr: "journal: \(torn): repaired a torn tail at byte 9989: its 69 bytes are kept in \(torn).torn-9989 (the file ends before the rest of the frame (a write that never finished)); `journal cat \(torn).torn-9989` prints any events still readable in them\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: torn + ".torn-9989")) == original.subdata(in: 9989..<10058))

        // A complete last frame with the wrong CRC: the bytes cannot tell an unfinished append from decay
        // (FORMAT.md §8), so it is repaired the same way, and the message says which it looked like.
        let rotten = directory + "/rotten.journal"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: CLI.sample("ppl-12-weeks.journal"))))
        bytes[bytes.count - 200] ^= 0x04
        try Data(bytes).write(to: URL(fileURLWithPath: rotten))
        let decayed = try CLI.run(["record", rotten, "--device", "ph"], stdin: event)
        #expect(decayed == CLI.Result(status: 0, stdout: "4633\n", stderr: "journal: \(rotten): repaired a torn tail at byte 60738: its 1421 bytes are kept in \(rotten).torn-60738 (the frame's 1409 bytes have CRC-32C 0xD0A8EA80 but its checksum frame holds 0x178DF2A0); `journal cat \(rotten).torn-60738` prints any events still readable in them\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: rotten + ".torn-60738")) == Data(bytes[60738...]))
        // Here the flip hit the frame's data, so `journal cat` of the kept bytes names the damage instead.
        let cat = try CLI.run(["cat", rotten + ".torn-60738"])
        #expect(cat.status == 0)
        #expect(cat.stdout == "")
        #expect(cat.stderr.contains("torn tail at byte 0 (1421 bytes)"))

        // When the flip hit only the checksum frame, the kept bytes still hold every event of the frame.
        let checksum = directory + "/checksum.journal"
        bytes[bytes.count - 200] ^= 0x04
        bytes[bytes.count - 2] ^= 0x08
        try Data(bytes).write(to: URL(fileURLWithPath: checksum))
        let repaired2 = try CLI.run(["record", checksum, "--device", "ph"], stdin: event)
        #expect(repaired2.stdout == "4633\n")
        let kept = try CLI.run(["cat", checksum + ".torn-60738"])
        #expect(kept.status == 0)
        #expect(kept.stdout.split(separator: "\n").count == 97)
        #expect(kept.stdout.hasPrefix(#"{"v":1,"seq":4633,"#))
    }

    @Test("replay rebuilds the summary and travels back with --until-seq")
    func replaySample() throws {
        let path = CLI.sample("ppl-12-weeks.journal")
        let all = try CLI.run(["replay", path, "--json"])
        #expect(all.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as! [String: Any]
        let summary = (json["summary"] as? [String: Any]) ?? json
        #expect((summary["workouts"] as! Int) > 30)
        // The model's volume, edits included: what `journal history` and `progress --range ALL` add up to (it was
        // 531446.25 while the summary ignored `set.edited`).
        #expect(summary["volume_kg"] as? Double == 531468.75)
        #expect(summary["sets"] as? Int == 1440)
        let early = try CLI.run(["replay", path, "--until-seq", "20", "--json"])
        let earlyJSON = try JSONSerialization.jsonObject(with: Data(early.stdout.utf8)) as! [String: Any]
        let earlySummary = (earlyJSON["summary"] as? [String: Any]) ?? earlyJSON
        #expect(earlySummary["events"] as! Int == 20)
        #expect(earlySummary["workouts"] as! Int == 0)
    }

    @Test("FORMAT.md documents exactly the vocabulary the code knows")
    func formatMatchesVocabulary() throws {
        let format = try String(contentsOfFile: CLI.packageRoot + "/FORMAT.md", encoding: .utf8)
        let schema = try CLI.run(["schema", "--markdown"])
        let begin = try #require(format.range(of: "<!-- BEGIN EVENT TYPES -->\n"))
        let end = try #require(format.range(of: "<!-- END EVENT TYPES -->"))
        #expect(String(format[begin.upperBound..<end.lowerBound]) == schema.stdout,
                "FORMAT.md §15 is stale: regenerate it with `journal schema --markdown`")
    }

    @Test("every event type in the samples is documented in FORMAT.md", arguments: samples)
    func samplesDocumented(sample: String) throws {
        let format = try String(contentsOfFile: CLI.packageRoot + "/FORMAT.md", encoding: .utf8)
        let stats = try CLI.run(["stats", "--json", CLI.sample(sample)])
        let json = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as! [String: Any]
        for type in (json["by_type"] as! [String: Any]).keys {
            #expect(format.contains("| `\(type)` |"), "\(type) is not in FORMAT.md")
        }
    }

    @Test("simulate is deterministic: the same seed gives the same bytes")
    func simulateDeterministic() throws {
        let directory = try CLI.temporaryDirectory()
        for name in ["a", "b"] {
            let result = try CLI.run(["simulate", "--seed", "5", "--weeks", "3", "--profile", "ppl", "-o", "\(directory)/\(name).journal"])
            #expect(result.status == 0)
        }
        let a = try Data(contentsOf: URL(fileURLWithPath: directory + "/a.journal"))
        let b = try Data(contentsOf: URL(fileURLWithPath: directory + "/b.journal"))
        #expect(a == b)
        let again = try CLI.run(["simulate", "--seed", "5", "--weeks", "3", "-o", "\(directory)/a.journal"])
        #expect(again.status == 1)
        #expect(again.stderr == "journal: \(directory)/a.journal already exists; pass --force to replace it\n")
    }

    @Test("a usage error quotes what the user typed")
    func usageErrors() throws {
        let result = try CLI.run(["simulate", "--profile", "wizard", "-o", "/tmp/x.journal"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--profile \"wizard\" is not a profile; use one of: new-user, ppl, upper-lower-lb, full-body"))
    }
}
