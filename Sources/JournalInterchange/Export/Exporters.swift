import Foundation
import JournalEvents
import JournalModel
import JournalProjections
import TrainingDomain

/// Writes events and workouts in the layouts `journal export` offers (INTERCHANGE.md §"Export").
public enum Exporters {
    /// The events an export may show: after a `data.cleared` ("Clear All Data", or the clear that follows
    /// `account.deleted`) only the facts its `keep` kept (the profile's or settings' own events, as recorded) and the
    /// events after the last one, renumbered from seq 1, so nothing the lifter cleared — history, name, notes — leaves
    /// the device in an export, and the export still restores into a new journal with `journal record` to the same
    /// views (INTERCHANGE.md §"Export"). Without a `data.cleared`, every event as stored.
    public static func visible(_ events: [Event]) -> [Event] {
        guard let cleared = events.lastIndex(where: { $0.knownType == .dataCleared }) else { return events }
        // Each clear keeps, of the facts before it (those earlier clears kept included), the kinds its `keep` names.
        var kept: [Event] = []
        var start = events.startIndex
        for index in events.indices where index <= cleared && (events[index].knownType == .dataCleared || events[index].knownType == .dataErased) {
            let keep = events[index].knownType == .dataCleared
                ? (events[index].array(.keep) ?? []).compactMap { $0.stringValue.flatMap(Ledger.ClearKeep.init(rawValue:)) } : []
            kept = (kept + events[start..<index]).filter { event in keep.contains { $0.holds(event) } }
            start = index + 1
        }
        return (kept + events[(cleared + 1)...]).enumerated().map { offset, event in
            var event = event
            event.seq = offset + 1
            return event
        }
    }

    /// One event per line, as stored.
    public static func jsonl(_ events: [Event]) -> String {
        var out = ""
        for event in events { out += EventCodec.encodeString(event); out += "\n" }
        return out
    }

    /// One JSON document: `{"format":"workout-journal","version":1,"events":[…]}`.
    public static func json(_ events: [Event]) -> String {
        "{\"format\":\"workout-journal\",\"version\":1,\"events\":[\n" + events.map(EventCodec.encodeString).joined(separator: ",\n") + "\n]}\n"
    }

