import ArgumentParser
import WorkoutJournalSync

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Rebuild state from scratch and print it: the summary and every projection.",
        discussion: """
        Streams the journal once, folding every event (up to --until-seq and up to --as-of) into the summary \
        and the projections' ledger (PROJECTIONS.md), from the start. With --json prints {"summary": …, "projections": …} where \
        projections holds home, history, progress, active, exercises, templates and profile.
        """
    )

    @Argument(help: "The journal file.") var file: String
    @Option(help: "Show the state as of this time (RFC 3339 with offset). Default: now, in the offset of the journal's last event.") var asOf: String?
    @Option(help: "Show the state as it was after event N.") var untilSeq: Int?
    @Flag(help: "Print as JSON.") var json = false
    @OptionGroup var snapshot: SnapshotOption

    func run() throws {
        try reportingFailures {
            let limit = try asOf.map { try parseTime($0, option: "--as-of") }
            var bar = ProgressBar("replay", total: fileSize(file))
            defer { bar.finish() }
            let read = try JournalLoader.read(path: file, asOf: limit, untilSeq: untilSeq,
                                              progress: bar.enabled ? { bar.update($0) } : nil)
            let summary = read.summary, ledger = read.ledger
            let analysis = Analysis(ledger, context: Journal.projectionContext)
            let projections = AllProjections(analysis)
            if json {
                print(ReplayReport(summary: summary, projections: projections).jsonString)
                return
            }
            print("events:             \(summary.events) (last seq \(summary.lastSeq))")
            if summary.unknownEvents > 0 { print("unknown events:     \(summary.unknownEvents) (kept, skipped)") }
            print("workouts finished:  \(summary.workoutsFinished)")
            print("workouts discarded: \(summary.workoutsDiscarded)")
            print("working sets:       \(summary.workingSets) (+\(summary.warmupSets) warm-up)")
            print("volume:             \(formatKilograms(summary.volumeKg)) kg")
            print("first activity:     \(summary.firstActivity?.rfc3339 ?? "—")")
            print("last activity:      \(summary.lastActivity?.rfc3339 ?? "—")")
            print("as of:              \(analysis.asOf.rfc3339)")
            print("")
            print(HomeCommand.render(projections.home, unit: analysis.unit))
            if let active = projections.active {
                print("")
                print("Active workout: \(active.name), \(Text.duration(active.elapsedSeconds)) so far")
            }
            print("")
            print("Exercises with history: \(projections.exercises.count); templates: \(projections.templates.templates.count); records: \(projections.progress.recordCount)")
            print("(journal home|history|exercise|progress|active|templates|profile FILE show each view; --json prints them all)")
        }
    }
}

func formatKilograms(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}
