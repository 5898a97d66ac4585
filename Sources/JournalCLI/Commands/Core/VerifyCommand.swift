import ArgumentParser
import WorkoutJournalSync
import JournalFile

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every frame and event; exit 0 only when the journal is clean.",
        discussion: "Reports frames, events, seq gaps, checksum errors and other damage with byte offsets, a torn tail, unknown event types and rule violations. Changes nothing."
    )

    @Argument(help: "The journal file.") var file: String
    @Flag(help: "Print the report as JSON.") var json = false
    @Option(help: "The journal FILE is a backup of (`journal backup`): also check that FILE is an earlier state of it — its sealed part a byte prefix, each of its events the source's event in the same place.")
    var against: String?

    func run() throws {
        try reportingFailures {
            var bar = ProgressBar("verify", total: fileSize(file))
            let report = try JournalVerifier.verify(path: file, catalogue: Journal.catalogue, progress: bar.enabled ? { bar.update($0) } : nil)
            bar.finish()
            let comparison = try against.map { try JournalBackups.compare(backup: file, against: $0) }
            if json {
                print(JSONWriter.string(report.jsonValue(file: file, against: comparison.map { (against!, $0) })))
            } else {
                print(text(report, against: comparison.map { (against!, $0) }), terminator: "")
            }
            if !report.isClean || comparison?.matches == false { throw ExitCode(1) }
        }
    }

    func text(_ r: VerifyReport, against: (source: String, comparison: JournalBackups.Comparison)? = nil) -> String {
        let scan = r.scan
        var lines: [String] = []
        lines.append("file:             \(file) (\(scan.fileSize) bytes)")
        lines.append("format:           " + (scan.version == .v2
            ? "version 2 (header, CRC-32C after every frame" + (scan.paddingBytes > 0 ? ", \(scan.paddingBytes) bytes of padding reserved for appends)" : ")")
            : "version 1 (no header, no checksum frames: zstd's own checks only)"))
        lines.append("frames:           \(scan.frames) (\(scan.tailRun.count) unsealed one-event frames at the end)")
        lines.append("events:           \(r.events)")
        lines.append("seq:              " + (r.seqGaps.isEmpty ? (r.events > 0 ? "\(r.firstSeq ?? 1)…\(r.lastSeq ?? r.events), no gaps" : "empty") :
            inline(r.seqGaps.map { "gap after \($0.after): next is \($0.found)" })))
        lines.append("ids:              " + (r.duplicateIDs.isEmpty ? "all unique" : inline(r.duplicateIDs.map { "seq \($0.seq) reuses \($0.id)" })))
        lines.append("damage:           " + (scan.corruption.isEmpty ? "none" : ""))
        lines += listed(scan.corruption.map { "byte \($0.offset): \($0.length) bytes do not decode: \($0.reason)" })
        if let torn = scan.tornTail {
            lines.append("torn tail:        at byte \(torn.offset), \(torn.length) bytes: \(torn.reason) (the next writer moves them to \(file).torn-\(torn.offset) and truncates)")
        } else {
            lines.append("torn tail:        none")
        }
        if r.pendingSeal { lines.append("pending seal:     \(file).seal (the next writer completes it)") }
        lines.append("bad lines:        " + (r.badLines.isEmpty ? "none" : ""))
        lines += listed(r.badLines.map(\.description))
        lines.append("unknown types:    " + (r.unknownTypes.isEmpty ? "none" :
            r.unknownTypes.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value) (kept, skipped by views)" }.joined(separator: ", ")))
        lines.append("newer versions:   " + (r.newerVersions.isEmpty ? "none" :
            r.newerVersions.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
                + " (at a v above this build's: kept, known fields checked)"))
        lines.append("rule violations:  " + (r.ruleViolations.isEmpty ? "none" : ""))
        lines += listed(r.ruleViolations.map { "seq \($0.seq): \($0.message)" })
        if let (source, c) = against {
            lines.append("against:          " + (c.matches
                ? "an earlier state of \(source): its sealed \(c.backupSealedEnd) bytes are a prefix of it, its \(c.backupRecords) events are its first \(c.backupRecords) (\(source) has \(c.sourceRecords - c.backupRecords) more)"
                : "NOT a backup of \(source): \(c.problem ?? "")"))
        }
        lines.append("result:           " + (r.isClean && (against?.comparison.matches ?? true) ? "clean" : "NOT clean"))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The first `JournalVerifier.maximumListed` items of a list on one line, separated by "; ", and how many more.
    func inline(_ items: [String]) -> String {
        items.prefix(JournalVerifier.maximumListed).joined(separator: "; ") + (more(items).map { "; \($0)" } ?? "")
    }

    /// The first `JournalVerifier.maximumListed` items of a list, one indented line each, and how many more.
    func listed(_ items: [String]) -> [String] {
        items.prefix(JournalVerifier.maximumListed).map { "  " + $0 } + (more(items).map { ["  " + $0] } ?? [])
    }

    /// "… and N more (`journal verify --json` lists every one)" for a list longer than the text report shows.
    func more(_ items: [String]) -> String? {
        items.count > JournalVerifier.maximumListed
            ? "… and \(items.count - JournalVerifier.maximumListed) more (`journal verify --json` lists every one)" : nil
    }
}
