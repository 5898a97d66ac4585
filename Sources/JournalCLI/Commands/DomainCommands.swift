import ArgumentParser

extension Journal {
    /// The training domain: catalog, plates, programme, onboard.
    static let domainSubcommands: [any ParsableCommand.Type] = []
}
