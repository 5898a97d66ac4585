/// The fast path of `EventCodec.decode`: one pass over a line in canonical form (FORMAT.md §"Lines")
/// straight into an `Event`, with no intermediate `JSONValue` tree for the envelope, no `Set` for
/// duplicate keys and no `String` for keys and type names it already knows.
///
/// It only ever says "here is the event" or "not mine" (`nil`): anything unusual — whitespace,
/// escapes, a duplicate key, a missing or invalid envelope field, a number it cannot convert
/// exactly, invalid UTF-8, deep nesting — returns `nil`, and `EventCodec` decodes the line again
/// with the reference path (`JSONParser` then `EventCodec.decode(_: JSONValue)`), which produces the
/// pinned error messages and offsets. So the fast path can change speed, never behaviour; the
/// differential tests (Tests/JournalEventsTests/DifferentialDecoderTests.swift) check exactly that.
struct EventLineDecoder {
    /// Nesting the fast path handles itself (deeper lines take the reference path, which allows 64).
    static let maximumDepth = 32

    let base: UnsafePointer<UInt8>
    let count: Int
    var position = 0
    unowned(unsafe) let known: KnownStrings
    // The table's storage, held here so a correct prediction is a few loads and compares with
    // no call into the class (and no retain of it).
    let learning: Bool
    let predicted: UnsafeMutablePointer<Int32>
    let lengths: UnsafeMutablePointer<Int>
    let offsets: UnsafeMutablePointer<Int>
    let utf8: UnsafeMutablePointer<UInt8>
    let strings: UnsafeMutablePointer<String>
    let isTypeName: UnsafeMutablePointer<Bool>
    let keyCodes: UnsafeMutablePointer<UInt8>
    let types: UnsafeMutablePointer<EventType?>
    /// A learning table's memory of the previous line: its date and its type (nil for the shared table).
    let dayCache: UnsafeMutablePointer<Int>?

    init(base: UnsafePointer<UInt8>, count: Int, known: KnownStrings = .shared) {
        self.base = base
        self.count = count
        self.known = known
        learning = known.learning
        predicted = known.predicted
        lengths = known.lengths
        offsets = known.offsets
        utf8 = known.utf8
        strings = known.strings
        isTypeName = known.isTypeName
        keyCodes = known.keyCodes
        types = known.types
        dayCache = known.learning ? known.dayCache : nil
    }

    /// The string seen at `place` on the previous line when the bytes from `start` are exactly it and its
    /// closing quote: then the string needs no scan (table strings hold no quote, backslash or control byte,
    /// so the match is the whole JSON string). Returns its table index and the position of the closing quote.
    /// (Predictions are reset whenever learned strings are forgotten, so a set one is a live entry.)
    @inline(__always)
    func predictedWhole(_ place: Int, _ start: Int) -> (index: Int, end: Int)? {
        guard learning, place < KnownStrings.predictedPlaces else { return nil }
        let guess = Int(predicted[place])
        guard guess >= 0 else { return nil }
        let length = lengths[guess], end = start &+ length
        guard end < count, base[end] == UInt8(ascii: "\""), memoryEqual(utf8 + offsets[guess], base + start, length) else { return nil }
        return (guess, end)
    }

    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Event? {
        guard let base = line.baseAddress, line.count >= 2 else { return nil }
        var decoder = EventLineDecoder(base: base, count: line.count)
        var payload: [JSONField] = []
        return decoder.decodeEvent(into: &payload)
    }

    // MARK: The envelope

