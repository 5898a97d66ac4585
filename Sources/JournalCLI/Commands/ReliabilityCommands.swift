import ArgumentParser

extension Journal {
    /// Recovery and devices: salvage, merge.
    static let reliabilitySubcommands: [any ParsableCommand.Type] = [
        MergeCommand.self, SalvageCommand.self,
    ]
}
