import ArgumentParser

extension Journal {
    /// Recovery and devices: salvage, merge, sync and restore (SYNC.md).
    static let reliabilitySubcommands: [any ParsableCommand.Type] = [
        MergeCommand.self, RestoreCommand.self, SalvageCommand.self, SyncCommand.self,
    ]
}
