import ArgumentParser

extension Journal {
    /// Recovery and devices: backup, salvage, merge.
    static let reliabilitySubcommands: [any ParsableCommand.Type] = [
        MergeCommand.self, SalvageCommand.self, BackupCommand.self, EraseCommand.self,
    ]
}
