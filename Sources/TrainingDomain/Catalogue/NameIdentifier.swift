import Foundation
/// The import's verdict on one name: the catalogue exercise it certainly is, or nil with the nearest candidates.
public struct NameIdentification: Equatable, Sendable {
    /// The catalogue exercise, or nil when the name is not certainly one (it becomes a custom exercise).
    public var exerciseID: String?
    /// The catalogue name or alias that agreed with the name (nil when unsure).
    public var matchedPhrase: String?
    /// When unsure: up to three catalogue exercises nearest the name (`NameMatcher.match`'s score), best first.
    public var candidates: [NameMatch]
}

/// The strict rule the import files lifts by (INTERCHANGE.md §"Matching names"): a name is a catalogue exercise only
/// when its movement words and its implement agree with one of the exercise's names or aliases.
///
/// 1. Words: lower case, plurals folded, `bicep`→`biceps`, `sitting`→`seated`, `single`/`1`→`one`, `push down`→
///    `pushdown`; gym brands (`Panatta`, `Technogym`, …) and FitNotes' `(Each Side)` dropped; a word the rule does not
///    know, of 5+ letters, one edit from exactly one word it knows, is that word (`Barbel` → `barbell`); a grip is one
///    word (`short grip`/`close hands` → `close`), `bar grip`, `over a bench` and (with an implement) `palms up` are
///    dropped, `with bar` is the barbell. Implement words set the implement instead of being
///    movement words: barbell/bb, dumbbell/db, kettlebell/kb, cable, machine (plate loaded, machine plates,
///    lever/leverage and Hammer Strength: plate-loaded), smith (machine), bodyweight/bw, band; what a lifter stands on
///    is not one (`on a dumbbell`).
/// 2. Movement: the name's movement words must equal a phrase's (`attachment`, `version` ignored), except that
///    `biceps`/`triceps`/`chest`/`core` may be missing in the name, or extra when that muscle is the exercise's prime
///    mover; `paused`/`tempo` may be extra in the name, `bench` for an exercise done on one; and `standing` may be extra in the name when the exercise is the
///    standing one (an alias says so) or no other exercise of a compatible implement is a seated/lying/kneeling
///    variant. Exact agreement wins over agreement with these allowances. `weighted` is a movement word (aliases say
///    `weighted pull up`).
/// 3. Implement: every implement the phrase names must be in the name, and every implement the name names must be
///    one the exercise is done with (its equipment: barbell/trap bar, dumbbells, kettlebells, cable stations,
///    machines, smith machine, bodyweight stations, bands). A name without implement takes the phrase's default.
/// 4. One exercise: when phrases of two exercises agree equally, a `plate loaded` name prefers the plate-loaded
///    machine and a plain `machine` the other; any remaining tie is unsure.
extension NameMatcher {
    static let implementWords: [String: String] = [
        "barbell": "barbell", "bb": "barbell", "dumbbell": "dumbbell", "dumbell": "dumbbell", "db": "dumbbell",
        "kettlebell": "kettlebell", "kb": "kettlebell", "cable": "cable", "machine": "machine", "smith": "smith",
        "bodyweight": "bodyweight", "bw": "bodyweight", "band": "band", "banded": "band", "selectorized": "machine",
        // FitNotes' `(Pulley)`: a cable station.
        "pulley": "cable",
    ]
    static let wordSynonyms: [String: String] = [
        "bicep": "biceps", "tricep": "triceps", "sitting": "seated", "single": "one", "1": "one", "flye": "fly",
        "dumbells": "dumbbell", "pressdown": "pushdown",
        "legged": "leg", "armed": "arm",
    ]
    /// Equipment makers: a brand names the machine, not the movement.
    static let brands: Set<String> = ["panatta", "technogym", "cybex", "nautilus", "precor", "gym80", "hoist", "matrix", "atlantis",
                                      "rogue", "eleiko", "icarian"]
    static let brandPairs: Set<String> = ["life fitness", "star trac", "body solid"]
    /// Muscle words a name may add or leave out when the exercise's prime mover is that muscle.
    static let muscleWords: Set<String> = Set(muscleOfWord.keys)
    /// The muscle (catalogue `primary`) each muscle word names: `Cable Core Pallof Press` may say what it trains.
    static let muscleOfWord: [String: String] = ["biceps": "biceps", "triceps": "triceps", "chest": "chest", "core": "abs", "abs": "abs"]
    /// Words that describe the attachment, the listing or what a lifter logs, not the movement (`Triceps Pushdown - Rope
    /// Attachment`, `Dips - Chest Version`, `Standard Lat Pulldown`, `Wide Grip Pullups` = `Wide Pullups`, FitNotes'
    /// `Farmers Walk (yards)`).
    static let fillerWords: Set<String> = ["attachment", "version", "handle", "standard", "grip", "position",
                                           "yard", "meter", "metre", "mile", "second", "sec", "minute", "min"]
    /// How a set is done, not what: a name may add them to a phrase (`Pause Squat`, `Strict Military Press`, `HIIT
    /// Stationary Bike`, `Triceps Pushdown (Easy Cable)`, `Dumbbell Supinating Curls`).
    static let tempoWords: Set<String> = ["paused", "pause", "tempo", "slow", "strict", "hiit", "easy", "hard", "supinating"]
    /// Where the hands go (`Short Grip Pulldown`, `Push Up Close Hands`): one word, `close` or `wide`.
    static let handPlacements: [String: String] = ["close": "close", "narrow": "close", "short": "close", "wide": "wide"]
    /// What a lifter lies or sits on: a name may add it for an exercise done on a bench (`Dumbbell Bench Fly`).
    static let benchWord = "bench"
    /// The path of a machine (`Vertical Chest Press Machine`, `Leg Press Horizontal (Machine)`): set aside in a name
    /// with a machine, where they name the model, not another movement.
    static let machinePathWords: Set<String> = ["horizontal", "vertical"]
    /// The one position word a name may carry beyond a phrase (most free-standing lifts are done standing).
    static let defaultPosition = "standing"
    /// Positions that make another exercise of the same movement (`seated calf raise`, `lying leg curl`).
    static let positionWords: Set<String> = ["standing", "seated", "lying", "kneeling"]

