import JournalEvents

/// Which event ids a stored batch can hold, known without its ids frame (`journal_batches.id_ranges`, SYNC.md
/// §"Schema"): for each device tag among its ids, the lowest and the highest counter. A push looks up only the ids
/// frames of the sealed batches whose ranges may hold one of its ids, so what it reads does not grow with the
/// user's history: a live workout's next event is past every range and reads none (SCALE.md §"Group commit").
///
/// Text form: `tag:lowest-highest` for each tag, counters in base 36 as in the ids, separated by one space, in tag
/// order: `ph:1-e7 watch:3-9`. A batch holding an id that is not `<device>-<counter>` with a tag of `a-z0-9_-`
/// has no ranges (NULL): its ids frame is always read.
struct IDRanges: Equatable, Sendable {
    struct Span: Equatable, Sendable {
        var device: String
        var lowest: Int
        var highest: Int
    }

    /// In tag order, one per tag.
    var spans: [Span]

    /// The ranges of `ids`; nil when one of them has no device tag and counter this form can write.
    init?(ids: some Sequence<String>) {
        var byDevice: [String: Span] = [:]
        for text in ids {
            guard let id = EventID(text), IDRanges.isWritable(id.device) else { return nil }
            if var span = byDevice[id.device] {
                span.lowest = min(span.lowest, id.counter)
                span.highest = max(span.highest, id.counter)
                byDevice[id.device] = span
            } else {
                byDevice[id.device] = Span(device: id.device, lowest: id.counter, highest: id.counter)
            }
        }
        spans = byDevice.values.sorted { $0.device < $1.device }
    }

    /// Reads the text form; nil for anything `text` would not write.
    init?(text: String) {
        var spans: [Span] = []
        if text.isEmpty { self.spans = []; return }
        for part in text.split(separator: " ", omittingEmptySubsequences: false) {
            guard let colon = part.lastIndex(of: ":") else { return nil }
            let device = String(part[..<colon])
            let bounds = part[part.index(after: colon)...].split(separator: "-", omittingEmptySubsequences: false)
            guard IDRanges.isWritable(device), bounds.count == 2,
                  let lowest = EventID("\(device)-\(bounds[0])")?.counter, let highest = EventID("\(device)-\(bounds[1])")?.counter,
                  lowest <= highest, spans.last.map({ $0.device < device }) ?? true else { return nil }
            spans.append(Span(device: device, lowest: lowest, highest: highest))
        }
        self.spans = spans
    }

    var text: String {
        spans.map { "\($0.device):\(String($0.lowest, radix: 36))-\(String($0.highest, radix: 36))" }.joined(separator: " ")
    }

    /// Whether the batch may hold `id` (it does not when this says no).
    func mayHold(_ id: EventID) -> Bool {
        spans.contains { $0.device == id.device && $0.lowest <= id.counter && id.counter <= $0.highest }
    }

    private static func isWritable(_ device: String) -> Bool {
        !device.isEmpty && device.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}
