import Testing
@testable import JournalEvents

@Suite("JSON parser")
struct JSONParserTests {
    @Test("parses every kind of value and keeps key order")
    func parsesValuesInOrder() throws {
        let value = try JSONParser.parse(#"{"b":1,"a":[true,false,null,-2.5,"x\n\u00e9\ud83d\ude00"],"c":{}}"#)
        #expect(value == .object(["b": 1, "a": [true, false, nil, -2.5, "x\né😀"], "c": .object([:])]))
        #expect(value.objectValue?.keys == ["b", "a", "c"])
    }

    @Test("rejects what RFC 8259 rejects, naming the byte offset", arguments: [
        ("{\"a\":1,}", 7, "expected a quoted key, found '}'"),
        ("[1,2", 4, "unterminated array"),
        ("{\"a\":01}", 5, "invalid number (leading zero)"),
        ("{\"a\":NaN}", 5, "expected a value, found 'N'"),
        ("{\"a\":\"x\ty\"}", 7, "raw control character 0x9 in string (escape it)"),
        ("{\"a\":1} x", 8, "unexpected 'x' after the end of the value"),
        ("{\"a\":\"\\q\"}", 6, "invalid escape '\\q'"),
        ("{\"a\":1e}", 5, "invalid number (digit expected in exponent)"),
        ("{\"a\":1e999}", 5, "number 1e999 is out of range"),
        ("", 0, "expected a value, found end of line"),
    ])
    func rejectsInvalid(text: String, offset: Int, reason: String) {
        #expect(throws: JSONParser.Error(offset: offset, reason: reason)) { try JSONParser.parse(text) }
    }

    @Test("rejects invalid UTF-8 at the offending byte")
    func rejectsInvalidUTF8() {
        let bytes: [UInt8] = Array("{\"a\":\"ok".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        #expect(throws: JSONParser.Error(offset: 8, reason: "invalid UTF-8 in string")) { try JSONParser.parse(bytes) }
    }

    @Test("limits nesting to 64 levels")
    func limitsNesting() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParser.Error(offset: 64, reason: "nesting deeper than 64 levels")) { try JSONParser.parse(deep) }
    }

    @Test("writes canonical JSON that parses back to the same value")
    func writerRoundTrips() throws {
        let value: JSONValue = ["s": "tab\tquote\"slash/é\u{01}", "n": [0, -1, 2.5, 1e-7, 123456789012], "o": ["k": nil]]
        let text = JSONWriter.string(value)
        #expect(text == #"{"s":"tab\tquote\"slash/é\u0001","n":[0,-1,2.5,1e-07,123456789012],"o":{"k":null}}"#)
        #expect(try JSONParser.parse(text) == value)
    }
}

@Suite("Timestamps and calendar days")
struct TimestampTests {
    @Test("round-trips RFC 3339 with milliseconds and offset")
    func roundTrips() throws {
        let time = try #require(Timestamp(rfc3339: "2026-11-21T18:04:05.120+01:00"))
        #expect(time.epochMilliseconds == 1_795_280_645_120)
        #expect(time.offsetSeconds == 3600)
        #expect(time.rfc3339 == "2026-11-21T18:04:05.120+01:00")
        #expect(Timestamp(rfc3339: "2026-11-21T17:04:05Z")?.rfc3339 == "2026-11-21T17:04:05.000+00:00")
        #expect(Timestamp(rfc3339: "2026-11-21T18:04:05.1234-05:30")?.rfc3339 == "2026-11-21T18:04:05.123-05:30")
    }

    @Test("refuses malformed or impossible times", arguments: [
        "2026-11-21T18:04:05", "2026-02-30T10:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T18:04:05+1:00", "yesterday",
    ])
    func refuses(text: String) { #expect(Timestamp(rfc3339: text) == nil) }

    @Test("local day and ISO week come from the recorded offset")
    func localDays() throws {
        // 23:30 in New York is already the next day in UTC.
        let ny = try #require(Timestamp(rfc3339: "2026-11-22T23:30:00.000-05:00"))
        #expect(LocalDate(day: ny.localDay).description == "2026-11-22")
        #expect(LocalDate(day: ny.localDay).isoWeekday == 7)
        #expect(LocalDate(day: ny.localWeekStartDay).description == "2026-11-16")
        let monday = try #require(Timestamp(rfc3339: "2026-11-23T00:00:00.000+01:00"))
        #expect(LocalDate(day: monday.localWeekStartDay).description == "2026-11-23")
        #expect(LocalDate(year: 1970, month: 1, day: 1).day == 0)
        #expect(LocalDate(year: 2000, month: 3, day: 1).description == "2000-03-01")
        #expect(LocalDate(day: -1).description == "1969-12-31")
    }
}
