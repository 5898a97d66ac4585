import Foundation
import JournalEvents
import JournalModel
import TrainingDomain

/// Reads another app's CSV export into workouts (INTERCHANGE.md §"Import"). Headers are matched by alias
/// (case, spaces and punctuation ignored); the layout is detected from them.
public enum ExportReader {
    /// `--from` values.
    public enum Source: String, Sendable, CaseIterable { case strong, hevy, fitnotes, stronglifts, auto }

    /// Parses `text` (the file `file`) as `source`. `defaultUnit` is the unit of files that do not say
    /// (Strong's classic layout, empty unit cells). Rows are repaired or skipped and listed (INTERCHANGE.md §"Rows
    /// repaired or skipped"); `strict` refuses the file at the first row it cannot read as written instead. With
    /// `guessUnit`, a file without units whose weights are in pound plate steps is read in pounds (`PlateSteps`).
    public static func read(text: String, file: String, source: Source, defaultUnit given: WeightUnit, strict: Bool = false,
                            guessUnit: Bool = false) throws(InterchangeError) -> ParsedExport {
        let table = try CSVTable(text: text, file: file, lenient: !strict)
        let guess = guessUnit ? PlateSteps.guess(table) : nil
        let defaultUnit = guess?.unit ?? given
        let detected = detect(table)
        let layout: ImportLayout
        if source == .auto {
            guard let detected else {
                throw InterchangeError(file: file, line: 1, column: nil, value: table.header.prefix(6).joined(separator: table.delimiter == ";" ? ";" : ","),
                                       problem: "is not a header of Strong, Hevy, FitNotes or StrongLifts",
                                       advice: "pass --from with the app that wrote the file, or check INTERCHANGE.md for the layouts read")
            }
            layout = detected
        } else {
            guard let detected, detected.app == source.rawValue else {
                throw InterchangeError(file: file, line: 1, column: nil, value: table.header.prefix(6).joined(separator: table.delimiter == ";" ? ";" : ","),
                                       problem: "is not a \(source.rawValue) header" + (detected.map { " (it looks like \($0.app))" } ?? ""),
                                       advice: detected.map { "use --from \($0.app) or --from auto" } ?? "check the file is the app's workout export (INTERCHANGE.md lists the layouts)")
            }
            layout = detected
        }
        var reader = RowReader(table: table, file: file, defaultUnit: defaultUnit, strict: strict)
        switch layout {
        case .strongClassic, .strongSemicolon, .strong6: try reader.readStrong(layout)
        case .hevy: try reader.readHevy()
        case .fitnotes: try reader.readFitNotes()
        case .stronglifts: try reader.readStrongLifts()
        }
        let workouts = reader.workouts.sorted { ($0.start, $0.firstLine) < ($1.start, $1.firstLine) }
        return ParsedExport(layout: layout, workouts: workouts, skipped: (table.broken + reader.skipped).sorted { $0.line < $1.line },
                            rowCount: table.rows.count + table.broken.count, repaired: (table.repaired + reader.repaired).sorted { $0.line < $1.line },
                            assumedUnit: reader.usedDefaultUnit ? defaultUnit : nil, assumedUnitReason: reader.usedDefaultUnit ? guess?.reason : nil)
    }

    /// The layout named by the header, or nil.
    public static func detect(_ table: CSVTable) -> ImportLayout? {
        let names = Set(table.header.map(CSVTable.normalize))
        if names.contains("exercisetitle") || names.contains("setindex") { return .hevy }
        if names.contains("set1reps") || names.contains("setsreps") || names.contains("topsetrepskg") { return .stronglifts }
        if table.column(Aliases.setOrder) != nil {
            if names.contains("workout") || table.column(Aliases.weightKg) != nil || table.column(Aliases.weightLb) != nil { return .strong6 }
            if table.column(Aliases.weightUnit) != nil || table.delimiter == ";" { return .strongSemicolon }
            return .strongClassic
        }
        if names.contains("category") && names.contains("exercise") { return .fitnotes }
        return nil
    }
}

/// The unit of a file that does not say (Strong's classic layout, a FitNotes `Weight` without `Weight Unit`), from
/// its weights (INTERCHANGE.md §"Units"): a pound app's weights are in 2.5-lb plate steps and nearly all in 5-lb steps
/// (45-lb bar, 45/35/25/10/5 plates, 5-lb dumbbells), where a kilogram app's have 1.25-kg steps and 2-kg dumbbells
/// (12, 14, 22, 27.5, …).
enum PlateSteps {
    /// Weights needed before the steps say anything.
    static let minimumWeights = 20
    /// The share of weights in 5-lb steps a pound file has at least.
    static let fivePoundShare = 0.95

