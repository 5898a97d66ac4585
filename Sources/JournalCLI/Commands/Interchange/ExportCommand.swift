import ArgumentParser
import WorkoutJournalSync
import Foundation

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export a journal: the lossless backup, JSONL, one JSON document, or Strong's, Hevy's and FitNotes' CSV.",
        discussion: """
        journal: the journal file itself, byte for byte (with --redact: re-encoded with personal text replaced), \
        verified after writing. jsonl: one event per line. json: one document. strong-csv, hevy-csv, fitnotes-csv: finished \
        workouts in those apps' import layouts (INTERCHANGE.md). --redact replaces names, emails, notes and other \
        free text so a journal can be sent to support.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case journal, jsonl, json
        case strongCSV = "strong-csv"
        case hevyCSV = "hevy-csv"
        case fitNotesCSV = "fitnotes-csv"
    }

    @Argument(help: "The journal file.") var file: String
    @Option(help: "journal, jsonl, json, strong-csv, hevy-csv or fitnotes-csv.") var format: Format
    @Flag(help: "Replace names, emails, notes and free text.") var redact = false
    @Option(name: .shortAndLong, help: "Output file (default: standard output; required for --format journal).") var output: String?
    @Option(help: "Weight unit of the CSV formats: kg or lb (default: the journal's display unit).") var unit: UnitOption?
    @Flag(help: "Once written, record the export in the journal (data.exported: the profile's exports history).") var record = false

    func validate() throws {
        if format == .journal && output == nil { throw ValidationError("--format journal writes a binary file: give -o OUT") }
        if let output, output == file { throw ValidationError("-o \(output) is the journal itself: choose another file") }
    }

    func run() throws {
        try reportingFailures {
            let original = try JournalLoader.events(path: file)
            let events = redact ? original.map(Redaction.redact) : original
            var held: (events: Int?, workouts: Int?) = (nil, nil)
            switch format {
            case .journal: held.events = try exportJournal(events: events)
            case .jsonl:
                let visible = Exporters.visible(events)
                try Interchange.write(Exporters.jsonl(visible), to: output)
                held.events = visible.count
            case .json:
                let visible = Exporters.visible(events)
                try Interchange.write(Exporters.json(visible), to: output)
                held.events = visible.count
            case .strongCSV, .hevyCSV, .fitNotesCSV:
                let analysis = Interchange.analysis(events)
                let unit = self.unit?.unit ?? analysis.unit
                // Rows imported from the same app come back with their own names, set labels, RPE, distance and time.
                let imported = ImportedRows(events)
                let text = format == .strongCSV ? Exporters.strongCSV(analysis, unit: unit, redact: redact, imported: imported)
                    : format == .hevyCSV ? Exporters.hevyCSV(analysis, unit: unit, redact: redact, imported: imported)
                    : Exporters.fitNotesCSV(analysis, unit: unit, redact: redact, imported: imported)
                try Interchange.write(text, to: output)
                held.workouts = analysis.finished.count
                if output != nil {
                    StandardError.write("exported \(analysis.finished.count) workouts, \(analysis.finished.reduce(0) { $0 + $1.sets.count }) sets to \(output!)\n")
                }
            }
            if record { recordExport(held) }
        }
    }

    /// Appends `data.exported` (format, what it held, the output file) once the export is written; a failure to
    /// record it is reported and leaves the export as written.
    func recordExport(_ held: (events: Int?, workouts: Int?)) {
        do {
            let journal = try UserJournal.open(path: file, device: "cli", options: Journal.recordingOptions)
            defer { journal.close() }
            try journal.recordExport(format: format.rawValue, events: held.events, workouts: held.workouts, destination: output)
        } catch {
            StandardError.write("\(file): the export was written but not recorded in the exports history: \(error)\n")
        }
    }

    /// Copies the file (or re-records the redacted events), then reads it back and compares every event; the number
    /// of events written.
    @discardableResult
    func exportJournal(events: [Event]) throws -> Int? {
        guard let output else { return nil }
        let written: JournalCopy.Written
        do {
            written = try JournalCopy.write(source: file, reRecording: redact ? events : nil, to: output)
        } catch let failure as JournalCopy.Failure {
            throw Failure(message: failure.description)
        }
        print("wrote \(output): \(written.events) events, verified" + (written.clean ? " clean" : " (the source itself is not clean: run journal verify \(file))") + (redact ? ", redacted" : ""))
        return written.events
    }
}
