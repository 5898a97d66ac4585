import ArgumentParser

struct ChartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "chart", abstract: "TODO")
    func run() throws {}
}
