import ArgumentParser
import WorkoutJournal
import Foundation
import JournalInterchange

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export a journal: the lossless backup, JSONL, one JSON document, or Strong's and Hevy's CSV.",
        discussion: """
        journal: the journal file itself, byte for byte (with --redact: re-encoded with personal text replaced), \
        verified after writing. jsonl: one event per line. json: one document. strong-csv, hevy-csv: finished \
        workouts in those apps' import layouts (INTERCHANGE.md). --redact replaces names, emails, notes and other \
        free text so a journal can be sent to support.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case journal, jsonl, json
        case strongCSV = "strong-csv"
        case hevyCSV = "hevy-csv"
    }

    @Argument(help: "The journal file.") var file: String
    @Option(help: "journal, jsonl, json, strong-csv or hevy-csv.") var format: Format
    @Flag(help: "Replace names, emails, notes and free text.") var redact = false
    @Option(name: .shortAndLong, help: "Output file (default: standard output; required for --format journal).") var output: String?
    @Option(help: "Weight unit of the CSV formats: kg or lb (default: the journal's display unit).") var unit: UnitOption?

    func validate() throws {
        if format == .journal && output == nil { throw ValidationError("--format journal writes a binary file: give -o OUT") }
        if let output, output == file { throw ValidationError("-o \(output) is the journal itself: choose another file") }
    }

    func run() throws {
        try reportingFailures {
            let original = try JournalLoader.events(path: file)
            let events = redact ? original.map(Redaction.redact) : original
            switch format {
            case .journal: try exportJournal(original: original, events: events)
            case .jsonl: try Interchange.write(Exporters.jsonl(events), to: output)
            case .json: try Interchange.write(Exporters.json(events), to: output)
            case .strongCSV, .hevyCSV:
                let analysis = Interchange.analysis(events)
                let unit = self.unit?.unit ?? analysis.unit
                let text = format == .strongCSV ? Exporters.strongCSV(analysis, unit: unit, redact: redact)
                    : Exporters.hevyCSV(analysis, unit: unit, redact: redact)
                try Interchange.write(text, to: output)
                if output != nil {
                    StandardError.write("exported \(analysis.finished.count) workouts, \(analysis.finished.reduce(0) { $0 + $1.sets.count }) sets to \(output!)\n")
                }
            }
        }
    }

    /// Copies the file (or re-records the redacted events), then reads it back and compares every event.
    func exportJournal(original: [Event], events: [Event]) throws {
        guard let output else { return }
        if FileManager.default.fileExists(atPath: output) {
            throw Failure(message: "\(output): already exists; remove it or choose another -o (a backup is never overwritten)")
        }
        if redact {
            var options = EventJournal.Options()
            options.allowUnknownTypes = true
            do {
                let journal = try EventJournal(path: output, device: "export", options: options, clock: SystemClock.now)
                defer { journal.close() }
                try journal.record(batch: events.map { event in
                    var object = JSONObject([JSONField("v", .int(event.v)), JSONField("seq", .int(event.seq)), JSONField("id", .string(event.id)),
                                             JSONField("at", .string(event.at.rfc3339)), JSONField("type", .string(event.type))])
                    object.fields += event.fields.fields
                    return .object(object)
                })
            } catch {
                try? FileManager.default.removeItem(atPath: output)
                throw Failure(message: "\(file): could not be re-recorded redacted (\(error)); nothing was written")
            }
        } else {
            guard let data = FileManager.default.contents(atPath: file) else { throw Failure(message: "\(file): cannot be read") }
            try Interchange.write(data, to: output)
        }
        let report = try JournalVerifier.verify(path: output)
        let back = try EventReader.events(path: output)
        guard back == events else {
            throw Failure(message: "\(output): verification failed: it reads back \(back.count) events, expected \(events.count); do not rely on this backup")
        }
        print("wrote \(output): \(back.count) events, verified" + (report.isClean ? " clean" : " (the source itself is not clean: run journal verify \(file))") + (redact ? ", redacted" : ""))
    }
}