    /// The words the rule knows: the catalogue's names and aliases and the rule's own words. A name's other words are
    /// typo candidates (`corrected`).
    static func vocabulary(_ candidates: [StrictCandidate]) -> Set<String> {
        var words = Set(candidates.flatMap { $0.phrases.flatMap { SearchText.words($0.text) } })
        words.formUnion(implementWords.keys)
        words.formUnion(wordSynonyms.keys)
        words.formUnion(brands)
        words.formUnion(brandPairs.flatMap { $0.split(separator: " ").map(String.init) })
        words.formUnion(stopWords)
        words.formUnion(fillerWords)
        words.formUnion(tempoWords)
        words.formUnion(machinePathWords)
        words.formUnion(handPlacements.keys)
        words.formUnion(positionWords)
        words.formUnion(["plate", "loaded", "hammer", "strength", "lever", "leverage", "body", "weight", "only", "resistance",
                         "medium", "normal", "regular", "grip", "against", "each", "per", "side", "push", "pull", "down"])
        return words
    }

    /// A word of at least `typoLength` letters the vocabulary does not know becomes the one known word of at least that
    /// length one edit away (a letter added, dropped, changed, or two neighbours swapped: `barbel` → `barbell`,
    /// `deadlfit` → `deadlift`); with none or several it stays as written (and the name stays custom).
    static func corrected(_ word: String, vocabulary: Set<String>) -> String {
        guard word.count >= typoLength, !vocabulary.contains(word), word.allSatisfy(\.isLetter) else { return word }
        let letters = Array(word)
        var found: String?
        for known in vocabulary where known.count >= typoLength && abs(known.count - letters.count) <= 1 {
            guard oneEditApart(letters, Array(known)) else { continue }
            if found != nil { return word }
            found = known
        }
        return found ?? word
    }
    /// The shortest word a typo is corrected in: shorter words are too often one letter from another word.
    static let typoLength = 5

    /// Whether `a` becomes `b` by one insertion, deletion, substitution or swap of neighbouring letters.
    static func oneEditApart(_ a: [Character], _ b: [Character]) -> Bool {
        if a.count == b.count {
            let differences = a.indices.filter { a[$0] != b[$0] }
            if differences.count == 1 { return true }
            return differences.count == 2 && differences[1] == differences[0] + 1
                && a[differences[0]] == b[differences[1]] && a[differences[1]] == b[differences[0]]
        }
        let (long, short) = a.count > b.count ? (a, b) : (b, a)
        guard long.count == short.count + 1 else { return false }
        var i = 0
        while i < short.count && long[i] == short[i] { i += 1 }
        return long[(i + 1)...].elementsEqual(short[i...])
    }

