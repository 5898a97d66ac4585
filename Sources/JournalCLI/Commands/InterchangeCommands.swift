import ArgumentParser

extension Journal {
    /// Import, export, charts, report, timeline, explain, diff, merge, salvage.
    static let interchangeSubcommands: [any ParsableCommand.Type] = []
}
