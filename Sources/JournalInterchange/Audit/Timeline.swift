import JournalEvents
import JournalProjections

/// `journal timeline` (INTERCHANGE.md §"Timeline"): every event of one workout in seq order, with the time since
/// the workout started, rest taken against rest planned, skipped rests, gaps, undone sets and anomalies.
public struct Timeline: Equatable, Sendable, JSONRepresentable {
    public struct Entry: Equatable, Sendable {
        public var seq: Int
        public var at: Timestamp
        /// Milliseconds since the workout's first event.
        public var offsetMilliseconds: Int64
        public var type: String
        public var detail: String
        /// Remarks: `rest 2:10 taken, 1:30 planned`, `gap of 14 min`, `anomaly: …`.
        public var remarks: [String]
    }
    public var workout: String
    public var name: String
    public var entries: [Entry]
    public var anomalies: [String]

    /// A gap between two events of a workout longer than this is reported.
    public static let gapMilliseconds: Int64 = 10 * 60 * 1000

    static let afterFinishAllowed: Set<String> = [
        "workout.edited", "workout.deleted", "workout.noted", "set.edited", "set.removed", "set.rated", "set.noted",
        "exercise.noted", "exercise.removed", "exercise.added", "cardio.logged",
    ]

    /// The workouts a `--date` names: those with an event on that local day, in order of first event.
    public static func workouts(on date: LocalDate, in events: [Event]) -> [String] {
        var seen: [String] = []
        for event in events where event.type == "workout.started" {
            guard let id = event.string("workout") else { continue }
            let start = event.string("started_at").flatMap(Timestamp.init(rfc3339:)) ?? event.at
            if start.localDay == date.day && !seen.contains(id) { seen.append(id) }
        }
        return seen
    }

    /// The workout of the last `workout.started`.
    public static func lastWorkout(in events: [Event]) -> String? {
        events.last { $0.type == "workout.started" }?.string("workout")
    }

