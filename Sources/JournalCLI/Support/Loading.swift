import WorkoutJournalSync
import Foundation
import ArgumentParser

/// How every view reads a journal: all decoded events in seq order, optionally only up to `untilSeq`.
enum JournalLoader {
    static func events(path: String, untilSeq: Int? = nil) throws -> [Event] {
        try requireJournal(path)
        return try JournalRead.events(path: path, untilSeq: untilSeq)
    }

    /// The home page as of `asOf` (nil: now, in the offset of the journal's last event), through
    /// `<journal>.home-snapshot` when `useSnapshot`: the same answer as a full replay.
    static func home(path: String, asOf: Timestamp?, context: ProjectionContext, useSnapshot: Bool) throws -> HomePage {
        try requireJournal(path)
        return try HomePage.read(path: path, asOf: asOf, now: SystemClock.now(), context: context, useSnapshot: useSnapshot)
    }

    static func requireJournal(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure(message: "\(path): no such journal (check the path; `journal record \(path)` creates one)")
        }
    }

    /// The journal as of `asOf` (nil: now, in the offset of its last event) up to `untilSeq`, replayed from the start.
    static func read(path: String, asOf: Timestamp?, untilSeq: Int?,
                     progress: ((_ frameOffset: Int) -> Void)? = nil) throws -> JournalRead {
        try requireJournal(path)
        return try JournalRead.read(path: path, asOf: asOf, untilSeq: untilSeq, now: SystemClock.now(),
                                    progress: progress)
    }
}

/// `--no-snapshot` (or `JOURNAL_NO_SNAPSHOT=1` in the environment): `journal home` replays the whole journal, neither
/// reading nor writing `<journal>.home-snapshot`, for support debugging. The answer is the same either way. Every other
/// view always replays the journal (no snapshot of the whole fold is kept), so there the flag changes nothing.
struct SnapshotOption: ParsableArguments {
    @Flag(name: .customLong("no-snapshot"), help: ArgumentHelp(
        "Replay the whole journal; do not read or write FILE.home-snapshot (also JOURNAL_NO_SNAPSHOT=1).",
        discussion: "Only the home page has a snapshot; the answer is the same with and without it."))
    var disabled = false

    var enabled: Bool { !disabled && !SnapshotOption.disabledByEnvironment(ProcessInfo.processInfo.environment) }

    /// `JOURNAL_NO_SNAPSHOT` set to anything but empty or `0`.
    static func disabledByEnvironment(_ environment: [String: String]) -> Bool {
        guard let value = environment["JOURNAL_NO_SNAPSHOT"] else { return false }
        return !value.isEmpty && value != "0"
    }
}

/// The wall clock, injected everywhere else: the facade's `JournalDirectory.systemClock`, the one an app passes.
enum SystemClock {
    /// Now, in this machine's current UTC offset.
    static func now() -> Timestamp { JournalDirectory.systemClock() }
}

/// The size of `path` in bytes, or 0 when it cannot be read (for progress bars only).
func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
}
