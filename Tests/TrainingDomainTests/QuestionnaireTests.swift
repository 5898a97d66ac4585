import Testing
import JournalEvents
import JournalModel
@testable import TrainingDomain

@Suite("Questionnaire")
struct QuestionnaireTests {
    static let valid: [String: JSONValue] = [
        "primary_goal": "build_muscle", "experience": "0-6", "days_per_week": 3, "session_minutes": "45-60", "equipment": ["barbell"],
    ]

    func problems(_ ruleset: String, _ changes: [String: JSONValue?], asOf: LocalDate? = nil) -> [String] {
        var answers = Self.valid
        for (key, value) in changes { answers[key] = value }
        do {
            try ProgrammeGenerator.validate(ruleset: ruleset, answers: answers, asOf: asOf)
            return []
        } catch {
            guard case .invalidAnswers(let questionnaire) = error else { return ["\(error)"] }
            return questionnaire.problems.map(\.description)
        }
    }

    @Test("Seed 000 limits: days 2–5, age 16–100, at most 3 priority muscles")
    func trainLimits() {
        #expect(problems("train", ["days_per_week": 6]) == ["question \"days_per_week\": answer 6 must be between 2 and 5"])
        #expect(problems("train", ["days_per_week": 1]) == ["question \"days_per_week\": answer 1 must be between 2 and 5"])
        #expect(problems("train", ["age": 15]) == ["question \"age\": answer 15 must be between 16 and 100"])
        #expect(problems("train", ["age": 100]) == [])
        #expect(problems("train", ["priority_muscles": ["chest", "back", "abs", "calves"]])
            == ["question \"priority_muscles\": answer [\"chest\",\"back\",\"abs\",\"calves\"] must name at most 3 (got 4)"])
        #expect(problems("train", ["primary_goal": "get_big"])
            == ["question \"primary_goal\": answer \"get_big\" must be one of \"get_stronger\", \"build_muscle\", \"tone_up\""])
        #expect(problems("train", ["injuries": ["knees"]])
            == ["question \"injuries\": answer [\"knees\"] names \"knees\", which is not a muscle group (known: shoulders, chest, back, abs, triceps, biceps, glutes, quads, hamstrings, calves, forearms, traps, lats, lower-back, obliques, adductors, abductors, neck)"])
    }

    @Test("each rule set's own age floor: 16 for train (seed 000), 18 for train-ai (seed 001) whether given as an age or a birth date; none for templates")
    func ageFloors() {
        #expect(problems("train", ["age": 16]) == [])
        #expect(problems("train-ai", ["age": 17]) == ["question \"age\": answer 17 must be between 18 and 100"])
        #expect(problems("train-ai", ["age": 18]) == [])
        #expect(problems("train-ai", ["age": 101]) == ["question \"age\": answer 101 must be between 18 and 100"])
        #expect(problems("templates", ["age": 15]) == [])
    }

    @Test("\"Other\" among the motivations needs its text (seeds 000 and 001); the templates rule set asks no motivation")
    func otherNeedsItsText() {
        for ruleset in ["train", "train-ai"] {
            #expect(problems(ruleset, ["motivations": ["structure", "other"]])
                == ["question \"motivation_other\": no answer; must be 1–200 characters of text when \"motivations\" includes \"other\" (rule set \"\(ruleset)\")"])
            #expect(problems(ruleset, ["motivations": ["Other"], "motivation_other": "  "])
                == ["question \"motivation_other\": answer \"  \" must be 1–200 characters of text when \"motivations\" includes \"other\" (rule set \"\(ruleset)\")"])
            #expect(problems(ruleset, ["motivations": ["other"], "motivation_other": "my doctor said so"]) == [])
            #expect(problems(ruleset, ["motivations": ["structure"]]) == [])
        }
        #expect(problems("templates", ["motivations": ["other"]]) == [])
    }

    @Test("Seed 001 limits: days 2–6, born 18 or more years ago, at least one equipment")
    func trainAILimits() {
        let day = LocalDate(iso: "2026-11-22")
        #expect(problems("train-ai", ["days_per_week": 6]) == [])
        #expect(problems("train-ai", ["days_per_week": 7]) == ["question \"days_per_week\": answer 7 must be between 2 and 6"])
        #expect(problems("train-ai", ["birth_date": "2008-11-23"], asOf: day)
            == ["question \"birth_date\": answer \"2008-11-23\" gives age 17 on 2026-11-22: you must be at least 18 years old"])
        #expect(problems("train-ai", ["birth_date": "2008-11-22"], asOf: day) == [])
        #expect(problems("train-ai", ["birth_date": "22/11/2008"], asOf: day)
            == ["question \"birth_date\": answer \"22/11/2008\" must be a date written YYYY-MM-DD"])
        #expect(problems("train-ai", ["equipment": []]) == ["question \"equipment\": answer [] must name at least 1"])
        #expect(problems("train-ai", ["equipment": nil]) == ["question \"equipment\": no answer; it is required by rule set \"train-ai\""])
    }

    @Test("Missing required answers are all listed, in the rule set's order")
    func missing() {
        do {
            _ = try ProgrammeGenerator.generate(ruleset: "train", answers: ["days_per_week": "four"])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == """
            the answers do not fit rule set "train":
              - question "primary_goal": no answer; it is required by rule set "train"
              - question "experience": no answer; it is required by rule set "train"
              - question "session_minutes": no answer; it is required by rule set "train"
              - question "days_per_week": answer "four" must be a whole number
            """)
        }
    }

    @Test("Seed 001 spellings are accepted")
    func spellings() {
        #expect(Questionnaire.normaliseExperience("0_months") == "0")
        #expect(Questionnaire.normaliseExperience("0_6_months") == "0-6")
        #expect(Questionnaire.normaliseExperience("6_months_2_years") == "6-24")
        #expect(Questionnaire.normaliseExperience("2_plus_years") == "24+")
        #expect(Questionnaire.normaliseSessionMinutes("30-45 min") == "30-45")
        #expect(Questionnaire.normaliseSessionMinutes("60-90 minutes") == "60-90")
        #expect(Questionnaire.normaliseSessionMinutes(75) == "60-90")
        #expect(Questionnaire.normaliseGoal("Build Muscle Mass") == "build_muscle")
    }

    @Test("Answers are the latest per question after the last programme.reset")
    func answersFromEvents() {
        var log = EventLog()
        log.add("questionnaire.answered", ["question": "primary_goal", "answer": "tone_up"])
        log.add("questionnaire.answered", ["question": "days_per_week", "answer": 2])
        log.add("programme.reset")
        log.add("questionnaire.answered", ["question": "days_per_week", "answer": 3])
        log.add("questionnaire.answered", ["question": "primary_goal", "answer": "get_stronger"])
        log.add("questionnaire.answered", ["question": "days_per_week", "answer": 4])
        #expect(log.ledger.answers == ["primary_goal": "get_stronger", "days_per_week": 4])
    }

    @Test("An unknown rule set names the known ones")
    func unknownRuleset() {
        #expect(throws: ProgrammeError.unknownRuleset(name: "gravl", known: ["templates", "train", "train-ai"])) {
            try ProgrammeGenerator.generate(ruleset: "gravl", answers: Self.valid)
        }
        #expect(ProgrammeError.unknownRuleset(name: "gravl", known: ["templates", "train", "train-ai"]).description
            == "unknown rule set \"gravl\" (known: templates, train, train-ai)")
    }
}

