import Foundation
import JournalTesting
import Testing
@testable import JournalEvents

/// The fast event decoder (`EventLineDecoder`, behind `EventCodec.decode` and
/// `EventCodec.StreamDecoder`) must agree with the reference path (`JSONParser` then
/// `EventCodec.decode(_: JSONValue)`) on every input: the same event, or the same error with the
/// same offset. The reference parser in turn must agree with Foundation's `JSONSerialization`:
/// same accept/reject, same values. Inputs are random canonical events and random mutations of
/// them, from fixed seeds, so a failure reproduces. Fuzz/DifferentialDecoder/main.swift runs the
/// same comparisons under libFuzzer.
@Suite("Differential decoding")
struct DifferentialDecoderTests {
    /// The campaigns' sizes: CI's, and the full ones with `JOURNAL_CAMPAIGNS=full`. The differential fuzz target
    /// (`Fuzz/run.sh --ci`) makes 600,000 more comparisons of mutated lines in every CI run.
    static let canonicalEvents = CampaignSize.ci(8_000, full: 20_000)
    static let mutatedLines = CampaignSize.ci(20_000, full: 60_000)
    static let parserTexts = CampaignSize.ci(10_000, full: 30_000)

    @Test("fast and reference decoders agree on random canonical events (8,000; 20,000 in the full campaign)")
    func agreesOnCanonicalEvents() {
        var random = TestRandom(seed: 0x5EED_0001)
        let stream = EventCodec.StreamDecoder()
        for index in 0..<Self.canonicalEvents {
            let line = EventCodec.encode(DifferentialInputs.randomEvent(&random, seq: index + 1))
            expectAgreement(line, stream: stream)
        }
    }

    @Test("fast and reference decoders agree on mutated lines (20,000; 60,000 in the full campaign)")
    func agreesOnMutatedLines() {
        var random = TestRandom(seed: 0x5EED_0002)
        let stream = EventCodec.StreamDecoder()
        for index in 0..<Self.mutatedLines {
            var line = EventCodec.encode(DifferentialInputs.randomEvent(&random, seq: index + 1))
            let mutations = 1 + random.below(3)
            for _ in 0..<mutations { DifferentialInputs.mutate(&line, &random) }
            expectAgreement(line, stream: stream)
        }
    }

    @Test("fast and reference decoders agree on hand-picked edge cases", arguments: DifferentialInputs.edgeCases)
    func agreesOnEdgeCases(line: String) {
        expectAgreement(Array(line.utf8), stream: EventCodec.StreamDecoder())
    }

    @Test("the stream decoder keeps agreeing after its string budget is spent and forgotten")
    func agreesPastTheStringBudget() throws {
        let stream = EventCodec.StreamDecoder()
        let at = try #require(Timestamp(rfc3339: "2026-11-21T18:04:05.120+01:00"))
        for index in 0..<(KnownStrings.learnedBudget * 3) {
            let event = Event(seq: index + 1, id: "ph-\(String(index + 1, radix: 36))", at: at, type: "set.completed", fields: [
                "workout": .string("workout-number-\(index)"), "exercise": .string("custom-exercise-\(index % 5000)"),
                "set": 1, "weight": 82.5, "unit": "kg", "reps": 8, "kind": "working",
            ])
            let line = EventCodec.encode(event)
            let decoded = try stream.decode(line)
            #expect(decoded == event)
        }
    }

    @Test("the reference parser agrees with JSONSerialization on random and mutated texts (10,000; 30,000 in the full campaign)")
    func parserAgreesWithFoundation() {
        var random = TestRandom(seed: 0x5EED_0003)
        for index in 0..<Self.parserTexts {
            var text: [UInt8]
            if index % 2 == 0 {
                text = EventCodec.encode(DifferentialInputs.randomEvent(&random, seq: index + 1))
            } else {
                text = Array(JSONWriter.string(DifferentialInputs.randomValue(&random, depth: 0)).utf8)
            }
            if index % 3 != 0 {
                for _ in 0..<(1 + random.below(3)) { DifferentialInputs.mutate(&text, &random) }
            }
            expectFoundationAgreement(text)
        }
    }

