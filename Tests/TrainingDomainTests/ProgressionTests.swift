import JournalModel
import Testing
import JournalEvents
@testable import TrainingDomain

@Suite("Progression and deload")
struct ProgressionTests {
    static func session(_ id: String, _ weight: Double, _ reps: [Int], unit: WeightUnit = .kg, target: Int? = 5, sets: Int? = nil) -> CompletedSession {
        CompletedSession(workout: id, exercise: "barbell-back-squat", sets: reps.map { CompletedSet(weight: weight, unit: unit, reps: $0) },
                         targetReps: target, targetSets: sets)
    }

    @Test("Next target as a fold over sessions", arguments: [
        // name, sessions, expected target, failures, outcomes
        ("all sets at target: +2.5 kg", [session("w1", 100, [5, 5, 5])], 102.5, 0, ["passed"]),
        ("one set short: same weight", [session("w1", 100, [5, 5, 4])], 100.0, 1, ["failed"]),
        ("two passes in a row", [session("w1", 100, [5, 5, 5]), session("w2", 102.5, [5, 5, 5])], 105.0, 0, ["passed", "passed"]),
        ("three failures deload 10% rounded down to 2.5",
         [session("w1", 100, [5, 5, 5]), session("w2", 102.5, [5, 4, 3]), session("w3", 102.5, [5, 5, 4]), session("w4", 102.5, [4, 4, 4])],
         90.0, 0, ["passed", "failed", "failed", "deloaded"]),
        ("a pass resets the failure count",
         [session("w1", 100, [4, 4, 4]), session("w2", 100, [4, 4, 4]), session("w3", 100, [5, 5, 5]), session("w4", 102.5, [4, 4, 4])],
         102.5, 1, ["failed", "failed", "passed", "failed"]),
        ("top of the range is the target", [session("w1", 60, [12, 12, 11], target: 12)], 60.0, 1, ["failed"]),
        ("fewer sets than prescribed is a failure", [session("w1", 60, [5, 5], sets: 3)], 60.0, 1, ["failed"]),
        ("pounds converted to the rule's kilograms, the target loadable (102.058 + 2.5 → 105)", [session("w1", 225, [5, 5, 5], unit: .lb)], 105, 0, ["passed"]),
        ("a session with no working sets is skipped", [session("w1", 100, [])], nil, 0, ["skipped"]),
        ("no history: no target", [], nil, 0, []),
    ] as [(String, [CompletedSession], Double?, Int, [String])])
    func fold(name: String, history: [CompletedSession], target: Double?, failures: Int, outcomes: [String]) throws {
        let result = try Progression.nextTarget(exercise: "barbell-back-squat", history: history, rule: .trainDefault())
        if let target {
            #expect(abs((result.weight ?? -1) - target) < 0.001, "\(name)")
        } else {
            #expect(result.weight == nil, "\(name)")
        }
        #expect(result.failures == failures, "\(name)")
        #expect(result.steps.map(\.outcome.rawValue) == outcomes, "\(name)")
    }

    @Test("Top-set trigger only looks at the heaviest set")
    func topSet() throws {
        var rule = ProgressionRule.trainDefault()
        rule.trigger = .topSet
        let history = [CompletedSession(workout: "w1", exercise: "deadlift", sets: [
            CompletedSet(weight: 140, unit: .kg, reps: 5), CompletedSet(weight: 120, unit: .kg, reps: 3),
        ], targetReps: 5)]
        #expect(try Progression.nextTarget(exercise: "deadlift", history: history, rule: rule).weight == 142.5)
        rule.trigger = .allSets
        #expect(try Progression.nextTarget(exercise: "deadlift", history: history, rule: rule).weight == 140)
    }

