import ArgumentParser
import WorkoutJournalSync

struct TemplatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates", abstract: "Saved templates, last used first.")

    @OptionGroup var options: ViewOptions

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            let view = TemplatesState(analysis)
            options.emit(view) {
                guard !view.templates.isEmpty else { return "No templates yet." }
                var lines: [String] = []
                for template in view.templates {
                    if !lines.isEmpty { lines.append("") }
                    let used = template.lastUsedAt.map { " · last used \($0)" } ?? ""
                    lines.append("\(template.name) (\(template.template)) · \(template.exercises.count) exercises\(used)")
                    if !template.muscles.isEmpty { lines.append("  " + template.muscles.joined(separator: ", ")) }
                    for e in template.exercises {
                        let superset = e.superset.map { "  [superset \($0)]" } ?? ""
                        var sets = e.setConfigs.isEmpty ? "\(e.sets) × \(e.reps ?? "–")"
                            : e.setConfigs.map { c in (c.kind == .warmup ? "W " : "") + "\(Text.weight(c.weight, c.unit ?? analysis.unit)) × \(c.reps.map(String.init) ?? "–")" }.joined(separator: ", ")
                        if e.minutes != nil || e.km != nil {
                            // Cardio (seed 004): duration and distance instead of sets.
                            sets = [e.minutes.map { "\(Text.number($0)) min" }, e.km.map { "\(Text.number($0)) km" }].compactMap { $0 }.joined(separator: " • ")
                        }
                        let rest = e.restSeconds.map { "  rest \($0)s" } ?? ""
                        lines.append("  \(e.name): \(sets)\(rest)\(superset)")
                        if let note = e.note { lines.append("    Note: \(note)") }
                    }
                }
                return lines.joined(separator: "\n")
            }
        }
    }
}
