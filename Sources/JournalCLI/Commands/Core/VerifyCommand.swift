import ArgumentParser
import WorkoutJournal

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
            r.seqGaps.prefix(JournalVerifier.maximumListed).map { "gap after \($0.after): next is \($0.found)" }.joined(separator: "; ")))
        lines.append("ids:              " + (r.duplicateIDs.isEmpty ? "all unique" :
            r.duplicateIDs.prefix(JournalVerifier.maximumListed).map { "seq \($0.seq) reuses \($0.id)" }.joined(separator: "; ")))
        let checksumErrors = scan.corruption
        lines.append("damage:           " + (checksumErrors.isEmpty ? "none" : ""))
        for damage in checksumErrors.prefix(JournalVerifier.maximumListed) {
            lines.append("  byte \(damage.offset): \(damage.length) bytes do not decode: \(damage.reason)")
        }
        if let torn = scan.tornTail {
            lines.append("torn tail:        at byte \(torn.offset), \(torn.length) bytes: \(torn.reason) (the next writer moves them to \(file).torn-\(torn.offset) and truncates)")
        } else {
            lines.append("torn tail:        none")
        }
        if r.pendingSeal { lines.append("pending seal:     \(file).seal (the next writer completes it)") }
        lines.append("bad lines:        " + (r.badLines.isEmpty ? "none" : ""))
        for bad in r.badLines.prefix(JournalVerifier.maximumListed) { lines.append("  \(bad)") }
        lines.append("unknown types:    " + (r.unknownTypes.isEmpty ? "none" :
            r.unknownTypes.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value) (kept, skipped by views)" }.joined(separator: ", ")))
        lines.append("rule violations:  " + (r.ruleViolations.isEmpty ? "none" : ""))
        for violation in r.ruleViolations.prefix(JournalVerifier.maximumListed) { lines.append("  seq \(violation.seq): \(violation.message)") }
        if let (source, c) = against {
            lines.append("against:          " + (c.matches
                ? "an earlier state of \(source): its sealed \(c.backupSealedEnd) bytes are a prefix of it, its \(c.backupRecords) events are its first \(c.backupRecords) (\(source) has \(c.sourceRecords - c.backupRecords) more)"
                : "NOT a backup of \(source): \(c.problem ?? "")"))
        }
        lines.append("result:           " + (r.isClean && (against?.comparison.matches ?? true) ? "clean" : "NOT clean"))
        return lines.joined(separator: "\n") + "\n"
    }
}
