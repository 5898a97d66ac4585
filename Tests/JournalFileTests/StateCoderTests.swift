import Testing
import JournalEvents
import JournalModel
@testable import JournalFile

/// Values of every shape a fold's state holds.
struct Sample: Codable, Equatable {
    enum Ending: Codable, Equatable { case skipped(remainingSeconds: Int), finished }
    enum Kind: String, Codable { case working, warmup }
    var name = "Übung 🏋️"
    var count = Int.min
    var big = UInt64.max
    var weights: [Double] = [0.1, -0.0, 1e300, 102.05, .leastNonzeroMagnitude]
    var optional: Int? = nil
    var present: String? = "x"
    var nested: [String: [Int?]] = ["a": [1, nil, 3], "": []]
    var endings: [Ending?] = [.skipped(remainingSeconds: 30), .finished, nil]
    var kind = Kind.warmup
    var flags = [true, false]
}

/// Decodes its keys in the reverse of the order it encodes them (the slow path).
struct Reversed: Codable, Equatable {
    var a = 1, b = "two", c: Double? = nil
    enum CodingKeys: CodingKey { case a, b, c }
    init() {}
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        c = try container.decodeIfPresent(Double.self, forKey: .c)
        b = try container.decode(String.self, forKey: .b)
        a = try container.decode(Int.self, forKey: .a)
    }
}

/// Writes to an outer container after starting a nested one's sibling: not supported by the streaming writer.
struct Interleaved: Encodable {
    enum Keys: CodingKey { case x, y, z }
    func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: Keys.self)
        var first = outer.nestedUnkeyedContainer(forKey: .x)
        _ = outer.nestedUnkeyedContainer(forKey: .y)
        try first.encode(1)
    }
}

@Suite("StateCoder, the snapshot's binary form")
struct StateCoderTests {
    @Test("every shape round-trips exactly: unicode, extreme integers and doubles, nils, dictionaries, enums")
    func roundTrips() throws {
        let sample = Sample()
        let bytes = try StateCoder.encode(sample)
        let decoded = try StateCoder.decode(Sample.self, from: bytes)
        #expect(decoded == sample)
        #expect(decoded.weights.map(\.bitPattern) == sample.weights.map(\.bitPattern))
        #expect(try StateCoder.decode(Reversed.self, from: StateCoder.encode(Reversed())) == Reversed())
    }

    @Test("damaged bytes throw (never trap): every cut and every flipped bit of a small state")
    func damagedInputThrows() throws {
        let bytes = try StateCoder.encode(Sample())
        for cut in 0..<bytes.count {
            #expect(throws: (any Error).self, "cut at \(cut)") { try StateCoder.decode(Sample.self, from: Array(bytes.prefix(cut))) }
        }
        for index in bytes.indices {
            for bit in 0..<8 {
                var flipped = bytes
                flipped[index] ^= 1 << bit
                _ = try? StateCoder.decode(Sample.self, from: flipped)   // decodes to something or throws
            }
        }
    }

    @Test("a type that writes to a container it already left is refused when encoding")
    func interleavingIsRefused() {
        #expect(throws: StateCoder.Failure.self) { try StateCoder.encode(Interleaved()) }
    }
}
