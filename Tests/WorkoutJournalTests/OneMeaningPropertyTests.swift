import Foundation
import JournalEvents
import JournalInterchange
import JournalModel
import JournalProjections
import JournalSimulator
import JournalStore
import JournalTesting
import Testing
import WorkoutJournal

/// One stream, one truth. Simulated journals with history edits (also in the other unit),
/// deleted sets and workouts, swaps, backdated workouts, warm-ups re-kinded, display-unit changes and `data.cleared`,
/// read at random as-of points: the replay summary, history, progress (ALL), the calendar, the exercise histories,
/// the records, the HTML report and every export agree on workouts, sets and volume, and every view is the same
/// bytes with and without `<journal>.snapshot`.
@Suite("One meaning: every view agrees with the replay summary, with and without snapshots")
struct OneMeaningPropertyTests {
    static let seeds: [UInt64] = Array(1...12)
    /// The seeds the views-agree campaign folds in CI (each is a whole journal's every view at four times): 6 of the 12;
    /// all with `JOURNAL_CAMPAIGNS=full`.
    static let viewSeeds: [UInt64] = Array(seeds.prefix(CampaignSize.ci(6, full: seeds.count)))
    let path = "/journals/lifter.journal"

    /// The simulator's drafts with extra history: after some finished workouts a set edited (sometimes in the other
    /// unit, sometimes to a warm-up), a set removed, or the workout deleted; now and then the display unit flips;
    /// once in a while everything is cleared. Each draft goes through the recording rules; the few they refuse
    /// (an edit racing a deletion) are dropped, so the journal is one an app could have written.
    /// The model's totals of `events`, with the views' volume rule (assisted exercises add none).
    static func totals(_ events: [Event]) -> WorkoutTotals {
        let ledger = Ledger(events: events, asOf: Ledger.everything)
        return ledger.totals(countingVolumeOf: ledger.addsVolume)
    }

    static func events(seed: UInt64) -> [Event] {
        let profile = ["ppl", "upper-lower-lb", "full-body"][Int(seed % 3)]
        let simulator = Simulator(seed: seed, weeks: 5 + Int(seed % 4), profile: SimulationProfile.named(profile)!,
                                  start: LocalDate(iso: "2025-01-06")!)
        var random = SplitMix64(seed: seed &* 7919)
        var drafts: [JSONValue] = []
        var sets: [String: [(exercise: String, set: Int)]] = [:]
        var cleared = false
        for draft in simulator.batches().joined() {
            drafts.append(draft)
            guard let object = draft.objectValue, let type = object["type"]?.stringValue else { continue }
            let workout = object["workout"]?.stringValue ?? ""
            if type == "set.completed", let exercise = object["exercise"]?.stringValue, let number = object["set"]?.intValue {
                sets[workout, default: []].append((exercise, number))
            }
            guard type == "workout.finished", let at = object["at"]?.stringValue.flatMap(Timestamp.init(rfc3339:)),
                  let done = sets[workout], !done.isEmpty else { continue }
            func later(_ seconds: Int64, _ type: String, _ fields: JSONObject) -> JSONValue {
                var extra = fields
                extra["type"] = .string(type)
                extra["at"] = .string(at.adding(milliseconds: seconds * 1000).rfc3339)
                return .object(extra)
            }
            let target = done[random.int(0...done.count - 1)]
            let key: JSONObject = ["workout": .string(workout), "exercise": .string(target.exercise), "set": .int(target.set)]
            switch random.int(0...19) {
            case 0, 1:   // a correction in the other unit
                var fields = key
                fields["weight"] = .number(Double(random.int(20...200)) / 2)
                fields["unit"] = .string(random.chance(0.5) ? "lb" : "kg")
                fields["reps"] = .int(random.int(3...12))
                drafts.append(later(60, "set.edited", fields))
            case 2:      // re-kinded as a warm-up
                var fields = key
                fields["kind"] = "warmup"
                drafts.append(later(90, "set.edited", fields))
            case 3:
                drafts.append(later(120, "set.removed", key))
            case 4:
                drafts.append(later(150, "workout.deleted", ["workout": .string(workout)]))
            case 5:
                drafts.append(later(180, "profile.updated", ["unit": .string(random.chance(0.5) ? "lb" : "kg")]))
            case 6 where !cleared && random.chance(0.3):
                cleared = true
                drafts.append(later(200, "data.cleared", [:]))
            default:
                break
            }
        }
        var rules = RecordingRules()
        var events: [Event] = []
        let now = Timestamp(rfc3339: "2025-01-06T08:00:00.000Z")!
        for draft in drafts {
            guard case .success(let event) = rules.prepare(draft, device: "sim", now: now) else { continue }
            rules.apply(event)
            events.append(event)
        }
        return events
    }