    public init?(workout: String, events: [Event], exerciseName: (String) -> String = { $0 }) {
        let own = events.filter { $0.string("workout") == workout }
        guard let start = own.first(where: { $0.type == "workout.started" }) else { return nil }
        self.workout = workout
        name = start.string("name") ?? ""
        entries = []
        anomalies = []
        var finishedSeq: Int?
        var pendingRest: (seq: Int, at: Timestamp, planned: Int, skipped: Bool)?
        var previous: Timestamp?
        var lastSetAt: Timestamp?
        for event in own {
            var remarks: [String] = []
            if let previous, event.at.epochMilliseconds - previous.epochMilliseconds > Timeline.gapMilliseconds {
                remarks.append("gap of \(Timeline.clock(event.at.epochMilliseconds - previous.epochMilliseconds)) since the previous event")
            }
            if event.at < (previous ?? event.at) { remarks.append("recorded with an earlier time than the previous event") }
            let exercise = event.string("exercise").map(exerciseName) ?? ""
            var detail = ""
            switch event.type {
            case "workout.started":
                detail = "\"\(name)\"" + (event.string("source").map { " imported from \($0) (its sets carry the workout's start time)" } ?? "")
                if let startedAt = event.string("started_at") { detail += ", started at \(startedAt)" }
            case "workout.finished":
                finishedSeq = event.seq
                detail = event.string("finished_at").map { "finished at \($0)" } ?? ""
            case "set.completed":
                detail = "\(exercise) set \(event.int("set") ?? 0): \(Timeline.number(event.double("weight") ?? 0)) \(event.string("unit") ?? "") × \(event.int("reps") ?? 0)"
                if let kind = event.string("kind"), kind != "working" { detail += " (\(kind))" }
                if event.bool("edited") == true { detail += ", a correction" }
                if let rest = pendingRest {
                    let taken = event.at.epochMilliseconds - rest.at.epochMilliseconds
                    remarks.append("rest \(Timeline.clock(taken)) taken, \(Timeline.clock(Int64(rest.planned) * 1000)) planned" + (rest.skipped ? " (skipped)" : ""))
                    pendingRest = nil
                } else if let lastSetAt, start.string("source") == nil {
                    remarks.append("\(Timeline.clock(event.at.epochMilliseconds - lastSetAt.epochMilliseconds)) since the previous set, no rest timer")
                }
                lastSetAt = event.at
            case "set.uncompleted": detail = "\(exercise) set \(event.int("set") ?? 0)"; remarks.append("undone set")
            case "set.removed", "set.edited", "set.rated", "set.noted", "set.added":
                detail = "\(exercise) set \(event.int("set") ?? 0)"
            case "rest.started":
                let seconds = event.int("seconds") ?? 0
                detail = "\(exercise): \(Timeline.clock(Int64(seconds) * 1000)) planned"
                pendingRest = (event.seq, event.at, seconds, false)
            case "rest.skipped":
                let remaining = event.int("remaining_s") ?? 0
                detail = "\(exercise): \(remaining) s left"
                remarks.append("skipped rest")
                pendingRest?.skipped = true
            case "rest.adjusted":
                detail = "\(exercise): \((event.int("delta_s") ?? 0) >= 0 ? "+" : "")\(event.int("delta_s") ?? 0) s"
                if let delta = event.int("delta_s") { pendingRest?.planned += delta }
            case "exercise.added", "exercise.removed", "exercise.submitted", "rest.finished": detail = exercise
            case "exercise.swapped": detail = "\(exerciseName(event.string("from") ?? "")) → \(exerciseName(event.string("to") ?? ""))"
            case "cardio.logged": detail = "\(exercise): \(Timeline.number(event.double("minutes") ?? 0)) min" + (event.double("km").map { ", \(Timeline.number($0)) km" } ?? "")
            case "workout.noted", "exercise.noted": detail = exercise.isEmpty ? "note" : "\(exercise): note"
            default: detail = exercise
            }
            if let finishedSeq, event.seq > finishedSeq {
                if event.type == "set.completed" && event.bool("edited") != true || !(Timeline.afterFinishAllowed.contains(event.type) || event.type == "set.completed") {
                    remarks.append("anomaly: after the workout finished")
                    anomalies.append("seq \(event.seq) \(event.type) comes after the workout finished (seq \(finishedSeq))")
                }
            }
            entries.append(Entry(seq: event.seq, at: event.at, offsetMilliseconds: event.at.epochMilliseconds - start.at.epochMilliseconds,
                                 type: event.type, detail: detail, remarks: remarks))
            previous = event.at
        }
        if !own.contains(where: { ["workout.finished", "workout.discarded"].contains($0.type) }) {
            anomalies.append("the workout was never finished or discarded")
        }
    }

    /// `1:05:03`, `2:10`, negative with a minus.
    public static func clock(_ milliseconds: Int64) -> String {
        let negative = milliseconds < 0
        let seconds = abs(milliseconds) / 1000
        let h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return (negative ? "-" : "") + (h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))")
    }

    static func number(_ value: Double) -> String { format(value) }

    public var text: String {
        var lines = ["workout \(workout) \"\(name)\": \(entries.count) events"]
        for entry in entries {
            let line = "+" + Timeline.clock(entry.offsetMilliseconds).padding(toLength: 8, withPad: " ", startingAt: 0)
                + " #\(entry.seq)".padding(toLength: 8, withPad: " ", startingAt: 0) + entry.type.padding(toLength: 19, withPad: " ", startingAt: 0)
                + " " + entry.detail
            lines.append((line + (entry.remarks.isEmpty ? "" : "   [" + entry.remarks.joined(separator: "; ") + "]")).trimmingCharacters(in: .whitespaces))
        }
        lines.append("anomalies: " + (anomalies.isEmpty ? "none" : ""))
        for anomaly in anomalies { lines.append("  " + anomaly) }
        return lines.joined(separator: "\n")
    }

    public var jsonValue: JSONValue {
        [
            "workout": .string(workout), "name": .string(name),
            "events": .array(entries.map { entry in
                ["seq": .int(entry.seq), "at": .string(entry.at.rfc3339), "offset_s": .int(Int(entry.offsetMilliseconds / 1000)),
                 "type": .string(entry.type), "detail": .string(entry.detail), "remarks": .array(entry.remarks.map { .string($0) })]
            }),
            "anomalies": .array(anomalies.map { .string($0) }),
        ]
    }
}

import Foundation
