@_exported import JournalSync
@_exported import WorkoutJournal
import Foundation

/// Sync and backup with a journal-server (SYNC.md), from the facade: the same calls `journal sync` and
/// `journal restore` make. A journal open for recording in this process is synced through its own writer, and its
/// observers see what the sync merged (SYNC.md §"Syncing an open journal"); one open in another process makes the
/// sync fail with `locked`.
extension JournalDirectory {
    /// Pushes the events of `user`'s journal the server lacks and merges in the ones it lacks itself. When the
    /// account was erased on another device, erases this journal first (`SyncReport.erasure` says what went). When
    /// the journal is open in this process (`open(user:)`), the sync goes through that `UserJournal`.
    public func sync(user: String, server: URL, token: String?, serverUser: String? = nil,
                     progress: @Sendable (JournalSyncing.Progress) -> Void = { _ in }) async throws -> JournalSyncing.SyncReport {
        try await sync(user: user, client: SyncClient(server: server, token: token), serverUser: serverUser, progress: progress)
    }

    /// `sync(user:server:token:serverUser:progress:)` through `client`: one made with a `SyncClient.TokenProvider`
    /// asks it for each request's token (SYNC.md §"Token providers").
    public func sync(user: String, client: SyncClient, serverUser: String? = nil,
                     progress: @Sendable (JournalSyncing.Progress) -> Void = { _ in }) async throws -> JournalSyncing.SyncReport {
        let path = try journalPath(user: user)
        if let open = UserJournal.openInThisProcess(path: path) {
            return try await JournalSyncing.sync(open, client: client, user: serverUser, progress: progress)
        }
        return try await JournalSyncing.sync(path, client: client, user: serverUser, progress: progress)
    }

    /// Writes the server's copy of `serverUser`'s journal (the token's user when nil) as `user`'s journal,
    /// which must not exist yet (a new device).
    public func restore(user: String, server: URL, token: String?, serverUser: String? = nil,
                        progress: @Sendable (JournalSyncing.Progress) -> Void = { _ in }) async throws -> JournalSyncing.RestoreReport {
        try await restore(user: user, client: SyncClient(server: server, token: token), serverUser: serverUser, progress: progress)
    }

    /// `restore(user:server:token:serverUser:progress:)` through `client` (one with a token provider, say).
    public func restore(user: String, client: SyncClient, serverUser: String? = nil,
                        progress: @Sendable (JournalSyncing.Progress) -> Void = { _ in }) async throws -> JournalSyncing.RestoreReport {
        try await JournalSyncing.restore(to: try journalPath(user: user), client: client, user: serverUser, progress: progress)
    }
}

/// A journal open for recording syncs through its own writer: the pulled events are merged under its lock
/// (`UserJournal.absorb`), every observation gets the new state, and no second open of the file is made.
extension UserJournal: SyncedJournal {
    /// Erases the open journal physically, adopting another device's erasure marker (`eraseAllData(adopting:)`).
    public func erase(adopting marker: Event) throws { try eraseAllData(adopting: marker) }

    /// One sync with the server `client` talks to, as `user` (the token's own when nil): what `journal sync` does,
    /// while the journal stays open and observed (SYNC.md §"Syncing an open journal").
    @discardableResult
    public func sync(client: SyncClient, user: String? = nil,
                     progress: @Sendable (JournalSyncing.Progress) -> Void = { _ in }) async throws(JournalSyncing.Problem) -> JournalSyncing.SyncReport {
        try await JournalSyncing.sync(self, client: client, user: user, progress: progress)
    }
}
