import JournalEvents
import TrainingDomain

/// What imported events say of their rows in the app they came from (`set.completed` and `cardio.logged` with
/// `source`, FORMAT.md), so an export to that app's layout gives the rows back as they were (INTERCHANGE.md
/// §"Names given back"). A later `set.completed` for the same set replaces the earlier one, as in the projections.
public struct ImportedRows: Sendable {
    public struct SetSource: Equatable, Sendable {
        public var app: String
        public var name: String?
        /// The set's label in the app's file: Strong's `Set Order`, Hevy's `set_index`.
        public var label: String?
        public var rpe: Double?
        public var seconds: Double?
        public var km: Double?
        /// FitNotes' `Category`.
        public var category: String? = nil
        /// The file wrote the weight negative (`source_negative`: the help of an assisted exercise).
        public var negative = false
    }

    /// `km` in a file's distance unit as written (`mi`/`miles`, `m`, else kilometres), as its row gave it.
    public static func distance(_ km: Double, in unit: String) -> Double {
        let lowered = unit.lowercased()
        return lowered.hasPrefix("mi") ? km / ValueParsing.kilometresPerMile : lowered == "m" ? km * 1000 : km
    }

    /// A set's `weight` as a row of `app`'s layout writes it: negative again when the set came from that app's file so.
    public static func written(_ weight: Double, _ source: SetSource?, in app: String) -> Double {
        source?.negative == true && source?.app == app ? -weight : weight
    }
    public struct Row: Equatable, Sendable {
        public var label: String?
        public var seconds: Double?
        public var km: Double?
        /// The row's note (Strong's `Notes` on a timed row).
        public var note: String? = nil
        /// FitNotes' `Category` and `Distance Unit` (`mi`, `km`, `m`).
        public var category: String? = nil
        public var distanceUnit: String? = nil
    }
    public struct CardioSource: Equatable, Sendable {
        public var app: String
        public var name: String?
        public var rows: [Row]
    }

    var sets: [String: SetSource] = [:]
    var cardio: [String: CardioSource] = [:]

    /// Each imported workout's app and `source_layout` (nil: the app's classic layout), by workout id.
    var layouts: [String: (app: String, layout: String?)] = [:]

    /// The `source_layout` of a workout imported from a Strong 6.x file, and from an old semicolon Strong file.
    public static let strong6Layout = "strong-6"
    public static let strongSemicolonLayout = "strong-semicolon"

    public static let none = ImportedRows()
    init() {}

    public init(_ events: [Event]) {
        for event in events {
            switch event.knownType {
            case .dataCleared: sets = [:]; cardio = [:]; layouts = [:]
            case .workoutStarted:
                guard let workout = event.string(.workout), let app = event.string(.source) else { continue }
                layouts[workout] = (app, event.string(.sourceLayout))
            case .setCompleted:
                guard let workout = event.string(.workout), let exercise = event.string(.exercise), let set = event.int(.set) else { continue }
                let key = "\(workout)|\(exercise)|\(set)"
                guard let app = event.string(.source) else { sets[key] = nil; continue }
                sets[key] = SetSource(app: app, name: event.string(.sourceName), label: event.string(.sourceSet),
                                      rpe: event.double(.sourceRpe), seconds: event.double(.sourceSeconds), km: event.double(.sourceKm),
                                      category: event.string(.sourceCategory), negative: event.bool(.sourceNegative) == true)
            case .cardioLogged:
                guard let workout = event.string(.workout), let exercise = event.string(.exercise) else { continue }
                let key = "\(workout)|\(exercise)"
                guard let app = event.string(.source) else { cardio[key] = nil; continue }
                let rows = (event.array(.sourceRows) ?? []).compactMap(\.objectValue).map {
                    Row(label: $0["set"]?.stringValue, seconds: $0["seconds"]?.doubleValue, km: $0["km"]?.doubleValue, note: $0["note"]?.stringValue,
                        category: $0["category"]?.stringValue, distanceUnit: $0["distance_unit"]?.stringValue)
                }
                cardio[key] = CardioSource(app: app, name: event.string(.sourceName), rows: rows)
            default: continue
            }
        }
    }

    /// The layout every workout imported from `app` came in (`strong6Layout`), or nil when there is none, some came in
    /// the classic layout, or the layouts differ: an export to `app` writes that layout.
    public func layout(of app: String) -> String? {
        let seen = Set(layouts.values.filter { $0.app == app }.map { $0.layout ?? "" })
        return seen.count == 1 ? seen.first.flatMap { $0.isEmpty ? nil : $0 } : nil
    }

    public func set(workout: String, exercise: String, set: Int) -> SetSource? { sets["\(workout)|\(exercise)|\(set)"] }
    public func cardio(workout: String, exercise: String) -> CardioSource? { cardio["\(workout)|\(exercise)"] }
}
