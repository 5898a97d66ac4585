import ArgumentParser

extension Journal {
    /// The training domain: catalog, onboard, plates, programme.
    static let domainSubcommands: [any ParsableCommand.Type] = [CatalogCommand.self, OnboardCommand.self, PlatesCommand.self, ProgrammeCommand.self]
}