    /// `lb` with the reason, when the weights are in pound steps; nil otherwise (the caller's default stands).
    static func guess(_ table: CSVTable) -> (unit: WeightUnit, reason: String)? {
        guard let column = table.column(Aliases.weight), table.column(Aliases.weightUnit) == nil,
              table.column(Aliases.weightKg) == nil, table.column(Aliases.weightLb) == nil else { return nil }
        let weights = table.rows.compactMap { row -> Double? in
            guard let value = ValueParsing.number(row.cell(column)) ?? nil, value > 0 else { return nil }
            return value
        }
        guard weights.count >= minimumWeights, weights.allSatisfy({ ($0 / 2.5).rounded() * 2.5 == $0 }) else { return nil }
        let fives = weights.filter { ($0 / 5).rounded() * 5 == $0 }.count
        guard Double(fives) >= fivePoundShare * Double(weights.count) else { return nil }
        let share = Int((Double(fives) * 100 / Double(weights.count)).rounded(.down))
        return (.lb, "from the weights: all \(weights.count) are in 2.5-lb plate steps and \(share)% in 5-lb steps, as a pound app writes them")
    }
}

/// Header aliases, normalized by `CSVTable.normalize` when compared (translated Strong headers included).
enum Aliases {
    static let date = ["Date", "Datum", "Fecha", "Date (yyyy/mm/dd)"]
    static let workoutName = ["Workout Name", "Trainingsname", "Nom de l'entraînement", "Nombre del entrenamiento"]
    static let workoutNumber = ["Workout #"]
    static let duration = ["Duration", "Dauer", "Durée", "Duración"]
    static let durationSeconds = ["Duration (sec)", "Duration (seconds)"]
    static let exercise = ["Exercise Name", "Übungsname", "Nom de l'exercice", "Nombre del ejercicio"]
    static let setOrder = ["Set Order", "Satzreihenfolge", "Ordre des séries", "Orden de series"]
    static let weight = ["Weight", "Gewicht", "Poids", "Peso"]
    static let weightKg = ["Weight (kg)", "kg", "weight_kg"]
    static let weightLb = ["Weight (lbs)", "Weight (lb)", "lbs", "weight_lbs", "weight_lb"]
    static let weightUnit = ["Weight Unit", "Gewichtseinheit"]
    static let reps = ["Reps", "Wiederholungen", "Répétitions", "Repeticiones"]
    static let distance = ["Distance", "Entfernung", "Distancia"]
    static let distanceKm = ["Distance (km)", "km", "distance_km"]
    static let distanceMiles = ["Distance (miles)", "distance_miles", "miles"]
    static let distanceMeters = ["Distance (meters)", "Distance (m)", "distance_meters"]
    static let distanceUnit = ["Distance Unit"]
    static let seconds = ["Seconds", "Sekunden", "Secondes", "Segundos", "duration_seconds"]
    static let notes = ["Notes", "Notizen", "Comment"]
    static let workoutNotes = ["Workout Notes", "Trainingsnotizen"]
    static let rpe = ["RPE"]
}

/// The row-by-row reading shared by the layouts.
struct RowReader {
    let table: CSVTable
    let file: String
    let defaultUnit: WeightUnit
    /// `--strict`: the first row that cannot be read as written refuses the file; no row is repaired.
    let strict: Bool
    var workouts: [ImportedWorkout] = []
    var skipped: [SkippedRow] = []
    var repaired: [SkippedRow] = []
    /// The layout's columns, for repairing rows whose cell count is not the header's (`fit`).
    var shape = RowShape()
    /// Whether some weight took `defaultUnit` because the file did not say.
    var usedDefaultUnit = false
    private var index: [String: Int] = [:]

    init(table: CSVTable, file: String, defaultUnit: WeightUnit, strict: Bool) {
        self.table = table; self.file = file; self.defaultUnit = defaultUnit; self.strict = strict
    }

    /// What a layout's columns hold, for `fit`: typed columns with their check (called on every cell, empty ones
    /// included), the free-text columns a split cell may be joined back into (the one an app is known to write
    /// unquoted first: the exercise name), and the columns a short row may not lack.
    struct RowShape {
        var typed: [(column: Int, valid: (String) -> Bool)] = []
        var text: [Int] = []
        var essential: Set<Int> = []

        static let number: @Sendable (String) -> Bool = { ValueParsing.number($0) != nil }
        static let date: @Sendable (String) -> Bool = { ValueParsing.dateTime(CSVTable.Trim.whitespaces($0)) != nil }
        static let optionalDate: @Sendable (String) -> Bool = { CSVTable.Trim.whitespaces($0).isEmpty || date($0) }
        static let weightUnit: @Sendable (String) -> Bool = { CSVTable.Trim.whitespaces($0).isEmpty || WeightUnit(parsing: CSVTable.Trim.whitespaces($0)) != nil }
        static let distanceUnit: @Sendable (String) -> Bool = {
            ["", "km", "kms", "kilometres", "kilometers", "m", "meters", "metres", "mi", "mile", "miles"].contains(CSVTable.Trim.whitespaces($0).lowercased())
        }
        static let clock: @Sendable (String) -> Bool = { CSVTable.Trim.whitespaces($0).isEmpty || ValueParsing.clockSeconds($0) != nil }
        static let duration: @Sendable (String) -> Bool = { CSVTable.Trim.whitespaces($0).isEmpty || ValueParsing.duration($0) != nil }