    /// Movement words and implements of a name or phrase (see the type's rule 1); with `vocabulary`, typos corrected.
    static func parse(_ text: String, vocabulary: Set<String>? = nil) -> (core: Set<String>, implements: Set<String>, plate: Bool) {
        // A duration or count in the name (`Plank 1:00`, `Wall Sits :45`, `KB Snatch 30''`) is how long, not what: a
        // clock time anywhere and numbers at the end are dropped (`3/4 Sit-Up` and `1 Arm Row` keep theirs).
        var split = SearchText.words(text.replacingOccurrences(of: "[0-9]*:[0-9]+", with: " ", options: .regularExpression))
        while let last = split.last, last.allSatisfy(\.isNumber) { split.removeLast() }
        let words = split.map { word in
            let known = vocabulary.map { corrected(word, vocabulary: $0) } ?? word
            return wordSynonyms[known] ?? known
        }
        var core: Set<String> = [], implements: Set<String> = [], plate = false, palmsUp = false
        var index = 0
        while index < words.count {
            let word = words[index]
            let next = index + 1 < words.count ? words[index + 1] : ""
            let pair = word + " " + next
            if brandPairs.contains(pair) { index += 2; continue }
            if pair == "smith machine" { implements.insert("smith"); index += 2; continue }
            if pair == "plate loaded" || pair == "machine plate" || pair == "hammer strength" {
                implements.insert("machine"); plate = true; index += 2; continue
            }
            if pair == "push down" || pair == "pull down" { core.insert(word + "down"); index += 2; continue }
            // Free-exercise-db's `Leverage …` machines are plate-loaded.
            if word == "lever" || word == "leverage" { implements.insert("machine"); plate = true; index += 1; continue }
            // `Calf Raise On A Dumbbell`, `… On A Bench`, `… On The Floor`: what the lifter stands or lies on is not the
            // implement, nor (the floor) the movement.
            if word == "on" || word == "against" || word == "over" {
                let article = next == "a" || next == "the"
                let object = article ? (index + 2 < words.count ? words[index + 2] : "") : next
                if (word != "over" && (implementWords[object] != nil || object == "floor")) || (word == "over" && object == "bench") {
                    index += article ? 3 : 2; continue
                }
            }
            if pair == "body weight" || pair == "body only" { implements.insert("bodyweight"); index += 2; continue }
            if pair == "resistance band" { implements.insert("band"); index += 2; continue }
            if pair == "medium grip" || pair == "normal grip" || pair == "regular grip" { index += 2; continue }
            if let placement = handPlacements[word], next == "grip" || next == "hand" { core.insert(placement); index += 2; continue }
            // `Seated Cable Row - Bar Grip`: the attachment; `Palms-Up Barbell Wrist Curl`: the curl's own grip, set aside
            // when the name names its implement (below).
            if pair == "bar grip" { index += 2; continue }
            // `Bench Press (With Bar, Each Side)`: the barbell.
            if pair == "with bar" { implements.insert("barbell"); index += 2; continue }
            if pair == "palm up" { palmsUp = true; index += 2; continue }
            // FitNotes' `(Each Side)`: how the sets are counted, not the movement.
            if pair == "each side" || pair == "per side" { index += 2; continue }
            if word == "back" && next == "delt" { core.insert("rear"); index += 2; continue }
            if let implement = implementWords[word] { implements.insert(implement) }
            else if !brands.contains(word) && !stopWords.contains(word) && !fillerWords.contains(word) { core.insert(word) }
            index += 1
        }
        if implements.contains("machine") { core.subtract(machinePathWords) }
        if palmsUp && implements.isEmpty { core.formUnion(["palm", "up"]) }
        return (core, implements, plate)
    }

    /// The implements an exercise is done with, from its equipment items (and `plate` for plate-loaded machines).
    static func implements(of exercise: Exercise, equipment: EquipmentCatalogue) -> (Set<String>, Bool) {
        implements(ofItems: exercise.equipment, equipment: equipment)
    }

    static func implements(ofItems items: [String], equipment: EquipmentCatalogue) -> (Set<String>, Bool) {
        var out: Set<String> = []
        var plate = false
        for item in items {
            switch item {
            case "barbell", "trap-bar": out.insert("barbell")
            case "dumbbells": out.insert("dumbbell")
            case "kettlebells": out.insert("kettlebell")
            case "cable", "cable-crossover", "lat-pulldown", "seated-row": out.insert("cable")
            case "smith-machine": out.insert("smith")
            case "bodyweight", "pull-up-bar", "dip-station", "back-extension-bench": out.insert("bodyweight")
            case "bands": out.insert("band")
            case "pin-loaded-machine": out.insert("machine")
            case "plate-loaded-machine": out.insert("machine"); plate = true
            default:
                let categories = equipment.categories.filter { $0.items.contains(item) }.map(\.name)
                if categories.contains("pin-loaded-machine") || categories.contains("plate-loaded-machine") { out.insert("machine") }
                if categories == ["plate-loaded-machine"] { plate = true }
            }
        }
        return (out, plate)
    }

