import JournalEvents
import JournalModel
import TrainingDomain

/// The apps and export layouts `journal import` reads (INTERCHANGE.md §"Import").
public enum ImportLayout: String, Sendable, CaseIterable {
    case strongClassic = "strong classic (comma, no unit column)"
    case strongSemicolon = "strong old (semicolon, unit columns)"
    case strong6 = "strong 6.x (quoted, semicolon, units in headers)"
    case hevy = "hevy"
    case fitnotes = "fitnotes"
    case stronglifts = "stronglifts 5x5"

    /// The app, as `--from` and the `source` field of `workout.started` spell it.
    public var app: String {
        switch self {
        case .strongClassic, .strongSemicolon, .strong6: return "strong"
        case .hevy: return "hevy"
        case .fitnotes: return "fitnotes"
        case .stronglifts: return "stronglifts"
        }
    }
}

/// A wall-clock time with no offset, as other apps write it.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var date: LocalDate
    /// Seconds since local midnight.
    public var seconds: Int
    public init(date: LocalDate, seconds: Int) { self.date = date; self.seconds = seconds }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool { (a.date.day, a.seconds) < (b.date.day, b.seconds) }

    /// `2021-02-10 16:46:13`
    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(19)
        date.writeISO(into: &out)
        for (index, part) in [seconds / 3600, seconds / 60 % 60, seconds % 60].enumerated() {
            out.append(index == 0 ? UInt8(ascii: " ") : UInt8(ascii: ":"))
            if part < 10 { out.append(UInt8(ascii: "0")) }
            out.append(contentsOf: String(part).utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    public func timestamp(offsetSeconds: Int32) -> Timestamp {
        Timestamp(epochMilliseconds: (Int64(date.day) * 86_400 + Int64(seconds) - Int64(offsetSeconds)) * 1000, offsetSeconds: offsetSeconds)
    }
}

/// One set row of another app's export, as read (before matching names).
public struct ImportedSet: Equatable, Sendable {
    public var exerciseName: String
    public var weight: Double
    public var unit: WeightUnit
    public var reps: Int
    /// `working`, `warmup`, `drop` or `failure`.
    public var kind: String
    public var rpe: Double?
    public var note: String?
    /// A timed or distance row (a plank, a run) instead of weight × reps.
    public var seconds: Double?
    public var kilometres: Double?
    public var line: Int
    /// The set's label in the file, as written (Strong's `Set Order` `1`/`W`/`D`/`F`, Hevy's `set_index`), kept for export.
    public var sourceSet: String?
    /// Hevy's `superset_id`: rows of a workout with the same one are one superset.
    public var superset: String?
    /// FitNotes' `Category` and `Distance Unit` as written, kept for export.
    public var category: String?
    public var distanceUnit: String?
    /// The file wrote the weight as a negative number: `weight` is its size, the help of an assisted exercise
    /// (INTERCHANGE.md §"Assisted exercises").
    public var negativeWeight = false
    public init(exerciseName: String, weight: Double, unit: WeightUnit, reps: Int, kind: String = "working", rpe: Double? = nil,
                note: String? = nil, seconds: Double? = nil, kilometres: Double? = nil, line: Int, sourceSet: String? = nil,
                superset: String? = nil) {
        self.exerciseName = exerciseName; self.weight = weight; self.unit = unit; self.reps = reps; self.kind = kind; self.rpe = rpe
        self.note = note; self.seconds = seconds; self.kilometres = kilometres; self.line = line; self.sourceSet = sourceSet
        self.superset = superset
    }
    public var isTimed: Bool { reps == 0 && weight == 0 && ((seconds ?? 0) > 0 || (kilometres ?? 0) > 0) }
}

/// One workout of another app's export.
public struct ImportedWorkout: Equatable, Sendable {
    public var name: String
    public var start: LocalDateTime
    public var durationSeconds: Int?
    public var notes: [String]
    /// Exercise notes (Hevy), by exercise name, in file order.
    public var exerciseNotes: [(name: String, note: String)]
    public var sets: [ImportedSet]
    public var firstLine: Int
    public init(name: String, start: LocalDateTime, durationSeconds: Int? = nil, notes: [String] = [], sets: [ImportedSet] = [], firstLine: Int) {
        self.name = name; self.start = start; self.durationSeconds = durationSeconds; self.notes = notes; self.exerciseNotes = []
        self.sets = sets; self.firstLine = firstLine
    }
    public static func == (a: ImportedWorkout, b: ImportedWorkout) -> Bool {
        a.name == b.name && a.start == b.start && a.durationSeconds == b.durationSeconds && a.notes == b.notes && a.sets == b.sets
            && a.exerciseNotes.map(\.name) == b.exerciseNotes.map(\.name) && a.exerciseNotes.map(\.note) == b.exerciseNotes.map(\.note)
    }
}

/// A row the importer did not turn into a set (or repaired, or imported with a change), with the reason and, when one
/// cell was the problem, its column and value.
public struct SkippedRow: Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: String
    public var column: String?
    public var value: String?
    public init(line: Int, reason: String, column: String? = nil, value: String? = nil) {
        self.line = line; self.reason = reason; self.column = column; self.value = value
    }
    /// `line 3, column "Weight": "9O" is not a number`, `line 5: an empty line`.
    public var description: String {
        var text = "line \(line)"
        if let column { text += ", column \"\(column)\"" }
        if let value { text += ": \"\(value)\" " + reason } else { text += ": " + reason }
        return text
    }
}

/// Everything read from an export file, workouts oldest first.
public struct ParsedExport: Equatable, Sendable {
    public var layout: ImportLayout
    public var workouts: [ImportedWorkout]
    public var skipped: [SkippedRow]
    public var rowCount: Int
    /// Rows read after a repair (INTERCHANGE.md §"Rows repaired or skipped"), with what was repaired.
    public var repaired: [SkippedRow] = []
    /// The unit given to weights the file does not qualify (Strong's classic layout, empty unit cells), or nil.
    public var assumedUnit: WeightUnit? = nil
    /// Why `assumedUnit` was taken when the file's weights decided it (`PlateSteps`), or nil when it is the default.
    public var assumedUnitReason: String? = nil
}