        mutating func check(_ column: Int?, _ valid: @escaping (String) -> Bool) {
            if let column { typed.append((column, valid)) }
        }
    }

    /// The row with the header's number of cells, repaired where that is unambiguous, or nil when it is skipped
    /// (listed in `skipped`). Repairs are listed in `repaired`. `--strict` reads every row as written.
    mutating func fit(_ row: CSVTable.Row) -> CSVTable.Row? {
        let width = table.header.count
        if strict || row.isBlank || row.cells.count == width { return row }
        let count = row.cells.count
        if count < width {
            if let lacking = (count..<width).first(where: { shape.essential.contains($0) }) {
                skipped.append(SkippedRow(line: row.line, reason: "is missing: the row has \(count) fields, the header \(width)",
                                          column: table.header[lacking]))
                return nil
            }
            repaired.append(SkippedRow(line: row.line, reason: "has \(count) fields for a header of \(width): "
                + (count..<width).map { "\"\(table.header[$0])\"" }.joined(separator: ", ") + " read as empty"))
            return row
        }
        let extra = count - width
        // The readings: the empty trailing fields dropped (a writer's extra separators), or an unquoted separator inside
        // a free-text cell (the cells joined back into one column). One counts when every typed cell of the result
        // reads; the best keep the most typed values (a join that swallows numbers into a name is worse).
        let separator = String(table.delimiter)
        var readings: [(label: String, column: Int?, row: CSVTable.Row)] = []
        if row.cells[width...].allSatisfy({ CSVTable.Trim.whitespaces($0).isEmpty }) {
            readings.append(("the \(extra) empty trailing field\(extra == 1 ? "" : "s") dropped", nil, CSVTable.Row(line: row.line, cells: Array(row.cells[..<width]))))
        }
        for column in shape.text {
            let cells = Array(row.cells[..<column]) + [row.cells[column...(column + extra)].joined(separator: separator)] + Array(row.cells[(column + extra + 1)...])
            readings.append(("cells joined back into \"\(table.header[column])\"", column, CSVTable.Row(line: row.line, cells: cells)))
        }
        func values(_ candidate: CSVTable.Row) -> Int? {
            guard shape.typed.allSatisfy({ $0.valid(candidate.text($0.column)) }) else { return nil }
            return shape.typed.filter { !candidate.cell($0.column).isEmpty }.count
        }
        let scored = readings.compactMap { reading in values(reading.row).map { (reading, $0) } }
        let most = scored.map(\.1).max() ?? 0
        let best = scored.filter { $0.1 == most }.map(\.0)
        let chosen = best.count == 1 ? best.first : best.first { $0.column != nil && $0.column == shape.text.first }
        guard let chosen else {
            let reason = best.isEmpty
                ? "has \(count) fields for a header of \(width), and no text cell joined back with its neighbours gives a row whose dates, numbers and units read"
                : "has \(count) fields for a header of \(width), and more than one reading reads (" + best.map(\.label).joined(separator: "; ")
                    + "): which one is meant is unclear"
            skipped.append(SkippedRow(line: row.line, reason: reason))
            return nil
        }
        if let column = chosen.column {
            repaired.append(SkippedRow(line: row.line, reason: "was split by \(extra) unquoted \(separator == "," ? "comma" : "semicolon")\(extra == 1 ? "" : "s") (the row has \(count) fields for a header of \(width)) and is read as one cell",
                                       column: table.header[column], value: chosen.row.text(column)))
        } else {
            repaired.append(SkippedRow(line: row.line, reason: "has \(count) fields for a header of \(width): " + chosen.label))
        }
        return chosen.row
    }

    /// A row that cannot be read: refuses the file under `--strict`, else the row is listed as skipped with its cell.
    mutating func reject(_ error: InterchangeError, _ row: CSVTable.Row) throws(InterchangeError) {
        if strict { throw error }
        skipped.append(SkippedRow(line: error.line ?? row.line, reason: error.problem, column: error.column, value: error.value))
    }

    /// A free-text cell as written (spaces kept), or "" when it holds only spaces.
    func text(_ row: CSVTable.Row, _ column: Int?) -> String {
        let text = row.text(column)
        return CSVTable.Trim.whitespacesAndNewlines(text).isEmpty ? "" : text
    }

