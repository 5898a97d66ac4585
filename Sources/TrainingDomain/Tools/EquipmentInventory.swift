import JournalModel

/// Everything the lifter can load (seed 002's equipment inventory): plates, bars, dumbbell pairs, weight-stack
/// machines and cable attachments, from `equipment.updated` events (DOMAIN.md §7 "Equipment").
public struct EquipmentInventory: Equatable, Sendable {
    /// The unit of the plates and bars.
    public var unit: WeightUnit
    public var plates: [PlateStock]
    /// The bars owned; empty means the standard bar of `unit` (20 kg, 45 lb).
    public var bars: [OwnedBar]
    public var dumbbells: [Double]
    public var dumbbellUnit: WeightUnit
    /// Each machine with the unit of its stack.
    public var machines: [(stack: MachineStack, unit: WeightUnit)]
    public var attachments: [String]
    /// The rest of what the lifter has, as the questionnaire names equipment (`equipment`: racks, benches, kettlebells, …).
    public var other: [String]

    public init(unit: WeightUnit, plates: [PlateStock], bars: [OwnedBar] = [], dumbbells: [Double] = [], dumbbellUnit: WeightUnit? = nil,
                machines: [(stack: MachineStack, unit: WeightUnit)] = [], attachments: [String] = [], other: [String] = []) {
        self.unit = unit; self.plates = plates; self.bars = bars; self.dumbbells = dumbbells; self.dumbbellUnit = dumbbellUnit ?? unit
        self.machines = machines; self.attachments = attachments; self.other = other
    }

    public static func == (a: EquipmentInventory, b: EquipmentInventory) -> Bool {
        a.unit == b.unit && a.plates == b.plates && a.bars == b.bars && a.dumbbells == b.dumbbells && a.dumbbellUnit == b.dumbbellUnit
            && a.machines.map(\.stack) == b.machines.map(\.stack) && a.machines.map(\.unit) == b.machines.map(\.unit) && a.attachments == b.attachments
            && a.other == b.other
    }

    /// Seed 002's first-launch default: the standard plate set and bar of `unit`, no dumbbells, machines or attachments.
    public static func standard(_ unit: WeightUnit) -> EquipmentInventory {
        EquipmentInventory(unit: unit, plates: PlateInventory.standard(unit).plates)
    }

    /// The inventory after the ledger's `equipment.updated` events (`Ledger.equipment`), starting from `standard(defaultUnit)`:
    /// each update replaces the keys it carries; its weights are in its `unit`, else the inventory's. A `unit` other than
    /// the plates' starts the plates and bars from that unit's standard set. The ledger starts over at `data.cleared`.
    public static func from(ledger: Ledger, defaultUnit: WeightUnit = .kg) -> EquipmentInventory {
        var inventory = standard(defaultUnit)
        for update in ledger.equipment {
            let unit = update.unit ?? inventory.unit
            if unit != inventory.unit {
                let standard = standard(unit)
                inventory.unit = unit; inventory.plates = standard.plates; inventory.bars = []
            }
            if let plates = update.plates { inventory.plates = plates }
            if let bars = update.bars { inventory.bars = bars }
            if let dumbbells = update.dumbbells { inventory.dumbbells = dumbbells.sorted(); inventory.dumbbellUnit = unit }
            if let machines = update.machines { inventory.machines = machines.map { ($0, unit) } }
            if let attachments = update.attachments { inventory.attachments = attachments }
            if let other = update.equipment { inventory.other = other }
        }
        return inventory
    }

    /// The inventory the lifter recorded (`from(ledger:defaultUnit:)` in the profile's unit); nil before any
    /// `equipment.updated` (since the last `data.cleared`), when nothing says what the lifter owns.
    public static func recorded(in ledger: Ledger) -> EquipmentInventory? {
        ledger.equipment.isEmpty ? nil : from(ledger: ledger, defaultUnit: ledger.displayUnit)
    }

    /// Whether a bar can be loaded: at least one pair of plates of some weight (the bars themselves default to the
    /// standard one). An inventory recorded with `plates: []` has no barbell.
    public var hasBarbell: Bool { plates.contains { $0.weight > 0 && $0.count >= 2 } }

    /// What the inventory holds, in the questionnaire's equipment names (DOMAIN.md §4 "Equipment from the inventory"):
    /// `barbell` when a bar can be loaded (`hasBarbell`), `dumbbells` when pairs are listed, each machine by its name
    /// in kebab case (`Lat Pulldown` → `lat-pulldown`) when the vocabulary knows it, `cable` when cable attachments are
    /// listed, and the `equipment` names recorded. Names the vocabulary does not know are left out.
    public func equipmentNames(_ vocabulary: EquipmentCatalogue = .builtIn) -> [String] {
        var names: [String] = []
        func add(_ name: String) {
            let key = vocabulary.normalise(name)
            if vocabulary.knownNames.contains(key), !names.contains(key) { names.append(key) }
        }
        if hasBarbell { add("barbell") }
        if !dumbbells.isEmpty { add("dumbbells") }
        for machine in machines { add(StableID.kebab(machine.stack.name)) }
        if !attachments.isEmpty { add("cable") }
        other.forEach(add)
        return names
    }

