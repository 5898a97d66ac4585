import JournalEvents
import JournalServer
import JournalSync
import Logging
import PostgresNIO

/// The ceiling peer design (SCALE-FIGURES.md §"The ceiling"): users' events kept in the server process's memory and
/// nowhere else (`MemorySyncStore`'s journals), so **every event is lost when the server stops**. It exists to measure
/// what the HTTP server, the token look-ups and the simulated devices alone allow on a machine: a design that stored
/// nothing at all could not go faster. Its events follow `MemorySyncStore`'s rules (the real store's); tokens and
/// the access log are the real store's, `inner`, so that it authenticates as every design does. Never used unless the
/// server is started with `--store memory` (which warns on start).
public final class CeilingSyncStore: PeerSyncStore {
    public let inner: PostgresSyncStore
    let events = MemorySyncStore()

    public init(client: PostgresClient, logger: Logger) { inner = PostgresSyncStore(client: client, logger: logger) }

    public func push(user: String, events: [Event]) async throws -> PushOutcome {
        try await self.events.push(user: user, events: events)
    }

    public func pull(user: String, after cursor: SyncCursor, limit: Int) async throws -> PullPage {
        try await events.pull(user: user, after: cursor, limit: limit)
    }
}