    struct StrictPhrase: Sendable { var text: String; var core: Set<String>; var implements: Set<String> }
    struct StrictCandidate: Sendable {
        var id: String; var phrases: [StrictPhrase]; var implements: Set<String>; var plate: Bool; var primaryMuscles: Set<String>
        /// Done on a bench (its equipment has one): never the standing variant of a movement.
        var onBench = false
        /// Some name or alias says `standing`: the exercise is the standing variant.
        var standing: Bool { phrases.contains { $0.core.contains(NameMatcher.defaultPosition) } }
    }

    static func strictCandidates(_ catalogue: ExerciseCatalogue) -> [StrictCandidate] {
        catalogue.exercises.filter { !$0.isCustom }.map { exercise in
            var (implements, plate) = NameMatcher.implements(of: exercise, equipment: catalogue.equipment)
            let phrases = ([exercise.name] + exercise.aliases).map { text -> StrictPhrase in
                let parsed = parse(text)
                implements.formUnion(parsed.implements)
                if parsed.plate { plate = true }
                return StrictPhrase(text: text, core: parsed.core, implements: parsed.implements)
            }
            return StrictCandidate(id: exercise.id, phrases: phrases, implements: implements, plate: plate,
                                   primaryMuscles: Set(exercise.primaryMuscles), onBench: exercise.equipment.contains { $0.hasSuffix("-bench") })
        }
    }

    /// How the name's movement words agree with a candidate's phrase: 1 exactly, 2 with the rule's allowances, nil not
    /// at all. `blocked` says whether `standing` may not be set aside for these movement words.
    static func agreement(_ name: Set<String>, _ phrase: Set<String>, of candidate: StrictCandidate,
                          blocked: (Set<String>, String) -> Bool) -> Int? {
        if name == phrase { return 1 }
        let extra = name.subtracting(phrase), missing = phrase.subtracting(name)
        guard missing.isSubset(of: muscleWords) else { return nil }
        for word in extra {
            if let muscle = muscleOfWord[word] { guard candidate.primaryMuscles.contains(muscle) else { return nil }; continue }
            guard tempoWords.contains(word) || word == defaultPosition || (word == benchWord && candidate.onBench) else { return nil }
        }
        if extra.contains(defaultPosition) && !candidate.standing
            && (candidate.onBench || blocked(phrase.subtracting(muscleWords), candidate.id)) { return nil }
        return 2
    }

    /// The strict verdict on `name` (the type's rule); candidates from `match` when unsure.
    public func identify(_ name: String) -> NameIdentification {
        let query = NameMatcher.parse(name, vocabulary: vocabulary)
        var hits: [(tier: Int, candidate: StrictCandidate, phrase: StrictPhrase)] = []
        if !query.core.isEmpty {
            func compatible(_ candidate: StrictCandidate) -> Bool { query.implements.isSubset(of: candidate.implements) }
            // `standing` is set aside only when no exercise of a compatible implement is a seated, lying or kneeling
            // variant of the movement.
            func blocked(_ movement: Set<String>, _ id: String) -> Bool {
                strictCandidates.contains { other in
                    other.id != id && compatible(other) && other.phrases.contains { phrase in
                        !phrase.core.isDisjoint(with: NameMatcher.positionWords.subtracting([NameMatcher.defaultPosition]))
                            && phrase.core.subtracting(NameMatcher.positionWords).subtracting(NameMatcher.muscleWords) == movement
                    }
                }
            }
            for candidate in strictCandidates where compatible(candidate) {
                var best: (Int, StrictPhrase)?
                for phrase in candidate.phrases where phrase.implements.isSubset(of: query.implements) {
                    guard let tier = NameMatcher.agreement(query.core, phrase.core, of: candidate, blocked: blocked) else { continue }
                    if best == nil || tier < best!.0 { best = (tier, phrase) }
                }
                if let best { hits.append((best.0, candidate, best.1)) }
            }
        }
        if let tier = hits.map(\.tier).min() {
            var top = hits.filter { $0.tier == tier }
            if top.count > 1 { top = top.filter { $0.candidate.plate == query.plate } }
            if top.count == 1 {
                return NameIdentification(exerciseID: top[0].candidate.id, matchedPhrase: top[0].phrase.text, candidates: [])
            }
        }
        return NameIdentification(exerciseID: nil, matchedPhrase: nil, candidates: ranked(name, limit: 3))
    }

    /// The `limit` best-scoring exercises for `name` by `match`'s score, best first.
    public func ranked(_ name: String, limit: Int) -> [NameMatch] {
        Array(scores(name).prefix(limit))
    }
}
