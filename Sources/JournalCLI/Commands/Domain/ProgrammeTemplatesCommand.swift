import ArgumentParser
import WorkoutJournalSync

/// `journal programme templates`: the built-in templates of the `templates` rule set (seed 002's Routines tab).
struct ProgrammeTemplatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: "List the built-in programme templates (Starting Strength, 5/3/1, PPL, …) in rank order.",
        discussion: """
        Each line gives the template id (the answer `template` of `programme generate --ruleset templates`), its \
        name, level, days a week, weeks and sessions, then its summary. See DOMAIN.md §4.2.
        """
    )

    @Flag(help: "Print a JSON array of the templates.") var json = false

    func run() throws {
        let templates = ProgrammeGenerator.templates
        if json {
            print(JSONWriter.string(.array(templates.map(\.jsonValue))))
        } else {
            for template in templates { for line in template.lines { print(line) } }
            print("\(templates.count) templates")
        }
    }
}
