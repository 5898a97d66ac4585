import Testing
import JournalEvents
import JournalModel
import TrainingDomain

/// The questionnaire as typed values: each rule set's questions and option lists, and the answer sheet that records
/// the same answers as the hand-written keys and spellings.
@Suite("The questionnaire as typed values")
struct QuestionnaireFormTests {
    @Test("seed 000's rule set: its questions in order, with their kinds and options from the rule set's file")
    func trainForm() throws {
        let form = try Questionnaire.form(ruleset: "train")
        #expect(form.questions.map { "\($0.key.rawValue)\($0.required ? "*" : "")" } == [
            "primary_goal*", "experience*", "days_per_week*", "session_minutes*", "equipment", "priority_muscles", "injuries", "gender", "age",
            "height", "weight", "motivations", "motivation_other",
        ])
        #expect(form.goals == [.getStronger, .buildMuscle, .toneUp])
        #expect(form.experiences == [.none, .underSixMonths, .sixMonthsToTwoYears, .overTwoYears])
        #expect(form.sessionLengths.map(\.minutes) == [30...45, 45...60, 60...90])
        #expect(form.genders == [.male, .female, .other])
        #expect(form.daysPerWeek == 2...5)
        #expect(form.question(.age)?.kind == .wholeNumber(range: 16...100))
        #expect(form.question(.weight)?.kind == .quantity(units: [Questionnaire.QuantityUnit(unit: "kg", range: 40...200),
                                                                  Questionnaire.QuantityUnit(unit: "lb", range: 88...440)]))
        #expect(form.question(.priorityMuscles)?.kind == .list(options: EventVocabulary.muscles, min: nil, max: 3))
        #expect(form.question(.motivationOther)?.kind == .otherText(list: .motivations))
        #expect(form.question(.birthDate) == nil)
        // Seed 000's equipment cards: optional, from the catalogue's names.
        guard case .list(let options?, nil, nil)? = form.question(.equipment)?.kind else { Issue.record("no equipment list"); return }
        #expect(options.contains("cable") && options.contains("kettlebells") && options.contains("pin-loaded-machine"))
        #expect(form.question(.equipment)?.required == false)
    }

    @Test("seed 001's rule set asks a birth date for ages 18–100 and at least one piece of equipment; templates asks fewer")
    func otherForms() throws {
        let ai = try Questionnaire.form(ruleset: "train-ai")
        #expect(ai.question(.birthDate)?.kind == .birthDate(ages: 18...100))
        #expect(ai.daysPerWeek == 2...6)
        guard case .list(let options, let min, let max)? = ai.question(.equipment)?.kind else { Issue.record("no equipment list"); return }
        #expect(options?.contains("dumbbells") == true && options?.contains("barbell") == true)
        #expect([min, max] == [1, nil])
        #expect(ai.question(.equipment)?.required == true)
        let templates = try Questionnaire.form(ruleset: "templates")
        #expect(templates.questions.map(\.key) == [.primaryGoal, .experience, .daysPerWeek, .sessionMinutes, .equipment, .priorityMuscles, .injuries])
        #expect(templates.question(.equipment)?.required == false)
        #expect(throws: ProgrammeError.unknownRuleset(name: "strongman", known: ["templates", "train", "train-ai"])) {
            try Questionnaire.form(ruleset: "strongman")
        }
    }

    @Test("every option of every bundled rule set has its typed value")
    func everyOptionTyped() throws {
        for name in ProgrammeGenerator.ruleSetNames {
            let form = try Questionnaire.form(ruleset: name)
            for question in form.questions {
                guard case .choice(let options) = question.kind else { continue }
                let typed: [String] = switch question.key {
                case .primaryGoal: form.goals.map(\.rawValue)
                case .experience: form.experiences.map(\.rawValue)
                case .sessionMinutes: form.sessionLengths.map(\.rawValue)
                case .gender: form.genders.map(\.rawValue)
                default: []
                }
                #expect(typed == options, "\(name): \(question.key.rawValue)")
            }
        }
    }

    @Test("the answer sheet records what the hand-written answers record, and the rule set checks it the same way")
    func answerSheet() throws {
        let form = try Questionnaire.form(ruleset: "train")
        var sheet = Questionnaire.AnswerSheet(goal: form.goals[1], experience: form.experiences[2], daysPerWeek: 4,
                                              sessionLength: form.sessionLengths[1])
        sheet.priorityMuscles = ["chest", "lats"]
        sheet.weight = .pounds(176)
        sheet.height = .centimetres(180)
        sheet.birthDate = LocalDate(year: 1990, month: 5, day: 17)
        #expect(sheet.values == [
            "primary_goal": "build_muscle", "experience": "6-24", "days_per_week": 4, "session_minutes": "45-60",
            "priority_muscles": ["chest", "lats"], "weight": ["value": 176, "unit": "lb"], "height": ["value": 180, "unit": "cm"],
            "birth_date": "1990-05-17",
        ])
        #expect(try ProgrammeGenerator.generate(ruleset: "train", answers: sheet.values)
                == ProgrammeGenerator.generate(ruleset: "train", answers: [
                    "primary_goal": "build_muscle", "experience": "6-24", "days_per_week": 4, "session_minutes": "45-60",
                    "priority_muscles": ["chest", "lats"], "weight": ["value": 176, "unit": "lb"], "height": ["value": 180, "unit": "cm"],
                    "birth_date": "1990-05-17",
                ]))
        sheet.daysPerWeek = 6
        #expect(throws: ProgrammeError.self) { try ProgrammeGenerator.validate(ruleset: "train", answers: sheet.values) }
    }
}
