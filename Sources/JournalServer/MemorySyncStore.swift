import JournalEvents
import JournalSync
import Logging
import PostgresNIO
import Synchronization

/// The ceiling peer design (SCALE-FIGURES.md §"The ceiling"): users' events kept in the server process's memory and
/// nowhere else, so **every event is lost when the server stops**. It exists to measure what the HTTP server, the
/// token look-ups and the simulated devices alone allow on a machine: a design that stored nothing at all could not
/// go faster. Like the naive peer, a push stores the ids it has not seen (no content check) and a pull returns the lines
/// after a position; an erasure follows the real store's rule (`AccountErasure`: the survivors start a new epoch from
/// position 1); tokens and the access log are the real store's. Never
/// used unless the server is started with `--store memory` (which warns on start).
public final class MemorySyncStore: PeerSyncStore {
    public let inner: PostgresSyncStore
    private struct Journal {
        var lines: [[UInt8]] = []
        var ids: Set<String> = []
        var epoch: Int64 = 1
    }
    private let journals = Mutex<[String: Journal]>([:])

    public init(client: PostgresClient, logger: Logger) { inner = PostgresSyncStore(client: client, logger: logger) }

    public func push(user: String, events: [Event]) async throws -> PushOutcome {
        try journals.withLock { journals in
            var journal = journals[user, default: Journal()]
            let fresh = events.filter { journal.ids.insert($0.id).inserted }
            if fresh.contains(where: AccountErasure.mayTrigger) {
                let all = try journal.lines.map { try EventCodec.decode($0) } + fresh
                if let start = AccountErasure.lastErasure(in: all), start >= journal.lines.count {
                    let kept = all[start...]
                    journal = Journal(lines: kept.enumerated().map { StoredBatch.line($1, position: Int64($0 + 1)) },
                                      ids: Set(kept.map(\.id)), epoch: journal.epoch + 1)
                    journals[user] = journal
                    return PushOutcome(acknowledged: events.map(\.id), stored: fresh.count,
                                       cursor: SyncCursor(epoch: journal.epoch, position: Int64(journal.lines.count)))
                }
            }
            for event in fresh { journal.lines.append(StoredBatch.line(event, position: Int64(journal.lines.count + 1))) }
            journals[user] = journal
            return PushOutcome(acknowledged: events.map(\.id), stored: fresh.count,
                               cursor: SyncCursor(epoch: journal.epoch, position: Int64(journal.lines.count)))
        }
    }

    public func pull(user: String, after cursor: SyncCursor, limit: Int) async throws -> PullPage {
        try journals.withLock { journals in
            let lines = journals[user]?.lines ?? [], epoch = journals[user]?.epoch ?? 1
            let after = cursor.isStart ? 0 : Int(cursor.position)
            guard cursor.isStart || (cursor.epoch == epoch && after <= lines.count) else {
                throw SyncFailure(410, "unknown_cursor", "cursor \(cursor) is unknown to this server's memory for user \(user) (it holds \(lines.count) events); pull from cursor 0")
            }
            let end = min(after + limit, lines.count)
            return PullPage(lines: Array(lines[after..<end]), cursor: end == 0 ? .start : SyncCursor(epoch: epoch, position: Int64(end)),
                            more: end < lines.count)
        }
    }
}
