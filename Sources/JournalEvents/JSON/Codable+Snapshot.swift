/// Codable forms of the vocabulary's value types, so folds over events can keep them in a
/// snapshot (`<journal>.home-snapshot`, FORMAT.md §9). All are lossless.

extension Timestamp: Codable {
    /// `[epoch milliseconds, offset seconds]`: exact, and cheaper to decode than RFC 3339 text.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let milliseconds = try container.decode(Int64.self)
        let offset = try container.decode(Int32.self)
        self.init(epochMilliseconds: milliseconds, offsetSeconds: offset)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(epochMilliseconds)
        try container.encode(offsetSeconds)
    }
}

extension LocalDate: Codable {
    /// The day number alone (days since 1970-01-01).
    public init(from decoder: any Decoder) throws { self.init(day: try decoder.singleValueContainer().decode(Int.self)) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(day)
    }
}

extension JSONValue: Codable {
    /// The value as one JSON text (`JSONWriter`), so objects keep their key order.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try JSONParser.parse(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(JSONWriter.string(self))
    }
}
