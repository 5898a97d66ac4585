/// A strict RFC 8259 parser for one JSON text held in memory.
///
/// It accepts exactly what the standard accepts (no comments, no trailing commas, no NaN,
/// no leading zeros, no raw control characters, valid UTF-8 only), limits nesting to
/// `maximumDepth`, and reports the byte offset of the first problem. FORMAT.md §"Lines"
/// names this grammar; the differential tests compare it with Foundation's parser.
public struct JSONParser {
    public static let maximumDepth = 64

    public struct Error: Swift.Error, Equatable, CustomStringConvertible, Sendable {
        /// Byte offset within the parsed text (0-based).
        public var offset: Int
        public var reason: String
        public var description: String { "invalid JSON at byte \(offset) of the line: \(reason)" }
    }

    /// Parses `bytes` as one JSON value surrounded by optional whitespace.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Error) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.position != bytes.count {
            throw Error(offset: parser.position, reason: "unexpected \(parser.describeByte()) after the end of the value")
        }
        return value
    }

    public static func parse(_ bytes: [UInt8]) throws(Error) -> JSONValue {
        do {
            return try bytes.withUnsafeBufferPointer { buffer in try parse(buffer) }
        } catch let error as Error {
            throw error
        } catch {
            fatalError("unreachable")
        }
    }

    public static func parse(_ text: String) throws(Error) -> JSONValue {
        try parse(Array(text.utf8))
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func describeByte() -> String {
        guard position < bytes.count else { return "end of line" }
        let byte = bytes[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(Error) -> JSONValue {
        guard position < bytes.count else { throw Error(offset: position, reason: "expected a value, found end of line") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw Error(offset: position, reason: "expected a value, found \(describeByte())")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(Error) {
        let start = position
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw Error(offset: start, reason: "invalid literal") }
        for index in 0..<count where bytes[position + index] != literal.utf8Start[index] {
            throw Error(offset: start, reason: "invalid literal")
        }
        position += count
    }

    mutating func parseObject(depth: Int) throws(Error) -> JSONValue {
        if depth > JSONParser.maximumDepth { throw Error(offset: position, reason: "nesting deeper than \(JSONParser.maximumDepth) levels") }
        position += 1
        var fields: [JSONField] = []
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject(fields))
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw Error(offset: position, reason: "expected a quoted key, found \(describeByte())")
            }
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw Error(offset: position, reason: "expected ':' after key \"\(key)\", found \(describeByte())")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            fields.append(JSONField(key, value))
            skipWhitespace()
            guard position < bytes.count else { throw Error(offset: position, reason: "unterminated object") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(JSONObject(fields)) }
            throw Error(offset: position, reason: "expected ',' or '}' in object, found \(describeByte())")
        }
    }

    mutating func parseArray(depth: Int) throws(Error) -> JSONValue {
        if depth > JSONParser.maximumDepth { throw Error(offset: position, reason: "nesting deeper than \(JSONParser.maximumDepth) levels") }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw Error(offset: position, reason: "unterminated array") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
            throw Error(offset: position, reason: "expected ',' or ']' in array, found \(describeByte())")
        }
    }

    mutating func parseString() throws(Error) -> String {
        let start = position
        position += 1  // opening quote
        // Fast path: no escapes.
        var scan = position
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[position..<scan])
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw Error(offset: firstInvalidUTF8(from: position, to: scan), reason: "invalid UTF-8 in string")
                }
                position = scan + 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw Error(offset: scan, reason: "raw control character 0x\(String(byte, radix: 16)) in string (escape it)") }
            scan += 1
        }
        if scan >= bytes.count { throw Error(offset: start, reason: "unterminated string") }
        // Slow path with escapes.
        var utf8: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[position..<scan]))
        position = scan
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    // Escapes are ASCII and decode to whole scalars: the first bad byte is in the raw bytes.
                    throw Error(offset: firstInvalidUTF8(from: start + 1, to: position - 1), reason: "invalid UTF-8 in string")
                }
                return text
            }
            if byte < 0x20 { throw Error(offset: position, reason: "raw control character 0x\(String(byte, radix: 16)) in string (escape it)") }
            if byte != UInt8(ascii: "\\") { utf8.append(byte); position += 1; continue }
            // An escape's problem is reported at its backslash (FORMAT.md §17 "Messages"); a surrogate pair's at the
            // backslash of the escape that cannot be paired.
            let escapeStart = position
            position += 1
            guard position < bytes.count else { break }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""): utf8.append(0x22)
            case UInt8(ascii: "\\"): utf8.append(0x5C)
            case UInt8(ascii: "/"): utf8.append(0x2F)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4(escapeAt: escapeStart)
                if (0xD800...0xDBFF).contains(scalar) {
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                        throw Error(offset: escapeStart, reason: "unpaired UTF-16 surrogate escape")
                    }
                    let lowStart = position
                    position += 2
                    let low = try parseHex4(escapeAt: lowStart)
                    guard (0xDC00...0xDFFF).contains(low) else { throw Error(offset: escapeStart, reason: "unpaired UTF-16 surrogate escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw Error(offset: escapeStart, reason: "unpaired UTF-16 surrogate escape")
                }
                utf8.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
            default:
                throw Error(offset: escapeStart, reason: "invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
            }
        }
        throw Error(offset: start, reason: "unterminated string")
    }

    /// The four hex digits after the `\u` whose backslash is at `escapeAt`, where a problem is reported.
    mutating func parseHex4(escapeAt: Int) throws(Error) -> UInt32 {
        guard bytes.count - position >= 4 else { throw Error(offset: escapeAt, reason: "truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw Error(offset: escapeAt, reason: "invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    func firstInvalidUTF8(from start: Int, to end: Int) -> Int {
        var index = start
        while index < end {
            var length = 1
            let byte = bytes[index]
            if byte >= 0xF0 { length = 4 } else if byte >= 0xE0 { length = 3 } else if byte >= 0xC0 { length = 2 }
            let stop = min(index + length, end)
            if String(validating: UnsafeBufferPointer(rebasing: bytes[index..<stop]), as: UTF8.self) == nil { return index }
            index = stop
        }
        return start
    }

    mutating func parseNumber() throws(Error) -> Double {
        let start = position
        var negative = false
        if bytes[position] == UInt8(ascii: "-") { negative = true; position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw Error(offset: start, reason: "invalid number") }
        var integer: UInt64 = 0
        var digits = 0
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count && isDigit(bytes[position]) { throw Error(offset: start, reason: "invalid number (leading zero)") }
            digits = 1
        } else {
            while position < bytes.count && isDigit(bytes[position]) {
                if digits < 18 { integer = integer * 10 + UInt64(bytes[position] - 48) }
                digits += 1
                position += 1
            }
        }
        var simple = digits <= 15
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            simple = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw Error(offset: start, reason: "invalid number (digit expected after '.')") }
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            simple = false
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw Error(offset: start, reason: "invalid number (digit expected in exponent)") }
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        if simple {
            let value = Double(integer)
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw Error(offset: start, reason: "number \(text) is out of range")
        }
        return value
    }

    @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
}
