import JournalEvents
import JournalModel
import Testing
import TrainingDomain
@testable import JournalProjections

/// Seed 002's equipment inside the active workout: targets and rows are weights the lifter's dumbbells and machine
/// stacks can be set to, each barbell row shows the plates per side on that exercise's own bar, and a routine's
/// target RPE is on its rows.
@Suite("Equipment in the logger: dumbbell pairs, machine stacks, the bar per exercise, plates and target RPE")
struct EquipmentRowsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var unit: String
        var dumbbells: [Double]
        var machine: (min: Double, max: Double, increment: Double)
        var ezBar: Double
        /// Last session's weights: dumbbell press, lat pulldown, squat, EZ curl.
        var past: (dumbbell: Double, pulldown: Double, squat: Double, curl: Double)
        /// The targets the logger shows after it.
        var targets: (dumbbell: Double, pulldown: Double, squat: Double, curl: Double)
        var squatPlates: [Double]
        var curlPlates: [Double]
        /// The suggested warm-up sets of the dumbbell press and the pulldown.
        var warmups: (dumbbell: Double, pulldown: Double)
        var testDescription: String { unit }
    }

    static let cases = [
        // kg: 20 + 2.5 = 22.5 → the 24 kg pair (20 is 2.5 away, 24 is 1.5); 50 + 2.5 = 52.5 → 55 on a 5 kg stack;
        // 100 + 2.5 = 102.5 on the Olympic bar (not the EZ bar listed first); the failed curl stays 30 on the 10 kg EZ bar.
        Case(unit: "kg", dumbbells: [10, 12, 14, 16, 18, 20, 24, 28], machine: (5, 100, 5), ezBar: 10,
             past: (20, 50, 100, 30), targets: (24, 55, 102.5, 30), squatPlates: [25, 15, 1.25], curlPlates: [10],
             // 60 % of 24 is 15 after rounding, between the 14 and 16 kg pairs: 16; 60 % of 55 is 32.5: 35 on the stack.
             warmups: (16, 35)),
        // lb: 40 + 5 = 45 → a tie between 40 and 50 goes to 50; 100 + 5 = 105 → 110 on a 10 lb stack; 225 + 5 = 230
        // on the 45 lb bar; the failed curl stays 65 on the 25 lb EZ bar.
        Case(unit: "lb", dumbbells: [20, 30, 40, 50, 60], machine: (10, 250, 10), ezBar: 25,
             past: (40, 100, 225, 65), targets: (50, 110, 230, 65), squatPlates: [45, 45, 2.5], curlPlates: [10, 10],
             // 60 % of 50 is the 30 lb pair; 60 % of 110 is 65 after rounding: 70 on the stack.
             warmups: (30, 70)),
    ]

    static func events(_ c: Case) -> [Event] {
        let u = JSONValue.string(c.unit)
        func set(_ workout: String, _ exercise: String, _ number: Int, _ weight: Double, _ reps: Int, _ minute: Int) -> Event {
            ev("set.completed", at: "2026-11-02T18:\(minute < 10 ? "0" : "")\(minute):00.000+00:00",
               ["workout": .string(workout), "exercise": .string(exercise), "set": .int(number), "weight": .number(weight), "unit": u,
                "reps": .int(reps), "kind": "working"])
        }
        var events: [Event] = [
            ev("profile.updated", at: "2026-11-01T09:00:00.000+00:00", ["unit": u]),
            ev("equipment.updated", at: "2026-11-01T09:01:00.000+00:00", [
                "unit": u,
                "bars": j(#"[{"name": "EZ curl bar", "weight": \#(c.ezBar), "exercises": ["ez-bar-curl"]}, {"name": "Olympic bar", "weight": \#(c.unit == "kg" ? 20 : 45)}]"#),
                "dumbbells": .array(c.dumbbells.map(JSONValue.number)),
                "machines": j(#"[{"name": "Lat Pulldown", "min_weight": \#(c.machine.min), "max_weight": \#(c.machine.max), "increment": \#(c.machine.increment)}]"#),
                "attachments": j(#"["rope", "straight bar", "V-bar"]"#),
            ]),
            ev("template.created", at: "2026-11-01T09:02:00.000+00:00", ["template": "t1", "name": "Gym Day", "exercises": j("""
                [{"exercise": "barbell-back-squat", "sets": 3, "reps": "5", "rpe": 8},
                 {"exercise": "dumbbell-bench-press", "sets": 3, "reps": "8-10"},
                 {"exercise": "lat-pulldown", "sets": [{"reps": 10, "rpe": 8}, {"reps": 10, "rpe": 9}]},
                 {"exercise": "ez-bar-curl", "sets": 2, "reps": "10"}]
                """)]),
            ev("workout.started", at: "2026-11-02T18:00:00.000+00:00", ["workout": "w1", "name": "Gym Day", "session": .null, "template": "t1"]),
        ]
        var minute = 1
        for number in 1...3 { events.append(set("w1", "barbell-back-squat", number, c.past.squat, 5, minute)); minute += 1 }
        for number in 1...3 { events.append(set("w1", "dumbbell-bench-press", number, c.past.dumbbell, 10, minute)); minute += 1 }
        for number in 1...2 { events.append(set("w1", "lat-pulldown", number, c.past.pulldown, 10, minute)); minute += 1 }
        for number in 1...2 { events.append(set("w1", "ez-bar-curl", number, c.past.curl, 8, minute)); minute += 1 }
        events.append(ev("workout.finished", at: "2026-11-02T18:50:00.000+00:00", ["workout": "w1"]))
        events.append(ev("workout.started", at: "2026-11-04T18:00:00.000+00:00", ["workout": "w2", "name": "Gym Day", "session": .null, "template": "t1"]))
        return events
    }

    @Test("targets and rows land on the lifter's dumbbells and stack; the row and the Target: line agree", arguments: cases)
    func loadableTargets(_ c: Case) throws {
        let view = try #require(ActiveWorkoutState(analysis(Self.events(c), asOf: "2026-11-04T18:05:00.000+00:00", context: .trainingDomain)))
        func exercise(_ id: String) throws -> ActiveWorkoutState.Exercise { try #require(view.exercises.first { $0.exercise == id }) }
        let unit = WeightUnit(c.unit)!
        for (id, target) in [("dumbbell-bench-press", c.targets.dumbbell), ("lat-pulldown", c.targets.pulldown),
                             ("barbell-back-squat", c.targets.squat), ("ez-bar-curl", c.targets.curl)] {
            let e = try exercise(id)
            #expect(e.nextTarget == DisplayWeight(weight: target, unit: unit), "\(id)")
            #expect(e.rows.map(\.weight) == Array(repeating: target, count: e.rows.count), "\(id)")
            #expect(e.rows.allSatisfy { $0.source == .target }, "\(id)")
        }
        #expect(try exercise("dumbbell-bench-press").warmup?.weight == c.warmups.dumbbell)
        #expect(try exercise("lat-pulldown").warmup?.weight == c.warmups.pulldown)
    }

    @Test("each barbell row shows the plates per side on its exercise's bar: the EZ bar listed first is the curl's, never the squat's",
          arguments: cases)
    func platesPerRow(_ c: Case) throws {
        let view = try #require(ActiveWorkoutState(analysis(Self.events(c), asOf: "2026-11-04T18:05:00.000+00:00", context: .trainingDomain)))
        let squat = try #require(view.exercises.first { $0.exercise == "barbell-back-squat" })
        let curl = try #require(view.exercises.first { $0.exercise == "ez-bar-curl" })
        let olympic = c.unit == "kg" ? 20.0 : 45.0
        #expect(squat.rows.map { $0.plates?.perSide } == [c.squatPlates, c.squatPlates, c.squatPlates])
        #expect(squat.rows.map { $0.plates?.barWeight } == [olympic, olympic, olympic])
        #expect(squat.rows.allSatisfy { $0.plates?.isExact == true && $0.plates?.achieved == c.targets.squat })
        #expect(curl.rows.map { $0.plates?.barWeight } == [c.ezBar, c.ezBar])
        #expect(curl.rows.map { $0.plates?.perSide } == [c.curlPlates, c.curlPlates])
        // Dumbbells and machines are not loaded on a bar.
        #expect(view.exercises.filter { $0.exercise == "dumbbell-bench-press" || $0.exercise == "lat-pulldown" }
            .flatMap(\.rows).allSatisfy { $0.plates == nil })
    }

    @Test("a routine's target RPE is on its rows: the exercise's on every working row, a set's own where the sets are configured",
          arguments: cases)
    func targetRPE(_ c: Case) throws {
        let view = try #require(ActiveWorkoutState(analysis(Self.events(c), asOf: "2026-11-04T18:05:00.000+00:00", context: .trainingDomain)))
        #expect(view.exercises.map { $0.rows.map(\.targetRPE) } == [[8, 8, 8], [nil, nil, nil], [8, 9], [nil, nil]])
    }

    @Test("a barbell warm-up starts from the exercise's own bar, not the standard one, and shows that bar's plates", arguments: [
        // kg: 60 % of the failed curl's 30 kg is 17.5 on the 10 kg EZ bar (the standard bar's 20 would be the floor before);
        // 60 % of the squat's 102.5 is 62.5 on the 20 kg Olympic bar.
        ("kg", 17.5, [2.5, 1.25], 62.5, [20, 1.25]),
        // lb: 60 % of 65 is 40 on the 25 lb EZ bar (not 45); 60 % of 230 is 140 on the 45 lb bar.
        ("lb", 40, [5, 2.5], 140, [45, 2.5]),
    ])
    func warmupOnTheExercisesBar(_ unit: String, _ curl: Double, _ curlSide: [Double], _ squat: Double, _ squatSide: [Double]) throws {
        let c = try #require(Self.cases.first { $0.unit == unit })
        let view = try #require(ActiveWorkoutState(analysis(Self.events(c), asOf: "2026-11-04T18:05:00.000+00:00", context: .trainingDomain)))
        func warmup(_ id: String) throws -> ActiveWorkoutState.WarmupSuggestionState { try #require(view.exercises.first { $0.exercise == id }?.warmup) }
        let curlWarmup = try warmup("ez-bar-curl"), squatWarmup = try warmup("barbell-back-squat")
        #expect(curlWarmup.weight == curl && curlWarmup.plates?.barWeight == c.ezBar && curlWarmup.plates?.perSide == curlSide)
        #expect(curlWarmup.plates?.isExact == true)
        #expect(squatWarmup.weight == squat && squatWarmup.plates?.barWeight == (unit == "kg" ? 20 : 45) && squatWarmup.plates?.perSide == squatSide)
        // Dumbbells and machines have no bar, so no plates.
        #expect(try warmup("dumbbell-bench-press").plates == nil && warmup("lat-pulldown").plates == nil)
    }

    @Test("a programme exercise's target RPE is on its working rows, as a routine's is", arguments: ["kg", "lb"])
    func programmeRPE(_ unit: String) throws {
        let events = [
            ev("profile.updated", at: "2026-11-01T09:00:00.000+00:00", ["unit": .string(unit)]),
            ev("programme.generated", at: "2026-11-01T10:00:00.000+00:00", ["ruleset": "templates", "programme": j("""
                {"split": "Full Body", "days_per_week": 3, "weeks": 8, "sessions": [{"name": "Heavy", "exercises": [
                    {"exercise": "barbell-back-squat", "sets": 3, "reps": "5", "rest_s": 180, "rpe": 8.5},
                    {"exercise": "plank", "sets": 2, "reps": "60s", "rest_s": 60}]}]}
                """)]),
            ev("workout.started", at: "2026-11-02T18:00:00.000+00:00", ["workout": "w1", "name": "Heavy", "session": 0]),
        ]
        let view = try #require(ActiveWorkoutState(analysis(events, asOf: "2026-11-02T18:05:00.000+00:00", context: .trainingDomain)))
        #expect(view.exercises.map { $0.rows.map(\.targetRPE) } == [[8.5, 8.5, 8.5], [nil, nil]])
    }

    @Test("a cable exercise shows the attachment it needs and whether the lifter's inventory lists it", arguments: cases)
    func attachments(_ c: Case) throws {
        let events = Self.events(c)
        let view = try #require(ActiveWorkoutState(analysis(events, asOf: "2026-11-04T18:05:00.000+00:00", context: .trainingDomain)))
        // The inventory lists a rope, a straight bar and a V-bar, not the pulldown's long bar.
        #expect(view.exercises.map(\.attachment) == [nil, nil, ActiveWorkoutState.Attachment(name: "lat-bar", owned: false), nil])
        let added = events + [ev("equipment.updated", at: "2026-11-04T18:01:00.000+00:00", ["attachments": ["Lat pulldown bar", "D-handle"]])]
        let owned = try #require(ActiveWorkoutState(analysis(added, asOf: "2026-11-04T18:05:00.000+00:00", context: .trainingDomain)))
        #expect(owned.exercises[2].attachment == ActiveWorkoutState.Attachment(name: "lat-bar", owned: true))
        let none = added + [ev("equipment.updated", at: "2026-11-04T18:02:00.000+00:00", ["attachments": []])]
        let unknown = try #require(ActiveWorkoutState(analysis(none, asOf: "2026-11-04T18:05:00.000+00:00", context: .trainingDomain)))
        #expect(unknown.exercises[2].attachment == ActiveWorkoutState.Attachment(name: "lat-bar", owned: nil))
    }

    @Test("a completed barbell set keeps its plates; a weight below the bar has none")
    func completedRows() throws {
        let c = Self.cases[0]
        var events = Self.events(c)
        events.append(ev("set.completed", at: "2026-11-04T18:03:00.000+00:00",
                         ["workout": "w2", "exercise": "barbell-back-squat", "set": 1, "weight": 60, "unit": "kg", "reps": 5, "kind": "working"]))
        events.append(ev("set.completed", at: "2026-11-04T18:04:00.000+00:00",
                         ["workout": "w2", "exercise": "barbell-back-squat", "set": 2, "weight": 15, "unit": "kg", "reps": 5, "kind": "working"]))
        let view = try #require(ActiveWorkoutState(analysis(events, asOf: "2026-11-04T18:05:00.000+00:00", context: .trainingDomain)))
        let squat = try #require(view.exercises.first { $0.exercise == "barbell-back-squat" })
        #expect(squat.rows.map { $0.plates?.perSide } == [[20], nil, [25, 15, 1.25]])
    }
}
