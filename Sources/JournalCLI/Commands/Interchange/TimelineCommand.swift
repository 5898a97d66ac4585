import ArgumentParser

struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "timeline", abstract: "TODO")
    func run() throws {}
}
