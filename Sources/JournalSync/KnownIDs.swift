import JournalEvents

/// The event ids a device knows its server holds (pulled from it or acknowledged by it), kept as ranges of counters
/// per device tag: a device's own ids are consecutive counters, so a journal of years is a few ranges, whatever its
/// length (`<journal>.sync`'s `known_ranges`, FORMAT.md §"Files").
///
/// Text form: for each tag, in tag order, `tag:low-high` with the ranges after the colon separated by `,`, in counter
/// order, counters in base 36 as in the ids; tags separated by one space: `ph:1-e7,f0-f3 watch:3-9`. An id that is not
/// `<tag>-<counter>` with a valid device tag (`EventID.isValidDeviceTag`) and its counter written canonically is kept
/// as it is, in `others`.
public struct KnownIDs: Equatable, Sendable {
    /// For each device tag, disjoint ranges of counters that do not touch, in counter order.
    public private(set) var ranges: [String: [ClosedRange<Int>]] = [:]
    /// Ids the ranges cannot hold.
    public private(set) var others: Set<String> = []

    /// No id.
    public init() {}

    /// The set of `ids`.
    public init(_ ids: some Sequence<String>) {
        for id in ids { insert(id) }
    }

    /// How many ids it holds.
    public var count: Int {
        ranges.values.reduce(others.count) { total, list in list.reduce(total) { $0 + $1.count } }
    }

    /// The tag and counter of `id` when the ranges can hold it.
    static func parse(_ id: String) -> EventID? {
        guard let parsed = EventID(id), EventID.isValidDeviceTag(parsed.device),
              "\(parsed.device)-\(String(parsed.counter, radix: 36))" == id else { return nil }
        return parsed
    }

    /// Whether the server is known to hold `id`.
    public func contains(_ id: String) -> Bool {
        guard let parsed = KnownIDs.parse(id) else { return others.contains(id) }
        guard let list = ranges[parsed.device] else { return false }
        let index = KnownIDs.firstEnding(atOrAfter: parsed.counter, in: list)
        return index < list.count && list[index].contains(parsed.counter)
    }

    /// Adds `id`, joining the ranges it touches.
    public mutating func insert(_ id: String) {
        guard let parsed = KnownIDs.parse(id) else { others.insert(id); return }
        let counter = parsed.counter
        var list = ranges[parsed.device] ?? []
        // The first range that ends at or after counter - 1 is the only one counter can join or fall into.
        let index = KnownIDs.firstEnding(atOrAfter: counter - 1, in: list)
        if index == list.count || list[index].lowerBound > counter + 1 {
            list.insert(counter...counter, at: index)
        } else if !list[index].contains(counter) {
            var joined = min(list[index].lowerBound, counter)...max(list[index].upperBound, counter)
            if index + 1 < list.count, list[index + 1].lowerBound == joined.upperBound + 1 {
                joined = joined.lowerBound...list[index + 1].upperBound
                list.remove(at: index + 1)
            }
            list[index] = joined
        }
        ranges[parsed.device] = list
    }

    /// The index of the first range of `list` whose upper bound is `counter` or more (`list.count` when none).
    static func firstEnding(atOrAfter counter: Int, in list: [ClosedRange<Int>]) -> Int {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].upperBound < counter { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The ranges' text form (the others are not in it).
    public var rangesText: String {
        ranges.keys.sorted().map { tag in
            tag + ":" + ranges[tag]!.map { "\(String($0.lowerBound, radix: 36))-\(String($0.upperBound, radix: 36))" }.joined(separator: ",")
        }.joined(separator: " ")
    }

    /// Reads `rangesText`'s form, with `others` beside it; nil for anything `rangesText` would not write.
    public init?(rangesText text: String, others: some Sequence<String>) {
        self.others = Set(others)
        guard !text.isEmpty else { return }
        var previousTag: String?
        for part in text.split(separator: " ", omittingEmptySubsequences: false) {
            guard let colon = part.firstIndex(of: ":") else { return nil }
            let tag = String(part[..<colon])
            guard EventID.isValidDeviceTag(tag), previousTag.map({ $0 < tag }) ?? true else { return nil }
            previousTag = tag
            var list: [ClosedRange<Int>] = []
            for range in part[part.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false) {
                let bounds = range.split(separator: "-", omittingEmptySubsequences: false)
                guard bounds.count == 2, let low = KnownIDs.parse("\(tag)-\(bounds[0])")?.counter,
                      let high = KnownIDs.parse("\(tag)-\(bounds[1])")?.counter, low <= high,
                      list.last.map({ $0.upperBound + 1 < low }) ?? true else { return nil }
                list.append(low...high)
            }
            ranges[tag] = list
        }
    }
}
