import JournalEvents
@testable import JournalProjections

/// A timestamp literal: `t("2026-11-21T18:04:05.120+01:00")`.
func t(_ text: String) -> Timestamp {
    guard let value = Timestamp(rfc3339: text) else { fatalError("bad timestamp literal \(text)") }
    return value
}

/// A local date literal: `d("2026-11-21")`.
func d(_ text: String) -> LocalDate {
    guard let value = LocalDate(iso: text) else { fatalError("bad date literal \(text)") }
    return value
}

/// One event with a placeholder seq; `journal(...)` numbers them.
func ev(_ type: String, at: String, _ fields: JSONObject = [:]) -> Event {
    Event(seq: 0, id: "t-1", at: t(at), type: type, fields: fields)
}

/// Numbers events 1, 2, 3, … with ids `t-1`, `t-2`, … in the order given.
func journal(_ events: [Event]) -> [Event] {
    events.enumerated().map { index, event in
        var event = event
        event.seq = index + 1
        event.id = "t-\(String(index + 1, radix: 36))"
        return event
    }
}

func analysis(_ events: [Event], asOf: String, context: ProjectionContext = .standard) -> Analysis {
    Projections.analysis(events: journal(events), asOf: t(asOf), context: context)
}

/// A finished workout with working sets `(exercise, set, weight, unit, reps)` ticked one minute apart.
func workout(_ id: String, _ name: String, start: String, finish: String, session: Int? = nil,
             _ sets: [(String, Int, Double, String, Int)], warmups: [(String, Int, Double, String, Int)] = []) -> [Event] {
    var fields: JSONObject = ["workout": .string(id), "name": .string(name), "session": session.map { .int($0) } ?? .null]
    _ = fields.count
    var events = [ev("workout.started", at: start, fields)]
    let startTime = t(start)
    var minute: Int64 = 1
    for (exercise, set, weight, unit, reps) in warmups {
        events.append(ev("set.completed", at: startTime.adding(milliseconds: minute * 60_000).rfc3339,
                         ["workout": .string(id), "exercise": .string(exercise), "set": .int(set), "weight": .number(weight),
                          "unit": .string(unit), "reps": .int(reps), "kind": "warmup"]))
        minute += 1
    }
    for (exercise, set, weight, unit, reps) in sets {
        events.append(ev("set.completed", at: startTime.adding(milliseconds: minute * 60_000).rfc3339,
                         ["workout": .string(id), "exercise": .string(exercise), "set": .int(set), "weight": .number(weight),
                          "unit": .string(unit), "reps": .int(reps), "kind": "working"]))
        minute += 1
    }
    fields = ["workout": .string(id)]
    events.append(ev("workout.finished", at: finish, fields))
    return events
}

/// A JSON literal for nested payloads: `j(#"{"split": "PPL"}"#)`.
func j(_ text: String) -> JSONValue {
    do { return try JSONParser.parse(Array(text.utf8)) } catch { fatalError("bad JSON literal: \(text)") }
}