    func require(_ aliases: [String], what: String) throws(InterchangeError) -> Int {
        guard let column = table.column(aliases) else {
            throw InterchangeError(file: file, line: 1, column: aliases[0], value: nil,
                                   problem: "is missing from the header (\(what))",
                                   advice: "export again with all columns, or add the column; header found: \(table.header.joined(separator: ", "))")
        }
        return column
    }

    func number(_ row: CSVTable.Row, _ column: Int?) throws(InterchangeError) -> Double? {
        let text = row.cell(column)
        guard let value = ValueParsing.number(text) else {
            throw InterchangeError(file: file, line: row.line, column: column.map { table.header[$0] }, value: text,
                                   problem: "is not a number", advice: "fix the cell (e.g. 82.5) or delete the row; nothing was imported")
        }
        // Beyond any weight, count or distance; also keeps every conversion to Int exact.
        if let value, abs(value) > 1e9 {
            throw InterchangeError(file: file, line: row.line, column: column.map { table.header[$0] }, value: text,
                                   problem: "is not a number this importer reads (above a billion)",
                                   advice: "fix the cell or delete the row; nothing was imported")
        }
        return value
    }

    /// Whole seconds, or an error naming the cell when `seconds` is negative or longer than `ValueParsing.maxDurationSeconds`.
    func duration(_ row: CSVTable.Row, _ column: Int, seconds: Double?) throws(InterchangeError) -> Int? {
        guard let seconds else { return nil }
        guard let value = ValueParsing.durationSeconds(seconds) else {
            throw InterchangeError(file: file, line: row.line, column: table.header[column], value: row.cell(column),
                                   problem: "is not a duration from 0 to 31 days", advice: "fix the cell or empty it; nothing was imported")
        }
        return value
    }

    func dateTime(_ row: CSVTable.Row, _ column: Int) throws(InterchangeError) -> LocalDateTime {
        let text = row.cell(column)
        guard let value = ValueParsing.dateTime(text) else {
            throw InterchangeError(file: file, line: row.line, column: table.header[column], value: text,
                                   problem: "is not a date this importer reads",
                                   advice: "dates like 2024-03-04 07:12:40, 2024/03/04 or 4 Mar 2024, 07:12 are read; fix the cell; nothing was imported")
        }
        return value
    }

    /// Adds `set` to the workout keyed by `key`, creating it with `make` the first time.
    mutating func add(_ set: ImportedSet?, key: String, make: () -> ImportedWorkout) {
        var set = set
        // A set without an exercise name cannot be filed (the journal refuses a blank name): skipped, in every layout.
        if let named = set, named.exerciseName.allSatisfy(\.isWhitespace) {
            skipped.append(SkippedRow(line: named.line, reason: "no exercise name")); set = nil
        }
        // A negative weight is help written as minus (an assisted exercise): its size, marked, in every layout.
        if let weight = set?.weight, weight < 0 { set?.weight = -weight; set?.negativeWeight = true }
        if let position = index[key] {
            if let set { workouts[position].sets.append(set) }
        } else {
            var workout = make()
            if let set { workout.sets.append(set) }
            index[key] = workouts.count
            workouts.append(workout)
        }
    }

    mutating func noteWorkout(key: String, _ note: String) {
        guard !note.isEmpty, let position = index[key], !workouts[position].notes.contains(note) else { return }
        workouts[position].notes.append(note)
    }

    static func kind(strongSetOrder text: String) -> String? {
        switch text.uppercased() {
        case "W": return "warmup"
        case "D": return "drop"
        case "F": return "failure"
        default: return Int(text) != nil ? "working" : nil
        }
    }

    /// A row that carries nothing to import, or nil when it is a set. A weight with 0 reps is a set (a failed
    /// attempt: the journal records those too).
    static func emptiness(weight: Double, reps: Int, seconds: Double?, km: Double?) -> String? {
        if reps == 0 && weight == 0 && (seconds ?? 0) == 0 && (km ?? 0) == 0 { return "no weight, reps, time or distance (an empty set)" }
        if reps < 0 { return "negative reps \(reps): the journal records reps from 0" }
        return nil
    }

    // MARK: Strong

