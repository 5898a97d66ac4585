import ArgumentParser

/// `journal programme …`: programme generation from questionnaire answers.
struct ProgrammeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "programme",
        abstract: "Generate training programmes from questionnaire answers.",
        subcommands: [ProgrammeGenerateCommand.self, ProgrammeTemplatesCommand.self]
    )
}
