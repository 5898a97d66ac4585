import Foundation
import JournalEvents
import JournalStore

/// A fold's state saved beside the journal (`<journal>.home-snapshot`), so answering from a long journal
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

/// Replays journals through a fold from the start, handing the state at the last stable frame boundary to a
/// snapshot writer (the home page's, `<journal>.home-snapshot`), and reads snapshots back.
///
/// A snapshot of the whole fold (`<journal>.snapshot`) is not kept: decoding it took longer than replaying the
/// journal (BENCHMARKS.md §"Caches that only help"), so every reader replays; only the home page's small state is.
public enum SnapshotReplay {
    /// How a snapshot reader obtained its answer.
    public enum Outcome: Equatable, Sendable {
        /// From the snapshot, replaying only the events after its position.
        case resumed(eventsReplayed: Int)
        /// From the start: the reason the snapshot was not used.
        case fullReplay(because: String)
    }

    /// Why a valid snapshot was not used: it folded events past the requested point.
    public static let notAccepted = "the snapshot holds events past the requested point"
    /// Why no snapshot was read: the caller asked for a full replay (`--no-snapshot`, `JOURNAL_NO_SNAPSHOT`).
    public static let disabled = "snapshots disabled"

    /// Folds every event of `path` into `initial` with `fold`, in file order; lines that are not events are skipped,
    /// as `EventReader.forEach` skips them.
    ///
    /// - `untilSeq`: stop before the first event with a seq above it; such a replay saves nothing (its state is not
    ///   the journal's up to the stable point).
    /// - `checkpoint`: a snapshot derived from the state at the stable position (the start of the last frame with
    ///   more than one record, before the trailing run of one-record frames a seal may still rewrite: FORMAT.md
    ///   §"Sealing", `JournalReader.ResumedRead.stable`): `write` gets that state and position when `wanted` says so
    ///   of the position. Start states are kept only for frames in the last `checkpointWindow` bytes of the file;
    ///   when the stable frame starts before that, nothing is written (the next replay tries again).
    public static func replay<State: Sendable>(
        path: String, storage: any Storage = PosixStorage(), initial: State, untilSeq: Int? = nil,
        checkpoint: (wanted: (JournalPosition) -> Bool, write: (State, JournalPosition) -> Void)? = nil,
        fold: (inout State, Event) -> Void
    ) throws(JournalError) -> State {
        var state = initial
        var windowStart = Int.max
        if checkpoint != nil {
            do {
                let file = try storage.openForReading(path)
                defer { file.close() }
                windowStart = max(0, try file.size() - checkpointWindow)
            } catch {
                throw .store(error)
            }
        }
        // In the window, a frame's first event is folded only when its second arrives (the frame may be the stable
        // one: its start state moves to `lastMulti`) or when the frame ends with that one record (its start state is
        // dropped first). So each kept state costs one copy, and only for frames in the window.
        var tracking = false
        var frameStart: (offset: Int, state: State)?
        var lastMulti: (offset: Int, state: State)?
        var pending: Event?
        var records = 0
        let decoder = EventCodec.StreamDecoder()
        func finishFrame() {
            frameStart = nil
            if let event = pending { pending = nil; fold(&state, event) }
        }
        var read: JournalReader.ResumedRead?
        do {
            read = try JournalReader.read(path: path, storage: storage, resumingAt: nil, onFrame: { offset in
                finishFrame()
                records = 0
                tracking = offset >= windowStart
                if tracking { frameStart = (offset, state) }
            }, onRecord: { line, _ in
                records += 1
                guard let event = try? decoder.decode(line) else { return }
                if let untilSeq, event.seq > untilSeq { finishFrame(); throw StopReading() }
                if tracking {
                    if records == 1 { pending = event; return }
                    if records == 2 {
                        lastMulti = frameStart
                        finishFrame()
                    }
                }
                fold(&state, event)
            })
            finishFrame()
        } catch is StopReading {
            read = nil
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.io(path: path, operation: "read", errno: 0, message: "\(error)"))
        }
        if let checkpoint, let stable = read?.stable, let saved = lastMulti, saved.offset == stable.offset, checkpoint.wanted(stable) {
            checkpoint.write(saved.state, stable)
        }
        return state
    }

    /// How far from the end of a journal a replay keeps the state at frame starts for `checkpoint`: the last sealed
    /// frame and up to 64 one-event frames after it fit in it unless their events are unusually large.
    public static let checkpointWindow = 256 << 10

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
