// libFuzzer target: the event decoder (JSONParser.parse and EventCodec.decode) on arbitrary
// bytes, one line, then the recording rules (JournalModel). Linked by Fuzz/run.sh with the instrumented modules.
// Any bytes must parse or throw a positioned error, never crash, hang or allocate without
// bound; whatever parses must round-trip: write it and parse it again to the same value.
import JournalEvents
import JournalModel

@_cdecl("LLVMFuzzerTestOneInput")
public func eventDecoderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    do {
        let value = try JSONParser.parse(bytes)
        let written = JSONWriter.string(value)
        let again = try? JSONParser.parse(written)
        precondition(again == value || hasNaN(value), "JSON does not round-trip: \(written)")
    } catch {
        precondition(error.offset >= 0 && error.offset <= size, "error offset \(error.offset) outside the line of \(size) bytes")
        precondition(!error.reason.isEmpty)
    }
    do {
        let event = try EventCodec.decode(bytes)
        let line = EventCodec.encode(event)
        let again = try EventCodec.decode(line)
        precondition(again == event, "event does not round-trip: \(String(decoding: line, as: UTF8.self))")
        // Validation must answer, whatever the event holds.
        _ = SchemaValidator.validate(event, allowUnknownTypes: false)
        var rules = RecordingRules()
        _ = rules.check(event)
        rules.apply(event)
    } catch {
        precondition(!error.description.isEmpty)
    }
    return 0
}

func hasNaN(_ value: JSONValue) -> Bool {
    switch value {
    case .number(let d): return d.isNaN
    case .array(let items): return items.contains(where: hasNaN)
    case .object(let object): return object.fields.contains { hasNaN($0.value) }
    default: return false
    }
}

/// Builds the lazily made globals (the vocabulary table) once before fuzzing, so LeakSanitizer
/// does not count them as leaks of the first input.
@_cdecl("LLVMFuzzerInitialize")
public func eventDecoderFuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    let line = Array(#"{"v":1,"seq":1,"id":"ph-1","at":"2026-01-05T18:00:00.000+01:00","type":"set.completed","workout":"w1","exercise":"squat","set":1,"weight":100,"unit":"kg","reps":5,"kind":"working"}"#.utf8)
    line.withUnsafeBufferPointer { _ = eventDecoderFuzz($0.baseAddress!, $0.count) }
    return 0
}
