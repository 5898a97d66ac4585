import ArgumentParser
import Foundation
import WorkoutJournalSync
import JournalFile

extension Journal {
    /// Import, export, charts, report, timeline, explain, diff.
    static let interchangeSubcommands: [any ParsableCommand.Type] = [
        ExportCommand.self, ImportCommand.self, ChartCommand.self, ReportCommand.self, TimelineCommand.self,
        ExplainCommand.self, DiffCommand.self, ExercisesCommand.self, LinkCommand.self,
    ]
}

/// Shared by the interchange commands: reading inputs, writing outputs, the terminal.
enum Interchange {
    /// The latest `at` in `events` (the as-of time of exports and reports), or now for an empty journal.
    static func latest(_ events: [Event]) -> Timestamp {
        events.max { $0.at < $1.at }?.at ?? SystemClock.now()
    }

    /// Every finished workout, whatever its recording time.
    static func analysis(_ events: [Event], asOf: Timestamp? = nil) -> Analysis {
        Projections.analysis(events: events, asOf: asOf ?? latest(events), context: Journal.projectionContext)
    }

    static func readText(_ path: String, what: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure(message: "\(path): no such file (check the path of the \(what))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(message: "\(path): cannot be read (check its permissions)")
        }
        if let text = String(data: data, encoding: .utf8) { return text }
        if let text = String(data: data, encoding: .isoLatin1) { return text }
        throw Failure(message: "\(path): is not text (UTF-8 or Latin-1); export it again as CSV")
    }

    /// Writes `text` to `path` (through a temporary file renamed into place), or to stdout when `path` is nil.
    static func write(_ text: String, to path: String?) throws {
        guard let path else { print(text, terminator: ""); return }
        try write(Data(text.utf8), to: path)
    }

    /// Writes the whole file through the store (`DurableFile`): complete and durable, or absent.
    static func write(_ data: Data, to path: String) throws {
        do { try DurableFile.write([UInt8](data), to: path) } catch { throw Failure(message: error.description) }
    }

    /// Colour only on a terminal and never with NO_COLOR.
    static var colour: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

}

/// `--unit kg|lb` (a local type rather than a retroactive conformance of TrainingDomain's `WeightUnit`).
enum UnitOption: String, ExpressibleByArgument, CaseIterable {
    case kg, lb
    var unit: WeightUnit { self == .kg ? .kg : .lb }
}
