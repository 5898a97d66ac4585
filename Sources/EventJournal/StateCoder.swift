/// The compact binary form of a projection snapshot's state (`<journal>.snapshot`, FORMAT.md §9): any `Codable`
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
/// | 7 | keyed container | varint byte length of the rest, varint count, count × (varint key index, value) |
/// | 8 | unkeyed container | varint byte length of the rest, varint count, count × value |
///
/// Keys are kept in the order the type encoded them; reading them in the same order (what synthesized `Codable`
/// does) is the fast path, any other order still works.
public enum StateCoder {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let root = NodeBox()
        try value.encode(to: TreeEncoder(box: root))
        var strings: [String: Int] = [:]
        var order: [String] = []
        var body: [UInt8] = []
        write(root.node, into: &body, strings: &strings, order: &order)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.count + order.count * 16)
        appendVarint(UInt64(order.count), to: &bytes)
        for string in order {
            let utf8 = Array(string.utf8)
            appendVarint(UInt64(utf8.count), to: &bytes)
            bytes += utf8
        }
        return bytes + body
    }

    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let reader = try Reader(bytes)
        return try reader.decode(T.self, at: reader.rootStart)
    }

    // MARK: Writing

    enum Tag: UInt8 { case null = 0, no, yes, int, uint, double, string, keyed, unkeyed }

    indirect enum Node {
        case null, bool(Bool), int(Int64), uint(UInt64), double(Double), string(String)
        case keyed(KeyedStore), unkeyed(UnkeyedStore)
    }
    final class NodeBox { var node: Node = .null }
    final class KeyedStore { var entries: [(key: String, value: NodeBox)] = [] }
    final class UnkeyedStore { var values: [NodeBox] = [] }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var v = value
        while v >= 0x80 { bytes.append(UInt8(truncatingIfNeeded: v) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    static func index(_ string: String, _ strings: inout [String: Int], _ order: inout [String]) -> UInt64 {
        if let found = strings[string] { return UInt64(found) }
        strings[string] = order.count
        order.append(string)
        return UInt64(order.count - 1)
    }

    static func write(_ node: Node, into bytes: inout [UInt8], strings: inout [String: Int], order: inout [String]) {
        switch node {
        case .null: bytes.append(Tag.null.rawValue)
        case .bool(let b): bytes.append(b ? Tag.yes.rawValue : Tag.no.rawValue)
        case .int(let i):
            bytes.append(Tag.int.rawValue)
            appendVarint(UInt64(bitPattern: (i << 1) ^ (i >> 63)), to: &bytes)
        case .uint(let u):
            bytes.append(Tag.uint.rawValue)
            appendVarint(u, to: &bytes)
        case .double(let d):
            bytes.append(Tag.double.rawValue)
            withUnsafeBytes(of: d.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        case .string(let s):
            bytes.append(Tag.string.rawValue)
            appendVarint(index(s, &strings, &order), to: &bytes)
        case .keyed(let store):
            var inner: [UInt8] = []
            appendVarint(UInt64(store.entries.count), to: &inner)
            for entry in store.entries {
                appendVarint(index(entry.key, &strings, &order), to: &inner)
                write(entry.value.node, into: &inner, strings: &strings, order: &order)
            }
            bytes.append(Tag.keyed.rawValue)
            appendVarint(UInt64(inner.count), to: &bytes)
            bytes += inner
        case .unkeyed(let store):
            var inner: [UInt8] = []
            appendVarint(UInt64(store.values.count), to: &inner)
            for value in store.values { write(value.node, into: &inner, strings: &strings, order: &order) }
            bytes.append(Tag.unkeyed.rawValue)
            appendVarint(UInt64(inner.count), to: &bytes)
            bytes += inner
        }
    }

    static func primitive(_ value: Any) -> Node? {
        switch value {
        case let v as String: return .string(v)
        case let v as Int: return .int(Int64(v))
        case let v as Double: return .double(v)
        case let v as Bool: return .bool(v)
        case let v as Int64: return .int(v)
        case let v as Int32: return .int(Int64(v))
        case let v as Int16: return .int(Int64(v))
        case let v as Int8: return .int(Int64(v))
        case let v as UInt: return .uint(UInt64(v))
        case let v as UInt64: return .uint(v)
        case let v as UInt32: return .uint(UInt64(v))
        case let v as UInt16: return .uint(UInt64(v))
        case let v as UInt8: return .uint(UInt64(v))
        case let v as Float: return .double(Double(v))
        default: return nil
        }
    }

    static func encodeValue<T: Encodable>(_ value: T, into box: NodeBox, path: [any CodingKey]) throws {
        if let node = primitive(value) { box.node = node; return }
        try value.encode(to: TreeEncoder(box: box, codingPath: path))
    }

    struct TreeEncoder: Encoder {
        let box: NodeBox
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let store: KeyedStore
            if case .keyed(let existing) = box.node { store = existing } else { store = KeyedStore(); box.node = .keyed(store) }
            return KeyedEncodingContainer(KeyedWriter<Key>(store: store, codingPath: codingPath))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let store: UnkeyedStore
            if case .unkeyed(let existing) = box.node { store = existing } else { store = UnkeyedStore(); box.node = .unkeyed(store) }
            return UnkeyedWriter(store: store, codingPath: codingPath)
        }
        func singleValueContainer() -> any SingleValueEncodingContainer { SingleWriter(box: box, codingPath: codingPath) }
    }

    struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let store: KeyedStore
        var codingPath: [any CodingKey]
        func add(_ key: Key, _ node: Node = .null) -> NodeBox {
            let box = NodeBox()
            box.node = node
            store.entries.append((key.stringValue, box))
            return box
        }
        mutating func encodeNil(forKey key: Key) throws { _ = add(key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try StateCoder.encodeValue(value, into: add(key), path: codingPath)
        }
        mutating func encode(_ value: String, forKey key: Key) throws { _ = add(key, .string(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { _ = add(key, .int(Int64(value))) }
        mutating func encode(_ value: Double, forKey key: Key) throws { _ = add(key, .double(value)) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { _ = add(key, .bool(value)) }
        // An absent optional is written as nil, so that reading finds every key in order (the fast path).
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { _ = add(key) }
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { _ = add(key, value.map { .string($0) } ?? .null) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { _ = add(key, value.map { .int(Int64($0)) } ?? .null) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { _ = add(key, value.map { .double($0) } ?? .null) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { _ = add(key, value.map { .bool($0) } ?? .null) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { _ = add(key, value.map { .double(Double($0)) } ?? .null) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { _ = add(key, value.map { .int(Int64($0)) } ?? .null) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { _ = add(key, value.map { .int(Int64($0)) } ?? .null) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { _ = add(key, value.map { .int(Int64($0)) } ?? .null) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { _ = add(key, value.map { .int($0) } ?? .null) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { _ = add(key, value.map { .uint(UInt64($0)) } ?? .null) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { _ = add(key, value.map { .uint(UInt64($0)) } ?? .null) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { _ = add(key, value.map { .uint(UInt64($0)) } ?? .null) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { _ = add(key, value.map { .uint(UInt64($0)) } ?? .null) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { _ = add(key, value.map { .uint($0) } ?? .null) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            TreeEncoder(box: add(key), codingPath: codingPath).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            TreeEncoder(box: add(key), codingPath: codingPath).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { TreeEncoder(box: add(Key(stringValue: "super")!), codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { TreeEncoder(box: add(key), codingPath: codingPath) }
    }

    struct UnkeyedWriter: UnkeyedEncodingContainer {
        let store: UnkeyedStore
        var codingPath: [any CodingKey]
        var count: Int { store.values.count }
        func add() -> NodeBox { let box = NodeBox(); store.values.append(box); return box }
        mutating func encodeNil() throws { add().node = .null }
        mutating func encode<T: Encodable>(_ value: T) throws { try StateCoder.encodeValue(value, into: add(), path: codingPath) }
        mutating func encode(_ value: String) throws { add().node = .string(value) }
        mutating func encode(_ value: Int) throws { add().node = .int(Int64(value)) }
        mutating func encode(_ value: Double) throws { add().node = .double(value) }
        mutating func encode(_ value: Int64) throws { add().node = .int(value) }
        mutating func encode(_ value: Int32) throws { add().node = .int(Int64(value)) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            TreeEncoder(box: add(), codingPath: codingPath).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { TreeEncoder(box: add(), codingPath: codingPath).unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { TreeEncoder(box: add(), codingPath: codingPath) }
    }

    struct SingleWriter: SingleValueEncodingContainer {
        let box: NodeBox
        var codingPath: [any CodingKey]
        mutating func encodeNil() throws { box.node = .null }
        mutating func encode<T: Encodable>(_ value: T) throws { try StateCoder.encodeValue(value, into: box, path: codingPath) }
        mutating func encode(_ value: String) throws { box.node = .string(value) }
        mutating func encode(_ value: Int) throws { box.node = .int(Int64(value)) }
        mutating func encode(_ value: Double) throws { box.node = .double(value) }
        mutating func encode(_ value: Bool) throws { box.node = .bool(value) }
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
                let length = Int(try varint(&position))
                guard length >= 0, length <= bytes.count - position else { throw Failure(description: "string past the end at byte \(position)") }
                strings.append(String(decoding: bytes[position..<position + length], as: UTF8.self))
                position += length
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
                let length = try varint(&p)
                guard length <= UInt64(bytes.count - p) else { throw Failure(description: "container past the end at byte \(position)") }
                return p + Int(length)
            }
        }

        /// The start of a container's entries, their count, and its end.
        func container(_ expected: Tag, at position: Int) throws -> (start: Int, count: Int, end: Int) {
            guard try tag(at: position) == expected else { throw Failure(description: "expected a \(expected) container at byte \(position)") }
            let end = try skip(position)
            var p = position + 1
            _ = try varint(&p)
            let count = try varint(&p)
            guard count <= UInt64(end - p) else { throw Failure(description: "container count \(count) too large at byte \(position)") }
            return (p, Int(count), end)
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
        var cursor: Int
        var index = 0

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