    /// A CSV cell: quoted when it holds the separator, a quote or a line break (or always, with `force`).
    static func cell(_ text: String, force: Bool = false) -> String {
        if force || text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r") {
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return text
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// `2021-02-10 16:46:13` in the workout's own offset.
    static func wallClock(_ time: Timestamp) -> String {
        let date = LocalDate(day: time.localDay)
        let seconds = Int((time.localMilliseconds / 1000) - Int64(time.localDay) * 86_400)
        return "\(date) \(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Hevy's `4 Mar 2024, 07:12`.
    static func hevyDate(_ time: Timestamp) -> String {
        let date = LocalDate(day: time.localDay).components
        let seconds = Int((time.localMilliseconds / 1000) - Int64(time.localDay) * 86_400)
        return "\(date.day) \(monthNames[date.month - 1]) \(date.year), \(two(seconds / 3600)):\(two(seconds / 60 % 60))"
    }

    /// Strong's `2h 18m`, `47m`, `2h`; a workout under a minute as `45s` (read back as such), not `0m`.
    static func strongDuration(_ seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds / 60 % 60
        if seconds > 0 && seconds < 60 { return "\(seconds)s" }
        if hours == 0 { return "\(minutes)m" }
        return minutes == 0 ? "\(hours)h" : "\(hours)h \(minutes)m"
    }

    /// `75.0`, `82.5`, `102.058`: at least one decimal like Strong, at most three.
    static func weight(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        var text = String(format: "%.3f", rounded)
        while text.hasSuffix("0") && !text.hasSuffix(".0") { text.removeLast() }
        return text
    }

    /// The name a row of `app`'s layout gives an exercise: the app's own name when the row was imported from that app,
    /// else the app's convention for a catalogue exercise (`Bench Press (Barbell)`), else the journal's name (custom).
    static func rowName(_ exercise: String, app: String, imported: String?, importedFrom: String?, analysis: Analysis) -> String {
        if importedFrom == app, let imported { return imported }
        return NameMatcher.builtIn.appName(for: exercise, app: app) ?? analysis.exerciseName(exercise)
    }

    static func workoutNotes(_ workout: WorkoutRecord) -> String {
        workout.notes.filter { $0.exercise == nil }.map(\.text).joined(separator: "\n")
    }

    /// Strong's classic layout, every weight in `unit` (Strong's file has no unit column). Finished workouts
    /// oldest first; warm-up, drop and failure sets as `W`, `D`, `F`; cardio as one row with distance and seconds.
    /// Rows imported from Strong come back with their own name, `Set Order`, RPE, distance and seconds (`imported`).
    /// When every workout imported from Strong came from a Strong 6.x file (`ImportedRows.layout(of:)`), the file is
    /// in that layout instead: every cell quoted, `;`, `Workout #` (the workouts numbered from 1, oldest first),
    /// `Duration (sec)`, the unit in the weight header (`Weight (kg)`), `Distance (meters)`. When every one came from an
    /// old semicolon file, in that one: `;`, a `Weight Unit` and a `Distance Unit` per row (a row imported from Strong
    /// in the unit it was written in), no duration.
    public static func strongCSV(_ analysis: Analysis, unit: WeightUnit, redact: Bool = false, imported: ImportedRows = .none) -> String {
        let layout = imported.layout(of: "strong")
        let six = layout == ImportedRows.strong6Layout, old = layout == ImportedRows.strongSemicolonLayout
        // The classic layout has no distance unit: miles beside pounds, as the importer reads them; 6.x says metres.
        func distance(_ km: Double) -> String {
            six ? format(km * 1000) : format(ValueParsing.strongDistanceInMiles(unit) ? km / ValueParsing.kilometresPerMile : km)
        }
        let unitName = { (unit: WeightUnit) in unit == .kg ? "kg" : "lbs" }
        var lines = [six ? ["Workout #", "Date", "Workout Name", "Duration (sec)", "Exercise Name", "Set Order", "Weight (\(unitName(unit)))",
                            "Reps", "RPE", "Distance (meters)", "Seconds", "Notes", "Workout Notes"].map { cell($0, force: true) }.joined(separator: ";")
                     : old ? "Date;Workout Name;Exercise Name;Set Order;Weight;Weight Unit;Reps;RPE;Distance;Distance Unit;Seconds;Notes;Workout Notes"
                     : "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"]
        for (index, workout) in analysis.finished.enumerated() {
            let date = wallClock(workout.startedAt)
            let duration = six ? "\(workout.durationSeconds)" : strongDuration(workout.durationSeconds)
            var notes = redact ? "" : workoutNotes(workout)
            /// One row in the file's layout; the workout's notes on its first row. `units`: the old layout's weight and
            /// distance units of the row, its distance in the latter.
            func row(_ name: String, _ order: String, _ weight: String, _ reps: String, _ km: Double, _ seconds: Double, _ note: String, _ rpe: String,
                     units: (weight: WeightUnit, distance: String?) = (unit, nil)) {
                if old {
                    let distanceUnit = km > 0 ? units.distance ?? "km" : ""
                    lines.append([date, cell(workout.name, force: true), cell(name, force: true), order, weight, unitName(units.weight), reps, rpe,
                                  km > 0 ? format(ImportedRows.distance(km, in: distanceUnit)) : "", distanceUnit, format(seconds),
                                  cell(note, force: true), cell(notes, force: true)].joined(separator: ";"))
                } else if six {
                    lines.append(["\(index + 1)", date, workout.name, duration, name, order, weight, reps, rpe, distance(km), format(seconds), note, notes]
                        .map { cell($0, force: true) }.joined(separator: ";"))
                } else {
                    lines.append([date, cell(workout.name, force: true), duration, cell(name, force: true), order, weight, reps,
                                  distance(km), format(seconds), cell(note, force: true), cell(notes, force: true), rpe].joined(separator: ","))
                }
                notes = ""
            }
            for exercise in workout.performedExercises {
                var number = 0
                for set in workout.sets(of: exercise) {
                    let source = imported.set(workout: workout.id, exercise: exercise, set: set.set)
                    let fromStrong = source?.app == "strong"
                    let name = rowName(exercise, app: "strong", imported: source?.name, importedFrom: source?.app, analysis: analysis)
                    var order: String
                    switch set.kind {
                    case .working: number += 1; order = "\(number)"
                    case .warmup: order = "W"
                    case .drop: order = "D"
                    case .failure: order = "F"
                    }
                    if fromStrong, let label = source?.label { order = label }
                    // The old layout says each row's unit: a row imported from Strong in the unit it was written in.
                    let rowUnit = old && fromStrong ? set.unit : unit
                    let value = ImportedRows.written(Units.convert(set.weight, from: set.unit, to: rowUnit), source, in: "strong")
                    let rpe = set.rpe ?? (fromStrong ? source?.rpe : nil)
                    row(name, order, weight(value), "\(set.reps)", source?.km ?? 0, source?.seconds ?? 0, redact ? "" : (set.note ?? ""),
                        rpe.map(format) ?? "", units: (rowUnit, nil))
                }
                for entry in workout.cardio where entry.exercise == exercise {
                    let source = imported.cardio(workout: workout.id, exercise: exercise)
                    let name = rowName(exercise, app: "strong", imported: source?.name, importedFrom: source?.app, analysis: analysis)
                    // The app's own timed rows when the entry was imported from Strong, else the entry as one row.
                    let rows = source?.app == "strong" && source?.rows.isEmpty == false ? source!.rows
                        : [ImportedRows.Row(label: "1", seconds: (entry.minutes * 60).rounded(), km: entry.km ?? 0)]
                    for timed in rows {
                        row(name, timed.label ?? "1", "0", "0", timed.km ?? 0, timed.seconds ?? 0, redact ? "" : timed.note ?? "", "",
                            units: (unit, timed.distanceUnit))
                    }
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// FitNotes' layout (`Date,Exercise,Category,Weight (kg|lbs),Reps,Distance,Distance Unit,Time,Comment`): one row per
    /// set, finished workouts oldest first, dates only; weights in `unit`. Rows imported from FitNotes come back with
    /// their own name, category, distance in their own unit and time; other exercises take the catalogue's first
    /// primary muscle as category; cardio entries one row with km and time.
    public static func fitNotesCSV(_ analysis: Analysis, unit: WeightUnit, redact: Bool = false, imported: ImportedRows = .none) -> String {
        var lines = ["Date,Exercise,Category,Weight (\(unit == .kg ? "kg" : "lbs")),Reps,Distance,Distance Unit,Time,Comment"]
        func clock(_ seconds: Double?) -> String {
            guard let seconds, seconds > 0 else { return "" }
            let whole = Int(seconds.rounded())
            return "\(whole / 3600):" + two(whole / 60 % 60) + ":" + two(whole % 60)
        }
        func category(_ exercise: String, _ source: String?) -> String {
            source ?? ExerciseCatalogue.builtIn.exercise(id: exercise)?.primaryMuscles.first.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? ""
        }
        for workout in analysis.finished {
            let date = LocalDate(day: workout.startedAt.localDay).description
            for exercise in workout.performedExercises {
                for set in workout.sets(of: exercise) {
                    let source = imported.set(workout: workout.id, exercise: exercise, set: set.set)
                    let fromFitNotes = source?.app == "fitnotes"
                    let name = rowName(exercise, app: "fitnotes", imported: source?.name, importedFrom: source?.app, analysis: analysis)
                    lines.append([date, cell(name), cell(category(exercise, fromFitNotes ? source?.category : nil)),
                                  weight(ImportedRows.written(Units.convert(set.weight, from: set.unit, to: unit), source, in: "fitnotes")), "\(set.reps)",
                                  fromFitNotes ? source?.km.map(format) ?? "" : "", fromFitNotes && source?.km != nil ? "km" : "",
                                  fromFitNotes ? clock(source?.seconds) : "", cell(redact ? "" : set.note ?? "")].joined(separator: ","))
                }
                for entry in workout.cardio where entry.exercise == exercise {
                    let source = imported.cardio(workout: workout.id, exercise: exercise)
                    let name = rowName(exercise, app: "fitnotes", imported: source?.name, importedFrom: source?.app, analysis: analysis)
                    let rows = source?.app == "fitnotes" && source?.rows.isEmpty == false ? source!.rows
                        : [ImportedRows.Row(label: nil, seconds: (entry.minutes * 60).rounded(), km: entry.km)]
                    for row in rows {
                        let unitText = row.distanceUnit ?? (row.km == nil ? "" : "km")
                        let distance = row.km.map { format(ImportedRows.distance($0, in: unitText)) } ?? ""
                        lines.append([date, cell(name), cell(category(exercise, row.category)), "", "", distance, unitText, clock(row.seconds),
                                      cell(redact ? "" : row.note ?? "")].joined(separator: ","))
                    }
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Hevy's `superset_id` of an exercise: the file's own id when the group was imported from it (`<workout>-superset-<id>`,
    /// ImportPlanner.supersetGroup), else the group's position in the workout; "" outside a superset.
    static func supersetLabel(_ workout: WorkoutRecord, _ exercise: String) -> String {
        guard let index = workout.supersets.firstIndex(where: { $0.exercises.contains(exercise) }) else { return "" }
        let prefix = ImportPlanner.supersetGroup(workout: workout.id, label: "")
        let group = workout.supersets[index].group
        return group.hasPrefix(prefix) ? String(group.dropFirst(prefix.count)) : String(index)
    }

    /// Hevy's layout (newest workout first, `set_index` from 0), weights in `unit` (`weight_kg` or `weight_lbs`).
    /// Rows imported from Hevy come back with their own `exercise_title`, `set_index`, RPE, distance and duration.
    public static func hevyCSV(_ analysis: Analysis, unit: WeightUnit, redact: Bool = false, imported: ImportedRows = .none) -> String {
        let weightHeader = unit == .kg ? "weight_kg" : "weight_lbs"
        var lines = ["\"title\",\"start_time\",\"end_time\",\"description\",\"exercise_title\",\"superset_id\",\"exercise_notes\",\"set_index\",\"set_type\",\"\(weightHeader)\",\"reps\",\"distance_km\",\"duration_seconds\",\"rpe\""]
        for workout in analysis.finished.reversed() {
            let start = hevyDate(workout.startedAt), end = hevyDate(workout.finishedAt ?? workout.startedAt)
            let description = redact ? "" : workoutNotes(workout)
            for exercise in workout.performedExercises {
                let superset = supersetLabel(workout, exercise)
                let exerciseNote = redact ? "" : workout.notes.filter { $0.exercise == exercise && $0.set == nil }.map(\.text).joined(separator: "\n")
                func head(_ name: String) -> [String] {
                    [cell(workout.name, force: true), cell(start, force: true), cell(end, force: true), cell(description, force: true),
                     cell(name, force: true), superset, cell(exerciseNote, force: true)]
                }
                for (index, set) in workout.sets(of: exercise).enumerated() {
                    let source = imported.set(workout: workout.id, exercise: exercise, set: set.set)
                    let fromHevy = source?.app == "hevy"
                    let name = rowName(exercise, app: "hevy", imported: source?.name, importedFrom: source?.app, analysis: analysis)
                    let type: String
                    switch set.kind {
                    case .working: type = "normal"
                    case .warmup: type = "warmup"
                    case .drop: type = "dropset"
                    case .failure: type = "failure"
                    }
                    let value = ImportedRows.written(Units.convert(set.weight, from: set.unit, to: unit), source, in: "hevy")
                    let rpe = set.rpe ?? (fromHevy ? source?.rpe : nil)
                    lines.append((head(name) + [fromHevy ? source?.label ?? "\(index)" : "\(index)", "\"\(type)\"", format((value * 1000).rounded() / 1000),
                                                "\(set.reps)", source?.km.map(format) ?? "", source?.seconds.map(format) ?? "", rpe.map(format) ?? ""]).joined(separator: ","))
                }
                for entry in workout.cardio where entry.exercise == exercise {
                    let source = imported.cardio(workout: workout.id, exercise: exercise)
                    let name = rowName(exercise, app: "hevy", imported: source?.name, importedFrom: source?.app, analysis: analysis)
                    let rows = source?.app == "hevy" && source?.rows.isEmpty == false ? source!.rows
                        : [ImportedRows.Row(label: "0", seconds: (entry.minutes * 60).rounded(), km: entry.km)]
                    for row in rows {
                        lines.append((head(name) + [row.label ?? "0", "\"normal\"", "", "", row.km.map(format) ?? "", row.seconds.map(format) ?? "", ""]).joined(separator: ","))
                    }
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
