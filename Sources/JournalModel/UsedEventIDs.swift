import JournalEvents

/// The ids a journal's events have used (no two events may share one) and each device's highest id counter (a
/// device's next id is one above it: `RecordingRules.nextID`).
///
/// An id `DEVICE-COUNTER` (`EventID`: a base-36 counter without a leading zero, so the text and the pair determine
/// each other) is kept as its counter under its device; any other id as its text. Every stored event passes through
/// here (each open of a journal, each step of `journal verify`), so the common case costs little:
/// - the device of the latest id is kept apart, so a run of one device's events neither makes a `String` nor
///   hashes one;
/// - a device's counters arrive in increasing order in practice, and are appended to a sorted array that a binary
///   search answers. A set of every id's text cost `journal verify` a hash, a probe and a cache miss per event
///   (BENCHMARKS.md §"Replay and verify: what keeps them cheap").
struct UsedEventIDs: Sendable {
    /// One device's counters.
    struct Counters: Sendable {
        /// The counters that arrived above every earlier one: increasing.
        private var ascending: [Int] = []
        /// The counters that arrived below the highest one so far.
        private var below: Set<Int> = []

        /// The highest counter used; 0 when none.
        var highest: Int { ascending.last ?? 0 }

        func contains(_ counter: Int) -> Bool {
            guard let last = ascending.last, counter <= last else { return false }
            var low = 0, high = ascending.count
            while low < high {
                let middle = (low + high) / 2
                if ascending[middle] < counter { low = middle + 1 } else { high = middle }
            }
            return ascending[low] == counter || below.contains(counter)
        }

        /// False when `counter` was already used.
        mutating func insert(_ counter: Int) -> Bool {
            if let last = ascending.last, counter <= last {
                if contains(counter) { return false }
                below.insert(counter)
                return true
            }
            ascending.append(counter)
            return true
        }
    }

    private var devices: [String: Counters] = [:]
    /// The device of the latest `DEVICE-COUNTER` id when its tag is ASCII (empty: none), and its counters, which are
    /// not in `devices` while it is the latest.
    private var recentDevice = ""
    private var recent = Counters()
    /// Ids that are not `DEVICE-COUNTER`.
    private var others: Set<String> = []

    /// Records `id`; false when it was already used.
    mutating func insert(_ id: String) -> Bool {
        if !recentDevice.isEmpty, let counter = EventID.counter(of: id, device: recentDevice) { return recent.insert(counter) }
        guard let parsed = EventID(id) else { return others.insert(id).inserted }
        guard parsed.device.utf8.allSatisfy({ $0 < 0x80 }) else {
            // Devices compare as `String`s do (canonically): "\u{212A}" (the Kelvin sign) is the device "K".
            if !recentDevice.isEmpty && parsed.device == recentDevice { return recent.insert(parsed.counter) }
            return devices[parsed.device, default: Counters()].insert(parsed.counter)
        }
        if !recentDevice.isEmpty { devices[recentDevice] = recent }
        recent = devices.removeValue(forKey: parsed.device) ?? Counters()
        recentDevice = parsed.device
        return recent.insert(parsed.counter)
    }

    func contains(_ id: String) -> Bool {
        if !recentDevice.isEmpty, let counter = EventID.counter(of: id, device: recentDevice) { return recent.contains(counter) }
        guard let parsed = EventID(id) else { return others.contains(id) }
        return counters(of: parsed.device)?.contains(parsed.counter) ?? false
    }

    /// The highest counter `device` has used; 0 when none.
    func highestCounter(of device: String) -> Int { counters(of: device)?.highest ?? 0 }

    private func counters(of device: String) -> Counters? {
        !recentDevice.isEmpty && device == recentDevice ? recent : devices[device]
    }
}