    @Test("A deload is explained by the sessions that caused it")
    func explanation() throws {
        var rule = ProgressionRule.trainDefault()
        rule.failuresBeforeDeload = 2
        rule.deloadPercent = 20
        let result = try Progression.nextTarget(exercise: "barbell-back-squat", history: [
            Self.session("w1", 80, [5, 5, 5]), Self.session("w2", 82.5, [3, 3, 3]), Self.session("w3", 82.5, [4, 3, 2]),
        ], rule: rule)
        #expect(result.deloads == [Deload(from: 82.5, to: 65, percent: 20, causedBy: ["w2", "w3"])])
        #expect(result.explanation == """
        barbell-back-squat: next target 65 kg × 5 (rule: +2.5 kg when all sets reach the target reps; −20% after 2 consecutive failures)
          w1: 80 kg × 5,5,5 vs 5 reps → passed; target 82.5 kg
          w2: 82.5 kg × 3,3,3 vs 5 reps → failed; target 82.5 kg (failure 1 of 2)
          w3: 82.5 kg × 4,3,2 vs 5 reps → deloaded; target 65 kg (failure 2 of 2)
          deload: 82.5 kg − 20% = 65 kg, after failed sessions w2, w3
        """)
    }

    @Test("Impossible rules are refused", arguments: [
        (ProgressionRule(increment: -2.5), "progression rule increment -2.5 must be ≥ 0"),
        (ProgressionRule(increment: 2.5, deloadPercent: 100), "progression rule deload_percent 100 must be at least 0 and below 100"),
        (ProgressionRule(increment: 2.5, failuresBeforeDeload: 0), "progression rule failures_before_deload 0 must be at least 1"),
    ])
    func impossible(rule: ProgressionRule, message: String) {
        do {
            _ = try Progression.nextTarget(exercise: "plank", history: [], rule: rule)
            Issue.record("expected \(message)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("Rules are configured by progression.configured and history is read from the journal")
    func fromJournal() throws {
        var log = EventLog()
        log.add("progression.configured", ["exercise": "overhead-press", "increment": 1.25, "failures_before_deload": 2])
        log.add("progression.configured", ["exercise": "deadlift", "increment": 5])
        log.workout("w1", "overhead-press", [(40, 8), (40, 8), (40, 8)], reps: "6-8", prescribedSets: 3)
        log.workout("w2", "overhead-press", [(41.25, 8), (41.25, 7), (41.25, 6)], reps: "6-8", prescribedSets: 3)
        log.add("workout.started", ["workout": "w3", "name": "x", "session": .null])
        log.add("set.completed", ["workout": "w3", "exercise": "overhead-press", "set": 1, "weight": 10, "unit": "kg", "reps": 1, "kind": "working"])
        log.add("workout.discarded", ["workout": "w3"])
        log.workout("w4", "overhead-press", [(41.25, 6), (41.25, 6), (41.25, 6)], reps: "6-8", prescribedSets: 3)
        let rule = ProgressionRule.resolve(exercise: "overhead-press", ledger: log.ledger, base: .trainDefault())
        #expect(rule == ProgressionRule(increment: 1.25, failuresBeforeDeload: 2))
        let sessions = Progression.sessions(for: "overhead-press", in: log.ledger)
        #expect(sessions.map(\.workout) == ["w1", "w2", "w4"])
        #expect(sessions.map(\.targetReps) == [8, 8, 8])
        let target = try Progression.nextTarget(exercise: "overhead-press", ledger: log.ledger)
        #expect(target.weight == 36.25)   // 41.25 − 10% = 37.125, rounded down to the 1.25 kg increment
        #expect(target.deloads.first?.causedBy == ["w2", "w4"])
    }

    static func assisted(_ id: String, _ help: Double, _ reps: [Int]) -> CompletedSession {
        CompletedSession(workout: id, exercise: "machine-assisted-pull-up", sets: reps.map { CompletedSet(weight: help, unit: .kg, reps: $0) }, targetReps: 8)
    }

    @Test("On an assisted exercise progress takes help away and a deload gives it back")
    func assistedExercise() throws {
        let result = try Progression.nextTarget(exercise: "machine-assisted-pull-up", history: [
            CompletedSession(workout: "w1", exercise: "machine-assisted-pull-up",
                             sets: [CompletedSet(weight: 35, unit: .kg, reps: 8), CompletedSet(weight: 30, unit: .kg, reps: 8)], targetReps: 8),
            Self.assisted("w2", 27.5, [8, 8, 8]), Self.assisted("w3", 25, [8, 6, 5]), Self.assisted("w4", 25, [7, 6, 5]),
            Self.assisted("w5", 25, [6, 6, 5]),
        ], rule: .trainDefault(), assisted: true)
        #expect(result.weight == 27.5)
        #expect(result.deloads == [Deload(from: 25, to: 27.5, percent: 10, causedBy: ["w3", "w4", "w5"])])
        #expect(result.explanation == """
        machine-assisted-pull-up: next target 27.5 kg assistance × 8 (rule: +2.5 kg when all sets reach the target reps; −10% after 3 consecutive failures)
          w1: 30 kg assistance × 8,8 vs 8 reps → passed; target 27.5 kg assistance
          w2: 27.5 kg assistance × 8,8,8 vs 8 reps → passed; target 25 kg assistance
          w3: 25 kg assistance × 8,6,5 vs 8 reps → failed; target 25 kg assistance (failure 1 of 3)
          w4: 25 kg assistance × 7,6,5 vs 8 reps → failed; target 25 kg assistance (failure 2 of 3)
          w5: 25 kg assistance × 6,6,5 vs 8 reps → deloaded; target 27.5 kg assistance (failure 3 of 3)
          deload: 25 kg assistance + 10% = 27.5 kg assistance, after failed sessions w3, w4, w5
        """)
        // The same sessions read as load would have added weight.
        #expect(try Progression.nextTarget(exercise: "machine-assisted-pull-up", history: [Self.assisted("w2", 27.5, [8, 8, 8])], rule: .trainDefault()).weight == 30)
    }

    @Test("Assistance never goes below 0, and a deload from 0 gives one loading step of help")
    func assistedFloor() throws {
        let down = try Progression.nextTarget(exercise: "machine-assisted-pull-up", history: [
            Self.assisted("w1", 1, [8, 8]), Self.assisted("w2", 0, [8, 8]),
        ], rule: .trainDefault(), assisted: true)
        #expect(down.steps.map(\.targetAfter) == [0, 0])
        #expect(down.steps.map(\.note) == ["", "no assistance left: no help taken away"])
        let failing = try Progression.nextTarget(exercise: "machine-assisted-pull-up",
                                                 history: (1...3).map { Self.assisted("f\($0)", 0, [5, 4]) }, rule: .trainDefault(), assisted: true)
        #expect(failing.weight == 2.5)
        #expect(failing.deloads == [Deload(from: 0, to: 2.5, percent: 10, causedBy: ["f1", "f2", "f3"])])
    }

    @Test("A custom exercise created assisted progresses by less help, read from the journal")
    func assistedFromJournal() throws {
        var log = EventLog()
        log.add("exercise.created", ["exercise": "custom-dip-assisted", "name": "Dip (Assisted)", "assisted": true])
        log.workout("w1", "custom-dip-assisted", [(20, 5), (20, 5), (20, 5)])
        log.workout("w2", "machine-assisted-pull-up", [(40, 5), (40, 5)])
        #expect(log.ledger.isAssisted("custom-dip-assisted") && log.ledger.isAssisted("machine-assisted-pull-up") && !log.ledger.isAssisted("pull-up"))
        #expect(try Progression.nextTarget(exercise: "custom-dip-assisted", ledger: log.ledger).weight == 17.5)
        #expect(try Progression.nextTarget(exercise: "machine-assisted-pull-up", ledger: log.ledger).weight == 37.5)
    }

    @Test("Seed 002 default increments by exercise")
    func defaults() {
        let catalogue = ExerciseCatalogue.builtIn
        #expect(ProgressionRule.suggested(for: catalogue.exercise(id: "barbell-back-squat"), unit: .lb).increment == 5)
        #expect(ProgressionRule.suggested(for: catalogue.exercise(id: "barbell-curl"), unit: .lb).increment == 2.5)
        #expect(ProgressionRule.suggested(for: catalogue.exercise(id: "dumbbell-curl"), unit: .lb).increment == 5)
        #expect(ProgressionRule.suggested(for: catalogue.exercise(id: "barbell-curl"), unit: .kg).increment == 1.25)
        #expect(ProgressionRule.trainDefault().increment == 2.5)
    }
}

@Suite("progression in the lifter's unit")
struct PoundProgressionTests {
    func session(_ id: String, _ weight: Double, _ unit: WeightUnit, reps: [Int]) -> CompletedSession {
        CompletedSession(workout: id, exercise: "barbell-bench-press", sets: reps.map { CompletedSet(weight: weight, unit: unit, reps: $0) }, targetReps: 5)
    }

    @Test("seed 002's pound increments: 135 lb passed → 140 lb; a kilogram rule over pound sets lands on 2.5 kg")
    func poundIncrements() throws {
        let pounds = try Progression.nextTarget(exercise: "barbell-bench-press", history: [session("a", 135, .lb, reps: [5, 5, 5])],
                                                rule: .suggested(for: ExerciseCatalogue.builtIn.exercise(id: "barbell-bench-press"), unit: .lb))
        #expect(pounds.weight == 140)
        #expect(pounds.unit == .lb)
        let kilograms = try Progression.nextTarget(exercise: "barbell-bench-press", history: [session("a", 135, .lb, reps: [5, 5, 5])],
                                                   rule: .suggested(for: ExerciseCatalogue.builtIn.exercise(id: "barbell-bench-press"), unit: .kg))
        #expect(kilograms.weight == 62.5)
        // A configured 2.5 lb increment steps by 2.5 lb.
        let small = try Progression.nextTarget(exercise: "barbell-bench-press", history: [session("a", 135, .lb, reps: [5, 5, 5])],
                                               rule: ProgressionRule(increment: 2.5, unit: .lb))
        #expect(small.weight == 137.5)
        // Deload in pounds rounds down to 5 lb: 140 × 0.9 = 126 → 125.
        let failing = try Progression.nextTarget(exercise: "barbell-bench-press",
                                                 history: [session("a", 135, .lb, reps: [5, 5, 5])] + (1...3).map { session("f\($0)", 140, .lb, reps: [5, 4, 3]) },
                                                 rule: .trainDefault(unit: .lb))
        #expect(failing.weight == 125)
        #expect(failing.deloads.map(\.to) == [125])
    }

    @Test("loadable: the nearest step, raised above the heaviest")
    func loadable() {
        #expect(Progression.loadable(140, step: 5, above: 135) == 140)
        #expect(Progression.loadable(63.73, step: 2.5, above: 61.23) == 62.5)
        #expect(Progression.loadable(61.2, step: 2.5, above: 61) == 62.5)
    }

    @Test("an unloaded bodyweight session adds no weight")
    func bodyweight() throws {
        let target = try Progression.nextTarget(exercise: "pull-up",
                                                history: [CompletedSession(workout: "a", exercise: "pull-up", sets: [CompletedSet(weight: 0, unit: .kg, reps: 8)], targetReps: 8)],
                                                rule: .trainDefault())
        #expect(target.weight == 0)
        #expect(target.steps.map(\.note) == ["unloaded: no weight added"])
    }
}
