import ArgumentParser
import WorkoutJournalSync
import Foundation
import JournalFile

struct SalvageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "salvage",
        abstract: "Copy every intact event of a damaged journal into a new journal, and say exactly what was lost.",
        discussion: """
        Reads FILE without changing it and writes every event of every intact frame to OUT, byte for \
        byte and with its seq unchanged (nothing is renumbered). A damaged frame whose content zstd's \
        own checksum still verifies (the damage hit its checksum frame, or bits zstd does not read) is rescued: its events are saved \
        too. Reports the bytes dropped with their offsets and the events lost as seq ranges; events in \
        damage at the very end can only be named as "after seq N". Exit status 0 once OUT is written \
        (whatever was lost), 1 when it cannot be.
        """
    )

    @Argument(help: "The damaged journal (read only).") var file: String
    @Option(name: .shortAndLong, help: "The new journal to write (must not exist).") var output: String
    @Flag(help: "Print the report as JSON.") var json = false

    func validate() throws {
        if output == file { throw ValidationError("-o \"\(output)\" is the journal being salvaged; write to a new file") }
    }

    func run() throws {
        try reportingFailures {
            guard FileManager.default.fileExists(atPath: file) else {
                throw Failure(message: "\(file): no such journal (check the path)")
            }
            if FileManager.default.fileExists(atPath: output) {
                throw Failure(message: "\(output) already exists; salvage writes a new journal (choose another -o, or remove it first)")
            }
            let report = try Salvage.salvage(source: file, output: output)
            print(json ? JSONWriter.string(SalvageCommand.json(report)) : SalvageCommand.text(report), terminator: json ? "\n" : "")
        }
    }

    static func range(_ range: ClosedRange<Int>) -> String {
        range.count == 1 ? "seq \(range.lowerBound)" : "seq \(range.lowerBound)…\(range.upperBound)"
    }

    static func text(_ r: Salvage.Report) -> String {
        var lines: [String] = []
        lines.append("source:   \(r.source) (\(r.sourceBytes) bytes)")
        lines.append("output:   \(r.output)")
        let span = r.firstSeq.map { " (seq \($0)…\(r.lastSeq!))" } ?? ""
        let rescued = r.framesRescued == 0 ? "intact frames" : "frames, \(r.framesRescued) of them rescued"
        lines.append("saved:    \(r.eventsSaved) events in \(r.framesSaved) \(rescued)\(span)")
        if r.appliedPendingSeal { lines.append("note:     an unfinished seal (\(r.source).seal) was applied while reading") }
        if r.dropped.isEmpty {
            lines.append("dropped:  nothing")
        } else {
            lines.append("dropped:  \(r.dropped.reduce(0) { $0 + $1.length }) bytes in \(r.dropped.count) place\(r.dropped.count == 1 ? "" : "s")")
            for d in r.dropped {
                var what: String
                if let lost = d.lostSeqs {
                    what = "lost \(range(lost)) (\(lost.count) event\(lost.count == 1 ? "" : "s"))"
                } else if d.atEnd {
                    what = "lost every event after seq \(d.afterSeq), if any (damage at the end: their number cannot be known)"
                } else {
                    what = "no event lost (the seqs on both sides follow on)"
                }
                if let saved = d.rescuedSeqs {
                    let rescued = "rescued \(range(saved)) (\(saved.count) event\(saved.count == 1 ? "" : "s"): the frame's content still verifies against zstd's own checksum)"
                    what = d.fullyRescued ? rescued + ", nothing lost" : rescued + "; " + what
                }
                lines.append("  byte \(d.offset), \(d.length) bytes: \(d.reason): \(what)")
            }
        }
        var lost = r.lostSeqs.map(range).joined(separator: ", ")
        if !r.lostSeqs.isEmpty { lost += " (\(r.eventsLost) event\(r.eventsLost == 1 ? "" : "s"))" }
        if r.lostTail { lost += (lost.isEmpty ? "" : "; and ") + "every event after seq \(r.lastSeq ?? 0), if any" }
        lines.append("lost:     " + (lost.isEmpty ? "nothing" : lost))
        if !r.badLines.isEmpty {
            lines.append("bad lines left out: \(r.badLines.count)")
            for bad in r.badLines.prefix(JournalVerifier.maximumListed) { lines.append("  \(bad)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ r: Salvage.Report) -> JSONValue {
        func seqs(_ range: ClosedRange<Int>) -> JSONValue { .object(["from": .int(range.lowerBound), "to": .int(range.upperBound)]) }
        return .object([
            "source": .string(r.source), "output": .string(r.output), "source_bytes": .int(r.sourceBytes),
            "frames_saved": .int(r.framesSaved), "events_saved": .int(r.eventsSaved),
            "frames_rescued": .int(r.framesRescued), "events_rescued": .int(r.eventsRescued),
            "dropped": .array(r.dropped.map { d in
                .object(["offset": .int(d.offset), "length": .int(d.length), "reason": .string(d.reason), "at_end": .bool(d.atEnd),
                         "after_seq": .int(d.afterSeq), "lost_seqs": d.lostSeqs.map(seqs) ?? .null,
                         "rescued_seqs": d.rescuedSeqs.map(seqs) ?? .null, "fully_rescued": .bool(d.fullyRescued)])
            }),
            "lost_seqs": .array(r.lostSeqs.map(seqs)), "events_lost": .int(r.eventsLost), "lost_tail": .bool(r.lostTail),
            "bad_lines": .array(r.badLines.map { .object(["line": .int($0.line), "frame_offset": .int($0.frameOffset), "problem": .string($0.problem.description)]) }),
        ])
    }
}