    /// The journal in memory, written in batches with sealed frames and an unsealed tail, as a writer leaves it.
    func storage(_ events: [Event], random: inout SplitMix64) throws -> MemoryStorage {
        let storage = MemoryStorage()
        let writer = try JournalWriter(path: path, storage: storage, options: JournalWriter.Options())
        defer { writer.close() }
        let lines = events.map { Array(EventCodec.encodeString($0).utf8) }
        var index = 0
        while index < lines.count {
            let end = min(lines.count, index + random.int(1...40))
            try writer.append(Array(lines[index..<end]))
            index = end
            if random.int(0...2) == 0 || writer.tailRecordCount >= 48 { try writer.seal() }
        }
        return storage
    }

    /// Every view a reader can print, as bytes: all projections, the summary, every month's calendar, the HTML report
    /// and the Strong and Hevy exports.
    static func views(_ read: JournalRead) -> String {
        let analysis = Analysis(read.ledger, context: .trainingDomain)
        let s = read.summary
        var out = JSONWriter.string(AllProjections(analysis).jsonValue)
        out += "\n\(s.events) \(s.unknownEvents) \(s.lastSeq) \(s.workoutsFinished) \(s.workoutsDiscarded) \(s.workingSets) \(s.warmupSets) \(s.volumeKg.bitPattern)"
        for month in Set(analysis.finished.map { LocalDate(day: $0.day).components.year * 12 + LocalDate(day: $0.day).components.month - 1 }).sorted() {
            let calendar = CalendarMonth(analysis, year: month / 12, month: month % 12 + 1)
            out += "\n" + JSONWriter.string(calendar.jsonValue)
        }
        out += "\n" + HTMLReport.render(analysis, title: "lifter")
        out += Exporters.strongCSV(analysis, unit: .kg) + Exporters.hevyCSV(analysis, unit: .lb)
        return out
    }