@Suite("Questionnaire per seed")
struct SeedQuestionnaireTests {
    func problems(_ ruleset: String, _ changes: [String: JSONValue?]) -> [String] { QuestionnaireTests().problems(ruleset, changes) }

    @Test("seed 000: height 140–220 cm or 4'7\"–7'2\", weight 40–200 kg or 88–440 lb, its gender and equipment")
    func seed000() {
        #expect(problems("train", ["height": ["value": 180, "unit": "cm"], "weight": ["value": 176, "unit": "lbs"], "gender": "Prefer not to say"]) == [])
        #expect(problems("train", ["height": ["ft": 4, "in": 7], "weight": 40]) == [])
        #expect(problems("train", ["height": ["value": 230, "unit": "cm"]])
                == [#"question "height": answer {"value":230,"unit":"cm"} must be within 140–220 cm or 55–86 in (rule set "train")"#])
        #expect(problems("train", ["height": ["ft": 7, "in": 3]])
                == [#"question "height": answer {"ft":7,"in":3} must be within 140–220 cm or 55–86 in (rule set "train")"#])
        #expect(problems("train", ["weight": ["value": 450, "unit": "lb"]])
                == [#"question "weight": answer {"value":450,"unit":"lb"} must be within 40–200 kg or 88–440 lb (rule set "train")"#])
        #expect(problems("train", ["weight": ["value": 80, "unit": "stone"]])
                == [#"question "weight": answer {"value":80,"unit":"stone"} has unit "stone"; rule set "train" takes 40–200 kg or 88–440 lb"#])
        #expect(problems("train", ["gender": "robot"]) == [#"question "gender": answer "robot" must be one of "male", "female", "other""#])
        #expect(problems("train", ["equipment": ["Dumbbells", "Cable Machines", "Pin-loaded Machines", "Plate-loaded Machines", "Kettlebells", "Barbell"]]) == [])
        #expect(problems("train", ["equipment": ["hoverboard"]])
                == [#"question "equipment": answer ["hoverboard"] names "hoverboard", which is not equipment the catalogue knows (e.g. dumbbells, barbell, kettlebells, cable-machines, pin-loaded-machines, plate-loaded-machines)"#])
    }

    @Test("seed 001: height 120–220 cm or 3–8 ft, weight 30–200 kg or 60–440 lb")
    func seed001() {
        #expect(problems("train-ai", ["height": ["value": 125, "unit": "cm"], "weight": ["value": 65, "unit": "lb"]]) == [])
        #expect(problems("train-ai", ["weight": ["value": 25, "unit": "kg"]])
                == [#"question "weight": answer {"value":25,"unit":"kg"} must be within 30–200 kg or 60–440 lb (rule set "train-ai")"#])
    }

    @Test("seed 002's own goals and levels are accepted by its rule set")
    func seed002() {
        for goal in ["powerlifting", "strength", "hypertrophy", "general fitness", "athletic performance"] {
            for level in ["beginner", "intermediate", "advanced"] {
                #expect(problems("templates", ["primary_goal": .string(goal), "experience": .string(level)]) == [], "\(goal) \(level)")
            }
        }
        #expect(Questionnaire.normaliseGoal("Powerlifting") == "get_stronger")
        #expect(Questionnaire.normaliseExperience("Intermediate") == "6-24")
    }
}
