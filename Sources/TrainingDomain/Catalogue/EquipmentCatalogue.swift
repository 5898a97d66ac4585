import JournalEvents
import JournalModel

/// The equipment vocabulary (`Data/equipment.json`): seed 000's categories and seed 001's sub-items.
public struct EquipmentCatalogue: Sendable {
    /// Category → its items, in file order.
    public var categories: [(name: String, items: [String])]
    public var gymCategories: Set<String>
    /// Categories whose items are machines of that kind (a filter on the category matches its items).
    public var machineCategories: Set<String>
    public var gymItems: [String]
    public var always: [String]
    public var synonyms: [String: String]
    /// Each cable attachment (`rope`, `v-bar`, …) with the spellings of an inventory's attachment that name it, in
    /// kebab case (`attachments`).
    public var attachments: [(id: String, names: [String])]

    public static let builtIn: EquipmentCatalogue = {
        do { return try EquipmentCatalogue(json: BundledData.json("equipment.json")) } catch {
            preconditionFailure("\(error)")
        }
    }()

    init(json: JSONValue) throws {
        guard let object = json["categories"]?.objectValue else {
            throw BundledData.LoadError(file: "equipment.json", reason: "missing \"categories\"")
        }
        categories = object.fields.map { ($0.key, $0.value.stringArray ?? []) }
        gymCategories = Set(json["gym_categories"]?.stringArray ?? [])
        machineCategories = Set(json["machine_categories"]?.stringArray ?? [])
        gymItems = json["gym_items"]?.stringArray ?? []
        always = json["always"]?.stringArray ?? []
        var synonyms: [String: String] = [:]
        for field in json["synonyms"]?.objectValue ?? [:] { synonyms[field.key] = field.value.stringValue }
        self.synonyms = synonyms
        attachments = (json["attachments"]?.objectValue ?? [:]).fields.map { ($0.key, $0.value.stringArray ?? []) }
    }

    /// The attachment id a name from the lifter's inventory means (`Tricep Rope` → `rope`, `D-handle` →
    /// `single-handle`); nil when it names none the vocabulary knows.
    public func attachment(named name: String) -> String? {
        let key = StableID.kebab(name)
        return attachments.first { $0.id == key || $0.names.contains(key) }?.id
    }

    /// Every known name: categories, items, gym items.
    public var knownNames: Set<String> {
        var names = Set(categories.map(\.name))
        for category in categories { names.formUnion(category.items) }
        names.formUnion(gymItems)
        names.formUnion(always)
        names.insert("trap-bar")
        return names
    }

    /// `Squat Rack`, `squat_rack`, `Dumbbell` → `squat-rack`, `squat-rack`, `dumbbells`.
    public func normalise(_ name: String) -> String {
        var key = ""
        for character in name.trimmed.lowercased() {
            key.append(character == "_" || character == " " ? "-" : character)
        }
        return synonyms[key] ?? key
    }

    /// What a lifter with these answers can use (see `Data/equipment.json` "about").
    public func available(from answers: [String]) -> Set<String> {
        let listed = Set(answers.map(normalise))
        var available = listed.union(always)
        for category in categories where listed.contains(category.name) {
            if listed.isDisjoint(with: category.items) { available.formUnion(category.items) }
        }
        if !listed.isDisjoint(with: gymCategories) { available.formUnion(gymItems) }
        return available
    }
}
