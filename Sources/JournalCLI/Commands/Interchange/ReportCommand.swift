import ArgumentParser
import Foundation
import WorkoutJournalSync

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Write one self-contained HTML page: home, calendar, history, exercises with charts and records, streaks.",
        discussion: "The page has inline CSS and SVG only: no scripts, no fonts or images from the network. scripts/screenshot-report.sh renders it with headless Chromium.")

    @OptionGroup var options: ViewOptions
    @Option(name: .shortAndLong, help: "Output HTML file.") var output: String
    @Option(help: "How many recent workouts the history lists.") var history = 40

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            let html = HTMLReport.render(analysis, title: (options.file as NSString).lastPathComponent, historyLimit: history)
            try Interchange.write(html, to: output)
            if options.json {
                print(JSONWriter.string(["file": .string(output), "bytes": .int(html.utf8.count), "workouts": .int(analysis.finished.count)]))
            } else {
                print("wrote \(output): \(analysis.finished.count) workouts, \(html.utf8.count) bytes")
            }
        }
    }
}
