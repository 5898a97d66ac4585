import JournalEvents
import JournalModel
import JournalProjections
import TrainingDomain

/// What an import will record, and the summary it prints (INTERCHANGE.md §"Import").
public struct ImportPlan: Sendable {
    /// Drafts for `EventJournal.record(batch:)`: one all-or-nothing batch for the whole file.
    public var drafts: [EventDraft]
    public var summary: ImportSummary
}

public struct ImportSummary: Equatable, Sendable, JSONRepresentable {
    public struct MatchedName: Equatable, Sendable {
        public var name: String
        public var exercise: String
        public var confidence: Double
        public var sets: Int
        /// For a name that became a custom exercise: the nearest catalogue exercises (`NameMatcher.identify`), best first.
        public var candidates: [NameMatch] = []
        /// The catalogue exercise the journal already links that custom exercise to (`exercise.linked`): where its sets will count.
        public var linkedTo: String? = nil
    }
    public var file: String
    public var layout: ImportLayout
    public var rows: Int
    public var workouts: Int
    public var sets: Int
    public var cardioEntries: Int
    /// Workouts of the file already in the journal (same deterministic id), not imported again.
    public var alreadyPresent: Int
    public var firstDate: LocalDate?
    public var lastDate: LocalDate?
    public var matched: [MatchedName]
    /// Names that became custom exercises, with their new ids.
    public var unmatched: [MatchedName]
    public var skipped: [SkippedRow]
    /// Rows read after a repair (a cell split by an unquoted separator joined back, …), with what was repaired.
    public var repaired: [SkippedRow] = []
    /// Values that were imported with a change (an RPE outside 6–10 dropped, …).
    public var warnings: [SkippedRow]
    /// The unit assumed for weights the file does not qualify.
    public var assumedUnit: WeightUnit? = nil
    /// Why, when the file's weights decided it (`PlateSteps`).
    public var assumedUnitReason: String? = nil
    /// The UTC offset given to the file's wall-clock times (every layout writes them without one), e.g. `+01:00`.
    public var offset: String = "Z"
    /// Where the offset came from (`--utc-offset`, the journal's last event, this machine's offset now); set by the caller.
    public var offsetOrigin: String? = nil
    /// The time of day assumed when the file has dates only (FitNotes: 12:00), or nil.
    public var assumedTime: String? = nil

    /// `+01:00`, `-05:30`, `Z`.
    static func offsetText(_ seconds: Int32) -> String {
        if seconds == 0 { return "Z" }
        let minutes = abs(Int(seconds)) / 60
        return (seconds < 0 ? "-" : "+") + Exporters.two(minutes / 60) + ":" + Exporters.two(minutes % 60)
    }

    /// The line saying how wall-clock times became instants.
    var timesLine: String {
        let origin = offsetOrigin.map { $0 == "--utc-offset" ? " (--utc-offset)" : " (\($0); --utc-offset chooses another)" } ?? ""
        return "wall clock at UTC\(offset == "Z" ? "+00:00" : offset)" + origin
            + (assumedTime.map { "; the file has dates only, so each workout starts at \($0)" } ?? "")
    }

    public var jsonValue: JSONValue {
        func names(_ list: [MatchedName], candidates: Bool) -> JSONValue {
            .array(list.map { name in
                var object: JSONObject = ["name": .string(name.name), "exercise": .string(name.exercise), "confidence": .number(name.confidence),
                                          "sets": .int(name.sets)]
                if candidates {
                    object["candidates"] = .array(name.candidates.map { ["exercise": .string($0.exerciseID), "score": .number($0.confidence)] })
                    object["linked_to"] = name.linkedTo.map { .string($0) } ?? .null
                }
                return .object(object)
            })
        }
        func list(_ list: [SkippedRow]) -> JSONValue {
            .array(list.map { row in
                var object: JSONObject = ["line": .int(row.line), "reason": .string(row.reason)]
                if let column = row.column { object["column"] = .string(column) }
                if let value = row.value { object["value"] = .string(value) }
                return .object(object)
            })
        }
        return [
            "file": .string(file), "layout": .string(layout.rawValue), "source": .string(layout.app), "rows": .int(self.rows),
            "workouts": .int(workouts), "sets": .int(sets), "cardio_entries": .int(cardioEntries), "already_present": .int(alreadyPresent),
            "first_date": firstDate.map { .string($0.description) } ?? .null, "last_date": lastDate.map { .string($0.description) } ?? .null,
            "matched": names(matched, candidates: false), "unmatched": names(unmatched, candidates: true), "skipped": list(skipped), "repaired": list(repaired), "warnings": list(warnings),
            "assumed_unit": assumedUnit.map { .string($0.rawValue) } ?? .null,
            "assumed_unit_from": assumedUnitReason.map { .string($0) } ?? .null,
            "utc_offset": .string(offset), "utc_offset_from": offsetOrigin.map { .string($0) } ?? .null,
            "assumed_time": assumedTime.map { .string($0) } ?? .null,
        ]
    }

