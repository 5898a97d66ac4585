import ArgumentParser
import WorkoutJournalSync
import Foundation

struct OnboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onboard",
        abstract: "Record questionnaire answers and the programme a rule set generates from them.",
        discussion: """
        Appends, in one all-or-nothing write: questionnaire.answered for every answer, questionnaire.completed, \
        then programme.generated with the rule set's name and version. A journal that already has answers or a \
        programme gets a programme.reset first (retaking the questionnaire). The equipment inventory the journal \
        records (equipment.updated) counts besides the equipment answer (DOMAIN.md §4.5). Answers are checked against the rule set \
        first; nothing is written when any is refused. Prints the seq of each event recorded. With --dry-run, \
        prints the event drafts (one JSON object per line) and writes nothing.
        """
    )

    @Argument(help: "The journal file (created when it does not exist).") var file: String
    @Option(help: "The rule set: train, train-ai or templates.") var ruleset: String
    @Option(help: "A JSON file holding an object of answers.") var answers: String
    @Option(help: "Device tag for the ids this writer assigns.") var device: String = "cli"
    @Flag(help: "Print the events instead of recording them.") var dryRun = false

    func validate() throws {
        guard ProgrammeGenerator.ruleSets[ruleset] != nil else {
            throw ValidationError("--ruleset \"\(ruleset)\" is not a rule set (known: \(ProgrammeGenerator.ruleSetNames.joined(separator: ", ")))")
        }
        guard EventID.isValidDeviceTag(device) else {
            throw ValidationError("--device \"\(device)\" must be 1–16 characters of a-z, 0-9 and _")
        }
        _ = try AnswersFile.read(answers)
    }

    func run() throws {
        try reportingFailures {
            let today = LocalDate(day: SystemClock.now().localDay)
            let drafts: [JSONValue]
            do {
                drafts = try UserJournal.onboardingDrafts(journal: file, ruleset: ruleset, answers: try AnswersFile.read(answers), on: today)
            } catch let error as ProgrammeError {
                throw Failure(message: "\(answers): \(error.description); nothing was written")
            }
            if dryRun {
                for draft in drafts { print(JSONWriter.string(draft)) }
                return
            }
            let journal = try UserJournal.open(path: file, device: device)
            // A journal this command created stays only if it received the events.
            defer { journal.close(discardingIfEmpty: true) }
            for event in try journal.record(batch: drafts) { print(event.seq) }
        }
    }
}
