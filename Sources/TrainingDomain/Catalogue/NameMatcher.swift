import Foundation

/// A guess at which catalogue exercise another app's name means.
public struct NameMatch: Equatable, Sendable {
    public var exerciseID: String
    /// 0…1: 1 for an exact name or alias with agreeing equipment.
    public var confidence: Double
    /// The catalogue name or alias that matched.
    public var matchedPhrase: String
}

/// Maps names written by other apps (`Bench Press (Barbell)`, `Paused Bench Press`, `Lat Pulldown (Cable)`) to
/// catalogue ids. Words naming equipment (`barbell`, `db`, `machine`, `plate loaded`, …) are equipment hints; the rest
/// are compared with each exercise's name and aliases by a weighted Dice coefficient of their word sets (plurals folded,
/// word order ignored). A word weighs ln(1 + N/df), N exercises and df of them using the word, so rare words (`calf`)
/// count more than common ones (`press`); words the catalogue never uses (gym brands) weigh 1.5.
/// The score is multiplied by 1 when the hinted equipment agrees, 0.95 when it partly agrees, 0.85 when it does not,
/// and by 0.9 when a variation word (`paused`, `tempo`, `deficit`, …) was set aside. Pure and deterministic:
/// ties go to the earlier exercise in catalogue order.
public struct NameMatcher: Sendable {
    public let catalogue: ExerciseCatalogue
    /// Matches below this are not hits (`match(_:)` still returns them; callers decide).
    public static let acceptThreshold = 0.6
    /// The built-in catalogue's matcher, built on its first use: building one indexes every name of the catalogue,
    /// which a process that never matches a name (a replay, a view) should not pay for.
    public static let builtIn = NameMatcher(catalogue: .builtIn)

    static let equipmentWords: [String: String] = [
        "barbell": "barbell", "bb": "barbell", "dumbbell": "dumbbell", "db": "dumbbell", "kettlebell": "kettlebell",
        "kb": "kettlebell", "cable": "cable", "machine": "machine", "smith": "smith", "bodyweight": "bodyweight",
        "ez": "barbell", "lever": "machine", "leverage": "machine",
    ]
    static let variationWords: Set<String> = ["paused", "pause", "tempo", "deficit", "slow", "explosive", "speed", "chain", "spoto"]
    static let stopWords: Set<String> = ["on", "the", "with", "a", "of", "and", "to", "in"]

    private struct Phrase { var words: Set<String>; var text: String }
    private struct Candidate { var id: String; var phrases: [Phrase]; var equipment: Set<String> }
    private let candidates: [Candidate]
    private let weights: [String: Double]
    let strictCandidates: [StrictCandidate]
    /// The words the strict rule knows (`NameMatcher.vocabulary`), for correcting typos.
    let vocabulary: Set<String>

    public init(catalogue: ExerciseCatalogue = .builtIn) {
        self.catalogue = catalogue
        let machineItems = Set(catalogue.equipment.categories.filter { $0.name.hasSuffix("machine") || $0.name == "cable" }.flatMap(\.items))
        func words(forItem item: String) -> Set<String> {
            var out: Set<String> = []
            switch item {
            case "dumbbells": out.insert("dumbbell")
            case "barbell", "trap-bar": out.insert("barbell")
            case "kettlebells": out.insert("kettlebell")
            case "cable", "cable-crossover": out.insert("cable")
            case "pin-loaded-machine": out.insert("machine")
            case "plate-loaded-machine": out.formUnion(["machine", "plate-loaded"])
            case "bodyweight", "pull-up-bar", "dip-station", "back-extension-bench": out.insert("bodyweight")
            default: break
            }
            if item == "smith-machine" { out.insert("smith") }
            if machineItems.contains(item) {
                for category in catalogue.equipment.categories where category.items.contains(item) {
                    out.formUnion(words(forItem: category.name))
                }
            }
            return out
        }
        candidates = catalogue.exercises.map { exercise in
            var equipment: Set<String> = []
            for item in exercise.equipment { equipment.formUnion(words(forItem: item)) }
            let phrases = ([exercise.name] + exercise.aliases).map { text -> Phrase in
                let split = NameMatcher.split(text)
                equipment.formUnion(split.equipment)
                return Phrase(words: split.core, text: text)
            }
            return Candidate(id: exercise.id, phrases: phrases, equipment: equipment)
        }
        var documentFrequency: [String: Int] = [:]
        for candidate in candidates {
            for word in candidate.phrases.reduce(into: Set<String>(), { $0.formUnion($1.words) }) { documentFrequency[word, default: 0] += 1 }
        }
        let total = Double(max(1, candidates.count))
        weights = documentFrequency.mapValues { log(1 + total / Double($0)) }
        strictCandidates = NameMatcher.strictCandidates(catalogue)
        vocabulary = NameMatcher.vocabulary(strictCandidates)
    }

