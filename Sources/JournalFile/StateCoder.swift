/// The compact binary form of a snapshot's state (`<journal>.home-snapshot`, FORMAT.md §9): any `Codable`
/// value, written through its own `encode(to:)`, read back through its `init(from:)`. About twenty times faster to
/// read than JSON, which matters because a snapshot exists to be read quickly.
///
/// Layout: a string table (varint count, then each string as varint length + UTF-8), then one value. Every string
/// (keys included) is an index into the table, so repeated exercise ids cost one varint each and decode without
/// allocating. A value is a tag byte and its payload:
///
/// | tag | value | payload |
/// |---|---|---|
/// | 0 | nil | — |
/// | 1, 2 | false, true | — |
/// | 3 | signed integer | zigzag varint |
/// | 4 | unsigned integer | varint |
/// | 5 | floating point | 8 bytes, the IEEE 754 double's bits little-endian |
/// | 6 | string | varint index into the table |
/// | 7 | keyed container | u32 byte length of the entries, u32 count, count × (varint key index, value) |
/// | 8 | unkeyed container | u32 byte length of the values, u32 count, count × value |
///
/// Keys are kept in the order the type encoded them; reading them in the same order (what synthesized `Codable`
/// does) is the fast path, any other order still works. Writing streams (a container's length is filled in when
/// the next value of an enclosing container starts), so a type must finish a nested container before it writes
/// to an outer one, as synthesized conformances do; one that does not makes `encode` throw (no snapshot then).
public enum StateCoder {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let stream = Stream()
        try stream.value(value, level: 0)
        stream.close(deeperThan: -1)
        if let misuse = stream.misuse { throw Failure(description: misuse) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(stream.bytes.count + stream.order.count * 24)
        appendVarint(UInt64(stream.order.count), to: &bytes)
        for string in stream.order {
            appendVarint(UInt64(string.utf8.count), to: &bytes)
            bytes.append(contentsOf: string.utf8)
        }
        return bytes + stream.bytes
    }

    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let reader = try Reader(bytes)
        return try reader.decode(T.self, at: reader.rootStart)
    }

    // MARK: Writing

    enum Tag: UInt8 { case null = 0, no, yes, int, uint, double, string, keyed, unkeyed }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var v = value
        while v >= 0x80 { bytes.append(UInt8(truncatingIfNeeded: v) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    /// The bytes being written, the string table, and the containers still open (innermost last).
    /// (Its properties skip the dynamic exclusivity checks, a quarter of the time otherwise: one writer, no reentrancy.)
    final class Stream {
        @exclusivity(unchecked) var bytes: [UInt8] = []
        @exclusivity(unchecked) var strings: [String: Int] = [:]
        @exclusivity(unchecked) var order: [String] = []
        /// Each open container: where its length field is, and how many entries it has so far.
        @exclusivity(unchecked) var open: [(start: Int, count: Int)] = []
        var misuse: String?

        init() { bytes.reserveCapacity(1 << 20) }

        func string(_ string: String) {
            let index: Int
            if let found = strings[string] { index = found } else { index = order.count; strings[string] = index; order.append(string) }
            appendVarint(UInt64(index), to: &bytes)
        }

        /// Closes (fills in the length and count of) every container deeper than `level` (1-based; 0 = none open).
        func close(deeperThan level: Int) {
            while open.count > max(level, 0) {
                let (start, count) = open.removeLast()
                let length = UInt32(truncatingIfNeeded: bytes.count - start - 8)
                for i in 0..<4 {
                    bytes[start + i] = UInt8(truncatingIfNeeded: length >> UInt32(8 * i))
                    bytes[start + 4 + i] = UInt8(truncatingIfNeeded: UInt32(truncatingIfNeeded: count) >> UInt32(8 * i))
                }
            }
        }

        /// Starts an entry of the container at `level` (1-based), checking that it is still the innermost open one.
        func entry(level: Int, start: Int) {
            close(deeperThan: level)
            guard open.count == level, open[level - 1].start == start else {
                misuse = misuse ?? "a value was written to a container after a later sibling started"
                return
            }
            open[level - 1].count += 1
        }

        /// Opens a container as the value being written at `level`; returns its level and identity.
        func begin(_ tag: Tag) -> (level: Int, start: Int) {
            bytes.append(tag.rawValue)
            let start = bytes.count
            bytes.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0])
            open.append((start, 0))
            return (open.count, start)
        }

        func null() { bytes.append(Tag.null.rawValue) }
        func bool(_ b: Bool) { bytes.append(b ? Tag.yes.rawValue : Tag.no.rawValue) }
        func int(_ i: Int64) { bytes.append(Tag.int.rawValue); appendVarint(UInt64(bitPattern: (i << 1) ^ (i >> 63)), to: &bytes) }
        func uint(_ u: UInt64) { bytes.append(Tag.uint.rawValue); appendVarint(u, to: &bytes) }
        func double(_ d: Double) {
            bytes.append(Tag.double.rawValue)
            let bits = d.bitPattern
            for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(8 * i))) }
        }
        func text(_ s: String) { bytes.append(Tag.string.rawValue); string(s) }

        /// Writes one value (whatever it encodes as) inside the container at `level` (0 for the root).
        func value<T: Encodable>(_ value: T, level: Int) throws {
            switch T.self {
            case is String.Type: text(value as! String)
            case is Int.Type: int(Int64(value as! Int))
            case is Double.Type: double(value as! Double)
            case is Bool.Type: bool(value as! Bool)
            case is Int64.Type: int(value as! Int64)
            case is Int32.Type: int(Int64(value as! Int32))
            case is UInt64.Type: uint(value as! UInt64)
            default:
                let before = bytes.count
                try value.encode(to: StreamEncoder(stream: self, level: level))
                close(deeperThan: level)
                if bytes.count == before { null() }   // a value that encoded nothing reads back as nil
            }
        }
    }

    struct StreamEncoder: Encoder {
        let stream: Stream
        /// The level of the container this value is written into (0 for the root).
        let level: Int
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let (level, start) = stream.begin(.keyed)
            return KeyedEncodingContainer(KeyedWriter<Key>(stream: stream, level: level, start: start))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let (level, start) = stream.begin(.unkeyed)
            return UnkeyedWriter(stream: stream, level: level, start: start)
        }
        func singleValueContainer() -> any SingleValueEncodingContainer { SingleWriter(stream: stream, level: level) }
    }

    struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let stream: Stream
        let level: Int
        let start: Int
        var codingPath: [any CodingKey] { [] }
        func key(_ key: Key) { stream.entry(level: level, start: start); stream.string(key.stringValue) }

        mutating func encodeNil(forKey key: Key) throws { self.key(key); stream.null() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { self.key(key); try stream.value(value, level: level) }
        mutating func encode(_ value: String, forKey key: Key) throws { self.key(key); stream.text(value) }
        mutating func encode(_ value: Int, forKey key: Key) throws { self.key(key); stream.int(Int64(value)) }
        mutating func encode(_ value: Double, forKey key: Key) throws { self.key(key); stream.double(value) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { self.key(key); stream.bool(value) }
        // An absent optional is written as nil, so that reading finds every key in order (the fast path).
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { self.key(key); if let value { stream.text(value) } else { stream.null() } }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { self.key(key); if let value { stream.int(Int64(value)) } else { stream.null() } }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { self.key(key); if let value { stream.double(value) } else { stream.null() } }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { self.key(key); if let value { stream.bool(value) } else { stream.null() } }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeIfPresent(value.map(Double.init), forKey: key) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeIfPresent(value.map(Int.init), forKey: key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeIfPresent(value.map(Int.init), forKey: key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeIfPresent(value.map(Int.init), forKey: key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { self.key(key); if let value { stream.int(value) } else { stream.null() } }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeIfPresent(value.map(UInt64.init), forKey: key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeIfPresent(value.map(UInt64.init), forKey: key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeIfPresent(value.map(UInt64.init), forKey: key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeIfPresent(value.map(UInt64.init), forKey: key) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { self.key(key); if let value { stream.uint(value) } else { stream.null() } }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            self.key(key)
            return StreamEncoder(stream: stream, level: level).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            self.key(key)
            return StreamEncoder(stream: stream, level: level).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { self.key(Key(stringValue: "super")!); return StreamEncoder(stream: stream, level: level) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { self.key(key); return StreamEncoder(stream: stream, level: level) }
    }

    struct UnkeyedWriter: UnkeyedEncodingContainer {
        let stream: Stream
        let level: Int
        let start: Int
        var count = 0
        var codingPath: [any CodingKey] { [] }
        mutating func next() { stream.entry(level: level, start: start); count += 1 }

        mutating func encodeNil() throws { next(); stream.null() }
        mutating func encode<T: Encodable>(_ value: T) throws { next(); try stream.value(value, level: level) }
        mutating func encode(_ value: String) throws { next(); stream.text(value) }
        mutating func encode(_ value: Int) throws { next(); stream.int(Int64(value)) }
        mutating func encode(_ value: Double) throws { next(); stream.double(value) }
        mutating func encode(_ value: Bool) throws { next(); stream.bool(value) }
        mutating func encode(_ value: Int64) throws { next(); stream.int(value) }
        mutating func encode(_ value: Int32) throws { next(); stream.int(Int64(value)) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            next()
            return StreamEncoder(stream: stream, level: level).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            next()
            return StreamEncoder(stream: stream, level: level).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { next(); return StreamEncoder(stream: stream, level: level) }
    }

    struct SingleWriter: SingleValueEncodingContainer {
        let stream: Stream
        let level: Int
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() throws { stream.null() }
        mutating func encode<T: Encodable>(_ value: T) throws { try stream.value(value, level: level) }
        mutating func encode(_ value: String) throws { stream.text(value) }
        mutating func encode(_ value: Int) throws { stream.int(Int64(value)) }
        mutating func encode(_ value: Double) throws { stream.double(value) }
        mutating func encode(_ value: Bool) throws { stream.bool(value) }
    }

    // MARK: Reading

    final class Reader {
        let bytes: [UInt8]
        var strings: [String] = []
        var rootStart = 0

        init(_ bytes: [UInt8]) throws {
            self.bytes = bytes
            var position = 0
            let count = try varint(&position)
            guard count <= UInt64(bytes.count) else { throw Failure(description: "string table of \(count) entries in \(bytes.count) bytes") }
            strings.reserveCapacity(Int(count))
            for _ in 0..<count {
                let length = try varint(&position)
                guard length <= UInt64(bytes.count - position) else { throw Failure(description: "string past the end at byte \(position)") }
                strings.append(String(decoding: bytes[position..<position + Int(length)], as: UTF8.self))
                position += Int(length)
            }
            rootStart = position
        }

        func varint(_ position: inout Int) throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard position < bytes.count, shift < 64 else { throw Failure(description: "bad varint at byte \(position)") }
                let byte = bytes[position]
                position += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return result }
                shift += 7
            }
        }

        func u32(at position: Int) -> Int {
            Int(bytes[position]) | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2]) << 16 | Int(bytes[position + 3]) << 24
        }

        func tag(at position: Int) throws -> Tag {
            guard position < bytes.count, let tag = Tag(rawValue: bytes[position]) else { throw Failure(description: "bad tag at byte \(position)") }
            return tag
        }

        /// Where the value starting at `position` ends.
        func skip(_ position: Int) throws -> Int {
            var p = position + 1
            switch try tag(at: position) {
            case .null, .no, .yes: return p
            case .int, .uint, .string: _ = try varint(&p); return p
            case .double: guard p + 8 <= bytes.count else { throw Failure(description: "double past the end") }; return p + 8
            case .keyed, .unkeyed:
                guard p + 8 <= bytes.count else { throw Failure(description: "container past the end at byte \(position)") }
                let length = u32(at: p)
                guard length <= bytes.count - p - 8 else { throw Failure(description: "container past the end at byte \(position)") }
                return p + 8 + length
            }
        }

        /// The start of a container's entries, their count, and its end.
        func container(_ expected: Tag, at position: Int) throws -> (start: Int, count: Int, end: Int) {
            guard try tag(at: position) == expected else { throw Failure(description: "expected a \(expected) container at byte \(position)") }
            let end = try skip(position)
            let p = position + 9
            let count = u32(at: position + 5)
            guard count <= end - p else { throw Failure(description: "container count \(count) too large at byte \(position)") }
            return (p, count, end)
        }

        func string(at position: Int) throws -> String {
            guard try tag(at: position) == .string else { throw Failure(description: "expected a string at byte \(position)") }
            var p = position + 1
            let index = try varint(&p)
            guard index < UInt64(strings.count) else { throw Failure(description: "string index \(index) out of the table") }
            return strings[Int(index)]
        }

        func signed(at position: Int) throws -> Int64 {
            var p = position + 1
            switch try tag(at: position) {
            case .int: let z = try varint(&p); return Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
            case .uint: let u = try varint(&p); guard u <= UInt64(Int64.max) else { break }; return Int64(u)
            default: break
            }
            throw Failure(description: "expected an integer at byte \(position)")
        }

        func unsigned(at position: Int) throws -> UInt64 {
            var p = position + 1
            switch try tag(at: position) {
            case .uint: return try varint(&p)
            case .int: let s = try signed(at: position); guard s >= 0 else { break }; return UInt64(s)
            default: break
            }
            throw Failure(description: "expected an unsigned integer at byte \(position)")
        }

        func double(at position: Int) throws -> Double {
            switch try tag(at: position) {
            case .double:
                guard position + 9 <= bytes.count else { throw Failure(description: "double past the end") }
                var bits: UInt64 = 0
                for i in 0..<8 { bits |= UInt64(bytes[position + 1 + i]) << UInt64(8 * i) }
                return Double(bitPattern: bits)
            case .int, .uint: return Double(try signed(at: position))
            default: throw Failure(description: "expected a number at byte \(position)")
            }
        }

        func bool(at position: Int) throws -> Bool {
            switch try tag(at: position) {
            case .yes: return true
            case .no: return false
            default: throw Failure(description: "expected a boolean at byte \(position)")
            }
        }

        func integer<I: FixedWidthInteger>(_ type: I.Type, at position: Int) throws -> I {
            if I.isSigned {
                guard let value = I(exactly: try signed(at: position)) else { throw Failure(description: "integer out of range at byte \(position)") }
                return value
            }
            guard let value = I(exactly: try unsigned(at: position)) else { throw Failure(description: "integer out of range at byte \(position)") }
            return value
        }

        func decode<T: Decodable>(_ type: T.Type, at position: Int) throws -> T {
            if T.self == String.self { return try string(at: position) as! T }
            if T.self == Int.self { return try integer(Int.self, at: position) as! T }
            if T.self == Double.self { return try double(at: position) as! T }
            if T.self == Bool.self { return try bool(at: position) as! T }
            if T.self == Int64.self { return try signed(at: position) as! T }
            if T.self == Int32.self { return try integer(Int32.self, at: position) as! T }
            if T.self == UInt64.self { return try unsigned(at: position) as! T }
            return try T(from: TreeDecoder(reader: self, position: position))
        }
    }

    struct TreeDecoder: Decoder {
        let reader: Reader
        let position: Int
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            let (start, count, end) = try reader.container(.keyed, at: position)
            return KeyedDecodingContainer(KeyedReader<Key>(reader: reader, start: start, count: count, end: end))
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let (start, count, _) = try reader.container(.unkeyed, at: position)
            return UnkeyedReader(reader: reader, cursor: start, count: count)
        }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleReader(reader: reader, position: position) }
    }

    final class KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let reader: Reader
        let start: Int
        let count: Int
        let end: Int
        /// The next entry in encoding order (the fast path) and its index.
        @exclusivity(unchecked) var cursor: Int
        @exclusivity(unchecked) var index = 0

        init(reader: Reader, start: Int, count: Int, end: Int) {
            self.reader = reader; self.start = start; self.count = count; self.end = end; cursor = start
        }

        var codingPath: [any CodingKey] { [] }

        /// The key index and value position of the entry at `position`.
        func entry(at position: Int) throws -> (key: Int, value: Int) {
            var p = position
            let key = try reader.varint(&p)
            guard key < UInt64(reader.strings.count) else { throw Failure(description: "key index \(key) out of the table") }
            return (Int(key), p)
        }

        /// The value position of `key`, and whether it is the entry at the cursor.
        func find(_ key: Key) throws -> (value: Int, atCursor: Bool)? {
            let name = key.stringValue
            if index < count {
                let (id, value) = try entry(at: cursor)
                if reader.strings[id] == name { return (value, true) }
            }
            // Out of order, or absent (an optional encoded as nothing): look at every entry.
            var p = start
            for _ in 0..<count {
                let (id, value) = try entry(at: p)
                if reader.strings[id] == name { return (value, false) }
                p = try reader.skip(value)
            }
            return nil
        }

        func value(_ key: Key) throws -> Int {
            guard let (value, atCursor) = try find(key) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no \"\(key.stringValue)\" in the snapshot"))
            }
            if atCursor {
                cursor = try reader.skip(value)
                index += 1
            }
            return value
        }

        var allKeys: [Key] {
            var keys: [Key] = []
            var p = start
            for _ in 0..<count {
                guard let (id, value) = try? entry(at: p), let next = try? reader.skip(value) else { break }
                if let key = Key(stringValue: reader.strings[id]) { keys.append(key) }
                p = next
            }
            return keys
        }

        func contains(_ key: Key) -> Bool { (try? find(key)) != nil }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let (value, atCursor) = try find(key) else { return true }
            guard try reader.tag(at: value) == .null else { return false }
            if atCursor { cursor = try reader.skip(value); index += 1 }
            return true
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try reader.decode(T.self, at: value(key)) }
        /// The value's position, or nil when it is absent or nil (one look-up instead of three).
        func present(_ key: Key) throws -> Int? {
            guard let (value, atCursor) = try find(key) else { return nil }
            if atCursor { cursor = try reader.skip(value); index += 1 }
            return try reader.tag(at: value) == .null ? nil : value
        }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try present(key).map { try reader.decode(T.self, at: $0) } }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map { try reader.string(at: $0) } }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map { try reader.integer(Int.self, at: $0) } }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key).map { try reader.double(at: $0) } }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map { try reader.bool(at: $0) } }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader.string(at: value(key)) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try reader.integer(Int.self, at: value(key)) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader.double(at: value(key)) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader.bool(at: value(key)) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try TreeDecoder(reader: reader, position: value(key)).container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try TreeDecoder(reader: reader, position: value(key)).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { TreeDecoder(reader: reader, position: try value(Key(stringValue: "super")!)) }
        func superDecoder(forKey key: Key) throws -> any Decoder { TreeDecoder(reader: reader, position: try value(key)) }
    }

    struct UnkeyedReader: UnkeyedDecodingContainer {
        let reader: Reader
        var cursor: Int
        let total: Int
        var currentIndex = 0

        init(reader: Reader, cursor: Int, count: Int) { self.reader = reader; self.cursor = cursor; total = count }

        var codingPath: [any CodingKey] { [] }
        var count: Int? { total }
        var isAtEnd: Bool { currentIndex >= total }

        mutating func next() throws -> Int {
            guard !isAtEnd else { throw Failure(description: "read past the end of a list of \(total)") }
            let position = cursor
            cursor = try reader.skip(position)
            currentIndex += 1
            return position
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, try reader.tag(at: cursor) == .null else { return false }
            _ = try next()
            return true
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try reader.decode(T.self, at: next()) }
        mutating func decode(_ type: String.Type) throws -> String { try reader.string(at: next()) }
        mutating func decode(_ type: Int.Type) throws -> Int { try reader.integer(Int.self, at: next()) }
        mutating func decode(_ type: Double.Type) throws -> Double { try reader.double(at: next()) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try reader.signed(at: next()) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try reader.integer(Int32.self, at: next()) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try TreeDecoder(reader: reader, position: next()).container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try TreeDecoder(reader: reader, position: next()).unkeyedContainer()
        }
        mutating func superDecoder() throws -> any Decoder { TreeDecoder(reader: reader, position: try next()) }
    }

    struct SingleReader: SingleValueDecodingContainer {
        let reader: Reader
        let position: Int
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { (try? reader.tag(at: position)) == .null }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try reader.decode(T.self, at: position) }
        func decode(_ type: String.Type) throws -> String { try reader.string(at: position) }
        func decode(_ type: Int.Type) throws -> Int { try reader.integer(Int.self, at: position) }
        func decode(_ type: Double.Type) throws -> Double { try reader.double(at: position) }
        func decode(_ type: Bool.Type) throws -> Bool { try reader.bool(at: position) }
    }
}
