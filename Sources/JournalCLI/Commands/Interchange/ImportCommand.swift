import ArgumentParser
import WorkoutJournalSync
import Foundation

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import another app's CSV export (Strong, Hevy, FitNotes, StrongLifts) into a journal.",
        discussion: """
        Each workout becomes the events the app would have recorded: workout.started (with started_at and source), \
        set.completed at the workout's time, workout.finished (finished_at from the duration); names the catalogue \
        does not know become custom exercises (exercise.created). Workout ids are derived from the file (start and \
        name), so importing the same file twice adds nothing. A row split by an unquoted comma is joined back and a row \
        that cannot be read is skipped, each listed with its line (--strict refuses the file instead). The whole file \
        is one all-or-nothing batch: on any error the journal is left exactly as it was.
        """)

    enum From: String, ExpressibleByArgument, CaseIterable { case strong, hevy, fitnotes, stronglifts, auto }

    @Argument(help: "The journal file (created when it does not exist).") var file: String
    @Option(help: "The app that wrote the CSV: strong, hevy, fitnotes, stronglifts or auto (detect by header).") var from: From
    @Argument(help: "The CSV export.") var input: String
    @Option(help: "Unit of files that do not say (Strong's classic layout): kg or lb. Default: the journal's unit, else kg.")
    var unit: UnitOption?
    @Option(name: .customLong("utc-offset"), parsing: .unconditional, help: "The offset of the file's wall-clock times, e.g. +01:00. Default: the journal's last event's, else this machine's.")
    var utcOffset: String?
    @Option(help: "Device tag for the ids of the imported events.") var device = "import"
    @Flag(name: .customLong("dry-run"), help: "Print the summary without writing.") var dryRun = false
    @Flag(name: .customLong("keep-out-of-range"),
          help: "Import even values beyond the sanity limits (above 2000 kg, 4400 lb or 10000 reps), marked out_of_range, instead of skipping them.")
    var keepOutOfRange = false
    @Flag(help: "Refuse the whole file at the first row that cannot be read as written, instead of repairing or skipping it and listing it.")
    var strict = false
    @Flag(help: "Print the summary as JSON.") var json = false

    func validate() throws {
        if let utcOffset, ImportCommand.parseOffset(utcOffset) == nil {
            throw ValidationError("--utc-offset \"\(utcOffset)\" is not an offset: use +01:00, -05:00 or Z")
        }
    }

    static func parseOffset(_ text: String) -> Int32? {
        if text == "Z" || text == "z" { return 0 }
        guard let time = Timestamp(rfc3339: "2000-01-01T00:00:00" + text) else { return nil }
        return time.offsetSeconds
    }

    func run() throws {
        try reportingFailures {
            let existed = FileManager.default.fileExists(atPath: file)
            let existing = existed ? try JournalLoader.events(path: file) : []
            let text = try Interchange.readText(input, what: "CSV export")
            let options = JournalImport.Options(source: ExportReader.Source(rawValue: from.rawValue)!, unit: unit?.unit,
                                                utcOffsetSeconds: utcOffset.flatMap(ImportCommand.parseOffset),
                                                keepOutOfRange: keepOutOfRange, strict: strict)
            let plan: ImportPlan
            do {
                plan = try JournalImport.plan(text: text, file: input, existing: existing, options: options, now: SystemClock.now())
            } catch let error as InterchangeError {
                throw Failure(message: error.description + (error.description.contains("nothing was imported") ? "" : "; nothing was imported"))
            }
            if !dryRun && !plan.drafts.isEmpty {
                var progress = ProgressBar("importing", total: 1)
                progress.update(0)
                let journal = try UserJournal.open(path: file, device: device)
                // A journal created for an import that was refused is removed again.
                defer { journal.close(discardingIfEmpty: true) }
                do {
                    try journal.record(plan)
                } catch {
                    throw Failure(message: "\(error); the import was refused as a whole and \(file) is unchanged")
                }
                progress.update(1)
                progress.finish()
            }
            print(json ? JSONWriter.string(plan.summary.jsonValue) : plan.summary.text + (dryRun ? "\n(dry run: nothing was written)" : ""))
        }
    }
}