    mutating func readStrong(_ layout: ImportLayout) throws(InterchangeError) {
        let date = try require(Aliases.date, what: "the workout's start")
        let name = try require(Aliases.workoutName, what: "the workout's name")
        let exercise = try require(Aliases.exercise, what: "the exercise")
        let setOrder = try require(Aliases.setOrder, what: "the set's number or W/D/F")
        let reps = try require(Aliases.reps, what: "the reps")
        let number = table.column(Aliases.workoutNumber)
        let duration = table.column(Aliases.duration), durationSeconds = table.column(Aliases.durationSeconds)
        let weightKg = table.column(Aliases.weightKg), weightLb = table.column(Aliases.weightLb)
        let weightPlain = table.column(Aliases.weight), weightUnit = table.column(Aliases.weightUnit)
        guard weightKg != nil || weightLb != nil || weightPlain != nil else {
            _ = try require(Aliases.weight, what: "the weight"); return
        }
        let distance = table.column(Aliases.distance), distanceKm = table.column(Aliases.distanceKm)
        let distanceMeters = table.column(Aliases.distanceMeters), distanceUnit = table.column(Aliases.distanceUnit)
        let seconds = table.column(Aliases.seconds), notes = table.column(Aliases.notes)
        let workoutNotes = table.column(Aliases.workoutNotes), rpe = table.column(Aliases.rpe)
        shape.check(date, RowShape.date)
        shape.check(setOrder) { text in
            let order = CSVTable.Trim.whitespaces(text)
            return RowReader.kind(strongSetOrder: order) != nil || order.lowercased().contains("rest")
        }
        for column in [reps, number, durationSeconds, weightKg, weightLb, weightPlain, distance, distanceKm, distanceMeters, seconds, rpe] { shape.check(column, RowShape.number) }
        shape.check(duration, RowShape.duration)
        shape.check(weightUnit, RowShape.weightUnit)
        shape.check(distanceUnit, RowShape.distanceUnit)
        shape.text = [exercise, name] + [notes, workoutNotes].compactMap { $0 }
        shape.essential = Set([date, exercise, setOrder, reps] + [weightKg, weightLb, weightPlain].compactMap { $0 })
        // The workout's cells (number, date, name, duration) repeat on each of its rows: read again only when they change.
        var workoutRead: (cells: (String, String, String, String), start: LocalDateTime, key: String, duration: Int?)?
        for original in table.rows {
            guard let row = fit(original) else { continue }
            do throws(InterchangeError) {
                if row.isBlank { skipped.append(SkippedRow(line: row.line, reason: "an empty line")); continue }
                let order = row.cell(setOrder)
                let workoutCells = (row.cell(number), row.cell(date), row.cell(name), row.cell(durationSeconds ?? duration))
                let workoutName = workoutCells.2.isEmpty ? "Workout" : workoutCells.2
                let start: LocalDateTime, key: String, durationValue: Int?
                if let workoutRead, workoutRead.cells == workoutCells {
                    (start, key, durationValue) = (workoutRead.start, workoutRead.key, workoutRead.duration)
                } else {
                    start = try dateTime(row, date)
                    key = "\(workoutCells.0)|\(start)|\(workoutName)"
                    if let durationSeconds { durationValue = try self.duration(row, durationSeconds, seconds: self.number(row, durationSeconds)) }
                    else if let duration, !workoutCells.3.isEmpty {
                        guard let value = ValueParsing.duration(workoutCells.3) else {
                            throw InterchangeError(file: file, line: row.line, column: table.header[duration], value: workoutCells.3,
                                                   problem: "is not a duration", advice: "write it like 1h 5m or 47m (at most 31 days); nothing was imported")
                        }
                        durationValue = value
                    } else {
                        durationValue = nil
                    }
                    workoutRead = (workoutCells, start, key, durationValue)
                }
                let make = { ImportedWorkout(name: workoutName, start: start, durationSeconds: durationValue, firstLine: row.line) }
                // A set number or W/D/F is shorter than "rest": no lowercasing and search for those.
                if (order.utf8.count >= 4 && order.lowercased().contains("rest")) || row.cell(exercise).lowercased() == "rest timer" {
                    add(nil, key: key, make: make)
                    skipped.append(SkippedRow(line: row.line, reason: "a rest-timer row, not a set")); continue
                }
                guard let kind = RowReader.kind(strongSetOrder: order) else {
                    throw InterchangeError(file: file, line: row.line, column: table.header[setOrder], value: order,
                                           problem: "is not a set number or W, D, F", advice: "fix the cell; nothing was imported")
                }
                let exerciseName = text(row, exercise)
                var weight = 0.0
                var unit = defaultUnit
                if let weightKg, let value = try self.number(row, weightKg) { weight = value; unit = .kg }
                else if let weightLb, let value = try self.number(row, weightLb) { weight = value; unit = .lb }
                else if let weightPlain, let value = try self.number(row, weightPlain) {
                    weight = value
                    let unitText = row.cell(weightUnit)
                    if unitText.isEmpty && value != 0 { usedDefaultUnit = true }
                    if !unitText.isEmpty {
                        guard let parsed = WeightUnit(parsing: unitText) else {
                            throw InterchangeError(file: file, line: row.line, column: weightUnit.map { table.header[$0] }, value: unitText,
                                                   problem: "is not a weight unit", advice: "use kg or lbs; nothing was imported")
                        }
                        unit = parsed
                    }
                }
                let repsValue = try self.number(row, reps) ?? 0
                var km: Double?
                if let distanceKm { km = try self.number(row, distanceKm) }
                else if let distanceMeters { km = try self.number(row, distanceMeters).map { $0 / 1000 } }
                else if let distance, let value = try self.number(row, distance) {
                    let unitText = row.cell(distanceUnit).lowercased()
                    km = unitText.hasPrefix("mi") || (unitText.isEmpty && ValueParsing.strongDistanceInMiles(unit)) ? value * ValueParsing.kilometresPerMile : unitText == "m" ? value / 1000 : value
                }
                let secondsValue = try self.number(row, seconds)
                let rpeValue = try self.number(row, rpe)
                add(nil, key: key, make: make)
                noteWorkout(key: key, text(row, workoutNotes))
                if let reason = RowReader.emptiness(weight: weight, reps: Int(repsValue), seconds: secondsValue, km: km) {
                    skipped.append(SkippedRow(line: row.line, reason: reason)); continue
                }
                let note = text(row, notes)
                var set = ImportedSet(exerciseName: exerciseName, weight: weight, unit: unit, reps: Int(repsValue), kind: kind, rpe: rpeValue,
                                      note: note.isEmpty ? nil : note, seconds: secondsValue.flatMap { $0 > 0 ? $0 : nil },
                                      kilometres: km.flatMap { $0 > 0 ? $0 : nil }, line: row.line, sourceSet: order)
                // The old layout's `Distance Unit` as written, for export.
                if let km, km > 0, !row.cell(distanceUnit).isEmpty { set.distanceUnit = row.cell(distanceUnit) }
                add(set, key: key, make: make)
            } catch { try reject(error, row) }
        }
    }