    @Test("the reference parser agrees with JSONSerialization on hand-picked texts", arguments: DifferentialInputs.foundationCases)
    func parserAgreesWithFoundationOnEdgeCases(text: String) {
        expectFoundationAgreement(Array(text.utf8))
    }

    // MARK: Comparisons

    func expectAgreement(_ line: [UInt8], stream: EventCodec.StreamDecoder, sourceLocation: SourceLocation = #_sourceLocation) {
        let reference = Result { () throws(EventCodec.DecodingError) -> Event in try EventCodec.decodeReference(line) }
        let fast = Result { () throws(EventCodec.DecodingError) -> Event in try EventCodec.decode(line) }
        let streamed = Result { () throws(EventCodec.DecodingError) -> Event in try stream.decode(line) }
        let shown = String(decoding: line, as: UTF8.self).debugDescription
        #expect(DifferentialInputs.same(fast, reference), "fast path differs on \(shown)", sourceLocation: sourceLocation)
        #expect(DifferentialInputs.same(streamed, reference), "stream decoder differs on \(shown)", sourceLocation: sourceLocation)
    }

    func expectFoundationAgreement(_ text: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let ours = Result { () throws(JSONParser.Error) -> JSONValue in try JSONParser.parse(text) }
        let theirs = Result { try JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed]) }
        let shown = String(decoding: text, as: UTF8.self).debugDescription
        switch (ours, theirs) {
        case (.success(let value), .success(let object)):
            // Documented difference: a duplicate key is kept twice by JSONParser (and refused in
            // an event envelope), while Foundation keeps the last; compare values only without them.
            if !DifferentialInputs.hasDuplicateKeys(value) {
                #expect(DifferentialInputs.matches(value, object), "values differ on \(shown)", sourceLocation: sourceLocation)
            }
        case (.failure(let error), .success(let object)):
            // Documented differences, both where JSONParser follows RFC 8259 (FORMAT.md §"Lines"):
            // it refuses nesting deeper than 64 levels, and it refuses a comma before `]` or `}`,
            // which Foundation on Linux accepts. Without those commas the values must agree.
            if error.reason.hasPrefix("nesting deeper") { return }
            // And a third: Foundation reads a text with a NUL among its first four bytes as UTF-16
            // or UTF-32 (RFC 4627's detection); journal lines are UTF-8 only.
            if text.prefix(4).contains(0) { return }
            let repaired = DifferentialInputs.withoutTrailingCommas(text)
            if repaired != text, let value = try? JSONParser.parse(repaired) {
                #expect(DifferentialInputs.hasDuplicateKeys(value) || DifferentialInputs.matches(value, object),
                        "values differ on \(shown)", sourceLocation: sourceLocation)
                return
            }
            Issue.record("we refuse what Foundation accepts: \(shown): \(error)", sourceLocation: sourceLocation)
        case (.success, .failure(let error)):
            Issue.record("we accept what Foundation refuses: \(shown): \(error)", sourceLocation: sourceLocation)
        case (.failure, .failure):
            break
        }
    }
}

