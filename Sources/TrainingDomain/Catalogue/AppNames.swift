/// How other apps name catalogue exercises, for exports to their layouts (INTERCHANGE.md §"Names given back").
///
/// Strong and Hevy write the movement, then the implement in parentheses: `Bench Press (Barbell)`,
/// `Lat Pulldown (Cable)`, `Bench Press (Smith Machine)`; bodyweight movements bare (`Pull Up`, `Plank`). The name
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
        let movement = kept.joined(separator: " ")
        // The implement the exercise is named for: its first piece of equipment that is one.
        let implement = exercise.equipment.lazy.compactMap { NameMatcher.implements(ofItems: [$0], equipment: self.catalogue.equipment).0.first }.first
        var tries: [String] = []
        if let implement, implement != "bodyweight",
           let label = NameMatcher.implementLabel(implement, plate: candidate.plate, app: app), !movement.isEmpty {
            tries.append("\(movement) (\(label))")
        }
        if !movement.isEmpty { tries.append(movement) }
        tries.append(exercise.name)
        return tries.first { identify($0).exerciseID == exerciseID } ?? exercise.name
    }
}
