import ArgumentParser
import WorkoutJournalSync
import JournalFile

extension Journal {
    /// Projections: home, history, workout, calendar, exercise, progress, active, templates, profile.
    static let viewSubcommands: [any ParsableCommand.Type] = [
        HomeCommand.self, HistoryCommand.self, WorkoutCommand.self, CalendarCommand.self, ExerciseCommand.self,
        ProgressCommand.self, ActiveCommand.self, TemplatesCommand.self, TemplateCommand.self, ProfileCommand.self,
    ]

    /// What the views know of the training domain: TrainingDomain's catalogue, name matcher, progression engine
    /// and warm-up rule behind `ProjectionContext` (`ProjectionContext.trainingDomain`, shared with the app facade).
    static var projectionContext: ProjectionContext { .trainingDomain }
    /// The exercise ids the recording rules accept besides custom ones: the built-in catalogue's.
    static var catalogue: Set<String> { ExerciseCatalogue.builtInIDs }
    /// How every command that records opens a journal: the catalogue's ids checked.
    static var recordingOptions: EventJournal.Options {
        var options = EventJournal.Options()
        options.catalogue = catalogue
        options.cardio = ExerciseCatalogue.builtInCardioIDs
        options.oneOpenWorkout = true
        return options
    }
}

/// The arguments every view takes: the journal, `--as-of`, `--until-seq`, `--json` and `--no-snapshot`.
struct ViewOptions: ParsableArguments {
    @Argument(help: "The journal file.")
    var file: String

    @Option(name: .customLong("as-of"), help: ArgumentHelp(
        "Project the journal as of this time (RFC 3339 with an offset, e.g. 2026-11-21T18:04:05.120+01:00, or a date).",
        discussion: "Default: now, in the UTC offset of the journal's last event. A bare date means its start in this machine's offset."))
    var asOf: String?

    @Option(name: .customLong("until-seq"), help: "Read only the events with seq ≤ N.")
    var untilSeq: Int?

    @Flag(help: "Print JSON (one line, fixed keys) instead of a table.")
    var json = false

    @OptionGroup var snapshot: SnapshotOption

    func validate() throws {
        if let asOf { _ = try parseTime(asOf, option: "--as-of") }
        if let untilSeq, untilSeq < 1 { throw ValidationError("--until-seq \(untilSeq) must be at least 1.") }
    }

    /// Loads the journal and folds it as of `--as-of`.
    func analysis() throws -> Analysis {
        let read = try JournalLoader.read(path: file, asOf: asOf.map { try parseTime($0, option: "--as-of") },
                                          untilSeq: untilSeq)
        return Analysis(read.ledger, context: Journal.projectionContext)
    }

    /// Prints `value` as JSON with `--json`, else the table `render` builds.
    func emit(_ value: some JSONRepresentable, _ render: () -> String) {
        print(json ? value.jsonString : render())
    }
}

/// Plain-text tables and figures for the views' default output.
enum Text {
    /// Columns padded to their widest cell; numbers (cells starting with a digit, `+` or `-`) right-aligned.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        var widths = Array(repeating: 0, count: header.count)
        for row in all { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        return all.map { row in
            row.enumerated().map { i, cell in
                let padding = String(repeating: " ", count: widths[i] - cell.count)
                let numeric = cell.first.map { $0.isNumber || $0 == "+" || $0 == "-" } ?? false
                return numeric ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }

    /// `1:05:03` or `45:10`.
    static func duration(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(two(m)):\(two(s))"
    }

    /// A weight given in kilograms, shown in the display unit: `1,940 kg`.
    static func kilograms(_ kg: Double, _ unit: WeightUnit) -> String {
        "\(number(Units.convert(kg, from: .kg, to: unit))) \(unit.rawValue)"
    }

    /// `82.5 kg`; on an assisted exercise the weight is the help, and says so: `20 kg assistance` (DOMAIN.md
    /// §"Assisted exercises"). Every view line that shows a set's weight goes through here.
    static func weight(_ weight: Double?, _ unit: WeightUnit, assisted: Bool = false) -> String {
        weight.map { "\(number($0)) \(unit.rawValue)" + (assisted ? " assistance" : "") } ?? "–"
    }

    /// Thousands separated, at most two decimals (`Rounding.grouped`).
    static func number(_ value: Double) -> String { Rounding.grouped(value) }

    /// A reps-at-weight record of an assisted exercise (`PersonalRecord.assisted`) says its weight is help.
    static func record(_ record: PersonalRecord, _ unit: WeightUnit) -> String {
        let assisted = record.assisted
        let value: String
        switch record.kind {
        case .repsAtWeight:
            value = "\(Int64(saturating: record.value)) reps at \(weight(Units.convert(record.weightKilograms ?? 0, from: .kg, to: unit), unit, assisted: assisted))"
        case .bestSetVolume: value = "\(kilograms(record.value, unit)) (\(kilograms(record.weightKilograms ?? 0, unit)) × \(record.reps ?? 0))"
        default: value = kilograms(record.value, unit)
        }
        return "\(record.date)  \(record.name): \(record.kind.label) \(value)"
    }

    static func sets(_ sets: [SetSummary], assisted: Bool = false) -> [String] {
        sets.map { set in
            let kind = set.kind == .working ? "" : " (\(set.kind.rawValue))"
            let plus = set.plus > 0 ? "  +\(set.plus)" : ""
            return "Set \(set.set): \(weight(set.weight, set.unit, assisted: assisted)) • \(set.reps) reps\(kind)\(plus)"
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