/// Deterministic inputs for the differential tests (and the seeds of the fuzz target).
enum DifferentialInputs {
    static let edgeCases: [String] = [
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","n":-0}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","n":-0.0,"m":1E+2,"k":0.1e-3}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","n":123456789012345678,"m":1.7976931348623157e308}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","n":1e309}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","n":0.30000000000000004,"m":9007199254740993}"#,
        #"{"v":1.0,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#,
        #"{"v":1,"seq":1e0,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#,
        #"{"v":01,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"a\u002d1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05Z","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-02-29T18:04:05.120+01:00","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2028-02-29T23:59:59.999-23:59","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+24:00","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21t18:04:05.120+01:00","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.12+01:00","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"X.y"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"set.completed","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","é":1,"é":2}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","k":1,"k":2}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","k":{"a":1,"a":2}}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","s":"tab\there","u":"\u00e9\ud83d\ude00"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","s":"ünïcødé — ok","t":"12345678"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","a":[],"o":{},"n":null,"b":[true,false]}"#,
        #" {"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"} "#,
        #"{"v":1, "seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y",}"#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y""#,
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","d":"#
            + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}",
        #"{"v":1,"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y","d":"#
            + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}",
        #"{"v":1,"seq":999999999999999,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#,
        #"{"v":1,"seq":9999999999999999,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#,
        #"{"seq":1,"id":"a-1","at":"2026-11-21T18:04:05.120+01:00","type":"x.y"}"#,
        "{}", "[]", "", "{", "\"x\"", "nul", "{\"v\":tru}",
    ]

    static let foundationCases: [String] = [
        "0", "-0", "1.5e3", "1E-2", "-1.25", "123456789012345678901234567890", "1e308", "1e-400", "0.1",
        "\"\\u00e9\"", "\"\\ud83d\\ude00\"", "\"\\/\"", "[1,2,[3,{\"a\":null}]]", "{\"a\":true,\"b\":false}",
        " [ 1 , 2 ] ", "\t{}\n", "[1,]", "[01]", "[.5]", "[1.]", "[-]", "[+1]", "[1e]", "[NaN]", "[Infinity]",
        "\"\\x\"", "\"a\tb\"", "[\"\\ud800\"]", "[\"\\udc00\"]", "{\"a\" 1}", "{1:2}", "[1 2]", "\"abc", "[true false]",
        "nulll", "[\"\\u12\"]", "{\"a\":1}}", "1e999",
    ]

    static let exercises = ["barbell-bench-press", "barbell-back-squat", "deadlift", "pull-up", "dumbbell-curl", "x"]
    static let strings = ["", "a", "w1", "Push", "Felt strong today", "é", "ünïcødé", "😀 emoji", "quote \" inside",
                          "back\\slash", "tab\tnew\nline", "ctl \u{01}", "slash /", "12345678901234567", "\u{7F}"]

    static func randomEvent(_ random: inout TestRandom, seq: Int) -> Event {
        let types = EventVocabulary.all.map(\.type) + ["future.thing_happened"]
        let type = types[random.below(types.count)]
        var fields = JSONObject()
        switch random.below(3) {
        case 0:
            fields = ["workout": .string("w\(random.below(500))"), "exercise": .string(exercises[random.below(exercises.count)]),
                      "set": .int(1 + random.below(6)), "weight": .number(randomNumber(&random)), "unit": random.below(2) == 0 ? "kg" : "lb",
                      "reps": .int(random.below(20)), "kind": "working"]
        case 1:
            if let schema = EventVocabulary.schema(for: type) { fields = SampleValues.payload(for: schema) }
        default:
            for index in 0..<random.below(6) { fields["k\(index)\(strings[random.below(3)])"] = randomValue(&random, depth: 1) }
        }
        let millis = Int64(1_600_000_000_000) + Int64(random.below(400_000_000)) * 1000 + Int64(random.below(1000))
        let offset = Int32(random.below(28 * 4) - 14 * 4) * 900
        let id = random.below(10) == 0 ? strings[random.below(strings.count)] : "ph-\(String(seq, radix: 36))"
        return Event(v: 1 + random.below(3), seq: seq, id: id.isEmpty ? "x" : id,
                     at: Timestamp(epochMilliseconds: millis, offsetSeconds: offset), type: type, fields: fields)
    }

    static func randomNumber(_ random: inout TestRandom) -> Double {
        switch random.below(8) {
        case 0: return Double(random.below(1000))
        case 1: return Double(random.below(4000)) / 2
        case 2: return Double(random.below(100_000)) / 100
        case 3: return -Double(random.below(1000)) / 8
        case 4: return Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
        case 5: return Double(random.next() % 1_000_000_000_000_000_000)
        case 6: return [0.1, 0.2, 0.30000000000000004, 1e-7, 1e21, 1e22, 1e23, .leastNonzeroMagnitude, -0.0, 123456.789][random.below(10)]
        default: return Double(random.below(1_000_000)) * 1e-6
        }
    }

    static func randomValue(_ random: inout TestRandom, depth: Int) -> JSONValue {
        switch random.below(depth > 3 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return .number(randomNumber(&random))
        case 3: return .string(strings[random.below(strings.count)])
        case 4: return .array((0..<random.below(4)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var object = JSONObject()
            for index in 0..<random.below(4) { object["k\(index)"] = randomValue(&random, depth: depth + 1) }
            return .object(object)
        }
    }

    /// Bytes that matter to a JSON parser, and a few that should never appear.
    static let interesting: [UInt8] = Array("\"\\{}[],:.-+eE0123456789tfnu \t\r\nx/".utf8) + [0x00, 0x01, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xF0, 0xFF]

    static func mutate(_ line: inout [UInt8], _ random: inout TestRandom) {
        guard !line.isEmpty else { line = [interesting[random.below(interesting.count)]]; return }
        let at = random.below(line.count)
        switch random.below(7) {
        case 0: line[at] = interesting[random.below(interesting.count)]
        case 1: line.insert(interesting[random.below(interesting.count)], at: at)
        case 2: line.remove(at: at)
        case 3: line.removeLast(random.below(min(line.count, 12)) + 1)
        case 4: line[at] ^= UInt8(1 << random.below(8))
        case 5:
            let end = min(line.count, at + 1 + random.below(12))
            line.insert(contentsOf: line[at..<end], at: random.below(line.count))
        default:
            // Swap a digit for another, or a character for its escaped form.
            if line[at] >= 48 && line[at] <= 57 { line[at] = UInt8(48 + random.below(10)) }
            else if line[at] >= 97 && line[at] <= 122 {
                let escaped = Array(String(format: "\\u%04x", Int(line[at])).utf8)
                line.replaceSubrange(at...at, with: escaped)
            }
        }
    }

    static func same(_ a: Result<Event, EventCodec.DecodingError>, _ b: Result<Event, EventCodec.DecodingError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            return x.v == y.v && x.seq == y.seq && x.id == y.id && x.at == y.at && x.type == y.type
                && identical(.object(x.fields), .object(y.fields))
        case (.failure(let x), .failure(let y)):
            return x == y
        default:
            return false
        }
    }

    /// Equal, with numbers compared bit for bit (so -0 and 0 differ) and keys byte for byte.
    static func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x.bitPattern == y.bitPattern
        case (.string(let x), .string(let y)): return Array(x.utf8) == Array(y.utf8)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x.fields, y.fields).allSatisfy { Array($0.key.utf8) == Array($1.key.utf8) && identical($0.value, $1.value) }
        default: return a == b
        }
    }

    /// `text` without any comma whose next significant byte closes an array or object.
    static func withoutTrailingCommas(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var inString = false
        var escaped = false
        for (index, byte) in text.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                out.append(byte)
                continue
            }
            if byte == 0x22 { inString = true }
            if byte == UInt8(ascii: ",") {
                let next = text[(index + 1)...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
                if next == UInt8(ascii: "]") || next == UInt8(ascii: "}") { continue }
            }
            out.append(byte)
        }
        return out
    }

    static func hasDuplicateKeys(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let items): return items.contains(where: hasDuplicateKeys)
        case .object(let object):
            return Set(object.keys.map { Array($0.utf8) }).count != object.count || Set(object.keys).count != object.count
                || object.fields.contains { hasDuplicateKeys($0.value) }
        default: return false
        }
    }

    /// Our value against what JSONSerialization returned.
    static func matches(_ value: JSONValue, _ object: Any) -> Bool {
        switch value {
        case .null: return object is NSNull
        case .bool(let b):
            // JSONSerialization hands back booleans as NSNumber (or Bool); kinds cannot differ here
            // since both parsers tell `true` from `1` by its first byte.
            return (object as? Bool) == b || (object as? NSNumber)?.boolValue == b
        case .number(let d):
            // Foundation keeps a number of more than about 17 digits as an exact NSDecimalNumber,
            // whose `doubleValue` is not correctly rounded: compare with its exact decimal rounded
            // once (what `Double(String)` does, and so what we do).
            if let decimal = object as? NSDecimalNumber, let exact = Double(decimal.description) { return exact == d }
            guard let number = object as? NSNumber else { return false }
            return number.doubleValue == d
        case .string(let s): return (object as? String) == s
        case .array(let items):
            guard let array = object as? [Any], array.count == items.count else { return false }
            return zip(items, array).allSatisfy { matches($0, $1) }
        case .object(let fields):
            guard let dictionary = object as? [String: Any], dictionary.count == fields.count else { return false }
            return fields.allSatisfy { field in dictionary[field.key].map { matches(field.value, $0) } ?? false }
        }
    }
}

/// SplitMix64: small, fast, and the same sequence on every platform.
struct TestRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