    /// The views agree with the summary on workouts, sets and volume.
    static func checkAgreement(_ read: JournalRead, events: [Event], asOf: Timestamp, label: String) throws {
        let analysis = Analysis(read.ledger, context: .trainingDomain)
        let summary = read.summary
        let totals = WorkoutTotals(summary)

        // History: one row per finished workout, its sets and volume.
        let history = HistoryState(analysis)
        #expect(history.total == summary.workoutsFinished, "\(label): history")
        #expect(history.workouts.reduce(0) { $0 + $1.setCount } == summary.workingSets, "\(label): history sets")
        for (row, workout) in zip(history.workouts, analysis.finished.reversed()) {
            #expect(row.workout == workout.id && row.volumeKilograms == Rounding.kilograms(workout.workingVolumeKilograms), "\(label): \(row.workout)")
        }
        let historyVolume = history.workouts.reduce(0.0) { $0 + $1.volumeKilograms }
        #expect(abs(historyVolume - summary.volumeKg) <= 0.0005 * Double(max(1, history.total)), "\(label): history volume \(historyVolume) vs \(summary.volumeKg)")

        // Progress over everything up to T.
        let progress = ProgressState(analysis, range: .all)
        let finishedByT = analysis.finished.filter { $0.day <= asOf.localDay }
        #expect(progress.workouts == finishedByT.count, "\(label): progress workouts")
        if finishedByT.count == summary.workoutsFinished {
            #expect(abs(progress.totalVolumeKilograms - summary.volumeKg) <= 0.001, "\(label): progress volume \(progress.totalVolumeKilograms) vs \(summary.volumeKg)")
        }

        // The calendar: every finished workout on its day.
        var calendarWorkouts = 0
        for month in Set(analysis.finished.map { LocalDate(day: $0.day).components.year * 12 + LocalDate(day: $0.day).components.month - 1 }) {
            calendarWorkouts += CalendarMonth(analysis, year: month / 12, month: month % 12 + 1).days.reduce(0) { $0 + $1.workouts.count }
        }
        #expect(calendarWorkouts == summary.workoutsFinished, "\(label): calendar")

        // Exercise histories: their sessions' working sets and volume add up to the workouts'.
        var exerciseSets = 0, exerciseVolume = 0.0, sessions = 0
        for id in analysis.sessionIndices.keys {
            let view = ExerciseHistoryState(analysis, exercise: id)
            sessions += view.sessions.count
            for session in view.sessions {
                exerciseSets += session.sets.filter { $0.kind.isWorking }.count
                exerciseVolume += session.volumeKilograms
            }
        }
        #expect(exerciseSets == summary.workingSets, "\(label): exercise history sets \(exerciseSets) vs \(summary.workingSets)")
        #expect(abs(exerciseVolume - summary.volumeKg) <= 0.0005 * Double(max(1, sessions)), "\(label): exercise history volume")

        // Records: only of finished workouts, as many as progress counts.
        let finishedIDs = Set(analysis.finished.map(\.id))
        #expect(analysis.records.allSatisfy { finishedIDs.contains($0.workout) }, "\(label): records")
        #expect(progress.recordCount == analysis.records.filter { record in finishedByT.contains { $0.id == record.workout } }.count, "\(label): record count")

        // The HTML report's headline: the same workouts and total volume.
        let html = HTMLReport.render(analysis, title: "lifter")
        #expect(html.contains("<div class=\"stat\"><b>\(summary.workoutsFinished)</b><span>workouts</span></div>"), "\(label): report workouts")
        #expect(html.contains("· \(summary.workoutsFinished) workouts</p>"), "\(label): report subtitle")

        // Strong's layout: one row per completed set (working numbered, warm-ups W) and cardio entry.
        let strong = Exporters.strongCSV(analysis, unit: .kg).split(separator: "\n").dropFirst()
        var strongSets = 0, strongWarmups = 0, strongVolume = 0.0, strongReps = 0
        for line in strong {
            let cells = splitCSV(String(line))
            guard cells.count == 12, cells[7] == "0", cells[8] == "0" else { continue }   // cardio rows carry distance/seconds
            if cells[4] == "W" { strongWarmups += 1; continue }
            strongSets += 1
            let reps = Int(cells[6]) ?? 0
            strongReps += reps
            strongVolume += (Double(cells[5]) ?? 0) * Double(reps)
        }
        let cardioRows = analysis.finished.reduce(0) { total, workout in
            total + workout.cardio.filter { workout.performedExercises.contains($0.exercise) }.count
        }
        #expect(strong.count == summary.workingSets + summary.warmupSets + cardioRows, "\(label): strong rows")
        #expect(strongSets == summary.workingSets && strongWarmups == summary.warmupSets, "\(label): strong sets")
        #expect(abs(strongVolume - summary.volumeKg) <= 0.0005 * Double(max(1, strongReps)), "\(label): strong volume \(strongVolume) vs \(summary.volumeKg)")

        // Hevy's layout in pounds: the same sets.
        let hevy = Exporters.hevyCSV(analysis, unit: .lb).split(separator: "\n").dropFirst()
        #expect(hevy.count == strong.count, "\(label): hevy rows")
        #expect(hevy.filter { $0.contains(",\"warmup\",") }.count == summary.warmupSets, "\(label): hevy warm-ups")

        // The logger's planned working rows weigh the Target line's weight (PROJECTIONS.md §"Active workout").
        if let active = ActiveWorkoutState(analysis) {
            for exercise in active.exercises {
                guard let target = exercise.nextTarget else { continue }
                for row in exercise.rows where row.kind == .working && !row.completed && ![.entered, .propagated, .previousSet].contains(row.source) {
                    #expect(row.weight == target.weight && row.source == .target, "\(label): \(exercise.exercise) row \(row.set) \(row.weight ?? -1) vs target \(target.weight)")
                }
            }
            // A barbell warm-up is loaded on the bar its rows are loaded on (DOMAIN.md §6).
            for exercise in active.exercises {
                guard let warmup = exercise.warmup?.plates else { continue }
                #expect(exercise.rows.compactMap(\.plates).allSatisfy { $0.barWeight == warmup.barWeight }, "\(label): \(exercise.exercise) warm-up bar")
            }
        }

        // While a programme runs, a week below its target always has a next workout to start (PROJECTIONS.md §"The week").
        let home = HomeState(analysis)
        if let programme = home.programme, !programme.finished, analysis.ledger.programme?.sessions.isEmpty == false,
           let target = home.week.target, home.week.completed < target {
            #expect(home.nextWorkout != nil, "\(label): \(home.week.completed) of \(target) this week and no next workout")
        }
        // The month calendar schedules the days of this week as the home page's week does.
        let month = CalendarMonth(analysis)
        for day in home.week.calendar where day.date.components.month == month.month && day.date.components.year == month.year {
            #expect((month.scheduled.first { $0.date == day.date }?.names ?? []) == day.scheduled, "\(label): \(day.date) scheduled")
        }

        // JSON and JSONL exports are the events: folded again, they give the same totals.
        let exported = Exporters.jsonl(events).split(separator: "\n").map { try! EventCodec.decode(Array($0.utf8)) }
        let refolded = Ledger(events: exported, asOf: asOf)
        #expect(refolded.totals(countingVolumeOf: refolded.addsVolume) == totals, "\(label): jsonl export")
    }

