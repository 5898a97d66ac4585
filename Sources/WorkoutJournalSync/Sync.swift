@_exported import JournalSync
@_exported import WorkoutJournal
import Foundation

/// Sync and backup with a journal-server (SYNC.md), from the facade: the same calls `journal sync` and
/// `journal restore` make. The journal must not be open for recording meanwhile (a sync rewrites it
/// under its writer lock: an open `UserJournal` makes it fail with `locked`).
extension JournalDirectory {
    /// Pushes the events of `user`'s journal the server lacks and merges in the ones it lacks itself. When the
    /// account was erased on another device, erases this journal first (`SyncReport.erasure` says what went).
    public func sync(user: String, server: URL, token: String?, serverUser: String? = nil,
                     progress: @Sendable (JournalSyncing.Progress) -> Void = { _ in }) async throws -> JournalSyncing.SyncReport {
        try await JournalSyncing.sync(try journalPath(user: user), client: SyncClient(server: server, token: token),
                                      user: serverUser, progress: progress)
    }

    /// Writes the server's copy of `serverUser`'s journal (the token's user when nil) as `user`'s journal,
    /// which must not exist yet (a new device).
    public func restore(user: String, server: URL, token: String?, serverUser: String? = nil,
                        progress: @Sendable (JournalSyncing.Progress) -> Void = { _ in }) async throws -> JournalSyncing.RestoreReport {
        try await JournalSyncing.restore(to: try journalPath(user: user), client: SyncClient(server: server, token: token),
                                         user: serverUser, progress: progress)
    }
}
