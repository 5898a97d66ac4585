import Foundation
import JournalEvents
import JournalStore

/// A fold's state saved beside the journal as `<journal>.snapshot`, so opening a long journal
/// costs the events since the snapshot, not the whole history.
///
/// The snapshot is keyed by a `JournalPosition` — a frame boundary that no seal will rewrite,
/// the lines before it and a hash of every byte before it — and by the state's version. It is a
/// cache, never trusted blindly: it is used only when its checksum, its container and state
/// versions and the journal's prefix hash all match; otherwise the journal is replayed from the
/// start and the snapshot rewritten. Reading a journal never depends on it.
///
/// File layout (integers little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `4A 53 4E 41 50 00 00 02` ("JSNAP", 0, 0, 2: container version 2) |
/// | 8 | 8 | state version (the fold's; a new version discards older snapshots) |
/// | 16 | 8 | position: offset |
/// | 24 | 8 | position: lines before it |
/// | 32 | 8 | position: `StableHash` of the journal's bytes before it |
/// | 40 | 8 | n, the length of the state |
/// | 48 | n | the state, in `StateCoder`'s binary form (container version 1 held JSON) |
/// | 48 + n | 8 | `StableHash` of bytes 0 ..< 48 + n |
public struct ProjectionSnapshot<State: Codable>: Sendable where State: Sendable {
    public static var magic: [UInt8] { [0x4A, 0x53, 0x4E, 0x41, 0x50, 0x00, 0x00, 0x02] }

    public var stateVersion: Int
    public var position: JournalPosition
    public var state: State

    public init(stateVersion: Int, position: JournalPosition, state: State) {
        self.stateVersion = stateVersion
        self.position = position
        self.state = state
    }

    public static func path(for journal: String) -> String { journal + ".snapshot" }

