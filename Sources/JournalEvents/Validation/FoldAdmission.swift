/// Which stored events the fold reads (PROJECTIONS.md §"Views are total"). A journal may hold events no recording
/// rule checked (written by another build, another implementation, or merged from another device); the fold must stay
/// total over them, so it leaves out an event with a number it could not show: one outside its field's range, at any
/// depth (a nested object's or an array's number against its own kind's range), or an array longer than its kind
/// allows. Nothing else is judged here: a value of the wrong kind is read as absent by the fold, and the recording
/// rules (a weight's unit, its limit for that unit) are `verify`'s to report, not reasons to hide an event.
///
/// A scalar-only type is checked in one pass over its payload, by `PayloadKey` code; a type with nested fields walks
/// its kinds. An event left out is still read and counted (`ReplaySummary.events`), and `verify` lists it under rule
/// violations.
extension SchemaValidator {
    public static func admitsToFold(_ event: Event) -> Bool {
        guard let known = event.knownType, let entry = EventVocabulary.entriesByKnownType[Int(known.rawValue)] else {
            return true   // a type this build does not know: the fold reads none of it
        }
        return entry._withUnsafeGuaranteedRef { entry in
            switch entry.foldCheck {
            case .nothing:
                return true
            case .numbers(let ranges):
                for position in event.fields.fields.indices {
                    guard case .number(let value) = event.fields.fields[position].value,
                          let key = event.payloadKey(at: position), let range = ranges[Int(key.rawValue)] else { continue }
                    if !range.contains(value) { return false }
                }
                return true
            case .nested:
                for field in entry.schema.fields {
                    let value = field.key.map { event[$0] } ?? event.fields[field.name]
                    if let value, !numbersFit(value, field.kind) { return false }
                }
                return true
            }
        }
    }

    /// Whether every number of `value` lies in the range its place in `kind` allows, and every array is within its
    /// length. Values of another kind than `kind` expects are not judged.
    static func numbersFit(_ value: JSONValue, _ kind: FieldKind) -> Bool {
        switch (value, kind) {
        case (.number(let number), _):
            return kind.numberRange.map { $0.contains(number) } ?? true
        case (.array(let elements), .array(let element, let maxCount)):
            return elements.count <= maxCount && elements.allSatisfy { numbersFit($0, element) }
        case (.object(let object), .object(let fields)):
            return fields.allSatisfy { field in object[field.name].map { numbersFit($0, field.kind) } ?? true }
        case (_, .either(let a, let b)):
            return numbersFit(value, a) || numbersFit(value, b)
        default:
            return true
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
