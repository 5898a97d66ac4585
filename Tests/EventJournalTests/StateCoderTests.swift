import Testing
import JournalEvents
import JournalModel
@testable import EventJournal

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

@Suite("ReplaySummary in a snapshot")
struct ReplaySummarySnapshotTests {
    static let at = Timestamp(rfc3339: "2026-01-06T18:00:00.000+01:00")!

    static func set(_ seq: Int, _ exercise: String, _ weight: Double) -> Event {
        Event(seq: seq, id: "a-\(seq)", at: at, type: "set.completed",
              fields: ["workout": "w1", "exercise": .string(exercise), "set": 1, "weight": .number(weight), "unit": "kg", "reps": 1, "kind": "working"])
    }

    @Test("an open workout's sets keep their completion order through the snapshot, so the volume sums to the same bits")
    func openSetsKeepTheirOrder() throws {
        // Completed z, a, m: (0.1 + 0.2) + 0.3 = 0.6000000000000001; in exercise order it would be 0.6.
        let before = [Event(seq: 1, id: "a-1", at: Self.at, type: "workout.started", fields: ["workout": "w1", "name": "A", "session": 0]),
                      Self.set(2, "z", 0.1), Self.set(3, "a", 0.2), Self.set(4, "m", 0.3)]
        let finish = Event(seq: 5, id: "a-5", at: Self.at, type: "workout.finished", fields: ["workout": "w1"])
        // The summary counts what was read; its workouts, sets and volume are the ledger's, which the snapshot keeps.
        var summary = ReplaySummary(), ledger = Ledger(asOf: Ledger.everything)
        for event in before { summary.apply(event); ledger.apply(event) }

        var resumed = try StateCoder.decode(ReplaySummary.self, from: StateCoder.encode(summary))
        var resumedLedger = try StateCoder.decode(Ledger.self, from: StateCoder.encode(ledger))
        #expect(resumed == summary)
        #expect(resumedLedger.workouts.first?.sets.map(\.exercise) == ["z", "a", "m"])
        summary.apply(finish); ledger.apply(finish)
        resumed.apply(finish); resumedLedger.apply(finish)
        let full = summary.describing(ledger), fromSnapshot = resumed.describing(resumedLedger)
        #expect(full.volumeKg == 0.6000000000000001)
        #expect(fromSnapshot.volumeKg.bitPattern == full.volumeKg.bitPattern)
        #expect(fromSnapshot.workingSets == 3 && fromSnapshot.workoutsFinished == 1 && fromSnapshot.events == 5)
    }
}