    /// Cells of one CSV line (quotes doubled inside quoted cells).
    static func splitCSV(_ line: String) -> [String] {
        var cells: [String] = [], cell = "", quoted = false, previousQuote = false
        for character in line {
            if character == "\"" {
                if quoted { quoted = false; previousQuote = true; continue }
                if previousQuote { cell.append("\"") }
                quoted = true; previousQuote = false; continue
            }
            previousQuote = false
            if character == "," && !quoted { cells.append(cell); cell = "" } else { cell.append(character) }
        }
        cells.append(cell)
        return cells
    }

    @Test("five minutes into a later workout of each simulated journal, the planned working rows weigh the Target line's weight")
    func rowsAgreeWithTargets() throws {
        var seedsWithTargets = 0
        for seed in Self.seeds {
            let events = Self.events(seed: seed)
            let starts = events.filter { $0.type == "workout.started" }
            let inside = starts[starts.count * 2 / 3].at.adding(milliseconds: 300_000)
            let upToT = events.filter { $0.at.epochMilliseconds <= inside.epochMilliseconds }
            let analysis = Analysis(Ledger(events: upToT, asOf: inside), context: .trainingDomain)
            guard let active = ActiveWorkoutState(analysis) else { continue }
            var checked = false
            for exercise in active.exercises {
                guard let target = exercise.nextTarget else { continue }
                for row in exercise.rows where row.kind == .working && !row.completed && ![.entered, .propagated, .previousSet].contains(row.source) {
                    #expect(row.weight == target.weight && row.source == .target, "seed \(seed): \(exercise.exercise) row \(row.set)")
                    checked = true
                }
            }
            if checked { seedsWithTargets += 1 }
        }
        // In the other three no workout is open at that point, or none of its exercises has a target yet.
        #expect(seedsWithTargets == 9)
    }

    @Test("at random points of each simulated journal, an active programme whose week's target is unmet always offers a next workout")
    func nextWorkoutWhileTheWeekIsUnmet() throws {
        var checked = 0
        for seed in Self.seeds {
            let events = Self.events(seed: seed)
            var random = SplitMix64(seed: seed &+ 101)
            let first = events.first!.at.epochMilliseconds, last = events.last!.at.epochMilliseconds
            for _ in 0..<8 {
                let asOf = Timestamp(epochMilliseconds: first + Int64(random.int(0...1_000_000)) * (last - first) / 1_000_000, offsetSeconds: 3600)
                let upToT = events.filter { $0.at.epochMilliseconds <= asOf.epochMilliseconds }
                let home = HomeState(Analysis(Ledger(events: upToT, asOf: asOf), context: .trainingDomain))
                guard let programme = home.programme, !programme.finished, let target = home.week.target, home.week.completed < target else { continue }
                #expect(home.nextWorkout != nil, "seed \(seed) as of \(asOf.rfc3339): \(home.week.completed) of \(target) this week and nothing to start")
                checked += 1
            }
        }
        // Of the 96 points, the other 22 fall before a programme, after a clear, or in a week already met.
        #expect(checked == 74, "\(checked) points checked")
    }