    /// Decodes the line, collecting the payload in `payload` (empty on entry; a stream decoder passes the
    /// same array every time, so its buffer is reused once the previous event is gone).
    mutating func decodeEvent(into payload: inout [JSONField]) -> Event? {
        guard base[0] == UInt8(ascii: "{") else { return nil }
        position = 1
        let generation = known.generation
        // Top-level keys are resolved to their index in the string table (the envelope's are
        // 0…4); a duplicate is a bit already set. A key with no index below 256 (unknown and not
        // learnable) takes the reference path.
        var seen0: UInt64 = 0, seen1: UInt64 = 0, seen2: UInt64 = 0, seen3: UInt64 = 0
        var place = 0
        var v = 0, seq = 0
        var id: String?, type: String?
        var knownType: EventType?
        var at: Timestamp?
        var codes = PayloadKeyCodes()
        payload.reserveCapacity(10)
        while true {
            guard position < count, base[position] == UInt8(ascii: "\"") else { return nil }
            let keyStart = position + 1
            // The key seen here on the previous line, compared in place; otherwise scanned and looked up.
            var keyIndex = -1, keyEnd: Int
            if let (guess, end) = predictedWhole(place, keyStart) {
                keyIndex = guess
                keyEnd = end
            } else {
                guard let (end, ascii) = scanString(from: keyStart), ascii else { return nil }
                keyEnd = end
            }
            position = keyEnd + 1
            guard position < count, base[position] == UInt8(ascii: ":") else { return nil }
            position += 1
            guard position < count else { return nil }
            if keyIndex < 0 {
                guard let found = known.index(at: place, base + keyStart, keyEnd - keyStart, ascii: true) else { return nil }
                keyIndex = found
            }
            guard keyIndex < 256 else { return nil }
            let bit: UInt64 = 1 &<< UInt64(keyIndex & 63)
            switch keyIndex >> 6 {
            case 0: if seen0 & bit != 0 { return nil }; seen0 |= bit
            case 1: if seen1 & bit != 0 { return nil }; seen1 |= bit
            case 2: if seen2 & bit != 0 { return nil }; seen2 |= bit
            default: if seen3 & bit != 0 { return nil }; seen3 |= bit
            }
            switch keyIndex {
            case KnownStrings.v:
                guard let n = parseEnvelopeInteger() else { return nil }
                v = n
            case KnownStrings.seq:
                guard let n = parseEnvelopeInteger() else { return nil }
                seq = n
            case KnownStrings.id:
                guard base[position] == UInt8(ascii: "\""), let (end, ascii) = scanString(from: position + 1) else { return nil }
                let length = end - position - 1
                guard length >= 1 && length <= 64 else { return nil }
                guard let text = makeString(position + 1, length, ascii: ascii) else { return nil }
                id = text
                position = end + 1
            case KnownStrings.at:
                guard base[position] == UInt8(ascii: "\""), let (end, _) = scanString(from: position + 1) else { return nil }
                guard let time = EventLineDecoder.canonicalTimestamp(base + position + 1, end - position - 1, dayCache: dayCache)
                        ?? Timestamp(rfc3339UTF8: UnsafeBufferPointer(start: base + position + 1, count: end - position - 1)) else { return nil }
                at = time
                position = end + 1
            case KnownStrings.type:
                guard base[position] == UInt8(ascii: "\"") else { return nil }
                let start = position + 1
                // Predicted from the previous line's type (types alternate: a set, its rest, the next set, …).
                let slot = dayCache.map { KnownStrings.typePlaces &+ $0[3] } ?? place &+ 1
                defer { if let dayCache { dayCache[3] = Int(knownType?.rawValue ?? 0) } }
                if let (guess, end) = predictedWhole(slot, start), isTypeName[guess] {
                    type = strings[guess]
                    knownType = types[guess]
                    position = end + 1
                    break
                }
                guard let (end, ascii) = scanString(from: start), ascii else { return nil }
                if let index = known.typeNameIndex(at: slot, base + start, end - start) {
                    type = strings[index]
                    knownType = types[index]
                } else {
                    let name = String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
                    guard EventVocabulary.isWellFormedTypeName(name) else { return nil }
                    type = name
                    knownType = EventType(name: name)
                }
                position = end + 1
            default:
                let key = strings[keyIndex]
                codes.set(keyCodes[keyIndex], at: payload.count)
                if base[position] == UInt8(ascii: "\"") {
                    // A string value: try the one seen at this place on the previous line first.
                    let start = position + 1
                    let text: String
                    if let (guess, end) = predictedWhole(place &+ 1, start) {
                        text = strings[guess]
                        position = end + 1
                    } else {
                        guard let (end, ascii) = scanString(from: start) else { return nil }
                        position = end + 1
                        guard let found = known.string(at: place &+ 1, base + start, end - start, ascii: ascii)
                                ?? makeString(start, end - start, ascii: ascii) else { return nil }
                        text = found
                    }
                    payload.append(JSONField(key, .string(text)))
                } else {
                    guard let value = parseValue(depth: 1) else { return nil }
                    payload.append(JSONField(key, value))
                }
            }
            place &+= 2
            guard position < count else { return nil }
            let next = base[position]
            position += 1
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "}") { break }
            return nil
        }
        // Indices seen before a reset of the learned strings may name other keys now.
        guard position == count, v >= 1, seq >= 1, let id, let at, let type, known.generation == generation else { return nil }
        return Event(v: v, seq: seq, id: id, at: at, type: type, knownType: knownType, fields: payload, keyCodes: codes)
    }

    /// `v` and `seq`: a plain positive integer of at most 15 digits (anything else takes the reference path).
    @inline(__always)
    mutating func parseEnvelopeInteger() -> Int? {
        var value = 0
        var digits = 0
        guard base[position] >= UInt8(ascii: "1") && base[position] <= UInt8(ascii: "9") else { return nil }
        while position < count {
            let digit = Int(base[position]) &- 48
            guard digit >= 0 && digit <= 9 else { break }
            value = value &* 10 &+ digit
            digits += 1
            position += 1
        }
        guard digits <= 15 else { return nil }
        if position < count {
            let next = base[position]
            if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
        }
        return value
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmm±HH:MM`, the form writers emit, read with no loops; nil for any
    /// other text (then `Timestamp(rfc3339UTF8:)` decides, so the result is the same). With `dayCache`
    /// (a stream decoder's, never shared between threads), a date equal to the previous one reuses its
    /// already checked day number.
    @inline(__always)
    static func canonicalTimestamp(_ b: UnsafePointer<UInt8>, _ count: Int, dayCache: UnsafeMutablePointer<Int>? = nil) -> Timestamp? {
        guard count == 29, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b[19] == UInt8(ascii: "."), b[26] == UInt8(ascii: ":"),
              b[23] == UInt8(ascii: "+") || b[23] == UInt8(ascii: "-") else { return nil }
        var bad: UInt8 = 0
        @inline(__always) func d(_ i: Int) -> Int {
            let digit = b[i] &- 48
            bad |= digit > 9 ? 1 : 0
            return Int(digit)
        }
        // `YYYY-MM-` and `DD` as two words: the cache holds them (never both zero for a real date) and the day number.
        let dateWord = Int(Int64(bitPattern: UnsafeRawPointer(b).loadUnaligned(as: UInt64.self)))
        let dayWord = Int(UnsafeRawPointer(b + 8).loadUnaligned(as: UInt16.self))
        let days: Int
        if let dayCache, dayCache[0] == dateWord, dayCache[1] == dayWord {
            days = dayCache[2]
        } else {
            let year = d(0) * 1000 + d(1) * 100 + d(2) * 10 + d(3)
            let month = d(5) * 10 + d(6), day = d(8) * 10 + d(9)
            guard bad == 0, month >= 1 && month <= 12, day >= 1, day <= LocalDate.daysIn(month: month, year: year) else { return nil }
            days = LocalDate(year: year, month: month, day: day).day
            if let dayCache { dayCache[0] = dateWord; dayCache[1] = dayWord; dayCache[2] = days }
        }
        let hour = d(11) * 10 + d(12), minute = d(14) * 10 + d(15), second = d(17) * 10 + d(18)
        let millis = d(20) * 100 + d(21) * 10 + d(22)
        let offsetHours = d(24) * 10 + d(25), offsetMinutes = d(27) * 10 + d(28)
        guard bad == 0, hour < 24, minute < 60, second < 60, offsetHours < 24, offsetMinutes < 60 else { return nil }
        let offset = (offsetHours * 3600 + offsetMinutes * 60) * (b[23] == UInt8(ascii: "-") ? -1 : 1)
        let local = Int64(days) * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000 + second * 1000 + millis)
        return Timestamp(epochMilliseconds: local - Int64(offset) * 1000, offsetSeconds: Int32(offset))
    }

    // MARK: Values

    mutating func parseValue(depth: Int) -> JSONValue? {
        guard position < count else { return nil }
        switch base[position] {
        case UInt8(ascii: "\""):
            guard let (end, ascii) = scanString(from: position + 1) else { return nil }
            let start = position + 1
            position = end + 1
            if let text = known.string(base + start, end - start, ascii: ascii) { return .string(text) }
            guard let text = makeString(start, end - start, ascii: ascii) else { return nil }
            return .string(text)
        case UInt8(ascii: "{"):
            guard depth < EventLineDecoder.maximumDepth else { return nil }
            position += 1
            var fields: [JSONField] = []
            guard position < count else { return nil }
            if base[position] == UInt8(ascii: "}") { position += 1; return .object(JSONObject(fields)) }
            while true {
                guard position < count, base[position] == UInt8(ascii: "\"") else { return nil }
                let keyStart = position + 1
                guard let (keyEnd, ascii) = scanString(from: keyStart) else { return nil }
                let key: String
                if let text = known.string(base + keyStart, keyEnd - keyStart, ascii: ascii) {
                    key = text
                } else {
                    guard let text = makeString(keyStart, keyEnd - keyStart, ascii: ascii) else { return nil }
                    key = text
                }
                position = keyEnd + 1
                guard position < count, base[position] == UInt8(ascii: ":") else { return nil }
                position += 1
                guard let value = parseValue(depth: depth + 1) else { return nil }
                // A repeated key is the reference decoder's to report (FORMAT.md §3).
                if fields.contains(where: { $0.key == key }) { return nil }
                fields.append(JSONField(key, value))
                guard position < count else { return nil }
                let next = base[position]
                position += 1
                if next == UInt8(ascii: ",") { continue }
                if next == UInt8(ascii: "}") { return .object(JSONObject(fields)) }
                return nil
            }
        case UInt8(ascii: "["):
            guard depth < EventLineDecoder.maximumDepth else { return nil }
            position += 1
            var elements: [JSONValue] = []
            guard position < count else { return nil }
            if base[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
            while true {
                guard let value = parseValue(depth: depth + 1) else { return nil }
                elements.append(value)
                guard position < count else { return nil }
                let next = base[position]
                position += 1
                if next == UInt8(ascii: ",") { continue }
                if next == UInt8(ascii: "]") { return .array(elements) }
                return nil
            }
        case UInt8(ascii: "t"):
            guard count - position >= 4, base[position + 1] == UInt8(ascii: "r"), base[position + 2] == UInt8(ascii: "u"),
                  base[position + 3] == UInt8(ascii: "e") else { return nil }
            position += 4
            return .bool(true)
        case UInt8(ascii: "f"):
            guard count - position >= 5, base[position + 1] == UInt8(ascii: "a"), base[position + 2] == UInt8(ascii: "l"),
                  base[position + 3] == UInt8(ascii: "s"), base[position + 4] == UInt8(ascii: "e") else { return nil }
            position += 5
            return .bool(false)
        case UInt8(ascii: "n"):
            guard count - position >= 4, base[position + 1] == UInt8(ascii: "u"), base[position + 2] == UInt8(ascii: "l"),
                  base[position + 3] == UInt8(ascii: "l") else { return nil }
            position += 4
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let number = parseNumber() else { return nil }
            return .number(number)
        default:
            return nil
        }
    }

    /// Finds the closing quote of a string without escapes or control characters starting at
    /// `start` (just after the opening quote). Returns nil for anything else. Eight bytes at a
    /// time: a word with no quote, backslash, control byte is skipped whole.
    @inline(__always)
    func scanString(from start: Int) -> (end: Int, ascii: Bool)? {
        var index = start
        var high: UInt64 = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index &+ 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let slash = word ^ (ones &* 0x5C)
            let hits = (((quote &- ones) & ~quote) | ((slash &- ones) & ~slash) | ((word &- ones &* 0x20) & ~word)) & highs
            if hits != 0 {
                // The lowest flagged byte is a true hit (borrows only flag bytes above one), so
                // it is the first quote, backslash or control byte.
                let bit = hits.trailingZeroBitCount
                let found = index &+ (bit >> 3)
                guard base[found] == UInt8(ascii: "\"") else { return nil }
                let before = word & ((1 &<< UInt64(bit & ~7)) &- 1)
                return (found, (high | before) & highs == 0)
            }
            high |= word
            index &+= 8
        }
        var tail: UInt8 = 0
        while index < count {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") { return (index, high & highs == 0 && tail < 0x80) }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            tail |= byte
            index &+= 1
        }
        return nil
    }

    @inline(__always)
    func makeString(_ start: Int, _ length: Int, ascii: Bool) -> String? {
        let bytes = UnsafeBufferPointer(start: base + start, count: length)
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// RFC 8259 numbers, converted exactly as `JSONParser` converts them (correctly rounded).
    /// Integers of at most 15 digits convert directly; decimals of at most 15 significant
    /// digits with a power of ten within ±22 take Clinger's fast path (one correctly rounded
    /// multiplication or division of exact operands); anything else goes through `Double(String)`.
    mutating func parseNumber() -> Double? {
        let start = position
        var negative = false
        if base[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
            guard position < count else { return nil }
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var first = base[position]
        guard first >= 48 && first <= 57 else { return nil }
        if first == 48 {
            position += 1
            if position < count && base[position] >= 48 && base[position] <= 57 { return nil }
            digits = 1
        } else {
            while position < count {
                first = base[position]
                guard first >= 48 && first <= 57 else { break }
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(first &- 48) }
                digits += 1
                position += 1
            }
        }
        var fractionDigits = 0
        var exact = true
        if position < count && base[position] == UInt8(ascii: ".") {
            position += 1
            guard position < count, base[position] >= 48 && base[position] <= 57 else { return nil }
            while position < count {
                let byte = base[position]
                guard byte >= 48 && byte <= 57 else { break }
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(byte &- 48) }
                digits += 1
                fractionDigits += 1
                position += 1
            }
            exact = false
        }
        var exponent = 0
        if position < count && (base[position] == UInt8(ascii: "e") || base[position] == UInt8(ascii: "E")) {
            position += 1
            var negativeExponent = false
            if position < count && (base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")) {
                negativeExponent = base[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < count, base[position] >= 48 && base[position] <= 57 else { return nil }
            while position < count {
                let byte = base[position]
                guard byte >= 48 && byte <= 57 else { break }
                if exponent < 100_000 { exponent = exponent * 10 + Int(byte - 48) }
                position += 1
            }
            if negativeExponent { exponent = -exponent }
            exact = false
        }
        if exact && digits <= 15 {
            let value = Double(mantissa)
            return negative ? -value : value
        }
        let scale = exponent - fractionDigits
        if digits <= 15 && scale >= -22 && scale <= 22 {
            let value = scale < 0 ? Double(mantissa) / powersOfTen(-scale) : Double(mantissa) * powersOfTen(scale)
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}

/// 10^n for 0 ≤ n ≤ 22: every one is exact in a Double.
@inline(__always)
func powersOfTen(_ n: Int) -> Double {
    switch n {
    case 0: return 1e0
    case 1: return 1e1
    case 2: return 1e2
    case 3: return 1e3
    case 4: return 1e4
    case 5: return 1e5
    case 6: return 1e6
    case 7: return 1e7
    case 8: return 1e8
    case 9: return 1e9
    case 10: return 1e10
    case 11: return 1e11
    case 12: return 1e12
    case 13: return 1e13
    case 14: return 1e14
    case 15: return 1e15
    case 16: return 1e16
    case 17: return 1e17
    case 18: return 1e18
    case 19: return 1e19
    case 20: return 1e20
    case 21: return 1e21
    default: return 1e22
    }
}

/// Byte equality of two ranges of `count` bytes, a word at a time with overlapping loads (never
/// reading outside either range).
@inline(__always)
func memoryEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
    if count >= 8 {
        var index = 0
        while index &+ 8 < count {
            if x.loadUnaligned(fromByteOffset: index, as: UInt64.self) != y.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
            index &+= 8
        }
        return x.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) == y.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }
    if count >= 4 {
        return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
            && x.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self) == y.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
    }
    if count >= 2 {
        return x.loadUnaligned(as: UInt16.self) == y.loadUnaligned(as: UInt16.self)
            && x.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self) == y.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
    }
    return count == 0 || a[0] == b[0]
}

/// Strings the decoder meets on almost every line — keys, type names, units, kinds — held once,
/// so decoding one costs a table look-up (and a retain when it is longer than 15 bytes) instead
/// of a validation and an allocation.
///
/// `shared` holds the vocabulary's strings and never changes, so any thread may read it. A
/// table made with `learning: true` (one per `EventCodec.StreamDecoder`, never shared between
/// threads) also remembers the values it meets — workout ids, exercise ids — up to a fixed
/// budget, so memory stays bounded however long the journal.
// @unchecked Sendable: `shared` is filled in `init` and only read after; a learning table lives in one (non-Sendable) StreamDecoder.
final class KnownStrings: @unchecked Sendable {
    static let shared = KnownStrings(learning: false)
    static let v = 0, seq = 1, id = 2, at = 3, type = 4

    static let slotCount = 1 << 13
    static let learnedBudget = 2048
    static let longestKept = 48

    let learning: Bool
    /// Open addressing: slot holds index + 1, 0 when empty.
    let slots: UnsafeMutablePointer<Int32>
    let strings: UnsafeMutablePointer<String>
    let isTypeName: UnsafeMutablePointer<Bool>
    /// Each string's `PayloadKey` code (0 for none) and `EventType`, for the decoder to hand to `Event`.
    let keyCodes: UnsafeMutablePointer<UInt8>
    let types: UnsafeMutablePointer<EventType?>
    /// The previous line's date (two words of its bytes) and day number, all zero until a date is read,
    /// then its type's raw value (0: none or outside the vocabulary).
    let dayCache: UnsafeMutablePointer<Int>
    /// Where each string's bytes start in `utf8`, and its length.
    let offsets: UnsafeMutablePointer<Int>
    let lengths: UnsafeMutablePointer<Int>
    let utf8: UnsafeMutablePointer<UInt8>
    let capacity: Int
    var count = 0
    var utf8Count = 0
    /// For a learning table: the entry seen last time at each place of a line (key or string
    /// value of the n-th top-level field), tried before hashing. -1 when none.
    let predicted: UnsafeMutablePointer<Int32>
    /// Places of a line, then one place per previous line's type for predicting the type.
    static let typePlaces = 128
    static let predictedPlaces = 128 + 64
    /// Entries below this index are the vocabulary's; the rest were learned and are forgotten
    /// together when the budget is spent.
    var knownCount = 0
    /// Changes whenever learned strings are forgotten (their indices are then reused).
    var generation = 0

    /// The vocabulary's strings, in table order, worked out once.
    static let vocabulary: [(String, Bool)] = {
        var list: [(String, Bool)] = []
        var seen = Set<String>()
        func add(_ text: String, type: Bool = false) {
            if seen.insert(text).inserted { list.append((text, type)) }
        }
        // The envelope's keys first, at the indices `KnownStrings.v` … `.type`, then payload keys
        // (so they fit the decoder's 256-bit duplicate check), then type names and values.
        for key in ["v", "seq", "id", "at", "type"] { add(key) }
        func addKind(_ kind: FieldKind) {
            switch kind {
            case .choice(let options): options.forEach { add($0) }
            case .object(let fields): fields.forEach { add($0.name); addKind($0.kind) }
            case .array(let element, _): addKind(element)
            case .either(let a, let b): addKind(a); addKind(b)
            default: break
            }
        }
        func addNames(_ kind: FieldKind) {
            switch kind {
            case .object(let fields): fields.forEach { add($0.name); addNames($0.kind) }
            case .array(let element, _): addNames(element)
            case .either(let a, let b): addNames(a); addNames(b)
            default: break
            }
        }
        for schema in EventVocabulary.all {
            for field in schema.fields { add(field.name); addNames(field.kind) }
        }
        for schema in EventVocabulary.all { add(schema.type, type: EventVocabulary.isWellFormedTypeName(schema.type)) }
        for schema in EventVocabulary.all {
            for field in schema.fields { addKind(field.kind) }
        }
        for extra in EventVocabulary.units + EventVocabulary.setKinds { add(extra) }
        // (`EventLineDecoder.predictedWhole` relies on no entry holding a quote, a backslash or a control byte.)
        return list.filter { $0.0.utf8.count <= KnownStrings.longestKept && !$0.0.utf8.contains { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 } }
    }()

    init(learning: Bool) {
        self.learning = learning
        let list = KnownStrings.vocabulary
        capacity = list.count + (learning ? KnownStrings.learnedBudget : 0)
        slots = .allocate(capacity: KnownStrings.slotCount)
        slots.initialize(repeating: 0, count: KnownStrings.slotCount)
        strings = .allocate(capacity: capacity)
        isTypeName = .allocate(capacity: capacity)
        keyCodes = .allocate(capacity: capacity)
        types = .allocate(capacity: capacity)
        dayCache = .allocate(capacity: 4)
        dayCache.initialize(repeating: 0, count: 4)
        offsets = .allocate(capacity: capacity)
        lengths = .allocate(capacity: capacity)
        utf8 = .allocate(capacity: capacity * KnownStrings.longestKept)
        predicted = .allocate(capacity: KnownStrings.predictedPlaces)
        predicted.initialize(repeating: -1, count: KnownStrings.predictedPlaces)
        for (text, type) in list {
            var bytes = Array(text.utf8)
            // A fresh copy: strings longer than 15 bytes live on the heap, and a table of its own
            // keeps each reader's reference counting off other threads' cache lines.
            let copy = String(decoding: bytes, as: UTF8.self)
            bytes.withUnsafeMutableBufferPointer { insert($0.baseAddress!, $0.count, copy, isType: type) }
        }
        knownCount = count
    }

    /// Forgets every learned string, keeping the vocabulary's.
    func forgetLearned() {
        generation &+= 1
        (strings + knownCount).deinitialize(count: count - knownCount)
        count = knownCount
        utf8Count = knownCount == 0 ? 0 : offsets[knownCount - 1] + lengths[knownCount - 1]
        slots.update(repeating: 0, count: KnownStrings.slotCount)
        predicted.update(repeating: -1, count: KnownStrings.predictedPlaces)
        for index in 0..<count {
            let (slot, _) = self.slot(utf8 + offsets[index], lengths[index])
            slots[slot] = Int32(index + 1)
        }
    }

    deinit {
        strings.deinitialize(count: count)
        strings.deallocate()
        slots.deallocate()
        isTypeName.deallocate()
        keyCodes.deallocate()
        types.deallocate()
        dayCache.deallocate()
        offsets.deallocate()
        lengths.deallocate()
        utf8.deallocate()
        predicted.deallocate()
    }

    /// Length and four sampled bytes: cheap, and enough to spread a few thousand strings.
    @inline(__always)
    static func hash(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
        guard count > 0 else { return 0 }
        var hash = UInt32(truncatingIfNeeded: count) &* 0x9E37_79B1
        hash = (hash ^ UInt32(bytes[0])) &* 0x0100_0193
        hash = (hash ^ UInt32(bytes[count &- 1])) &* 0x0100_0193
        hash = (hash ^ UInt32(bytes[count >> 1])) &* 0x0100_0193
        hash = (hash ^ UInt32(bytes[count >> 2])) &* 0x0100_0193
        hash = (hash ^ UInt32(bytes[(count &* 3) >> 2])) &* 0x0100_0193
        return Int(hash ^ (hash >> 16))
    }

    /// The slot where `bytes` is, or the empty slot where it would go.
    @inline(__always)
    func slot(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> (slot: Int, index: Int?) {
        let mask = KnownStrings.slotCount - 1
        var slot = KnownStrings.hash(bytes, count) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return (slot, nil) }
            let index = entry &- 1
            if lengths[index] == count && memoryEqual(utf8 + offsets[index], bytes, count) { return (slot, index) }
            slot = (slot &+ 1) & mask
        }
    }

    func insert(_ bytes: UnsafePointer<UInt8>, _ length: Int, _ text: String, isType: Bool) {
        let (slot, existing) = self.slot(bytes, length)
        guard existing == nil, count < capacity else { return }
        append(bytes, length, text, isType: isType, slot: slot)
    }

    /// Stores `text` (whose UTF-8 is `bytes`) as the next entry, reachable from hash `slot`; returns its index.
    @discardableResult
    func append(_ bytes: UnsafePointer<UInt8>, _ length: Int, _ text: String, isType: Bool, slot: Int) -> Int {
        (strings + count).initialize(to: text)
        isTypeName[count] = isType
        keyCodes[count] = PayloadKey(name: text)?.rawValue ?? 0
        (types + count).initialize(to: isType ? EventType(name: text) : nil)
        offsets[count] = utf8Count
        lengths[count] = length
        (utf8 + utf8Count).update(from: bytes, count: length)
        utf8Count += length
        count += 1
        slots[slot] = Int32(count)
        return count - 1
    }

    /// The string whose UTF-8 is `bytes` (a string literal's bytes, without escapes), if this
    /// table holds it or can learn it. `ascii` says the bytes are all below 0x80; otherwise they
    /// are validated, and nil means they are not UTF-8.
    @inline(__always)
    func string(_ bytes: UnsafePointer<UInt8>, _ length: Int, ascii: Bool) -> String? {
        index(bytes, length, ascii: ascii).map { strings[$0] }
    }

    /// `string(_:_:ascii:)` for the key or value at `place` of a line: a learning table first
    /// tries what it saw there on the previous line.
    @inline(__always)
    func string(at place: Int, _ bytes: UnsafePointer<UInt8>, _ length: Int, ascii: Bool) -> String? {
        index(at: place, bytes, length, ascii: ascii).map { strings[$0] }
    }

    /// The index of the string at `place` of a line (see `string(at:_:_:ascii:)`).
    @inline(__always)
    func index(at place: Int, _ bytes: UnsafePointer<UInt8>, _ length: Int, ascii: Bool) -> Int? {
        guard learning, place < KnownStrings.predictedPlaces else { return index(bytes, length, ascii: ascii) }
        let guess = Int(predicted[place])
        if guess >= 0 && guess < count && lengths[guess] == length && memoryEqual(utf8 + offsets[guess], bytes, length) {
            return guess
        }
        guard let found = index(bytes, length, ascii: ascii) else { return nil }
        predicted[place] = Int32(found)
        return found
    }

    /// The index of a known event type name at `place` of a line.
    @inline(__always)
    func typeNameIndex(at place: Int, _ bytes: UnsafePointer<UInt8>, _ length: Int) -> Int? {
        guard learning, place < KnownStrings.predictedPlaces else { return typeNameIndex(bytes, length) }
        let guess = Int(predicted[place])
        if guess >= 0 && guess < knownCount && isTypeName[guess] && lengths[guess] == length
            && memoryEqual(utf8 + offsets[guess], bytes, length) {
            return guess
        }
        guard let found = typeNameIndex(bytes, length) else { return nil }
        predicted[place] = Int32(found)
        return found
    }

    func index(_ bytes: UnsafePointer<UInt8>, _ length: Int, ascii: Bool) -> Int? {
        guard length <= KnownStrings.longestKept else { return nil }
        let (slot, index) = self.slot(bytes, length)
        if let index { return index }
        guard learning else { return nil }
        if count == capacity {
            forgetLearned()
            return self.index(bytes, length, ascii: ascii)
        }
        let buffer = UnsafeBufferPointer(start: bytes, count: length)
        guard let text = ascii ? String(decoding: buffer, as: UTF8.self) : String(validating: buffer, as: UTF8.self) else { return nil }
        return append(bytes, length, text, isType: false, slot: slot)
    }

    /// The index of a known event type name (well formed by construction).
    @inline(__always)
    func typeNameIndex(_ bytes: UnsafePointer<UInt8>, _ length: Int) -> Int? {
        guard length <= KnownStrings.longestKept, let index = slot(bytes, length).index, isTypeName[index] else { return nil }
        return index
    }
}

extension EventCodec {
    /// Decodes the lines of one stream (a journal being read), faster than `EventCodec.decode`
    /// line by line: it remembers the strings it has met (ids of workouts and exercises) so a
    /// repeated one costs a look-up instead of an allocation. Results and errors are exactly
    /// those of `EventCodec.decode`. Not thread-safe: one per reader.
    public final class StreamDecoder {
        let strings = KnownStrings(learning: true)
        /// The payload array handed to the last event: when the caller has let go of that event, the next
        /// line reuses its buffer (no allocation and no free per line).
        var payload: [JSONField] = []

        public init() {}

        public func decode(_ line: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> Event {
            if let base = line.baseAddress, line.count >= 2 {
                var decoder = EventLineDecoder(base: base, count: line.count, known: strings)
                payload.removeAll(keepingCapacity: true)
                if let event = decoder.decodeEvent(into: &payload) { return event }
            }
            return try EventCodec.decodeReference(line)
        }

        public func decode(_ line: [UInt8]) throws(DecodingError) -> Event {
            try line.withUnsafeBufferPointer { buffer throws(DecodingError) in try decode(buffer) }
        }

        /// `EventCodec.decodeCanonical` with this stream's learned strings: the event of a line in canonical form, or nil.
        public func decodeCanonical(_ line: [UInt8]) -> Event? {
            line.withUnsafeBufferPointer { line in
                guard let base = line.baseAddress, line.count >= 2 else { return nil }
                var decoder = EventLineDecoder(base: base, count: line.count, known: strings)
                payload.removeAll(keepingCapacity: true)
                return decoder.decodeEvent(into: &payload)
            }
        }
    }
}
