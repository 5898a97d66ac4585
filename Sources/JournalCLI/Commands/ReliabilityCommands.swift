import ArgumentParser

extension Journal {
    /// Recovery and devices: backup, erase, salvage, merge, sync and restore (SYNC.md).
    static let reliabilitySubcommands: [any ParsableCommand.Type] = [
        MergeCommand.self, SalvageCommand.self, BackupCommand.self, EraseCommand.self, RestoreCommand.self, SyncCommand.self,
    ]
}
