import ArgumentParser

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "explain", abstract: "TODO")
    func run() throws {}
}
