import ArgumentParser
import WorkoutJournalSync

struct PlatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plates",
        abstract: "Show the plates to load on each side of the bar for a target weight.",
        discussion: """
        Greedy, heaviest plate first, each plate used in pairs, limited by the inventory. Without --plates the \
        inventory is the latest equipment.updated of --journal, else a standard Olympic set in the journal's unit \
        (kg: 25x4,20x4,15x2,10x2,5x2,2.5x2,1.25x2; lb: 45x8,35x2,25x2,10x4,5x2,2.5x2). When the target cannot be \
        loaded exactly, the closest lower weight and the difference are shown.
        """
    )

    @Argument(help: "The total weight wanted, bar included.") var target: Double
    @Option(help: "The bar's weight (default 20 kg or 45 lb, or the journal's bar).") var bar: Double?
    @Option(help: "Plates owned, WEIGHTxCOUNT separated by commas, e.g. 25x4,20x2,1.25x2.") var plates: String?
    @Option(help: "kg or lb (default kg, or the journal's unit: its equipment's, else its profile's).") var unit: String?
    @Option(help: "A journal whose equipment.updated events give the plates and bar.") var journal: String?
    @Option(help: "With --journal: load the bar this exercise uses (the bar listing it, else the default bar).") var exercise: String?
    @Flag(help: "Print JSON instead of text.") var json = false

    func validate() throws {
        guard target.isFinite, target > 0 else { throw ValidationError("TARGET \"\(formatNumber(target))\" must be a weight above 0") }
        if let bar, !(bar.isFinite && bar >= 0) { throw ValidationError("--bar \"\(formatNumber(bar))\" must be a weight of 0 or more") }
        if let unit, WeightUnit(parsing: unit) == nil { throw ValidationError("--unit \"\(unit)\" must be kg or lb") }
        if exercise != nil, journal == nil { throw ValidationError("--exercise needs --journal (the journal whose bars say which bar it uses)") }
        if let plates {
            do { _ = try PlateInventory.parsePlates(plates) } catch { throw ValidationError("--plates: \(error.description)") }
        }
    }

    func run() throws {
        try reportingFailures {
            let chosenUnit = unit.flatMap(WeightUnit.init(parsing:))
            var inventory: PlateInventory
            if let journal {
                // The journal's unit (the profile's) chooses the standard set until equipment.updated names plates.
                let ledger = Ledger(events: try JournalLoader.events(path: journal), asOf: Ledger.everything)
                inventory = EquipmentInventory.from(ledger: ledger, defaultUnit: chosenUnit ?? ledger.displayUnit).plateInventory(for: exercise)
            } else {
                inventory = .standard(chosenUnit ?? .kg)
            }
            if let chosenUnit, chosenUnit != inventory.unit { inventory = .standard(chosenUnit) }
            if let plates { inventory.plates = try PlateInventory.parsePlates(plates) }
            if let bar { inventory.barWeight = bar }
            let loading: PlateLoading
            do {
                loading = try PlateCalculator.load(target: target, inventory: inventory)
            } catch {
                throw Failure(message: "\(error)")
            }
            if json {
                print(JSONWriter.string(loading.jsonValue))
            } else {
                for line in loading.lines { print(line) }
            }
        }
    }

    private func formatNumber(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value) }
}
