import ArgumentParser
import WorkoutJournalSync

struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Profile, plan, programme, settings and favourites.")

    @OptionGroup var options: ViewOptions

    func run() throws {
        try reportingFailures {
            let analysis = try options.analysis()
            let view = ProfileState(analysis)
            options.emit(view) {
                var lines = [view.name ?? "(no name)"]
                if let email = view.email { lines.append(email) }
                if let since = view.memberSince {
                    let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
                    lines.append("Member since \(months[since.components.month - 1]) \(since.components.year)")
                }
                lines.append("Unit: \(view.unit.rawValue)" + (view.bodyWeight.map { " · body weight \(Text.number($0.value)) \($0.unit)" } ?? ""))
                if let s = view.subscription {
                    lines.append("Plan: \(s.plan) (\(view.subscriptionStatus ?? "active"))" + (s.nextBillingDate.map { " · next billing \($0)" } ?? ""))
                }
                if let p = view.programme { lines.append("Programme: \(p.split) · \(p.daysPerWeek) days/week · \(p.weeks) weeks") }
                if !view.favourites.isEmpty { lines.append("Favourites: " + view.favourites.map(analysis.exerciseName).joined(separator: ", ")) }
                for setting in view.settings { lines.append("\(setting.key): \(JSONWriter.string(setting.value))") }
                for export in view.exports {
                    let size = [export.events.map { "\($0) events" }, export.workouts.map { "\($0) workouts" }].compactMap { $0 }.joined(separator: ", ")
                    lines.append("Exported \(export.at.rfc3339): \(export.format)" + (size.isEmpty ? "" : " (\(size))") + (export.destination.map { " to \($0)" } ?? ""))
                }
                if !view.exerciseRest.isEmpty {
                    lines.append("Rest: " + view.exerciseRest.map { "\(analysis.exerciseName($0.exercise)) \($0.seconds == 0 ? "off" : "\($0.seconds)s")" }.joined(separator: ", "))
                }
                if !view.answers.isEmpty {
                    lines.append("Questionnaire: " + view.answers.map { "\($0.key) \(JSONWriter.string($0.value))" }.joined(separator: " · "))
                }
                lines.append("Finished workouts: \(view.workouts)")
                return lines.joined(separator: "\n")
            }
        }
    }
}