    // MARK: Hevy

    mutating func readHevy() throws(InterchangeError) {
        let title = try require(["title"], what: "the workout's name")
        let start = try require(["start_time"], what: "the workout's start")
        let end = table.column(["end_time"])
        let description = table.column(["description"])
        let exercise = try require(["exercise_title"], what: "the exercise")
        let exerciseNotes = table.column(["exercise_notes"])
        let setType = table.column(["set_type"]), setIndex = table.column(["set_index"])
        let weightKg = table.column(["weight_kg"]), weightLb = table.column(["weight_lbs", "weight_lb"])
        let reps = try require(["reps"], what: "the reps")
        let km = table.column(["distance_km"]), miles = table.column(["distance_miles"])
        let seconds = table.column(["duration_seconds"]), rpe = table.column(["rpe"])
        let superset = table.column(["superset_id"])
        shape.check(start, RowShape.date)
        shape.check(end, RowShape.optionalDate)
        shape.check(setType) { ["", "normal", "warmup", "warm_up", "warm-up", "dropset", "drop", "drop_set", "failure"].contains(CSVTable.Trim.whitespaces($0).lowercased()) }
        for column in [setIndex, weightKg, weightLb, reps, km, miles, seconds, rpe, superset] { shape.check(column, RowShape.number) }
        shape.text = [exercise, title] + [description, exerciseNotes].compactMap { $0 }
        shape.essential = Set([start, exercise, reps] + [weightKg, weightLb].compactMap { $0 })
        for original in table.rows {
            guard let row = fit(original) else { continue }
            do throws(InterchangeError) {
                if row.isBlank { skipped.append(SkippedRow(line: row.line, reason: "an empty line")); continue }
                let started = try dateTime(row, start)
                var durationValue: Int?
                if let end, !row.cell(end).isEmpty {
                    let finished = try dateTime(row, end)
                    durationValue = max(0, (finished.date.day - started.date.day) * 86_400 + finished.seconds - started.seconds)
                }
                let name = row.cell(title).isEmpty ? "Workout" : row.cell(title)
                let key = "\(started)|\(name)"
                let make = { ImportedWorkout(name: name, start: started, durationSeconds: durationValue, firstLine: row.line) }
                add(nil, key: key, make: make)
                noteWorkout(key: key, text(row, description))
                let typeText = row.cell(setType).lowercased()
                let kind: String
                switch typeText {
                case "", "normal": kind = "working"
                case "warmup", "warm_up", "warm-up": kind = "warmup"
                case "dropset", "drop", "drop_set": kind = "drop"
                case "failure": kind = "failure"
                default:
                    throw InterchangeError(file: file, line: row.line, column: setType.map { table.header[$0] }, value: typeText,
                                           problem: "is not a Hevy set type", advice: "use normal, warmup, dropset or failure; nothing was imported")
                }
                var weight = 0.0, unit = WeightUnit.kg
                if let weightKg, let value = try number(row, weightKg) { weight = value }
                else if let weightLb, let value = try number(row, weightLb) { weight = value; unit = .lb }
                else if weightKg == nil && weightLb != nil { unit = .lb }
                let repsValue = Int(try number(row, reps) ?? 0)
                var distance: Double?
                if let km { distance = try number(row, km) } else if let miles { distance = try number(row, miles).map { $0 * ValueParsing.kilometresPerMile } }
                let secondsValue = try number(row, seconds)
                let exerciseName = text(row, exercise)
                let exerciseNote = text(row, exerciseNotes)
                if !exerciseNote.isEmpty, let position = index[key],
                   !workouts[position].exerciseNotes.contains(where: { $0.name == exerciseName && $0.note == exerciseNote }) {
                    workouts[position].exerciseNotes.append((exerciseName, exerciseNote))
                }
                if let reason = RowReader.emptiness(weight: weight, reps: repsValue, seconds: secondsValue, km: distance) {
                    skipped.append(SkippedRow(line: row.line, reason: reason)); continue
                }
                add(ImportedSet(exerciseName: exerciseName, weight: weight, unit: unit, reps: repsValue, kind: kind, rpe: try number(row, rpe),
                                seconds: secondsValue.flatMap { $0 > 0 ? $0 : nil }, kilometres: distance.flatMap { $0 > 0 ? $0 : nil },
                                line: row.line, sourceSet: setIndex.map { row.cell($0) }, superset: row.cell(superset).isEmpty ? nil : row.cell(superset)),
                                key: key, make: make)
            } catch { try reject(error, row) }
        }
    }

