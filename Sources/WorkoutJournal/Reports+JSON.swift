import JournalStore
import JournalFile
import JournalEvents
import JournalProjections

// The `--json` shapes of `journal verify`, `journal stats` and `journal replay`, beside the views' own
// (JournalProjections' JSON.swift): fixed keys in a fixed order, so output is deterministic.

extension VerifyReport {
    /// The report of the journal at `file`; with `against`, also how it compares with the journal it is a backup of
    /// (`journal verify FILE --against SOURCE`: the `against` object, and `clean` only when it is an earlier state).
    public func jsonValue(file: String, against: (source: String, comparison: JournalBackups.Comparison)? = nil) -> JSONValue {
        var object: JSONObject = [
            "file": .string(file), "bytes": .int(scan.fileSize), "format_version": .int(scan.version.rawValue),
            "padding_bytes": .int(scan.paddingBytes), "frames": .int(scan.frames),
            "unsealed_frames": .int(scan.tailRun.count), "events": .int(events),
            "seq_gaps": .array(seqGaps.map { .object(["after": .int($0.after), "found": .int($0.found)]) }),
            "duplicate_ids": .array(duplicateIDs.map { .object(["seq": .int($0.seq), "id": .string($0.id)]) }),
            "damage": .array(scan.corruption.map { .object(["offset": .int($0.offset), "length": .int($0.length), "reason": .string($0.reason)]) }),
            "torn_tail": scan.tornTail.map { .object(["offset": .int($0.offset), "length": .int($0.length), "reason": .string($0.reason)]) } ?? .null,
            "pending_seal": .bool(pendingSeal),
            "bad_lines": .array(badLines.map { .object(["line": .int($0.line), "frame_offset": .int($0.frameOffset), "problem": .string($0.problem.description)]) }),
            "unknown_types": .object(JSONObject(unknownTypes.sorted { $0.key < $1.key }.map { JSONField($0.key, .int($0.value)) })),
            "newer_versions": .object(JSONObject(newerVersions.sorted { $0.key < $1.key }.map { JSONField($0.key, .int($0.value)) })),
            "rule_violations": .array(ruleViolations.map { .object(["seq": .int($0.seq), "message": .string($0.message)]) }),
            "clean": .bool(isClean),
        ]
        if let (source, comparison) = against {
            object["against"] = .object([
                "source": .string(source), "matches": .bool(comparison.matches),
                "matching_bytes": .int(comparison.matchingBytes), "sealed_bytes": .int(comparison.backupSealedEnd),
                "backup_events": .int(comparison.backupRecords), "matching_events": .int(comparison.matchingRecords),
                "source_events": .int(comparison.sourceRecords),
                "problem": comparison.problem.map { .string($0) } ?? .null,
            ])
            object["clean"] = .bool(isClean && comparison.matches)
        }
        return .object(object)
    }
}

extension JournalStats: JSONRepresentable {
    /// `journal stats --json`: these keys in this order, `ratio` to two decimals.
    public var jsonValue: JSONValue {
        .object([
            "events": .int(events), "frames": .int(frames), "unsealed_frames": .int(unsealedFrames),
            "compressed_bytes": .int(compressedBytes), "plain_bytes": .int(plainBytes),
            "ratio": .number((ratio * 100).rounded() / 100),
            "by_type": .object(JSONObject(byType.map { JSONField($0.type, .int($0.count)) })),
        ])
    }
}

extension ReplaySummary: JSONRepresentable {
    /// The `summary` of `journal replay --json`: these keys in this order, `volume_kg` to two decimals.
    public var jsonValue: JSONValue {
        .object([
            "events": .int(events), "last_seq": .int(lastSeq), "unknown_events": .int(unknownEvents),
            "workouts": .int(workoutsFinished), "workouts_discarded": .int(workoutsDiscarded),
            "sets": .int(workingSets), "warmup_sets": .int(warmupSets),
            "volume_kg": .number((volumeKg * 100).rounded() / 100),
            "first_activity": firstActivity.map { .string($0.rfc3339) } ?? .null,
            "last_activity": lastActivity.map { .string($0.rfc3339) } ?? .null,
        ])
    }
}

/// `journal replay --json`: `{"summary": …, "projections": …}`.
public struct ReplayReport: JSONRepresentable {
    /// The counts of the events replayed.
    public var summary: ReplaySummary
    /// Every projection, as of the replay's time.
    public var projections: AllProjections

    /// The report of `summary` and `projections`.
    public init(summary: ReplaySummary, projections: AllProjections) {
        self.summary = summary
        self.projections = projections
    }

    /// `{"summary": …, "projections": …}`.
    public var jsonValue: JSONValue { .object(["summary": summary.jsonValue, "projections": projections.jsonValue]) }
}
