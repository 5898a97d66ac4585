import ArgumentParser

extension Journal {
    /// Projections: home, history, workout, exercise, progress, active, templates, profile.
    static let viewSubcommands: [any ParsableCommand.Type] = []
}
