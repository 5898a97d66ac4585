import ArgumentParser

extension Journal {
    /// The journal core: record, cat, replay, verify, stats, simulate, schema.
    static let coreSubcommands: [any ParsableCommand.Type] = [
        Record.self, Cat.self, Replay.self, Verify.self, Stats.self, Simulate.self, Schema.self,
    ]
}