    /// The equipment a programme may use (DOMAIN.md §4 "Equipment from the inventory"): what the `equipment` answer
    /// brings (`EquipmentCatalogue.available(from:)`) together with what the inventory holds (`equipmentNames`), each
    /// expanded on its own; without a barbell in the inventory (`hasBarbell`), an answered `barbell` brings nothing.
    public func available(answers: [String], vocabulary: EquipmentCatalogue = .builtIn) -> Set<String> {
        let answered = answers.map(vocabulary.normalise).filter { hasBarbell || $0 != "barbell" }
        return vocabulary.available(from: answered).union(vocabulary.available(from: equipmentNames(vocabulary)))
    }

    /// The bar of a barbell exercise no bar lists: the bar marked `default`, else the first bar that lists no
    /// exercises (an EZ bar given its curls is never the squat's bar), else the first bar; the standard bar without any.
    public var defaultBar: OwnedBar {
        bars.first(where: \.isDefault) ?? bars.first { $0.exercises.isEmpty } ?? bars.first
            ?? OwnedBar(name: nil, weight: PlateInventory.standard(unit).barWeight)
    }

    /// The bar `exercise` is loaded on: the bar that lists it, else `defaultBar`.
    public func bar(for exercise: String?) -> OwnedBar {
        exercise.flatMap { id in bars.first { $0.exercises.contains(id) } } ?? defaultBar
    }

    /// The plates and the bar of `exercise` (nil: the default bar), for `PlateCalculator`.
    public func plateInventory(for exercise: String?) -> PlateInventory {
        PlateInventory(unit: unit, plates: plates, barWeight: bar(for: exercise).weight)
    }

    /// The machine `exercise` is done on: one that lists it, else one whose name is the exercise's id or one of its
    /// equipment items in kebab case (`Lat Pulldown` for an exercise needing `lat-pulldown`).
    public func machine(for exercise: String, equipment: [String]) -> (stack: MachineStack, unit: WeightUnit)? {
        machines.first { $0.stack.exercises.contains(exercise) } ?? machines.first { machine in
            let slug = StableID.kebab(machine.stack.name)
            return slug == exercise || equipment.contains(slug)
        }
    }

    /// The weights `exercise` (needing `equipment`) can be set to: its machine's stack, else the dumbbell pairs owned
    /// for a dumbbell exercise, else any multiple of the unit's loading step (a bar: DOMAIN.md §7).
    public func loadableWeights(for exercise: String, equipment: [String]) -> LoadableWeights {
        if let machine = machine(for: exercise, equipment: equipment) {
            return .stack(minimum: machine.stack.minimum, maximum: machine.stack.maximum, increment: machine.stack.increment, unit: machine.unit)
        }
        if equipment.contains("dumbbells"), !dumbbells.isEmpty { return .choices(dumbbells, unit: dumbbellUnit) }
        return .step(nil)
    }

    /// Whether `exercise` (needing `equipment`) is loaded on a bar: a barbell exercise (by its `equipment`) not done
    /// on one of the lifter's machines.
    public func isLoadedOnBar(_ exercise: String, equipment: [String]) -> Bool {
        equipment.contains("barbell") && machine(for: exercise, equipment: equipment) == nil
    }

    /// The weight of the bar `exercise` is loaded on (`bar(for:)`), as a weight of `target`: the bar's own weight in
    /// the plates' unit, else converted and raised to the next loading step of `target` (a 20 kg bar is 45 lb, a
    /// 10 kg bar 25 lb: never below the bar). Nil when the exercise is not loaded on a bar (`isLoadedOnBar`).
    public func barWeight(for exercise: String, equipment: [String], in target: WeightUnit) -> Double? {
        guard isLoadedOnBar(exercise, equipment: equipment) else { return nil }
        let weight = bar(for: exercise).weight
        guard target != unit else { return weight }
        return Units.roundDown(Units.convert(weight, from: unit, to: target) + target.loadingStep * (1 - 1e-6), to: target.loadingStep)
    }

    /// Whether the lifter has the cable attachment `id` (`Exercise.attachment`): one of `attachments` names it
    /// (`EquipmentCatalogue.attachment(named:)`); nil when no attachment is listed, so nothing says either way.
    public func hasAttachment(_ id: String, vocabulary: EquipmentCatalogue = .builtIn) -> Bool? {
        attachments.isEmpty ? nil : attachments.contains { vocabulary.attachment(named: $0) == id }
    }

    /// What to load on each side of `exercise`'s bar for `weight` (in `weightUnit`), in the plates' unit; nil when the
    /// exercise is not loaded on a bar (`isLoadedOnBar`) or the weight is below its bar.
    public func plates(for exercise: String, equipment: [String], weight: Double, in weightUnit: WeightUnit) -> PlateLoading? {
        guard isLoadedOnBar(exercise, equipment: equipment) else { return nil }
        return try? PlateCalculator.load(target: Units.convert(weight, from: weightUnit, to: unit), inventory: plateInventory(for: exercise))
    }
}