    /// The summary as the command prints it.
    public var text: String {
        var lines: [String] = []
        lines.append("file:           \(file) (\(layout.rawValue), \(rows) rows)")
        lines.append("workouts:       \(workouts) imported" + (alreadyPresent > 0 ? ", \(alreadyPresent) already in the journal (skipped)" : ""))
        lines.append("sets:           \(sets)" + (cardioEntries > 0 ? " (+\(cardioEntries) timed/distance entries as cardio)" : ""))
        lines.append("dates:          " + (firstDate.map { "\($0) … \(lastDate!)" } ?? "none"))
        lines.append("times:          " + timesLine)
        if let assumedUnit {
            let other = assumedUnit == .kg ? "lb" : "kg"
            lines.append("units:          \(assumedUnit.rawValue) assumed " + (assumedUnitReason.map { $0 + " " } ?? "")
                + "(the file does not say; use --unit \(other) if the app was set to \(other == "lb" ? "pounds" : "kilograms"))")
        }
        lines.append("exercises:      \(matched.count) matched to the catalogue, \(unmatched.count) new custom exercises")
        for name in matched { lines.append("  \(name.name) → \(name.exercise) (\(Int((name.confidence * 100).rounded()))%, \(name.sets) sets)") }
        for name in unmatched {
            let nearest = name.candidates.isEmpty ? "" : "; nearest: " + name.candidates.map(\.exerciseID).joined(separator: ", ")
            let link = name.linkedTo.map { ", linked to \($0)" } ?? ""
            lines.append("  \(name.name) → \(name.exercise) (custom\(link), \(name.sets) sets\(link.isEmpty ? nearest : ""))")
        }
        lines.append("rows skipped:   \(skipped.count)")
        for row in skipped { lines.append("  \(row)") }
        if !repaired.isEmpty {
            lines.append("rows repaired:  \(repaired.count) (read as shown; --strict refuses such a file instead)")
            for row in repaired { lines.append("  \(row)") }
        }
        if !warnings.isEmpty {
            lines.append("warnings:       \(warnings.count)")
            for row in warnings { lines.append("  \(row)") }
        }
        return lines.joined(separator: "\n")
    }
}


/// Turns a parsed export into the events the app would have recorded, given what the journal already holds.
public struct ImportPlanner: Sendable {
    public var matcher: NameMatcher
    /// The user's UTC offset for the file's wall-clock times.
    public var offsetSeconds: Int32
    /// `--keep-out-of-range`: import even values beyond the sanity limits (marked `out_of_range`) instead of skipping them.
    public var keepOutOfRange: Bool

    public init(matcher: NameMatcher = .builtIn, offsetSeconds: Int32, keepOutOfRange: Bool = false) {
        self.matcher = matcher; self.offsetSeconds = offsetSeconds; self.keepOutOfRange = keepOutOfRange
    }

    /// Why a row's values are beyond the sanity limits of imported sets (EventVocabulary.sanityWeight, .sanityReps), or nil.
    static func beyondSanity(_ set: ImportedSet) -> String? {
        let maximum = EventVocabulary.sanityWeight[set.unit.rawValue] ?? 2000
        if set.weight > maximum {
            return "weight \(format(set.weight)) \(set.unit.rawValue) is above the sanity limit of \(format(maximum)) \(set.unit.rawValue) for imported sets"
                + " (no lifter lifted that: a damaged cell?); fix the cell, or pass --keep-out-of-range to keep it"
        }
        if set.reps > EventVocabulary.sanityReps {
            return "\(set.reps) reps is above the sanity limit of \(EventVocabulary.sanityReps) for imported sets"
                + " (no lifter did that in one set: a damaged cell?); fix the cell, or pass --keep-out-of-range to keep it"
        }
        return nil
    }

