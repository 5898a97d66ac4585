/// Writes JSON in the journal's canonical form: no whitespace, keys in the given order,
/// integers without a fraction, `/` unescaped, non-ASCII as raw UTF-8, control characters
/// as `\uXXXX` except `\n`, `\r`, `\t`, `\b`, `\f`. See FORMAT.md §"Lines".
public enum JSONWriter {
    public static func string(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let d): writeNumber(d, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, field) in object.fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(field.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(field.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    public static func writeNumber(_ value: Double, into out: inout [UInt8]) {
        if value.rounded(.towardZero) == value && abs(value) < 1e15 {
            out.append(contentsOf: String(Int64(value)).utf8)
        } else {
            // Swift prints the shortest text that reads back as the same Double.
            out.append(contentsOf: value.description.utf8)
        }
    }

    public static func writeString(_ value: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            // Most strings need no escape: their bytes are copied at once.
            guard bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                out.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): out.append(0x5C); out.append(byte)
                case UInt8(ascii: "\\"): out.append(0x5C); out.append(byte)
                case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
                case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
                case 0x08: out.append(0x5C); out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(0x5C); out.append(UInt8(ascii: "f"))
                case 0..<0x20:
                    out.append(contentsOf: "\\u00".utf8)
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xF)])
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