    @Test("simulated journals with edits, deletions, swaps, backdating, unit changes, warm-ups and data.cleared: the views agree, and the home page is the same with and without its snapshot",
          arguments: viewSeeds)
    func viewsAgree(_ seed: UInt64) throws {
        let events = Self.events(seed: seed)
        let types = Set(events.map(\.type))
        #expect(types.isSuperset(of: ["set.edited", "workout.finished", "exercise.swapped", "warmup.started", "set.completed"]), "seed \(seed)")
        var random = SplitMix64(seed: seed)
        let storage = try storage(events, random: &random)
        let now = events.last!.at.adding(milliseconds: 86_400_000)
        let first = events.first!.at.epochMilliseconds, last = events.last!.at.epochMilliseconds
        // Random as-of points inside the journal, then the default (now).
        var points: [Timestamp?] = (0..<3).map { _ in
            Timestamp(epochMilliseconds: first + Int64(random.int(0...1_000_000)) * (last - first) / 1_000_000, offsetSeconds: 3600)
        }
        points.append(nil)
        for asOf in points {
            let label = "seed \(seed) as of \(asOf?.rfc3339 ?? "now")"
            let full = try JournalRead.read(path: path, storage: storage, asOf: asOf, untilSeq: nil, now: now)
            // The one snapshot left is the home page's: the page from it (written by the first read, used by the
            // second) is byte for byte the page without it.
            let plain = try HomePage.read(path: path, storage: storage, asOf: asOf, now: now, context: .trainingDomain, useSnapshot: false)
            for _ in 0..<2 {
                let cached = try HomePage.read(path: path, storage: storage, asOf: asOf, now: now, context: .trainingDomain)
                #expect(JSONWriter.string(cached.home.jsonValue) == JSONWriter.string(plain.home.jsonValue), "\(label): home with and without its snapshot")
            }
            let upToT = events.filter { $0.at.epochMilliseconds <= (asOf ?? now).epochMilliseconds }
            #expect(full.summary.events == upToT.count, "\(label): the summary counts exactly the events up to T")
            #expect(full.summary.totals == Self.totals(upToT), "\(label): the summary folds exactly the events up to T")
            try Self.checkAgreement(full, events: events, asOf: asOf ?? now, label: label)
        }
        // A clock behind the journal's last events: the default T (now) leaves the later ones out of every number.
        let early = Timestamp(epochMilliseconds: (first + last) / 2, offsetSeconds: 0)
        let behind = try JournalRead.read(path: path, storage: storage, asOf: nil, untilSeq: nil, now: early)
        let beforeNow = events.filter { $0.at.epochMilliseconds <= early.epochMilliseconds }
        #expect(behind.summary.events == beforeNow.count && behind.summary.lastSeq == beforeNow.last?.seq ?? 0, "seed \(seed): now behind")
        #expect(behind.summary.totals == Self.totals(beforeNow))
        // Up to a seq: the summary is the model's of exactly those events.
        let untilSeq = random.int(1...events.count)
        let limited = try JournalRead.read(path: path, storage: storage, asOf: nil, untilSeq: untilSeq, now: now)
        #expect(limited.summary.totals == Self.totals(Array(events.prefix(untilSeq))))
        #expect(limited.summary.lastSeq == untilSeq)
    }

    @Test("the generated journals really hold every kind of history the property is about")
    func generatorCoversTheCases() {
        var types: Set<String> = []
        var lbEdits = 0, warmupEdits = 0, backdated = 0
        for seed in Self.seeds {
            let events = Self.events(seed: seed)
            types.formUnion(events.map(\.type))
            lbEdits += events.filter { $0.type == "set.edited" && $0.string("unit") == "lb" }.count
            warmupEdits += events.filter { $0.type == "set.edited" && $0.string("kind") == "warmup" }.count
            backdated += events.filter { $0.type == "workout.started" && $0.string("started_at") != nil }.count
        }
        for type in ["set.edited", "set.removed", "workout.deleted", "exercise.swapped", "profile.updated", "data.cleared",
                     "warmup.started", "warmup.skipped", "workout.discarded", "set.uncompleted", "workout.edited"] {
            #expect(types.contains(type), "no \(type) in any generated journal")
        }
        #expect(lbEdits > 0 && warmupEdits > 0 && backdated > 0)
    }
}

extension WorkoutTotals {
    init(_ summary: ReplaySummary) { self = summary.totals }
}
