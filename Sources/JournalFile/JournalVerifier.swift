import JournalEvents
import JournalModel
import JournalStore

/// `journal verify`: every frame and every event checked, nothing changed.
public struct VerifyReport: Sendable {
    public var scan: ScanReport
    public var events = 0
    public var badLines: [EventReader.BadLine] = []
    /// Places where seq does not follow on: (seq before, seq found).
    public var seqGaps: [(after: Int, found: Int)] = []
    public var duplicateIDs: [(seq: Int, id: String)] = []
    /// Events of types this version does not know, by type (kept, skipped by projections).
    public var unknownTypes: [String: Int] = [:]
    /// Events of known types at a `v` above this version's schema version, by type (kept, their known fields checked:
    /// FORMAT.md §12).
    public var newerVersions: [String: Int] = [:]
    /// Events that break a recording rule: (seq, message).
    public var ruleViolations: [(seq: Int, message: String)] = []
    public var pendingSeal = false
    /// The first and last seq read (an erased journal starts after the erased seqs).
    public var firstSeq: Int?
    public var lastSeq: Int?

    /// Clean: every byte decodes, seq runs 1…n, ids are unique, every known event follows the rules.
    /// Unknown types alone do not make a journal unclean.
    public var isClean: Bool {
        scan.isClean && badLines.isEmpty && seqGaps.isEmpty && duplicateIDs.isEmpty && ruleViolations.isEmpty
    }

    /// Why the journal is not clean, one line a reason, at most `JournalVerifier.maximumListed` of each kind
    /// (empty exactly when `isClean`): damage and a torn tail with their byte offsets, seq gaps, reused ids, lines
    /// that do not decode, rule violations.
    public var problems: [String] {
        let most = JournalVerifier.maximumListed
        var list: [String] = []
        list += scan.damage.prefix(most).map(\.description)
        list += seqGaps.prefix(most).map { "seq gap after \($0.after): next is \($0.found)" }
        list += duplicateIDs.prefix(most).map { "seq \($0.seq) reuses id \($0.id)" }
        list += badLines.prefix(most).map { "bad \($0)" }
        list += ruleViolations.prefix(most).map { "seq \($0.seq): \($0.message)" }
        return list
    }
}

public enum JournalVerifier {
    public static let maximumListed = 20

    /// `progress` gets the byte offset of the frame being checked (for a progress bar). `catalogue`: the exercise
    /// ids the rules accept besides custom ones (`RecordingRules(catalogue:)`), nil to check ids for shape only.
    public static func verify(path: String, storage: any Storage = PosixStorage(), catalogue: Set<String>? = nil,
                              progress: ((Int) -> Void)? = nil) throws(JournalError) -> VerifyReport {
        var report = VerifyReport(scan: ScanReport())
        var rules = RecordingRules(catalogue: catalogue)
        var lastSeq = 0
        report.pendingSeal = storage.exists(JournalWriter.sealPath(path))
        report.scan = try EventReader.forEach(path: path, storage: storage, badLines: { report.badLines.append($0) },
                                              progress: progress) { event in
            report.events += 1
            // An erased journal starts with its marker, whose seq follows the erased ones (FORMAT.md §6 "Erasure").
            let erasureMarker = report.events == 1 && event.type == "data.erased"
            if event.seq != lastSeq + 1 && !erasureMarker { report.seqGaps.append((lastSeq, event.seq)) }
            lastSeq = event.seq
            if report.firstSeq == nil { report.firstSeq = event.seq }
            report.lastSeq = event.seq
            if event.knownType == nil { report.unknownTypes[event.type, default: 0] += 1 }
            if let current = event.knownType.flatMap({ EventVocabulary.schema(for: $0) })?.version, event.v > current {
                report.newerVersions[event.type, default: 0] += 1
            }
            // Seq problems are reported above; the rules report a reused id, then check the rest against the
            // journal so far (an event reusing an id is not checked further).
            let verdict = rules.verifyStored(event)
            if verdict.reusedID { report.duplicateIDs.append((event.seq, event.id)) }
            if let violation = verdict.violation, violation.field != "id" {
                report.ruleViolations.append((event.seq, violation.description))
            }
        }
        return report
    }
}