    // MARK: FitNotes

    mutating func readFitNotes() throws(InterchangeError) {
        let date = try require(["Date"], what: "the day")
        let exercise = try require(["Exercise"], what: "the exercise")
        let category = table.column(["Category"])
        let weightKg = table.column(["Weight (kg)"]), weightLb = table.column(["Weight (lbs)", "Weight (lb)"])
        let weightPlain = table.column(["Weight"]), weightUnit = table.column(["Weight Unit"])
        let reps = try require(["Reps"], what: "the reps")
        let distance = table.column(["Distance"]), distanceUnit = table.column(["Distance Unit"])
        let time = table.column(["Time"]), comment = table.column(["Comment", "Notes"]), kindColumn = table.column(["Kind"])
        shape.check(date, RowShape.date)
        for column in [weightKg, weightLb, weightPlain, reps, distance] { shape.check(column, RowShape.number) }
        shape.check(weightUnit, RowShape.weightUnit)
        shape.check(distanceUnit, RowShape.distanceUnit)
        shape.check(time, RowShape.clock)
        shape.text = [exercise] + [category, comment].compactMap { $0 }
        shape.essential = Set([date, exercise, reps] + [weightKg, weightLb, weightPlain].compactMap { $0 })
        var categories: [String: [String]] = [:]
        for original in table.rows {
            guard let row = fit(original) else { continue }
            do throws(InterchangeError) {
                if row.isBlank { skipped.append(SkippedRow(line: row.line, reason: "an empty line")); continue }
                let day = try dateTime(row, date)
                // FitNotes has no times: a day's sets are one workout at noon (INTERCHANGE.md).
                let start = LocalDateTime(date: day.date, seconds: 12 * 3600)
                let key = "\(day.date)"
                let group = row.cell(category)
                if !group.isEmpty, !(categories[key] ?? []).contains(group) { categories[key, default: []].append(group) }
                let make = { ImportedWorkout(name: "", start: start, firstLine: row.line) }
                add(nil, key: key, make: make)
                var weight = 0.0, unit = defaultUnit
                if let weightKg, let value = try number(row, weightKg), value != 0 || weightLb == nil { weight = value; unit = .kg }
                else if let weightLb, let value = try number(row, weightLb) { weight = value; unit = .lb }
                else if let weightPlain, let value = try number(row, weightPlain) {
                    weight = value
                    if let parsed = WeightUnit(parsing: row.cell(weightUnit)) { unit = parsed } else if value != 0 { usedDefaultUnit = true }
                }
                let repsValue = Int(try number(row, reps) ?? 0)
                var km = try number(row, distance)
                let unitText = row.cell(distanceUnit).lowercased()
                if let value = km { km = unitText.hasPrefix("mi") ? value * ValueParsing.kilometresPerMile : unitText == "m" ? value / 1000 : value }
                let seconds = ValueParsing.clockSeconds(row.cell(time))
                if let reason = RowReader.emptiness(weight: weight, reps: repsValue, seconds: seconds, km: km) {
                    skipped.append(SkippedRow(line: row.line, reason: reason)); continue
                }
                let kindText = row.cell(kindColumn).lowercased()
                let kind = kindText.contains("warm") ? "warmup" : kindText.contains("drop") ? "drop" : kindText.contains("fail") ? "failure" : "working"
                let note = text(row, comment)
                var set = ImportedSet(exerciseName: text(row, exercise), weight: weight, unit: unit, reps: repsValue, kind: kind,
                                      note: note.isEmpty ? nil : note, seconds: seconds.flatMap { $0 > 0 ? $0 : nil },
                                      kilometres: km.flatMap { $0 > 0 ? $0 : nil }, line: row.line)
                set.category = group.isEmpty ? nil : text(row, category)
                set.distanceUnit = unitText.isEmpty || km == nil ? nil : row.cell(distanceUnit)
                add(set, key: key, make: make)
            } catch { try reject(error, row) }
        }
        for position in workouts.indices {
            let key = "\(workouts[position].start.date)"
            let names = categories[key] ?? []
            workouts[position].name = names.isEmpty ? "FitNotes" : names.joined(separator: " & ")
        }
    }

