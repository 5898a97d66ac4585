/// How other apps name catalogue exercises, for exports to their layouts (INTERCHANGE.md §"Names given back").
///
/// Strong and Hevy write the movement, then the implement in parentheses: `Bench Press (Barbell)`,
/// `Lat Pulldown (Cable)`, `Bench Press (Smith Machine)`; bodyweight movements bare (`Pull Up`, `Plank`), assisted
/// ones with the help (`Pull Up (Assisted)`, `Pull Up (Band)`). The name
/// is derived from the catalogue name and kept only when `identify` reads it back as the same exercise (so an
/// export imports back to the same ids); otherwise the catalogue name is used.
extension NameMatcher {
    /// The implement label an app writes in parentheses, by `StrictCandidate` implement (plate-loaded machines differ).
    static func implementLabel(_ implement: String, plate: Bool, app: String) -> String? {
        switch implement {
        case "barbell": return "Barbell"
        case "dumbbell": return "Dumbbell"
        case "kettlebell": return "Kettlebell"
        case "cable": return "Cable"
        case "smith": return "Smith Machine"
        case "band": return "Band"
        case "machine": return plate ? (app == "hevy" ? "Machine Plates" : "Plate Loaded") : "Machine"
        default: return nil
        }
    }

    /// `app`'s name for a catalogue exercise (`strong`, `hevy`), or nil for an id the catalogue does not hold.
    public func appName(for exerciseID: String, app: String) -> String? {
        guard let exercise = catalogue.exercise(id: exerciseID), !exercise.isCustom,
              let candidate = strictCandidates.first(where: { $0.id == exerciseID }) else { return nil }
        // The catalogue name without its implement words (`Smith Machine Bench Press` → `Bench Press`).
        var kept: [Substring] = []
        let words = exercise.name.split(separator: " ")
        var index = 0
        while index < words.count {
            let word = words[index]
            let pair = index + 1 < words.count ? (word + " " + words[index + 1]).lowercased() : ""
            if pair == "smith machine" { index += 2; continue }
            if NameMatcher.implementWords[word.lowercased()] != nil || word.lowercased() == "plate-loaded" { index += 1; continue }
            kept.append(word)
            index += 1
        }
        // The apps write `Pull Up`, `Chin Up`, `Push Up` where the catalogue hyphenates them.
        let spaced = { (name: String) in name.split(separator: " ").map { $0.hasSuffix("-Up") ? $0.dropLast(3) + " Up" : String($0) }.joined(separator: " ") }
        // An assisted movement is the movement with the help in parentheses: `Pull Up (Assisted)` (a machine's),
        // `Pull Up (Band)`.
        if exercise.isAssisted, let help = kept.firstIndex(where: { $0.lowercased().hasSuffix("-assisted") }) {
            let label = kept[help].lowercased().hasPrefix("band") ? "Band" : "Assisted"
            var movement = kept
            movement.remove(at: help)
            if !movement.isEmpty, let name = [spaced(movement.joined(separator: " ") + " (\(label))")].first(where: { identify($0).exerciseID == exerciseID }) {
                return name
            }
        }
        let movement = kept.joined(separator: " ")
        // The implement the exercise is named for: its first piece of equipment that is one.
        let implement = exercise.equipment.lazy.compactMap { NameMatcher.implements(ofItems: [$0], equipment: self.catalogue.equipment).0.first }.first
        var tries: [String] = []
        if let implement, implement != "bodyweight",
           let label = NameMatcher.implementLabel(implement, plate: candidate.plate, app: app), !movement.isEmpty {
            tries.append(spaced("\(movement) (\(label))"))
            tries.append("\(movement) (\(label))")
        }
        if !movement.isEmpty { tries += [spaced(movement), movement] }
        tries.append(exercise.name)
        return tries.first { identify($0).exerciseID == exerciseID } ?? exercise.name
    }
}
