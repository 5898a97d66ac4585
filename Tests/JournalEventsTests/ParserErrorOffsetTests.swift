import Testing
import JournalEvents

/// FORMAT.md §17 "Messages": every reason of "invalid JSON at byte i of the line", with the byte it points to. The
/// rule: i is the 0-based offset of the unexpected byte; of the start of a malformed string, number or literal; of the
/// first bad byte of invalid UTF-8; of the `\` of a bad escape.
@Suite("Parser errors: each reason, and the byte it points to")
struct ParserErrorOffsetTests {
    @Test("the message and byte of each reason", arguments: [
        (#"{"v":}"#, "invalid JSON at byte 5 of the line: expected a value, found '}'"),
        (#"{"v":1,}"#, "invalid JSON at byte 7 of the line: expected a quoted key, found '}'"),
        (#"{"v" 1}"#, #"invalid JSON at byte 5 of the line: expected ':' after key "v", found '1'"#),
        (#"{"v":1 "seq":2}"#, "invalid JSON at byte 7 of the line: expected ',' or '}' in object, found '\"'"),
        (#"{"a":[1 2]}"#, "invalid JSON at byte 8 of the line: expected ',' or ']' in array, found '2'"),
        (#"{"v":1"#, "invalid JSON at byte 6 of the line: unterminated object"),
        (#"{"a":[1"#, "invalid JSON at byte 7 of the line: unterminated array"),
        (#"{"a":"xyz"#, "invalid JSON at byte 5 of the line: unterminated string"),
        (#"{"a":1} x"#, "invalid JSON at byte 8 of the line: unexpected 'x' after the end of the value"),
        (#"{"a":tru}"#, "invalid JSON at byte 5 of the line: invalid literal"),
        (#"{"a":-x}"#, "invalid JSON at byte 5 of the line: invalid number"),
        (#"{"a":012}"#, "invalid JSON at byte 5 of the line: invalid number (leading zero)"),
        (#"{"a":1.}"#, "invalid JSON at byte 5 of the line: invalid number (digit expected after '.')"),
        (#"{"a":1e+}"#, "invalid JSON at byte 5 of the line: invalid number (digit expected in exponent)"),
        (#"{"a":1e999}"#, "invalid JSON at byte 5 of the line: number 1e999 is out of range"),
        (#"{"a":"x\q"}"#, #"invalid JSON at byte 7 of the line: invalid escape '\q'"#),
        (#"{"a":"\u12"#, #"invalid JSON at byte 6 of the line: truncated \u escape"#),
        (#"{"a":"\uD834\uDD"#, #"invalid JSON at byte 12 of the line: truncated \u escape"#),
        (#"{"a":"\uDC00"}"#, "invalid JSON at byte 6 of the line: unpaired UTF-16 surrogate escape"),
        (#"{"a":"\uD800\u0041"}"#, "invalid JSON at byte 6 of the line: unpaired UTF-16 surrogate escape"),
        (#"{"a":"ok\n\uD800"}"#, "invalid JSON at byte 10 of the line: unpaired UTF-16 surrogate escape"),
        (#"{"a":"\uD800x"}"#, "invalid JSON at byte 6 of the line: unpaired UTF-16 surrogate escape"),
        (#"{"a":"\u12G4"}"#, #"invalid JSON at byte 6 of the line: invalid hex digit in \u escape"#),
        (#"{"a":"\uD800"}"#, "invalid JSON at byte 6 of the line: unpaired UTF-16 surrogate escape"),
        ("{\"a\":\"x\u{01}\"}", "invalid JSON at byte 7 of the line: raw control character 0x1 in string (escape it)"),
        ("{\"a\":\u{7F}}", "invalid JSON at byte 5 of the line: expected a value, found byte 0x7F"),
        ("{\"a\":", "invalid JSON at byte 5 of the line: expected a value, found end of line"),
    ])
    func offsets(line: String, message: String) {
        #expect(Self.message(Array(line.utf8)) == message)
    }

    @Test("invalid UTF-8 points to its first bad byte, not to the string's start")
    func invalidUTF8() {
        // {"a":"xy\xC3("} : the lead byte 0xC3 at offset 8 is followed by '(' (not a continuation byte).
        let line: [UInt8] = Array(#"{"a":"xy"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(Self.message(line) == "invalid JSON at byte 8 of the line: invalid UTF-8 in string")
        // The same after an escape: {"a":"\nxy\xC3("}, the lead byte at offset 10.
        let escaped: [UInt8] = Array(#"{"a":"\nxy"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(Self.message(escaped) == "invalid JSON at byte 10 of the line: invalid UTF-8 in string")
    }

    @Test("nesting past 64 levels points to the 65th opening bracket")
    func nesting() {
        let line = #"{"a":"# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}"
        #expect(Self.message(Array(line.utf8)) == "invalid JSON at byte 68 of the line: nesting deeper than 64 levels")
    }

    /// The message of the decoder the reader uses; the reference decoder must give the same.
    static func message(_ line: [UInt8]) -> String {
        let fast = describe { try EventCodec.decode(line) }
        let reference = describe { try EventCodec.decodeReference(line) }
        return fast == reference ? fast : "the decoders disagree: \(fast) / \(reference)"
    }

    static func describe(_ decode: () throws -> Event) -> String {
        do {
            _ = try decode()
            return "accepted"
        } catch {
            return String(describing: error)
        }
    }
}
