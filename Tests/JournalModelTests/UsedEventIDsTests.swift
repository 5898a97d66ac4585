import Testing
@testable import JournalEvents
@testable import JournalModel
import JournalTesting
import JournalSimulator

/// `UsedEventIDs`, the rules' record of the ids used and each device's counter, against the plain answer: a set of
/// the ids' texts and the highest parsed counter per device.
@Suite("The ids used: counters per device, the same answers as a set of texts")
struct UsedEventIDsTests {
    @Test("fresh and reused ids, counters out of order, odd ids, and devices that compare equal as strings")
    func pinned() {
        var ids = UsedEventIDs()
        let sequence = ["p-1", "p-2", "p-2", "w-1", "p-1", "p-0", "p-0", "K-7", "\u{212A}-7", "d-05", "d-05", "d-5", "w-a", "p-3", "w-1"]
        #expect(sequence.map { ids.insert($0) } == [true, true, false, true, false, true, false, true, false, true, false, true, true, true, false])
        #expect(["p", "w", "K", "\u{212A}", "d", "z"].map { ids.highestCounter(of: $0) } == [3, 10, 7, 7, 5, 0])
        #expect(["p-0", "p-4", "w-b", "d-05", "d-06", "\u{212A}-7", "K-8"].map { ids.contains($0) } == [true, false, false, true, false, true, false])
    }

    @Test("20,000 ids from six devices, mostly increasing, against a set of their texts", arguments: [1, 2, 3])
    func differential(seed: UInt64) {
        var random = TestRandom(seed: seed)
        var ids = UsedEventIDs(), texts = Set<String>(), highest: [String: Int] = [:]
        let devices = ["phone", "watch", "K", "\u{212A}", "gerät", "a-b"]
        var next = [String: Int]()
        func draw() -> String {
            let roll = (random.next() as UInt64) % 100
            let device = devices[Int((random.next() as UInt64) % UInt64(devices.count))]
            switch roll {
            case 0..<70:  // the device's next counter
                next[device, default: 0] += 1 + Int((random.next() as UInt64) % 3)
                return EventID(device: device, counter: next[device]!).text
            case 70..<85: return EventID(device: device, counter: Int((random.next() as UInt64) % UInt64(max(1, next[device, default: 1])))).text
            case 85..<90: return "\(device)-0\((random.next() as UInt64) % 9)"
            case 90..<95: return "\(device)-\(String((random.next() as UInt64) % 50, radix: 36).uppercased())"
            default: return ["nodash", "-5", "x-", "x--1", "p-1.5"][Int((random.next() as UInt64) % 5)]
            }
        }
        for _ in 0..<20_000 {
            let id = draw()
            #expect(ids.insert(id) == texts.insert(id).inserted, "insert \(id)")
            if let parsed = EventID(id) { highest[parsed.device] = max(highest[parsed.device] ?? 0, parsed.counter) }
            let probe = draw()
            #expect(ids.contains(probe) == texts.contains(probe), "contains \(probe)")
        }
        for device in devices + ["none"] {
            #expect(ids.highestCounter(of: device) == highest[device] ?? 0, "highest counter of \(device)")
        }
    }
}