    public func encoded() throws -> [UInt8] {
        let payload = try StateCoder.encode(state)
        var bytes = ProjectionSnapshot.magic
        for value in [UInt64(stateVersion), UInt64(position.offset), UInt64(position.linesBefore), position.prefixHash, UInt64(payload.count)] {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes += payload
        withUnsafeBytes(of: StableHash.of(bytes).littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Why stored bytes are not a usable snapshot.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case missing
        case corrupt(String)
        case otherVersion(found: Int, expected: Int)
        case stale
        public var description: String {
            switch self {
            case .missing: return "no snapshot"
            case .corrupt(let why): return "corrupt snapshot (\(why))"
            case .otherVersion(let found, let expected): return "snapshot of state version \(found), expected \(expected)"
            case .stale: return "the journal's bytes before the snapshot's position changed"
            }
        }
    }

    public static func decode(_ bytes: [UInt8], stateVersion expected: Int) -> Result<ProjectionSnapshot, Problem> {
        guard bytes.count >= 56 else { return .failure(.corrupt("\(bytes.count) bytes, shorter than any snapshot")) }
        guard Array(bytes[0..<8]) == magic else { return .failure(.corrupt("bad magic or container version")) }
        func word(_ at: Int) -> UInt64 {
            bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        }
        let length = word(40)
        guard length <= UInt64(bytes.count - 56), 48 + Int(length) + 8 == bytes.count else {
            return .failure(.corrupt("declared state length \(length) does not fit \(bytes.count) bytes"))
        }
        let end = 48 + Int(length)
        guard StableHash.of(Array(bytes[0..<end])) == word(end) else { return .failure(.corrupt("checksum mismatch")) }
        let version = Int(truncatingIfNeeded: word(8))
        guard version == expected else { return .failure(.otherVersion(found: version, expected: expected)) }
        let position = JournalPosition(offset: Int(truncatingIfNeeded: word(16)), linesBefore: Int(truncatingIfNeeded: word(24)), prefixHash: word(32))
        guard position.offset > 0, position.linesBefore >= 0 else { return .failure(.corrupt("impossible position")) }
        do {
            let state = try StateCoder.decode(State.self, from: Array(bytes[48..<end]))
            return .success(ProjectionSnapshot(stateVersion: version, position: position, state: state))
        } catch {
            return .failure(.corrupt("state does not decode: \(error)"))
        }
    }
}

extension Result {
    var failure: Failure? { if case .failure(let failure) = self { return failure }; return nil }
}

/// Replays journals through a fold, starting from `<journal>.snapshot` when it is valid and
/// saving a new one at the last stable frame boundary.
public enum SnapshotReplay {
    /// How the state was obtained.
    public enum Outcome: Equatable, Sendable {
        /// From the snapshot, replaying only the events after its position.
        case resumed(eventsReplayed: Int)
        /// From the start: the reason the snapshot was not used.
        case fullReplay(because: String)
    }

    /// Why a valid snapshot was not used: `accept` refused its state (it folded events past what was asked for).
    public static let notAccepted = "the snapshot holds events past the requested point"
    /// Why no snapshot was read: the caller asked for a full replay (`--no-snapshot`, `JOURNAL_NO_SNAPSHOT`).
    public static let disabled = "snapshots disabled"

    /// Folds every event of `path` into `initial` with `fold`, from a valid snapshot when there is
    /// one, and rewrites the snapshot when its position moved. Lines that are not events are
    /// skipped, as `EventReader.forEach` skips them. `stateVersion` must change whenever the
    /// fold or the state's shape changes.
    ///
    /// - `untilSeq`: stop before the first event with a seq above it, as `EventReader.forEach(untilSeq:)` does; a
    ///   replay that stopped early writes no snapshot (its state is not the journal's up to the stable point).
    /// - `accept`: whether a decoded snapshot's state may answer this question (e.g. it folded no event after the
    ///   requested point); when it refuses, nothing is read (`folded` is false): the caller replays as it needs.
    /// - `useSnapshot`: false reads and writes no snapshot at all (a full replay for support debugging).
    /// - `replayWhenUnusable`: false returns `initial` at once, without reading the journal, when there is no
    ///   snapshot to start from (missing, corrupt, disabled): for callers that replay differently then.
    /// - `rewriteAfter`: a valid snapshot is rewritten at the new stable point only once at least this many events
    ///   were replayed after it (encoding a large state costs more than folding a few events; a missing, corrupt or
    ///   stale one is always rewritten).
    /// - `companion`: a second file derived from the same state at the same position (the home page's,
    ///   `<journal>.home-snapshot`): `write` is called with the saved state and its position whenever the snapshot
    ///   is written, and also when `wanted` says so of the stable position (the companion is missing or behind).
    /// - Returns `folded`: whether the journal was read into `state` (false: `state` is `initial`).
    public static func replay<State: Codable & Sendable>(
        path: String, storage: any Storage = PosixStorage(), stateVersion: Int, initial: State,
        untilSeq: Int? = nil, useSnapshot: Bool = true, accept: (State) -> Bool = { _ in true },
        replayWhenUnusable: Bool = true, rewriteAfter: Int = 0,
        companion: (wanted: (JournalPosition) -> Bool, write: (State, JournalPosition) -> Void)? = nil,
        fold: (inout State, Event) -> Void
    ) throws(JournalError) -> (state: State, outcome: Outcome, folded: Bool) {
        let snapshotPath = ProjectionSnapshot<State>.path(for: path)
        var loaded: Result<ProjectionSnapshot<State>, ProjectionSnapshot<State>.Problem> = .failure(.missing)
        if useSnapshot { loaded = load(snapshotPath, storage: storage, stateVersion: stateVersion) }
        var refused = false
        if case .success(let found) = loaded, !accept(found.state) { refused = true }
        let snapshot = refused ? nil : try? loaded.get()
        if refused { return (initial, .fullReplay(because: notAccepted), false) }
        if snapshot == nil && !replayWhenUnusable {
            return (initial, .fullReplay(because: useSnapshot ? (loaded.failure ?? .missing).description : disabled), false)
        }
        var state = snapshot?.state ?? initial
        let resumeFrom = snapshot?.position
        // Checkpoints of the state at the last frame starts, to save the one at `stable` (at most
        // the last sealed frame plus an unsealed tail of up to 64 one-event frames back).
        var checkpoints: [(offset: Int, state: State)] = []
        var replayed = 0
        let decoder = EventCodec.StreamDecoder()
        var read: JournalReader.ResumedRead?
        var started = false
        var resumedAtFirstFrame = false
        do {
            read = try JournalReader.read(path: path, storage: storage, resumingAt: resumeFrom, onFrame: { offset in
                if !started {
                    // The first frame tells whether the read resumed: if not, start from `initial`.
                    started = true
                    if let resumeFrom, offset != resumeFrom.offset { state = initial }
                    resumedAtFirstFrame = offset == resumeFrom?.offset
                }
                if useSnapshot { checkpoints.append((offset, state)) }
                if checkpoints.count > 80 { checkpoints.removeFirst(16) }
            }, onRecord: { line, _ in
                guard let event = try? decoder.decode(line) else { return }
                if let untilSeq, event.seq > untilSeq { throw StopReading() }
                fold(&state, event)
                replayed += 1
            })
        } catch is StopReading {
            read = nil
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.io(path: path, operation: "read", errno: 0, message: "\(error)"))
        }
        // Resumed when the first frame read starts at the snapshot's position (or nothing followed it).
        let resumed = started ? resumedAtFirstFrame : (resumeFrom != nil && read?.resumed == true)
        if !resumed && snapshot != nil && !started { state = initial }
        let outcome: Outcome
        if resumed {
            outcome = .resumed(eventsReplayed: replayed)
        } else if !useSnapshot {
            outcome = .fullReplay(because: disabled)
        } else if case .failure(let problem) = loaded {
            outcome = .fullReplay(because: problem.description)
        } else {
            outcome = .fullReplay(because: ProjectionSnapshot<State>.Problem.stale.description)
        }
        if useSnapshot, let stable = read?.stable, let checkpoint = checkpoints.last(where: { $0.offset == stable.offset }) {
            if stable != snapshot?.position, !resumed || replayed >= rewriteAfter,
               let bytes = try? ProjectionSnapshot(stateVersion: stateVersion, position: stable, state: checkpoint.state).encoded() {
                // A cache: a failed write costs the next open a full replay, nothing more (and skips the companion).
                if SnapshotFile.write(bytes, to: snapshotPath, storage: storage) { companion?.write(checkpoint.state, stable) }
            } else if let companion, companion.wanted(stable) {
                companion.write(checkpoint.state, stable)
            }
        }
        return (state, outcome, true)
    }

    /// Thrown from a record callback to end a read at `untilSeq`.
    struct StopReading: Error {}

    /// The snapshot at `snapshotPath`, or why there is none to use.
    public static func load<State: Codable & Sendable>(_ snapshotPath: String, storage: any Storage, stateVersion: Int)
        -> Result<ProjectionSnapshot<State>, ProjectionSnapshot<State>.Problem> {
        guard storage.exists(snapshotPath) else { return .failure(.missing) }
        do {
            let file = try storage.openForReading(snapshotPath)
            defer { file.close() }
            let size = try file.size()
            guard size <= SnapshotFile.maximumBytes else { return .failure(.corrupt("\(size) bytes, larger than any snapshot")) }
            return ProjectionSnapshot<State>.decode(try file.readAll(), stateVersion: stateVersion)
        } catch {
            return .failure(.corrupt("unreadable: \(error)"))
        }
    }
}
