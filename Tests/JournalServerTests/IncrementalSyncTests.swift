import Foundation
import JournalFile
import JournalStore
import JournalSync
import JournalTesting
import Testing
import WorkoutJournalSync

/// Rounds that read what changed (SYNC.md §"Rounds that read what changed"): a sync reads the journal from the mark
/// its `<journal>.sync` keeps, pushes only what the server is not known to hold, and reads the whole journal again
/// only when the side state is missing, unreadable, stale or another server's.
@Suite("incremental sync: a round reads what changed, not the whole journal")
struct IncrementalSyncTests {
    static let scratch = ScratchDirectory("incremental")

    /// A device's journal holding `weeks` of a simulated lifter's history (2025-01-06 on), open for recording with a
    /// clock a day after its last event.
    static func history(weeks: Int, device: String = "ph") throws -> (journal: UserJournal, clock: ManualClock, events: Int) {
        let folder = scratch.file("\(device)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/ana.journal"
        let events = try Fixtures.simulatedJournal(at: path, storage: PosixStorage(), weeks: weeks, device: device)
        let clock = ManualClock(events.last!.at.adding(milliseconds: 86_400_000))
        return (try UserJournal.open(path: path, device: device, clock: clock.now), clock, events.count)
    }

    /// An empty journal of its own, open for recording as `device`.
    static func empty(device: String, clock: ManualClock) throws -> UserJournal {
        let folder = scratch.file("\(device)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try UserJournal.open(path: folder + "/ana.journal", device: device, clock: clock.now)
    }

    /// One workout's start and `sets` completed sets, a minute apart: 1 + `sets` events.
    @discardableResult
    static func record(_ journal: UserJournal, clock: ManualClock, sets: Int) throws -> WorkoutID {
        clock.advance(milliseconds: 60_000)
        let workout = try journal.startWorkout(name: "Legs")
        for set in 1...sets {
            clock.advance(milliseconds: 60_000)
            try journal.completeSet(workout, exercise: "barbell-back-squat", set: set, weight: 100, reps: 5)
        }
        return workout
    }

    /// The server's copy of the user's journal, as ids in its order.
    static func serverIDs(_ client: SyncClient, user: String) async throws -> [String] {
        var cursor = SyncCursor.start, ids: [String] = []
        while true {
            let page = try await client.pull(user: user, after: cursor)
            ids += page.events.map(\.id)
            cursor = page.cursor
            if !page.more { return ids }
        }
    }

    @Test("after a full first round of a 3,423-event journal, a round after 3 appends reads those 3 events and pushes them, a round after nothing reads one event, and the mark holds across a seal")
    func roundReadsWhatChanged() async throws {
        let (user, token) = try await PostgresFixture.freshPrincipal("incr")
        // `INCREMENTAL_SYNC_WEEKS=104` for SYNC.md's figure: the rounds after the first read as many events.
        let weeks = Int(ProcessInfo.processInfo.environment["INCREMENTAL_SYNC_WEEKS"] ?? "") ?? 8
        let (phone, clock, count) = try Self.history(weeks: weeks)
        defer { phone.close() }
        if weeks == 8 { #expect(count == 3_423) }
        try await withServer { server in
            let client = SyncClient(server: server, token: token)
            let timer = ContinuousClock()
            let start = timer.now
            let first = try await phone.sync(client: client)
            let firstTime = timer.now - start
            // The first round reads the whole journal: once to merge, once to push.
            #expect((first.pushed, first.storedByServer, first.events, first.eventsRead) == (count, count, count, 2 * count))

            let workout = try Self.record(phone, clock: clock, sets: 2)
            let before = timer.now
            let second = try await phone.sync(client: client)
            let secondTime = timer.now - before
            #expect((second.pushed, second.storedByServer, second.events, second.eventsRead) == (3, 3, count + 3, 3))
            print("incremental sync: \(count) events; first round \(firstTime), \(first.eventsRead) events read; round after 3 appends \(secondTime), \(second.eventsRead) read")

            let idle = try await phone.sync(client: client)
            // Only the mark's last event, read again to check it is still there.
            #expect((idle.pulled, idle.pushed, idle.events, idle.eventsRead) == (0, 0, count + 3, 1))

            // Finishing the workout seals the tail the mark is at: the mark still holds (the last event and the new one).
            clock.advance(milliseconds: 60_000)
            try phone.finishWorkout(workout)
            let sealed = try await phone.sync(client: client)
            #expect((sealed.pushed, sealed.storedByServer, sealed.events, sealed.eventsRead) == (1, 1, count + 4, 2))
            // Taken after the seal, the mark is at the end of the data: nothing to read.
            #expect(try await phone.sync(client: client).eventsRead == 0)

            // A closed journal (`journal sync FILE`) reads from the same mark.
            phone.close()
            let closed = try await JournalSyncing.sync(phone.path, client: client)
            #expect((closed.pushed, closed.events, closed.eventsRead) == (0, count + 4, 0))
            #expect(try await Self.serverIDs(client, user: user) == EventReader.events(path: phone.path).map(\.id))
        }
    }

    @Test("a watch merges the phone's new events after its mark and pushes its own from it; both end with the same events and the server holds each once")
    func twoDevicesConverge() async throws {
        let (user, token) = try await PostgresFixture.freshPrincipal("incr2")
        let (phone, clock, count) = try Self.history(weeks: 4)
        let watch = try Self.empty(device: "wa", clock: clock)
        defer { phone.close(); watch.close() }
        try await withServer { server in
            let client = SyncClient(server: server, token: token)
            try await phone.sync(client: client)
            let restored = try await watch.sync(client: client)
            #expect((restored.pulled, restored.merged, restored.events) == (count, count, count))

            let workout = try Self.record(phone, clock: clock, sets: 1)
            #expect(try await phone.sync(client: client).pushed == 2)
            let pulled = try await watch.sync(client: client)
            #expect((pulled.pulled, pulled.merged, pulled.pushed, pulled.events) == (2, 2, 0, count + 2))
            // Its journal was sealed whole by the first merge: the mark is at its end, and the 2 are only appended.
            #expect(pulled.eventsRead == 0)

            clock.advance(milliseconds: 60_000)
            try watch.completeSet(workout, exercise: "barbell-back-squat", set: 2, weight: 100, reps: 5)
            let pushed = try await watch.sync(client: client)
            #expect((pushed.pushed, pushed.storedByServer) == (1, 1))
            // The mark's last event (the second merged one) and the set.
            #expect(pushed.eventsRead == 2)
            let merged = try await phone.sync(client: client)
            #expect((merged.merged, merged.pushed, merged.events) == (1, 0, count + 3))
            #expect(merged.eventsRead == 1)

            #expect(try phone.events().map(Merge.identity) == watch.events().map(Merge.identity))
            #expect(try await Self.serverIDs(client, user: user) == phone.events().map(\.id))
        }
    }

    @Test("an event another device recorded before this journal's last one is merged with the whole journal (rewritten in merge order), and both devices end with the same events and seqs")
    func earlierEventMergesWhole() async throws {
        let (user, token) = try await PostgresFixture.freshPrincipal("incr5")
        let (phone, clock, count) = try Self.history(weeks: 4)
        let watchClock = ManualClock(clock.time)
        let watch = try Self.empty(device: "wa", clock: watchClock)
        defer { phone.close(); watch.close() }
        try await withServer { server in
            let client = SyncClient(server: server, token: token)
            try await phone.sync(client: client)
            try await watch.sync(client: client)
            // The phone starts a workout a minute on and completes a set a minute later; the watch changes a setting
            // 30 s on, before both.
            try Self.record(phone, clock: clock, sets: 1)
            #expect(try await phone.sync(client: client).pushed == 2)
            watchClock.advance(milliseconds: 30_000)
            try watch.record(.object(["type": "settings.changed", "key": "theme", "value": "dark"]))
            // The phone's two sort after the watch's setting: appended after its mark.
            let watchRound = try await watch.sync(client: client)
            #expect((watchRound.pulled, watchRound.merged, watchRound.pushed, watchRound.eventsRead) == (2, 2, 1, 1))
            // The setting sorts before the phone's last event: merged with the whole journal, which is rewritten.
            let phoneRound = try await phone.sync(client: client)
            #expect((phoneRound.pulled, phoneRound.merged, phoneRound.pushed, phoneRound.events) == (1, 1, 0, count + 3))
            #expect(phoneRound.eventsRead == 3 * count + 7)
            #expect(try phone.events().map { "\($0.id)@\($0.seq)" } == watch.events().map { "\($0.id)@\($0.seq)" })
            #expect(try phone.events().suffix(3).map(\.type) == ["settings.changed", "workout.started", "set.completed"])
            // The next rounds read from marks again.
            #expect(try await phone.sync(client: client).eventsRead == 0)
            #expect(try await watch.sync(client: client).eventsRead == 1)
            let held = try await Self.serverIDs(client, user: user)
            #expect(try (held.count, Set(held)) == (count + 3, Set(phone.events().map(\.id))))
        }
    }

    @Test("a restart keeps the mark; a state lost in the middle of a round (old state back after the push, or after the merge) re-sends and re-pulls without duplicating anything")
    func restartInTheMiddle() async throws {
        let (user, token) = try await PostgresFixture.freshPrincipal("incr3")
        let (opened, clock, count) = try Self.history(weeks: 4)
        let watch = try Self.empty(device: "wa", clock: clock)
        defer { watch.close() }
        let path = opened.path
        let state = JournalSyncing.statePath(path)
        try await withServer { server in
            let client = SyncClient(server: server, token: token)
            try await opened.sync(client: client)
            try await watch.sync(client: client)

            // Closed and opened again: the next round still reads from the mark.
            opened.close()
            let phone = try UserJournal.open(path: path, device: "ph", clock: clock.now)
            defer { phone.close() }
            let workout = try Self.record(phone, clock: clock, sets: 2)
            let before = try #require(FileManager.default.contents(atPath: state))
            let afterRestart = try await phone.sync(client: client)
            #expect((afterRestart.pushed, afterRestart.storedByServer) == (3, 3))
            #expect(afterRestart.eventsRead == 3)

            // The app died after the push was acknowledged, before the state was saved: the next round reads from the
            // old mark, pulls the 3 back from the old cursor and sends only the one recorded since.
            try before.write(to: URL(fileURLWithPath: state))
            clock.advance(milliseconds: 60_000)
            try phone.completeSet(workout, exercise: "barbell-back-squat", set: 3, weight: 100, reps: 5)
            let again = try await phone.sync(client: client)
            // (The pull brings the 3 back, so they are known again and only the new one is sent.)
            #expect((again.pulled, again.merged, again.pushed, again.storedByServer, again.events) == (3, 0, 1, 1, count + 4))
            #expect(again.eventsRead == 4)

            // The watch died after merging the pulled events, before saving its state: the pull brings them again
            // and the round finds them in the journal after its mark.
            let watchState = JournalSyncing.statePath(watch.path)
            let watchBefore = try #require(FileManager.default.contents(atPath: watchState))
            #expect(try await watch.sync(client: client).merged == 4)
            try watchBefore.write(to: URL(fileURLWithPath: watchState))
            let repeated = try await watch.sync(client: client)
            #expect((repeated.pulled, repeated.merged, repeated.pushed, repeated.events) == (4, 0, 0, count + 4))
            #expect(repeated.eventsRead == 4)

            #expect(try await Self.serverIDs(client, user: user) == phone.events().map(\.id))
            #expect(try watch.events().map(Merge.identity) == phone.events().map(Merge.identity))
        }
    }

    @Test("a side state missing, unreadable, with a mark the journal no longer has, from before the ranges, or of another server makes one round read the whole journal; nothing is pushed twice")
    func staleStateFallsBack() async throws {
        let (user, token) = try await PostgresFixture.freshPrincipal("incr4")
        let (phone, clock, count) = try Self.history(weeks: 4)
        defer { phone.close() }
        let state = JournalSyncing.statePath(phone.path)
        let workout = try phone.startWorkout(name: "Legs")
        let counter = Locked(0)
        try await withServer { server in
            let client = SyncClient(server: server, token: token)
            try await phone.sync(client: client)
            let saved = try String(contentsOfFile: state, encoding: .utf8)
            #expect(saved.contains(#""known":[],"known_ranges":"ph:1-"#))
            #expect(saved.contains(#""mark":{"last_at_ms":"#))

            func round(_ damage: () throws -> Void) async throws -> JournalSyncing.SyncReport {
                for _ in 0..<2 {
                    clock.advance(milliseconds: 60_000)
                    let set = counter.withLock { $0 += 1; return $0 }
                    try phone.completeSet(workout, exercise: "barbell-back-squat", set: set, weight: 100, reps: 5)
                }
                try damage()
                return try await phone.sync(client: client)
            }
            var total = count + 1
            // Missing: the sync starts from 0, pulls the server's copy, reads the journal whole and pushes the 2 new.
            total += 2
            let missing = try await round { try FileManager.default.removeItem(atPath: state) }
            #expect((missing.pulled, missing.merged, missing.pushed, missing.storedByServer, missing.events) == (total - 2, 0, 2, 2, total))
            #expect(missing.eventsRead >= 2 * total)
            #expect(try await phone.sync(client: client).eventsRead == 1)

            // Not JSON.
            total += 2
            let garbage = try await round { try Data("{not json".utf8).write(to: URL(fileURLWithPath: state)) }
            #expect((garbage.pushed, garbage.storedByServer, garbage.events) == (2, 2, total))
            #expect(garbage.eventsRead >= 2 * total)

            // Ranges that do not read.
            total += 2
            let badRanges = try await round {
                let text = try String(contentsOfFile: state, encoding: .utf8)
                try text.replacingOccurrences(of: #""known_ranges":"ph:"#, with: #""known_ranges":"PH:"#).write(toFile: state, atomically: true, encoding: .utf8)
            }
            #expect((badRanges.pushed, badRanges.storedByServer) == (2, 2))
            #expect(badRanges.eventsRead >= 2 * total)

            // A mark whose bytes the journal no longer has (its prefix hash changed).
            total += 2
            let staleMark = try await round {
                let text = try String(contentsOfFile: state, encoding: .utf8)
                let hash = try #require(text.firstRange(of: #/"prefix_hash":"[0-9a-f]{16}"/#))
                try text.replacingCharacters(in: hash, with: #""prefix_hash":"0123456789abcdef""#).write(toFile: state, atomically: true, encoding: .utf8)
            }
            #expect((staleMark.pulled, staleMark.pushed, staleMark.storedByServer) == (0, 2, 2))
            #expect(staleMark.eventsRead >= total)

            // Written before ranges and marks: every id in `known`. Read whole once, then from the mark.
            total += 2
            let ids = try phone.events().map(\.id)
            let old = try await round {
                let cursor = try #require(String(contentsOfFile: state, encoding: .utf8).firstMatch(of: #/"cursor":"([0-9-]+)"/#)?.1)
                let known = ids.sorted().map { "\"\($0)\"" }.joined(separator: ",")
                try #"{"cursor":"\#(cursor)","known":[\#(known)],"server":"\#(server.absoluteString)","user":"\#(user)"}"#
                    .write(toFile: state, atomically: true, encoding: .utf8)
            }
            #expect((old.pulled, old.pushed, old.storedByServer, old.events) == (0, 2, 2, total))
            #expect(old.eventsRead >= total)
            #expect(try await phone.sync(client: client).eventsRead == 1)

            // Another server's state: ignored.
            total += 2
            let other = try await round {
                var object = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as? [String: Any])
                #expect(object["server"] as? String == server.absoluteString)
                object["server"] = "http://127.0.0.1:1"
                try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: state))
            }
            #expect((other.pulled, other.pushed, other.storedByServer, other.events) == (total - 2, 2, 2, total))

            let held = try await Self.serverIDs(client, user: user)
            #expect(held.count == total)
            #expect(try held == phone.events().map(\.id))
        }
    }

    @Test("known ids as ranges: inserts join neighbours, the text form reads back, ids the ranges cannot hold are kept aside, and malformed text is refused")
    func knownRanges() {
        var known = KnownIDs(["ph-1", "ph-2", "ph-4", "wa-a", "ph-3", "ph-z", "ph-10", "odd id", "ph-01"])
        #expect(known.rangesText == "ph:1-4,z-10 wa:a-a")
        #expect(known.others == ["odd id", "ph-01"])
        #expect(known.count == 9)
        #expect(known.contains("ph-3") && known.contains("ph-10") && known.contains("odd id"))
        #expect(!known.contains("ph-5") && !known.contains("ph-11") && !known.contains("wa-b"))
        known.insert("ph-11")
        known.insert("ph-y")
        #expect(known.rangesText == "ph:1-4,y-11 wa:a-a")
        #expect(KnownIDs(rangesText: known.rangesText, others: known.others) == known)
        #expect(KnownIDs(rangesText: "", others: []) == KnownIDs())
        for bad in ["ph", "ph:1", "ph:2-1", "ph:1-3,3-5", "ph:1-3,4-5", "wa:1-2 ph:1-2", "PH:1-2", "ph:01-2", "ph:1-2  wa:1-1"] {
            #expect(KnownIDs(rangesText: bad, others: []) == nil, "\(bad)")
        }
    }
}
