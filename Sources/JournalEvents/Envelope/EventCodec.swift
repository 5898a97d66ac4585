/// Turns events into journal lines and back. A line is one JSON object, UTF-8, no newline
/// inside, envelope keys first in the order `v, seq, id, at, type` (FORMAT.md §"Lines").
public enum EventCodec {
    public static let envelopeKeys: Set<String> = ["v", "seq", "id", "at", "type"]

    /// Why a line is not an event. `field` is nil for JSON syntax errors.
    public struct DecodingError: Error, Equatable, CustomStringConvertible, Sendable {
        public var field: String?
        public var reason: String
        /// Byte offset within the line, when known.
        public var offset: Int?
        public init(field: String? = nil, reason: String, offset: Int? = nil) { self.field = field; self.reason = reason; self.offset = offset }
        public var description: String {
            if let field { return "field \"\(field)\": \(reason)" }
            if let offset { return "invalid JSON at byte \(offset) of the line: \(reason)" }
            return reason
        }
    }

    /// The canonical line for `event`, without the trailing newline.
    public static func encode(_ event: Event) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160)
        encode(event, into: &out)
        return out
    }

    public static func encode(_ event: Event, into out: inout [UInt8]) {
        out.append(contentsOf: "{\"v\":".utf8)
        out.append(contentsOf: String(event.v).utf8)
        out.append(contentsOf: ",\"seq\":".utf8)
        out.append(contentsOf: String(event.seq).utf8)
        out.append(contentsOf: ",\"id\":".utf8)
        JSONWriter.writeString(event.id, into: &out)
        out.append(contentsOf: ",\"at\":\"".utf8)
        event.at.writeRFC3339(into: &out)
        out.append(contentsOf: "\",\"type\":".utf8)
        JSONWriter.writeString(event.type, into: &out)
        for field in event.fields.fields {
            out.append(UInt8(ascii: ","))
            JSONWriter.writeString(field.key, into: &out)
            out.append(UInt8(ascii: ":"))
            JSONWriter.write(field.value, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    public static func encodeString(_ event: Event) -> String { String(decoding: encode(event), as: UTF8.self) }

    /// Decodes one line (without its newline) into an event, checking the envelope.
    ///
    /// Canonical lines take a one-pass fast path (`EventLineDecoder`); any line it does not
    /// fully understand is decoded again by the reference path (`decodeReference`), so
    /// results and errors are the reference path's on every input.
    public static func decode(_ line: [UInt8]) throws(DecodingError) -> Event {
        if let event = decodeCanonical(line) { return event }
        return try decodeReference(line)
    }

    /// The fast path alone: the event of a line in canonical form, or nil for any other line — one `decode` reads with
    /// the reference path (an error, or an event written otherwise: other key order, whitespace, escapes).
    public static func decodeCanonical(_ line: [UInt8]) -> Event? {
        line.withUnsafeBufferPointer { EventLineDecoder.decode($0) }
    }

    public static func decode(_ line: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> Event {
        if let event = EventLineDecoder.decode(line) { return event }
        return try decodeReference(line)
    }

    /// The reference decoder: `JSONParser` builds the whole tree, then the envelope is checked.
    /// Slower; the fast path must agree with it on every input (differential tests).
    public static func decodeReference(_ line: [UInt8]) throws(DecodingError) -> Event {
        let value: JSONValue
        do { value = try JSONParser.parse(line) } catch { throw DecodingError(field: nil, reason: error.reason, offset: error.offset) }
        return try decode(value)
    }

    public static func decodeReference(_ line: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> Event {
        let value: JSONValue
        do { value = try JSONParser.parse(line) } catch { throw DecodingError(field: nil, reason: error.reason, offset: error.offset) }
        return try decode(value)
    }

    public static func decode(_ line: String) throws(DecodingError) -> Event { try decode(Array(line.utf8)) }

    /// Checks the envelope of a parsed line and splits it from the payload.
    public static func decode(_ value: JSONValue) throws(DecodingError) -> Event {
        guard case .object(let object) = value else {
            throw DecodingError(field: nil, reason: "a line must be a JSON object, found \(value.kindName)")
        }
        var payload: [JSONField] = []
        payload.reserveCapacity(object.count)
        var v: Int?, seq: Int?, id: String?, at: Timestamp?, type: String?
        let repeated = object.firstRepeatedKeyIndex
        for (index, field) in object.fields.enumerated() {
            if index == repeated { throw DecodingError(field: field.key, reason: "appears twice in the same event") }
            switch field.key {
            case "v":
                guard let n = field.value.intValue, n >= 1 else { throw envelope("v", field.value, "must be an integer ≥ 1") }
                v = n
            case "seq":
                guard let n = field.value.intValue, n >= 1 else { throw envelope("seq", field.value, "must be an integer ≥ 1") }
                seq = n
            case "id":
                id = try envelopeID(field.value)
            case "at":
                guard let s = field.value.stringValue, let t = Timestamp(rfc3339: s) else {
                    throw envelope("at", field.value, "must be an RFC 3339 time with a UTC offset, e.g. \"2026-11-21T18:04:05.120+01:00\"")
                }
                at = t
            case "type":
                guard let s = field.value.stringValue, EventVocabulary.isWellFormedTypeName(s) else {
                    throw envelope("type", field.value, "must be a dotted lowercase name such as \"set.completed\"")
                }
                type = s
            default:
                payload.append(field)
            }
        }
        guard let v else { throw DecodingError(field: "v", reason: "is missing") }
        guard let seq else { throw DecodingError(field: "seq", reason: "is missing") }
        guard let id else { throw DecodingError(field: "id", reason: "is missing") }
        guard let at else { throw DecodingError(field: "at", reason: "is missing") }
        guard let type else { throw DecodingError(field: "type", reason: "is missing") }
        for field in payload { try refuseRepeatedKeys(in: field.value, path: field.key) }
        return Event(v: v, seq: seq, id: id, at: at, type: type, fields: JSONObject(payload))
    }

    /// The envelope's `id`: a non-empty string of at most 64 bytes.
    static func envelopeID(_ value: JSONValue) throws(DecodingError) -> String {
        guard let id = value.stringValue, !id.isEmpty, id.utf8.count <= 64 else {
            throw envelope("id", value, "must be a non-empty string of at most 64 bytes")
        }
        return id
    }

    /// A key appears at most once per object at every depth (FORMAT.md §3): the first repeated key of a nested object
    /// makes the line bad, named by its path (`height.unit`, `exercises[0].sets[1].kind`), the schema's own notation.
    static func refuseRepeatedKeys(in value: JSONValue, path: String) throws(DecodingError) {
        switch value {
        case .object(let object):
            var seen = Set<String>()
            for field in object.fields {
                let name = "\(path).\(field.key)"
                if !seen.insert(field.key).inserted { throw DecodingError(field: name, reason: "appears twice in the same object") }
                try refuseRepeatedKeys(in: field.value, path: name)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() { try refuseRepeatedKeys(in: element, path: "\(path)[\(index)]") }
        default: break
        }
    }

    static func envelope(_ field: String, _ value: JSONValue, _ rule: String) -> DecodingError {
        DecodingError(field: field, reason: "is \(value.excerpt) but \(rule)")
    }
}
