import ArgumentParser

extension Journal {
    /// The journal core: record, cat, replay, verify, stats, simulate, schema.
    static let coreSubcommands: [any ParsableCommand.Type] = [
        RecordCommand.self, CatCommand.self, ReplayCommand.self, VerifyCommand.self, StatsCommand.self, SimulateCommand.self, SchemaCommand.self,
    ]
}