    /// The deterministic workout id: the app and a 64-bit FNV-1a hash of start, name and layout family.
    public static func workoutID(app: String, workout: ImportedWorkout) -> String {
        "\(app)-" + StableID.hex(StableID.fnv1a("\(workout.start)|\(workout.name)"))
    }

    /// `2021-02-10T16:46|Mittwoch`: the wall-clock minute a workout started, in its own offset, and its name.
    static func sameWorkoutKey(start: Timestamp, name: String) -> String {
        let minutes = Int64(floor(Double(start.localMilliseconds) / 60_000))
        return "\(minutes)|\(name)"
    }

    /// The `superset.linked` group of an app's superset (Hevy's `superset_id` `label`) in workout `workout`, so an
    /// export to the app's layout gives the id back (`Exporters.supersetLabel`).
    public static func supersetGroup(workout: String, label: String) -> String { "\(workout)-superset-\(label)" }

    /// A custom exercise id from a name (`StableID.customExercise`).
    public static func customID(_ name: String) -> String { StableID.customExercise(name: name) }

    public func plan(_ export: ParsedExport, file: String, existing: [Event]) -> ImportPlan {
        let app = export.layout.app
        // What the journal holds, as the model and the recording rules read it: workout ids ever used (an id is never
        // reused), its workouts (deleted and discarded ones included; not those `data.cleared` removed) and its
        // custom exercises.
        var rules = RecordingRules()
        for event in existing { rules.apply(event) }
        let ledger = rules.ledger
        var knownCustom = Set(ledger.customExercises.keys)
        // The same workout already in the journal under another id (recorded by the app and exported, or imported
        // from another app's export): same name, same wall-clock start to the minute.
        let knownStarts = Set(ledger.workouts.map { ImportPlanner.sameWorkoutKey(start: $0.startedAt, name: $0.name) })
        var drafts: [EventDraft] = []
        var skipped = export.skipped
        var warnings: [SkippedRow] = []
        var resolved: [String: Resolution] = [:]
        var setCounts: [String: Int] = [:]
        var order: [String] = []
        var imported = 0, present = 0, setTotal = 0, cardioTotal = 0
        var first: LocalDate?, last: LocalDate?
        // Names with a weight above 0 (load), and names with a weight the file wrote negative (help).
        var loaded: Set<String> = []
        var helpNames: Set<String> = []
        for workout in export.workouts {
            for set in workout.sets {
                if set.negativeWeight { helpNames.insert(set.exerciseName) } else if set.weight > 0 { loaded.insert(set.exerciseName) }
            }
        }

        // The strict rule (NameMatcher.identify): a catalogue exercise only when movement and implement agree. `help`:
        // the row's weight was negative, so it is the help of an assisted exercise (INTERCHANGE.md §"Assisted
        // exercises"): the name's own exercise when that is assisted (the catalogue's, a custom name that says
        // `assisted`, or one whose every weight in the file is help), else the name read as "<name> (Assisted)".
        func resolve(_ name: String, help: Bool = false) -> Resolution {
            if let known = resolved[help ? Resolution.helpKey(name) : name] { return known }
            let identified = matcher.identify(name)
            var result = identified.exerciseID.map { Resolution(id: $0, confidence: 1, custom: false, candidates: [], created: name, assisted: false, key: name) }
                ?? Resolution(id: ImportPlanner.customID(name), confidence: 0, custom: true, candidates: identified.candidates, created: name,
                              assisted: NameMatcher.saysAssisted(name) || (helpNames.contains(name) && !loaded.contains(name)), key: name)
            if help && !(result.assisted || ledger.isAssisted(result.id)) {
                let variant = name + " (Assisted)"
                let read = matcher.identify(variant)
                if let id = read.exerciseID, ledger.isAssisted(id) {
                    result = Resolution(id: id, confidence: 1, custom: false, candidates: [], created: variant, assisted: true, key: Resolution.helpKey(name))
                } else {
                    result = Resolution(id: ImportPlanner.customID(variant), confidence: 0, custom: true, candidates: read.candidates, created: variant,
                                        assisted: true, key: Resolution.helpKey(name))
                }
            }
            if resolved[result.key] == nil { order.append(result.key) }
            resolved[result.key] = result
            if help { resolved[Resolution.helpKey(name)] = result }
            return result
        }
        // The rows imported with a negative weight, by name: one warning per name says where they went.
        var helpRows: [String: [ImportedSet]] = [:]
        func warnHelp() {
            for (name, rows) in helpRows.sorted(by: { $0.value[0].line < $1.value[0].line }) {
                let exercise = resolve(name, help: true)
                let sizes = Set(rows.map { "\(format($0.weight)) \($0.unit.rawValue)" }).sorted()
                warnings.append(SkippedRow(line: rows[0].line, reason: "\(rows.count) \(rows.count == 1 ? "row" : "rows") of \"\(name)\" with a negative weight "
                    + "(-\(sizes.prefix(3).joined(separator: ", -"))\(sizes.count > 3 ? ", …" : "")) read as the help of an assisted exercise, "
                    + "filed under \(exercise.id) (\(exercise.custom ? "custom, assisted" : "assisted")); an export to \(app) writes them negative again"))
            }
        }

        var usedInFile: [String: Int] = [:]
        for workout in export.workouts {
            // Two workouts of one file with the same start and name (Strong 6.x numbers them) get -2, -3, … in file order.
            let base = ImportPlanner.workoutID(app: app, workout: workout)
            usedInFile[base, default: 0] += 1
            let id = usedInFile[base]! == 1 ? base : "\(base)-\(usedInFile[base]!)"
            let start = workout.start.timestamp(offsetSeconds: offsetSeconds)
            let finish = start.adding(milliseconds: Int64(max(0, workout.durationSeconds ?? 0)) * 1000)
            let startedAt = JSONValue.string(start.rfc3339)
            if rules.isUsed(workout: id) || knownStarts.contains(ImportPlanner.sameWorkoutKey(start: start, name: workout.name.isEmpty ? "Workout" : workout.name)) {
                present += 1
                continue
            }
            // Sets, numbered from 1 per exercise in file order; timed rows summed into one cardio entry per exercise.
            var sets: [EventDraft] = []
            var cardio: [(exercise: String, seconds: Double, km: Double, name: String, rows: [JSONValue])] = []
            var numbers: [String: Int] = [:]
            var created: [EventDraft] = []
            var counted: [String: Int] = [:]
            // Exercises in order of their first set, and the app's supersets (label → exercises), for superset.linked.
            var exerciseOrder: [String] = []
            var supersets: [(label: String, exercises: [String], line: Int)] = []
            for set in workout.sets {
                // Manual entry's limits do not apply to what a lifter did in another app; only impossible values are skipped.
                let outOfRange = ImportPlanner.beyondSanity(set)
                if let outOfRange, !keepOutOfRange {
                    skipped.append(SkippedRow(line: set.line, reason: outOfRange)); continue
                }
                let exercise = resolve(set.exerciseName, help: set.negativeWeight)
                if exercise.custom && !knownCustom.contains(exercise.id) {
                    knownCustom.insert(exercise.id)
                    // The apps write an assisted exercise's help as its weight (or minus it): the journal ranks it as help.
                    created.append(EventDraft(.exerciseCreated, at: start, [
                        .exercise: .string(exercise.id), .name: .string(truncate(exercise.created, 200)), .source: .string(app),
                        .assisted: exercise.assisted ? .bool(true) : nil,
                    ]))
                }
                if set.isTimed {
                    var row: JSONObject = [:]
                    if let label = set.sourceSet { row["set"] = .string(truncate(label, 16)) }
                    if let seconds = set.seconds { row["seconds"] = .number(min(EventVocabulary.maximumSourceSeconds, seconds)) }
                    if let km = set.kilometres { row["km"] = .number(min(EventVocabulary.maximumSourceKilometres, km)) }
                    if let note = set.note { row["note"] = .string(truncate(note, 4000)) }
                    if let category = set.category { row["category"] = .string(truncate(category, 64)) }
                    if let unit = set.distanceUnit, unit.utf8.count <= 8 { row["distance_unit"] = .string(unit) }
                    if let index = cardio.firstIndex(where: { $0.exercise == exercise.id }) {
                        cardio[index].seconds += set.seconds ?? 0; cardio[index].km += set.kilometres ?? 0
                        cardio[index].rows.append(.object(row))
                    } else {
                        cardio.append((exercise.id, set.seconds ?? 0, set.kilometres ?? 0, set.exerciseName, [.object(row)]))
                    }
                    counted[exercise.key, default: 0] += 1
                    continue
                }
                let number = (numbers[exercise.id] ?? 0) + 1
                if number > 200 {
                    skipped.append(SkippedRow(line: set.line, reason: "more than 200 sets of one exercise in one workout")); continue
                }
                numbers[exercise.id] = number
                if !exerciseOrder.contains(exercise.id) { exerciseOrder.append(exercise.id) }
                if let label = set.superset {
                    if let index = supersets.firstIndex(where: { $0.label == label }) {
                        if !supersets[index].exercises.contains(exercise.id) { supersets[index].exercises.append(exercise.id) }
                    } else {
                        supersets.append((label, [exercise.id], set.line))
                    }
                }
                var rpe: JSONValue?, sourceRPE: JSONValue?
                if let given = set.rpe {
                    if given >= 6, given <= 10, (given * 2).rounded() == given * 2 { rpe = .number(given) }
                    else {
                        warnings.append(SkippedRow(line: set.line, reason: "RPE \(format(given)) kept as source_rpe only (the journal's rpe is 6–10 in steps of 0.5)"))
                        if given >= 0, given <= 100 { sourceRPE = .number(given) }
                    }
                }
                if outOfRange != nil {
                    warnings.append(SkippedRow(line: set.line, reason: "kept beyond the sanity limits (--keep-out-of-range): \(format(set.weight)) \(set.unit.rawValue) × \(set.reps)"))
                }
                // After the set, what the app wrote, so an export to its layout gives the rows back (INTERCHANGE.md
                // §"Names given back").
                sets.append(EventDraft(.setCompleted, at: start, [
                    .workout: .string(id), .exercise: .string(exercise.id), .set: .int(number), .weight: .number(set.weight),
                    .unit: .string(set.unit.rawValue), .reps: .int(set.reps), .kind: .string(set.kind),
                    .rpe: rpe, .sourceRpe: sourceRPE, .note: set.note.map { .string(truncate($0, 4000)) },
                    .source: .string(app), .sourceName: .string(truncate(set.exerciseName, 200)),
                    .sourceSet: set.sourceSet.map { .string(truncate($0, 16)) },
                    .sourceSeconds: set.seconds.map { .number(min(EventVocabulary.maximumSourceSeconds, $0)) },
                    .sourceKm: set.kilometres.map { .number(min(EventVocabulary.maximumSourceKilometres, $0)) },
                    .sourceCategory: set.category.map { .string(truncate($0, 64)) },
                    .sourceNegative: set.negativeWeight ? .bool(true) : nil,
                    .outOfRange: outOfRange != nil ? .bool(true) : nil,
                ]))
                if set.negativeWeight { helpRows[set.exerciseName, default: []].append(set) }
                counted[exercise.key, default: 0] += 1
            }
            if sets.isEmpty && cardio.isEmpty {
                skipped.append(SkippedRow(line: workout.firstLine, reason: "workout \"\(workout.name)\" of \(workout.start) has no set to import, so it is left out"))
                continue
            }
            for (name, count) in counted { setCounts[name, default: 0] += count }
            drafts += created
            // Strong 6.x's layout and the old semicolon one are given back to Strong so (`ImportedRows.layout(of:)`).
            drafts.append(EventDraft(.workoutStarted, at: start, [
                .workout: .string(id), .name: workout.name.isEmpty ? "Workout" : .string(truncate(workout.name, 200)), .session: .null,
                .startedAt: startedAt, .source: .string(app),
                .sourceLayout: export.layout == .strong6 ? .string(ImportedRows.strong6Layout)
                    : export.layout == .strongSemicolon ? .string(ImportedRows.strongSemicolonLayout) : nil,
            ]))
            for note in workout.notes {
                drafts.append(EventDraft(.workoutNoted, at: start, [.workout: .string(id), .note: .string(truncate(note, 4000))]))
            }
            drafts += sets
            // A superset is linked when its exercises are adjacent in the workout and in no other superset, as the
            // recording rules require; else it is left out with a warning.
            var linked: Set<String> = []
            for superset in supersets where superset.exercises.count >= 2 {
                let positions = superset.exercises.compactMap { exerciseOrder.firstIndex(of: $0) }.sorted()
                let shared = supersets.contains { $0.label != superset.label && !Set($0.exercises).isDisjoint(with: superset.exercises) }
                guard superset.exercises.count <= 10, superset.label.utf8.count <= 24, !superset.label.contains("\n"), !shared,
                      positions.last! - positions.first! + 1 == positions.count, linked.isDisjoint(with: superset.exercises) else {
                    warnings.append(SkippedRow(line: superset.line, reason: "superset \(superset.label) not kept: its exercises are not next to each other, "
                        + "or one of them is in another superset of the workout"))
                    continue
                }
                linked.formUnion(superset.exercises)
                drafts.append(EventDraft(.supersetLinked, at: start, [
                    .workout: .string(id), .group: .string(ImportPlanner.supersetGroup(workout: id, label: superset.label)),
                    .exercises: .array(superset.exercises.map(JSONValue.string)),
                ]))
            }
            for entry in workout.exerciseNotes {
                drafts.append(EventDraft(.exerciseNoted, at: start, [
                    .workout: .string(id), .exercise: .string(resolve(entry.name).id), .note: .string(truncate(entry.note, 4000)),
                ]))
            }
            for entry in cardio {
                drafts.append(EventDraft(.cardioLogged, at: start, [
                    .workout: .string(id), .exercise: .string(entry.exercise), .minutes: .number(min(1440, entry.seconds / 60)),
                    .km: entry.km > 0 ? .number(min(1000, entry.km)) : nil,
                    .source: .string(app), .sourceName: .string(truncate(entry.name, 200)), .sourceRows: .array(Array(entry.rows.prefix(200))),
                ]))
            }
            drafts.append(EventDraft(.workoutFinished, at: finish, [.workout: .string(id), .finishedAt: .string(finish.rfc3339)]))
            imported += 1
            setTotal += sets.count
            cardioTotal += cardio.count
            let day = finish.localDay
            if first == nil || day < first!.day { first = LocalDate(day: day) }
            if last == nil || day > last!.day { last = LocalDate(day: day) }
        }
        warnHelp()
        // Links the journal already holds (`exercise.linked`, folded by the ledger): where custom names will count.
        var links = Ledger(asOf: Ledger.everything)
        for event in existing where event.knownType == .exerciseLinked || event.knownType == .dataCleared { links.apply(event) }
        var matched: [ImportSummary.MatchedName] = [], unmatched: [ImportSummary.MatchedName] = []
        for name in order.sorted(by: { $0.lowercased() < $1.lowercased() }) {
            guard let result = resolved[name] else { continue }
            let entry = ImportSummary.MatchedName(name: Resolution.shown(name), exercise: result.id, confidence: result.confidence, sets: setCounts[name] ?? 0,
                                                  candidates: result.candidates, linkedTo: links.exerciseLinks?[result.id])
            if result.custom { unmatched.append(entry) } else { matched.append(entry) }
        }
        let summary = ImportSummary(file: file, layout: export.layout, rows: export.rowCount, workouts: imported, sets: setTotal,
                                    cardioEntries: cardioTotal, alreadyPresent: present, firstDate: first, lastDate: last,
                                    matched: matched, unmatched: unmatched, skipped: skipped.sorted { $0.line < $1.line }, repaired: export.repaired, warnings: warnings,
                                    assumedUnit: export.assumedUnit, assumedUnitReason: export.assumedUnitReason, offset: ImportSummary.offsetText(offsetSeconds),
                                    assumedTime: export.layout == .fitnotes ? "12:00" : nil)
        return ImportPlan(drafts: drafts, summary: summary)
    }
}

/// Where an imported name's rows are filed (`ImportPlanner.plan`'s `resolve`).
struct Resolution {
    var id: String
    var confidence: Double
    var custom: Bool
    var candidates: [NameMatch]
    /// The name a custom exercise is created with, and whether it is created assisted.
    var created: String
    var assisted: Bool
    /// The summary's entry: the name, or `helpKey(name)` for its negative-weight rows filed apart.
    var key: String

    /// A name's rows with a negative weight filed apart from its other rows; `shown` prints it.
    static func helpKey(_ name: String) -> String { name + "\u{0}" }
    static func shown(_ key: String) -> String { key.hasSuffix("\u{0}") ? "\(key.dropLast()) (negative weights: assistance)" : key }
}

func truncate(_ text: String, _ bytes: Int) -> String {
    if text.utf8.count <= bytes { return text }
    var cut = text
    while cut.utf8.count > bytes { cut.removeLast() }
    return cut
}

/// `82.5`, `80`: shortest decimal text.
func format(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    var text = String(format: "%.3f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}

import Foundation
