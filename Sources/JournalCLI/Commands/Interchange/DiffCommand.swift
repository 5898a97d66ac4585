import ArgumentParser

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "diff", abstract: "TODO")
    func run() throws {}
}
