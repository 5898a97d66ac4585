import ArgumentParser

extension Journal {
    /// The training domain: catalog, onboard, plates, programme.
    static let domainSubcommands: [any ParsableCommand.Type] = [Catalog.self, Onboard.self, Plates.self, ProgrammeCommand.self]
}
