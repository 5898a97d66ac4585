import ArgumentParser
import WorkoutJournalSync

struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "List the exercise catalogue, filtered by muscle and equipment or searched by name.",
        discussion: """
        Repeat --muscle or --equipment for alternatives, as the apps' filter chips: --equipment dumbbells \
        --equipment barbell lists both. --muscle and --equipment together must both match. A muscle may be a \
        group or one of seed 004's tabs: arms, legs, core, cardio. --search matches words in any order and case \
        against names and aliases. --category lists one of seed 004's tabs (chest, back, shoulders, arms, legs, core, \
        cardio): only the exercises filed under it by their first primary muscle. --instructions prints each \
        exercise's setup, steps and cues under it. With --journal, custom exercises from that journal's \
        exercise.created events are included, and --favourites or --recent list that journal's favourites (in the \
        order they were added) or its recently used exercises (latest workout first, at most 10), as seed 004's \
        picker pins them.
        """
    )

    @Option(help: "A muscle or group the exercise works (e.g. chest, back, quads, arms, legs, core, cardio); repeat for any of several.") var muscle: [String] = []
    @Option(help: "Equipment the exercise uses (e.g. barbell, cable, leg-press); repeat for any of several.") var equipment: [String] = []
    @Option(help: "Free text to search for, e.g. \"press bench\".") var search: String?
    @Option(help: "One of seed 004's category tabs: chest, back, shoulders, arms, legs, core or cardio.") var category: String?
    @Flag(help: "Print each exercise's setup, steps and cues under it.") var instructions = false
    @Flag(help: "Only the journal's favourites, in the order they were added (needs --journal).") var favourites = false
    @Flag(help: "Only the journal's recently used exercises, latest first (needs --journal).") var recent = false
    @Option(help: "A journal whose custom exercises to include.") var journal: String?
    @Flag(help: "Print a JSON array instead of text.") var json = false

    func validate() throws {
        let catalogue = ExerciseCatalogue.builtIn
        if (favourites || recent) && journal == nil { throw ValidationError("--\(favourites ? "favourites" : "recent") lists a journal's exercises: give --journal FILE") }
        if favourites && recent { throw ValidationError("--favourites and --recent are two lists: give one") }
        if let category, !ExerciseCatalogue.categoryTabNames.contains(category.lowercased()) {
            throw ValidationError("--category \"\(category)\" is not a category tab (tabs: \(ExerciseCatalogue.categoryTabNames.joined(separator: ", ")))")
        }
        for name in muscle where !catalogue.knowsMuscleFilter(name) {
            throw ValidationError("--muscle \"\(name)\" is not a muscle group (known: \(ExerciseCatalogue.muscleNames.joined(separator: ", ")); tabs: \(ExerciseCatalogue.tabsBeyondMuscles.joined(separator: ", ")))")
        }
        let known = catalogue.equipment.knownNames
        for name in equipment where !known.contains(catalogue.equipment.normalise(name)) {
            throw ValidationError("--equipment \"\(name)\" is not known equipment (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    func run() throws {
        try reportingFailures {
            var catalogue = ExerciseCatalogue.builtIn
            var pinned: [String]?
            if let journal {
                let ledger = Ledger(events: try JournalLoader.events(path: journal), asOf: Ledger.everything)
                catalogue = catalogue.with(customExercisesFrom: ledger)
                pinned = favourites ? ledger.favourites : recent ? ledger.recentExercises() : nil
            }
            var exercises = catalogue.filter(muscles: muscle, equipment: equipment)
            if let pinned {
                let allowed = Set(exercises.map(\.id))
                exercises = pinned.filter(allowed.contains).compactMap(catalogue.exercise(id:))
            }
            if let category {
                let tab = Set(catalogue.exercises(inCategory: category).map(\.id))
                exercises = exercises.filter { tab.contains($0.id) }
            }
            if let search {
                let allowed = Set(exercises.map(\.id))
                exercises = catalogue.search(search).filter { allowed.contains($0.id) }
            }
            if json {
                print(JSONWriter.string(.array(exercises.map(\.jsonValue))))
            } else if exercises.isEmpty {
                print("no exercise matches")
            } else {
                for exercise in exercises {
                    print(exercise.line)
                    if instructions { for line in exercise.instructionLines { print(line) } }
                }
                print("\(exercises.count) of \(catalogue.count) exercises")
            }
        }
    }
}
