import JournalEvents
import JournalModel
import JournalProjections

/// `journal timeline` (INTERCHANGE.md §"Timeline"): every event of one workout in seq order, with the time since
/// the workout started, rest taken against rest planned, skipped rests, gaps, undone sets and anomalies.
///
/// An audit of the raw events, so it lists each one with its own fields; which workouts there are and what may
/// follow a finished workout are the model's and the recording rules' (`Ledger`, `RecordingRules.historyEditTypes`).
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

    /// The workouts a `--date` names: the model's workouts that started on that local day, in journal order.
    public static func workouts(on date: LocalDate, in events: [Event]) -> [String] {
        Ledger(events: events, asOf: Ledger.everything).workouts.filter { $0.startedAt.localDay == date.day }.map(\.id)
    }

    /// The model's latest workout.
    public static func lastWorkout(in events: [Event]) -> String? {
        Ledger(events: events, asOf: Ledger.everything).workouts.last?.id
    }

    /// `isAssisted`: an exercise whose weights are help (`Ledger.isAssisted`), written "25 kg assistance × 8".
    public init?(workout: String, events: [Event], exerciseName: (String) -> String = { $0 }, isAssisted: (String) -> Bool = { _ in false }) {
        let own = events.filter { $0.string(.workout) == workout }
        guard let start = own.first(where: { $0.knownType == .workoutStarted }) else { return nil }
        self.workout = workout
        name = start.string(.name) ?? ""
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
            let exercise = event.string(.exercise).map(exerciseName) ?? ""
            var detail = ""
            switch event.knownType {
            case .workoutStarted?:
                detail = "\"\(name)\"" + (event.string(.source).map { " imported from \($0) (its sets carry the workout's start time)" } ?? "")
                if let startedAt = event.string(.startedAt) { detail += ", started at \(startedAt)" }
            case .workoutFinished?:
                finishedSeq = event.seq
                detail = event.string(.finishedAt).map { "finished at \($0)" } ?? ""
            case .setCompleted?:
                let help = event.string(.exercise).map(isAssisted) == true ? " assistance" : ""
                detail = "\(exercise) set \(event.int(.set) ?? 0): \(Timeline.number(event.double(.weight) ?? 0)) \(event.string(.unit) ?? "")\(help) × \(event.int(.reps) ?? 0)"
                if let kind = event.string(.kind), kind != "working" { detail += " (\(kind))" }
                if event.bool(.edited) == true { detail += ", a correction" }
                if let rest = pendingRest {
                    let taken = event.at.epochMilliseconds - rest.at.epochMilliseconds
                    remarks.append("rest \(Timeline.clock(taken)) taken, \(Timeline.clock(Int64(rest.planned) * 1000)) planned" + (rest.skipped ? " (skipped)" : ""))
                    pendingRest = nil
                } else if let lastSetAt, start.string(.source) == nil {
                    remarks.append("\(Timeline.clock(event.at.epochMilliseconds - lastSetAt.epochMilliseconds)) since the previous set, no rest timer")
                }
                lastSetAt = event.at
            case .setUncompleted?: detail = "\(exercise) set \(event.int(.set) ?? 0)"; remarks.append("undone set")
            case .setRemoved?, .setEdited?, .setRated?, .setNoted?, .setAdded?:
                detail = "\(exercise) set \(event.int(.set) ?? 0)"
            case .restStarted?:
                let seconds = event.int(.seconds) ?? 0
                detail = "\(exercise): \(Timeline.clock(Int64(seconds) * 1000)) planned"
                pendingRest = (event.seq, event.at, seconds, false)
            case .restSkipped?:
                let remaining = event.int(.remainingS) ?? 0
                detail = "\(exercise): \(remaining) s left"
                remarks.append("skipped rest")
                pendingRest?.skipped = true
            case .restAdjusted?:
                detail = "\(exercise): \((event.int(.deltaS) ?? 0) >= 0 ? "+" : "")\(event.int(.deltaS) ?? 0) s"
                if let delta = event.int(.deltaS) { pendingRest?.planned += delta }
            case .exerciseAdded?, .exerciseRemoved?, .exerciseSubmitted?, .restFinished?: detail = exercise
            case .exerciseSwapped?: detail = "\(exerciseName(event.string(.from) ?? "")) → \(exerciseName(event.string(.to) ?? ""))"
            case .cardioLogged?: detail = "\(exercise): \(Timeline.number(event.double(.minutes) ?? 0)) min" + (event.double(.km).map { ", \(Timeline.number($0)) km" } ?? "")
            case .workoutNoted?, .exerciseNoted?: detail = exercise.isEmpty ? "note" : "\(exercise): note"
            default: detail = exercise
            }
            if let finishedSeq, event.seq > finishedSeq {
                // What the recording rules let change a finished workout (a history edit, or a set with "edited": true).
                let allowed = event.knownType.map(RecordingRules.historyEditTypes.contains) ?? false
                    || (event.knownType == .setCompleted && event.bool(.edited) == true)
                if !allowed {
                    remarks.append("anomaly: after the workout finished")
                    anomalies.append("seq \(event.seq) \(event.type) comes after the workout finished (seq \(finishedSeq))")
                }
            }
            entries.append(Entry(seq: event.seq, at: event.at, offsetMilliseconds: event.at.epochMilliseconds - start.at.epochMilliseconds,
                                 type: event.type, detail: detail, remarks: remarks))
            previous = event.at
        }
        if !own.contains(where: { $0.knownType == .workoutFinished || $0.knownType == .workoutDiscarded }) {
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
