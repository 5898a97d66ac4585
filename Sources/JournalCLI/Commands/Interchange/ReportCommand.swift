import ArgumentParser

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "report", abstract: "TODO")
    func run() throws {}
}
