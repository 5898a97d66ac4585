import ArgumentParser

/// The `journal` command: one subcommand per concern, each in its own file under Commands/.
/// Library errors become messages and exit codes in one place: Support/Failure.swift.
@main
struct Journal: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Record, replay, audit and export an event-sourced workout journal.",
        discussion: """
        A journal is one zstd-compressed, append-only file of JSON lines per user (see FORMAT.md).
        Exit codes: 0 success; 1 the journal or input has a problem (verify found damage, an event \
        was refused); 3 the journal is locked by another writer; 64 bad command-line usage.
        """,
        version: "0.1.0",
        subcommands: Journal.allSubcommands
    )

    /// Every subcommand. Add new ones here (keep alphabetical within each group).
    static let allSubcommands: [any ParsableCommand.Type] = coreSubcommands + domainSubcommands + viewSubcommands + interchangeSubcommands + reliabilitySubcommands
}
