import ArgumentParser
import WorkoutJournalSync
import Foundation

struct ActiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "active", abstract: "The workout in progress: sets, prefill, rep counter, rest timer, warm-up and next target.")

    @OptionGroup var options: ViewOptions

    @Option(help: "An open workout id (default: the latest open workout).")
    var workout: String?

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            guard let view = ActiveWorkoutState(analysis, workout: workout) else {
                print(options.json ? "null" : ActiveWorkoutState.emptyMessage)
                return
            }
            let unit = analysis.unit
            options.emit(view) {
                var lines = ["\(view.name) Workout  \(Text.duration(view.elapsedSeconds))\(view.paused ? " (paused)" : "")  (\(view.sets) sets · \(view.reps) reps · \(Text.kilograms(view.volumeKilograms, unit)))"]
                lines.append("Warm-up: \(view.warmup.state.rawValue)" + (view.warmup.remainingSeconds.map { " (\(Text.duration($0)) left)" } ?? ""))
                if let rest = view.rest {
                    lines.append("Rest (\(rest.exercise)): \(rest.state.rawValue)" + (rest.state == .running ? " \(Text.duration(rest.remainingSeconds)) left" : ""))
                }
                for e in view.exercises {
                    lines.append("")
                    let isCardio = e.prescribedSets == 0 && e.rows.isEmpty && (e.cardio != nil || e.cardioPrefill != nil)
                    var title = isCardio ? "\(e.cardio != nil ? "✓" : "○") \(e.name)  cardio"
                        : "\(e.completed ? "✓" : "○") \(e.name)  \(e.prescribedSets) sets • \(e.reps ?? "–") reps  rest \(e.restSeconds == 0 ? "off" : "\(e.restSeconds)s")"
                    if let group = e.superset { title += "  [superset \(group)]" }
                    if e.repCounter > 0 { title += "  +\(e.repCounter)" }
                    if let feedback = e.feedback { title += "  — \(feedback)" }
                    lines.append(title)
                    for warning in e.injuryWarnings { lines.append("  ⚠ \(warning.message)" + (warning.answer.map { " (\($0))" } ?? "")) }
                    if let warmup = e.warmup {
                        lines.append("  Suggested warm-up set: \(Text.weight(warmup.weight, warmup.unit)) (\(warmup.percent)) • \(warmup.reps) reps"
                                     + (warmup.plates.map { "  [\($0.summary)]" } ?? ""))
                    }
                    if let target = e.nextTarget { lines.append("  Target: \(Text.weight(target.weight, target.unit, assisted: e.assisted))") }
                    if let attachment = e.attachment {
                        lines.append("  Attachment: \(attachment.name)"
                                     + (attachment.owned == false ? " (not in your equipment)" : ""))
                    }
                    if let cardio = e.cardio { lines.append("  ✓ \(Text.number(cardio.minutes)) min" + (cardio.km.map { " • \(Text.number($0)) km" } ?? "")) }
                    else if let prefill = e.cardioPrefill {
                        lines.append("    \(Text.number(prefill.minutes)) min" + (prefill.km.map { " • \(Text.number($0)) km" } ?? "")
                                     + (e.lastCardio == prefill ? "  (last session)" : "  (template)"))
                    }
                    for note in e.notes { lines.append("  Note: \(note)") }
                    for row in e.rows {
                        let kind = row.kind == .working ? "" : " (\(row.kind.rawValue))"
                        let plus = row.plus > 0 ? "  +\(row.plus)" : ""
                        let rpe = row.targetRPE.map { " @ RPE \(Text.number($0))" } ?? ""
                        lines.append("  \(row.completed ? "✓" : " ") \(row.set)  \(Text.weight(row.weight, row.unit, assisted: e.assisted)) • \(row.reps.map(String.init) ?? "–") reps\(rpe)\(kind)\(plus)"
                                     + (row.completed ? "" : row.source == .none ? "" : "  (\(row.source.rawValue.replacingOccurrences(of: "_", with: " ")))")
                                     + (row.plates.map { "  [\($0.summary)]" } ?? ""))
                    }
                }
                if !view.canFinish { lines.append(""); lines.append("Complete a set before finishing.") }
                return lines.joined(separator: "\n")
            }
        }
    }
}