    private func weight(_ words: Set<String>) -> Double { words.reduce(0) { $0 + (weights[$1] ?? 1.5) } }

    /// Core words, equipment hints and whether a variation word was dropped.
    static func split(_ text: String) -> (core: Set<String>, equipment: Set<String>, variation: Bool) {
        var core: Set<String> = []
        var equipment: Set<String> = []
        var variation = false
        let words = SearchText.words(text)
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "back" && index + 1 < words.count && words[index + 1] == "delt" {
                core.insert("rear") // "back delts" are rear delts
                index += 1
                continue
            }
            if (word == "plate" || word == "pin") && index + 1 < words.count && words[index + 1] == "loaded" {
                equipment.insert(word == "plate" ? "plate-loaded" : "machine")
                index += 2
                continue
            }
            if let hint = equipmentWords[word] { equipment.insert(hint) } else if variationWords.contains(word) { variation = true } else if !stopWords.contains(word) { core.insert(word) }
            index += 1
        }
        return (core, equipment, variation)
    }

    /// Whether a name says its weights are help: the word `assisted` (Strong's `Pull Up (Assisted)`, Hevy's
    /// `Chin Up (Assisted)`). An import creates such a custom exercise with `assisted` (DOMAIN.md §"Assisted exercises").
    public static func saysAssisted(_ name: String) -> Bool { SearchText.words(name).contains("assisted") }

    /// The best catalogue match for `name`, or nil when no exercise shares a word with it.
    public func match(_ name: String) -> NameMatch? { scores(name).first }

    /// Every exercise sharing a word with `name`, with its best phrase's score, best first (ties in catalogue order).
    func scores(_ name: String) -> [NameMatch] {
        let query = NameMatcher.split(name)
        guard !query.core.isEmpty else { return [] }
        let queryWeight = weight(query.core)
        var found: [(position: Int, match: NameMatch)] = []
        for (position, candidate) in candidates.enumerated() {
            var best: NameMatch?
            for phrase in candidate.phrases where !phrase.words.isEmpty {
                let shared = query.core.intersection(phrase.words)
                guard !shared.isEmpty else { continue }
                var score = 2 * weight(shared) / (queryWeight + weight(phrase.words))
                if !query.equipment.isEmpty {
                    if query.equipment.isSubset(of: candidate.equipment) {
                        score *= 1
                    } else if !query.equipment.isDisjoint(with: candidate.equipment) {
                        score *= 0.95
                    } else {
                        score *= 0.85
                    }
                }
                if query.variation { score *= 0.9 }
                score = (score * 1000).rounded() / 1000
                if score > (best?.confidence ?? 0) {
                    best = NameMatch(exerciseID: candidate.id, confidence: min(1, score), matchedPhrase: phrase.text)
                }
            }
            if let best { found.append((position, best)) }
        }
        return found.sorted { ($1.match.confidence, $0.position) < ($0.match.confidence, $1.position) }.map(\.match)
    }

    /// True when `match(name)` reaches `acceptThreshold`.
    public func accepts(_ name: String) -> Bool { (match(name)?.confidence ?? 0) >= NameMatcher.acceptThreshold }
}
