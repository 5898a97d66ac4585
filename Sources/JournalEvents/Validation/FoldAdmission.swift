/// Which stored events the fold reads (PROJECTIONS.md §"Views are total"). A journal may hold events no recording
/// rule checked (written by another build, another implementation, or merged from another device); the fold must stay
/// total over them, so it leaves out an event that could make a view trap:
///
/// - every number of an event is checked against its field's range, and the event against its type's own rule (the
///   weight limit of its unit), for a type whose fields hold only scalar values: one pass over the payload;
/// - an event whose type has nested fields (arrays, objects: programmes, templates, plans) is checked in full, as
///   `journal verify` checks it, at whatever `v` it was written.
///
/// An event left out is still read and counted (`ReplaySummary.events`), and `verify` lists it under rule violations.
extension SchemaValidator {
    public static func admitsToFold(_ event: Event) -> Bool {
        guard let known = event.knownType, let entry = EventVocabulary.entriesByKnownType[Int(known.rawValue)] else {
            return true   // a type this build does not know: the fold reads none of it
        }
        return entry._withUnsafeGuaranteedRef { entry in
            switch entry.foldCheck {
            case .nothing:
                return true
            case .full:
                return validate(event, against: entry) == nil
            case .numbers(let ranges):
                for position in event.fields.fields.indices {
                    guard case .number(let value) = event.fields.fields[position].value,
                          let key = event.payloadKey(at: position), let range = ranges[Int(key.rawValue)] else { continue }
                    if !range.contains(value) { return false }
                }
                return entry.schema.check?(event) == nil
            }
        }
    }
}

extension FieldKind {
    /// The numbers a field of this kind may hold; nil for a kind that holds none.
    var numberRange: ClosedRange<Double>? {
        switch self {
        case .integer(let range): return Double(range.lowerBound) ... Double(range.upperBound)
        case .number(let range): return range
        case .either(let a, let b): return a.numberRange ?? b.numberRange
        default: return nil
        }
    }

    /// Whether a value of this kind is a scalar (no array or object, and not any JSON).
    var isScalar: Bool {
        switch self {
        case .object, .array, .any: return false
        case .either(let a, let b): return a.isScalar && b.isScalar
        default: return true
        }
    }
}