    // MARK: StrongLifts

    mutating func readStrongLifts() throws(InterchangeError) {
        let date = try require(Aliases.date, what: "the day")
        let workoutLetter = table.column(["Workout"]), workoutName = table.column(["Workout Name"])
        let exercise = try require(["Exercise"], what: "the exercise")
        let startTime = table.column(["Start Time (h:mm)", "Start Time"]), endTime = table.column(["End Time (h:mm)", "End Time"])
        let durationHours = table.column(["Duration (hours)"]), notes = table.column(["Notes"])
        // Set N (Reps) / Set N (KG|LB) pairs.
        var pairs: [(set: Int, reps: Int, weight: Int, unit: WeightUnit)] = []
        for (position, header) in table.header.enumerated() {
            let normalized = CSVTable.normalize(header)
            guard normalized.hasPrefix("set"), normalized.hasSuffix("reps"),
                  let n = Int(normalized.dropFirst(3).dropLast(4)) else { continue }
            for (other, candidate) in table.header.enumerated() {
                let c = CSVTable.normalize(candidate)
                if c == "set\(n)kg" { pairs.append((n, position, other, .kg)) }
                if c == "set\(n)lb" || c == "set\(n)lbs" { pairs.append((n, position, other, .lb)) }
            }
        }
        guard !pairs.isEmpty else { _ = try require(["Set 1 (Reps)"], what: "the sets"); return }
        pairs.sort { $0.set < $1.set }
        shape.check(date, RowShape.date)
        for pair in pairs { shape.check(pair.reps, RowShape.number); shape.check(pair.weight, RowShape.number) }
        shape.check(durationHours, RowShape.number)
        shape.text = [exercise] + [workoutName, notes].compactMap { $0 }
        shape.essential = [date, exercise]
        for original in table.rows {
            guard let row = fit(original) else { continue }
            do throws(InterchangeError) {
                if row.isBlank { skipped.append(SkippedRow(line: row.line, reason: "an empty line")); continue }
                let day = try dateTime(row, date)
                var seconds = 12 * 3600
                if let startTime, let time = ValueParsing.dateTime("2000-01-01 " + row.cell(startTime)) { seconds = time.seconds }
                var durationValue: Int?
                if let endTime, let end = ValueParsing.dateTime("2000-01-01 " + row.cell(endTime)) {
                    durationValue = (end.seconds - seconds + 86_400) % 86_400
                } else if let durationHours, let hours = try number(row, durationHours) { durationValue = try duration(row, durationHours, seconds: hours * 3600) }
                let name = [row.cell(workoutName), row.cell(workoutLetter)].first { !$0.isEmpty } ?? "Workout"
                let start = LocalDateTime(date: day.date, seconds: seconds)
                let key = "\(day.date)|\(name)|\(seconds)"
                let make = { ImportedWorkout(name: name, start: start, durationSeconds: durationValue, firstLine: row.line) }
                add(nil, key: key, make: make)
                noteWorkout(key: key, row.cell(notes))
                let exerciseName = row.cell(exercise)
                var any = false
                for pair in pairs {
                    guard let reps = try number(row, pair.reps) else { continue }
                    let weight = try number(row, pair.weight) ?? 0
                    if let reason = RowReader.emptiness(weight: weight, reps: Int(reps), seconds: nil, km: nil) {
                        skipped.append(SkippedRow(line: row.line, reason: "set \(pair.set): \(reason)")); continue
                    }
                    any = true
                    add(ImportedSet(exerciseName: exerciseName, weight: weight, unit: pair.unit, reps: Int(reps), line: row.line), key: key, make: make)
                }
                if !any && pairs.allSatisfy({ row.cell($0.reps).isEmpty }) {
                    skipped.append(SkippedRow(line: row.line, reason: "no sets in the Set N columns"))
                }
            } catch { try reject(error, row) }
        }
    }
}
