// libFuzzer target: the fast event decoder against the reference decoder, and the reference
// JSON parser against Foundation's JSONSerialization, on arbitrary bytes (one line).
//
// The same comparisons as Tests/JournalEventsTests/DifferentialDecoderTests.swift, with the same
// documented differences from Foundation (nesting deeper than 64 levels, a comma before `]` or
// `}`, a NUL among the first four bytes, duplicate keys, long numbers kept as NSDecimalNumber).
// Linked by Fuzz/run.sh with the instrumented JournalEvents module, seeded and run by it (in CI through
// scripts/test; RELIABILITY.md §7):
//
//   Fuzz/run.sh 300 differential-decoder
//
// (Leak detection is off: Foundation and the Swift runtime keep caches alive at exit.)
import Foundation
import JournalEvents

@_cdecl("LLVMFuzzerTestOneInput")
public func differentialDecoderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = UnsafeBufferPointer(start: data, count: size)

    // 1. Fast path, stream decoder and reference path: the same event or the same error.
    let reference = Result { () throws(EventCodec.DecodingError) -> Event in try EventCodec.decodeReference(line) }
    let fast = Result { () throws(EventCodec.DecodingError) -> Event in try EventCodec.decode(line) }
    let stream = Result { () throws(EventCodec.DecodingError) -> Event in try FuzzState.stream.decode(line) }
    precondition(same(fast, reference), "fast path differs from the reference on \(Array(line))")
    precondition(same(stream, reference), "stream decoder differs from the reference on \(Array(line))")

    // 2. The reference parser and JSONSerialization: same accept/reject, same values.
    let ours = Result { () throws(JSONParser.Error) -> JSONValue in try JSONParser.parse(line) }
    let theirs = Result { try JSONSerialization.jsonObject(with: Data(buffer: line), options: [.fragmentsAllowed]) }
    switch (ours, theirs) {
    case (.success(let value), .success(let object)):
        precondition(hasDuplicateKeys(value) || matches(value, object), "values differ from Foundation on \(Array(line))")
    case (.success, .failure):
        preconditionFailure("accepted what Foundation refuses: \(Array(line))")
    case (.failure(let error), .success):
        let documented = error.reason.hasPrefix("nesting deeper") || line.prefix(4).contains(0) || line.contains(UInt8(ascii: ","))
        precondition(documented, "refused what Foundation accepts: \(Array(line)): \(error)")
    case (.failure, .failure):
        break
    }
    return 0
}

enum FuzzState {
    // nonisolated(unsafe): libFuzzer calls LLVMFuzzerTestOneInput from one thread only, so one decoder serves every input.
    nonisolated(unsafe) static let stream = EventCodec.StreamDecoder()
}

func same(_ a: Result<Event, EventCodec.DecodingError>, _ b: Result<Event, EventCodec.DecodingError>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)):
        return x.v == y.v && x.seq == y.seq && x.id == y.id && x.at == y.at && x.type == y.type && identical(.object(x.fields), .object(y.fields))
    case (.failure(let x), .failure(let y)): return x == y
    default: return false
    }
}

func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)): return x.bitPattern == y.bitPattern
    case (.string(let x), .string(let y)): return Array(x.utf8) == Array(y.utf8)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
    case (.object(let x), .object(let y)):
        return x.count == y.count && zip(x.fields, y.fields).allSatisfy { Array($0.key.utf8) == Array($1.key.utf8) && identical($0.value, $1.value) }
    default: return a == b
    }
}

func hasDuplicateKeys(_ value: JSONValue) -> Bool {
    switch value {
    case .array(let items): return items.contains(where: hasDuplicateKeys)
    case .object(let object):
        return Set(object.keys).count != object.count || object.fields.contains { hasDuplicateKeys($0.value) }
    default: return false
    }
}

func matches(_ value: JSONValue, _ object: Any) -> Bool {
    switch value {
    case .null: return object is NSNull
    case .bool(let b): return (object as? Bool) == b || (object as? NSNumber)?.boolValue == b
    case .number(let d):
        if let decimal = object as? NSDecimalNumber, let exact = Double(decimal.description) { return exact == d }
        return (object as? NSNumber)?.doubleValue == d
    case .string(let s): return (object as? String) == s
    case .array(let items):
        guard let array = object as? [Any], array.count == items.count else { return false }
        return zip(items, array).allSatisfy { matches($0, $1) }
    case .object(let fields):
        guard let dictionary = object as? [String: Any], dictionary.count == fields.count else { return false }
        return fields.allSatisfy { field in dictionary[field.key].map { matches(field.value, $0) } ?? false }
    }
}
