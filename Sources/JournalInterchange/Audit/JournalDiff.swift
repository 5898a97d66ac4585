import JournalEvents

/// `journal diff A B` (INTERCHANGE.md §"Diff"): where two journals of the same user diverge. Events are compared by
/// seq; the common prefix is reported, then what each side has that the other lacks (by event id, so the same
/// events at different positions are recognised as moved, not new).
public struct JournalDiff: Equatable, Sendable, JSONRepresentable {
    public var countA: Int
    public var countB: Int
    /// The last seq where both journals hold identical events from seq 1 on (0 when the first events differ).
    public var commonThrough: Int
    /// The first differing event of each side (nil when that side ends there).
    public var firstA: Event?
    public var firstB: Event?
    /// Events (by id) only in A, only in B, and in both but with different content.
    public var onlyA: [Event]
    public var onlyB: [Event]
    public var changed: [(a: Event, b: Event)]
    /// Workouts started only on one side.
    public var workoutsOnlyA: [String]
    public var workoutsOnlyB: [String]

    public static func == (l: JournalDiff, r: JournalDiff) -> Bool {
        l.countA == r.countA && l.countB == r.countB && l.commonThrough == r.commonThrough && l.onlyA == r.onlyA && l.onlyB == r.onlyB
    }

    public var identical: Bool { countA == countB && commonThrough == countA }

    public init(_ a: [Event], _ b: [Event]) {
        countA = a.count
        countB = b.count
        var common = 0
        while common < a.count && common < b.count && a[common] == b[common] { common += 1 }
        commonThrough = common
        firstA = common < a.count ? a[common] : nil
        firstB = common < b.count ? b[common] : nil
        var byIDB: [String: Event] = [:]
        for event in b { byIDB[event.id] = event }
        var idsA = Set<String>()
        onlyA = []
        changed = []
        for event in a.dropFirst(common) {
            idsA.insert(event.id)
            if let other = byIDB[event.id] {
                if other.type != event.type || other.fields != event.fields || other.at != event.at { changed.append((event, other)) }
            } else { onlyA.append(event) }
        }
        let allA = Set(a.map(\.id))
        onlyB = b.dropFirst(common).filter { !allA.contains($0.id) }
        func workouts(_ events: some Sequence<Event>) -> [String] {
            events.filter { $0.knownType == .workoutStarted }.compactMap { $0.string(.workout) }
        }
        let workoutsA = Set(workouts(a)), workoutsB = Set(workouts(b))
        workoutsOnlyA = workouts(a).filter { !workoutsB.contains($0) }
        workoutsOnlyB = workouts(b).filter { !workoutsA.contains($0) }
    }

    static func line(_ event: Event) -> String {
        "seq \(event.seq) \(event.id) \(event.at.rfc3339) \(event.type)" + (event.string(.workout).map { " workout \($0)" } ?? "")
    }

    public func text(nameA: String, nameB: String) -> String {
        if identical { return "\(nameA) and \(nameB) are identical (\(countA) events)" }
        var lines = ["\(nameA): \(countA) events; \(nameB): \(countB) events"]
        lines.append("identical through seq \(commonThrough)")
        lines.append("first difference at seq \(commonThrough + 1):")
        lines.append("  \(nameA): " + (firstA.map(JournalDiff.line) ?? "(ends)"))
        lines.append("  \(nameB): " + (firstB.map(JournalDiff.line) ?? "(ends)"))
        func list(_ title: String, _ events: [Event]) {
            lines.append("\(title): \(events.count)")
            for event in events.prefix(20) { lines.append("  " + JournalDiff.line(event)) }
            if events.count > 20 { lines.append("  … \(events.count - 20) more") }
        }
        list("only in \(nameA)", onlyA)
        list("only in \(nameB)", onlyB)
        lines.append("same id, different content: \(changed.count)")
        for pair in changed.prefix(20) { lines.append("  \(pair.a.id): \(nameA) \(pair.a.type) seq \(pair.a.seq) vs \(nameB) \(pair.b.type) seq \(pair.b.seq)") }
        lines.append("workouts only in \(nameA): " + (workoutsOnlyA.isEmpty ? "none" : workoutsOnlyA.joined(separator: ", ")))
        lines.append("workouts only in \(nameB): " + (workoutsOnlyB.isEmpty ? "none" : workoutsOnlyB.joined(separator: ", ")))
        return lines.joined(separator: "\n")
    }

    public var jsonValue: JSONValue {
        func summary(_ event: Event) -> JSONValue {
            ["seq": .int(event.seq), "id": .string(event.id), "at": .string(event.at.rfc3339), "type": .string(event.type)]
        }
        return [
            "identical": .bool(identical), "events_a": .int(countA), "events_b": .int(countB), "common_through_seq": .int(commonThrough),
            "first_a": firstA.map(summary) ?? .null, "first_b": firstB.map(summary) ?? .null,
            "only_a": .array(onlyA.map(summary)), "only_b": .array(onlyB.map(summary)),
            "changed": .array(changed.map { ["id": .string($0.a.id), "seq_a": .int($0.a.seq), "seq_b": .int($0.b.seq)] }),
            "workouts_only_a": .array(workoutsOnlyA.map { .string($0) }), "workouts_only_b": .array(workoutsOnlyB.map { .string($0) }),
        ]
    }
}

import JournalProjections
