import ArgumentParser
import Foundation
import WorkoutJournalSync

struct ProgrammeGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Print the programme a rule set makes from a file of answers.",
        discussion: """
        The answers file is one JSON object, question → answer, with the keys of questionnaire.answered: \
        primary_goal, experience, priority_muscles, equipment, injuries, days_per_week, session_minutes, \
        motivations, age, gender, height, weight, birth_date (and template for the templates rule set). \
        Rule sets: \(ProgrammeGenerator.ruleSetNames.joined(separator: ", ")). See DOMAIN.md.
        """
    )

    @Option(help: "The rule set: train, train-ai or templates.") var ruleset: String
    @Option(help: "A JSON file holding an object of answers.") var answers: String
    @Option(help: "A journal whose recorded equipment inventory (equipment.updated) the programme uses besides the answers.") var journal: String?
    @Flag(help: "Print the programme.generated payload (ruleset, ruleset_version, programme) as JSON.") var json = false

    func validate() throws {
        guard ProgrammeGenerator.ruleSets[ruleset] != nil else {
            throw ValidationError("--ruleset \"\(ruleset)\" is not a rule set (known: \(ProgrammeGenerator.ruleSetNames.joined(separator: ", ")))")
        }
        _ = try AnswersFile.read(answers)
    }

    func run() throws {
        try reportingFailures {
            let programme: Programme
            let inventory = try journal.flatMap { EquipmentInventory.recorded(in: Ledger(events: try JournalLoader.events(path: $0), asOf: Ledger.everything)) }
            do {
                programme = try ProgrammeGenerator.generate(ruleset: ruleset, answers: try AnswersFile.read(answers),
                                                            asOf: LocalDate(day: SystemClock.now().localDay), inventory: inventory)
            } catch let error as ProgrammeError {
                throw Failure(message: "\(answers): \(error.description)")
            }
            if json {
                print(JSONWriter.string(.object(programme.eventFields)))
            } else {
                for line in programme.lines() { print(line) }
            }
        }
    }
}

/// Reads `--answers FILE.json`: a JSON object of question → answer. Errors are usage errors quoting the path.
enum AnswersFile {
    static func read(_ path: String) throws -> [String: JSONValue] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--answers \"\(path)\" cannot be read (no such file or not readable)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse([UInt8](data))
        } catch {
            throw ValidationError("--answers \"\(path)\" is not JSON: \(error.description)")
        }
        guard let object = value.objectValue else {
            throw ValidationError("--answers \"\(path)\" must hold a JSON object of question → answer, found \(value.kindName)")
        }
        var answers: [String: JSONValue] = [:]
        for field in object { answers[field.key] = field.value }
        return answers
    }
}
