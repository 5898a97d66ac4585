import JournalEvents
import JournalModel
import Testing
@testable import JournalProjections

/// An assisted exercise's weight is help: less is better (DOMAIN.md §"Assisted exercises", `SetRanking`).
@Suite("Assisted exercises")
struct AssistedExerciseTests {
    /// The catalogue's machine-assisted pull-up over three sessions: 30 kg of help, then 20 (a record), then 20 kg for
    /// more reps; and a custom assisted dip imported from Strong (its `exercise.created` says `assisted`).
    static let events: [Event] = [
        ev("exercise.created", at: "2026-11-01T09:00:00.000+01:00",
           ["exercise": "custom-chest-dip-assisted", "name": "Chest Dip (Assisted)", "assisted": true]),
        ev("exercise.created", at: "2026-11-01T09:00:00.000+01:00", ["exercise": "custom-quokka-press", "name": "Quokka Press"]),
    ] + workout("w1", "Pull", start: "2026-11-02T18:00:00.000+01:00", finish: "2026-11-02T19:00:00.000+01:00", [
        ("machine-assisted-pull-up", 1, 30, "kg", 8), ("machine-assisted-pull-up", 2, 30, "kg", 7),
        ("custom-chest-dip-assisted", 1, 20, "kg", 8), ("custom-quokka-press", 1, 30, "kg", 8),
    ]) + workout("w2", "Pull", start: "2026-11-04T18:00:00.000+01:00", finish: "2026-11-04T19:00:00.000+01:00", [
        ("machine-assisted-pull-up", 1, 20, "kg", 8), ("machine-assisted-pull-up", 2, 25, "kg", 10),
        ("custom-chest-dip-assisted", 1, 10, "kg", 8), ("custom-quokka-press", 1, 20, "kg", 8),
    ]) + workout("w3", "Pull", start: "2026-11-06T18:00:00.000+01:00", finish: "2026-11-06T19:00:00.000+01:00", [
        ("machine-assisted-pull-up", 1, 20, "kg", 10), ("machine-assisted-pull-up", 2, 20, "kg", 6),
    ])

    static let asOf = "2026-11-07T12:00:00.000+01:00"

    @Test("records: least assistance and reps at one help; no e1RM, volume or heaviest-weight record")
    func records() {
        let a = analysis(Self.events, asOf: Self.asOf)
        #expect(a.records.filter { $0.exercise == "machine-assisted-pull-up" } == [
            PersonalRecord(kind: .leastAssistance, exercise: "machine-assisted-pull-up", name: "Machine Assisted Pull Up", workout: "w2",
                           date: d("2026-11-04"), value: 20, previous: 30, weightKilograms: 20, reps: 8, assisted: true),
            PersonalRecord(kind: .repsAtWeight, exercise: "machine-assisted-pull-up", name: "Machine Assisted Pull Up", workout: "w3",
                           date: d("2026-11-06"), value: 10, previous: 8, weightKilograms: 20, reps: 10, assisted: true),
        ])
        // A custom exercise created as assisted ranks the same way; one without `assisted` is an ordinary lift.
        #expect(a.records.filter { $0.exercise == "custom-chest-dip-assisted" }.map { [$0.kind.rawValue, "\($0.value)", "\($0.previous)"] }
                == [["least_assistance", "10.0", "20.0"]])
        #expect(a.records.filter { $0.exercise == "custom-quokka-press" }.map(\.kind) == [])
        // The records say their weight is help, in the CLI's words and in their JSON.
        #expect(a.records.filter { $0.exercise == "machine-assisted-pull-up" }.map(\.assisted) == [true, true])
        #expect(a.records.last { $0.exercise == "machine-assisted-pull-up" }?.jsonValue.objectValue?["assisted"] == .bool(true))
        #expect(a.ledger.ranking(of: "machine-assisted-pull-up") == SetRanking(assisted: true))
        #expect(a.ledger.ranking(of: "band-assisted-pull-up") == SetRanking(assisted: true))
        #expect(a.ledger.ranking(of: "pull-up") == SetRanking(assisted: false))
        #expect(a.ledger.ranking(of: "custom-quokka-press") == SetRanking(assisted: false))
    }

    @Test("the home page's records are the full replay's")
    func homeRecords() {
        let ledger = Ledger(events: journal(Self.events), asOf: Ledger.everything)
        let home = HomeFold(compacting: ledger).homeView(asOf: t(Self.asOf), context: .standard)
        #expect(home?.recentRecords.map(\.kind) == [.repsAtWeight, .leastAssistance, .leastAssistance])
    }

    @Test("help is not load: an assisted exercise's sets add nothing to a workout's, a week's or the journal's volume")
    func noVolume() {
        let a = analysis(Self.events, asOf: Self.asOf)
        // w1: the quokka press's 30 kg × 8 only; the pull-ups' 30 kg of help × 15 and the dip's 20 × 8 are left out.
        #expect(HistoryState(a).workouts.map(\.volumeKilograms) == [0, 160, 240])
        #expect(HomeState(a).lastWorkouts.map(\.volumeKilograms) == [0, 160, 240])
        #expect(a.ledger.totals(countingVolumeOf: a.ledger.addsVolume).volumeKilograms == 400)
        #expect(a.ledger.totals.volumeKilograms == 1_820)   // every weight × reps, help included: the model's raw sum
        #expect(ProgressState(a, range: .all).totalVolumeKilograms == 400)
        #expect(ProgressState(a, range: .all).weeklyFrequency.map(\.volumeKilograms).reduce(0, +) == 400)
        #expect(!a.ledger.addsVolume("machine-assisted-pull-up") && !a.ledger.addsVolume("custom-chest-dip-assisted"))
        #expect(a.ledger.addsVolume("custom-quokka-press"))
    }

    @Test("history: top set, best set, bests and charts rank by least help; no e1RM")
    func history() {
        let view = ExerciseHistoryState(analysis(Self.events, asOf: Self.asOf), exercise: "machine-assisted-pull-up")
        #expect(view.assisted)
        #expect(view.bestSet == SetValue(weight: 20, unit: .kg, reps: 10))
        #expect(view.sessions.map(\.topSet) == [SetValue(weight: 20, unit: .kg, reps: 10), SetValue(weight: 20, unit: .kg, reps: 8),
                                                SetValue(weight: 30, unit: .kg, reps: 8)])
        #expect(view.sessions.map(\.e1rmKilograms) == [0, 0, 0])
        #expect(view.bests == ExerciseHistoryState.Bests(heaviestWeightKilograms: 20, e1rmKilograms: 0, setVolumeKilograms: 0, sessionVolumeKilograms: 0,
                                                        repsAtWeight: [.init(weightKilograms: 30, reps: 8), .init(weightKilograms: 25, reps: 10),
                                                                       .init(weightKilograms: 20, reps: 10)]))
        #expect(view.charts.e1rm == [])
        #expect(view.charts.maxWeight.map(\.value) == [30, 20, 20])
        // Help × reps is no volume: the volume charts stay empty, as the e1RM chart does.
        #expect(view.charts.volume == [] && view.charts.weeklyVolume == [])
        #expect(view.sessions.map(\.volumeKilograms) == [0, 0, 0])
        #expect(view.jsonValue.objectValue?["assisted"] == .bool(true))
        // Rosettes count less help as more: w3 (20 × 10, 20 × 6) beats w2 (20 × 8, 25 × 10) with fewer reps but 90 kg
        // less help × reps; its history says so (volume delta +90).
        #expect(view.sessions.map(\.rosette) == [true, true, false])
        let w3 = analysis(Self.events, asOf: Self.asOf).summary(2).exercises.first
        #expect(w3?.rosette == true && w3?.volumeDeltaKilograms == 90 && w3?.repsDelta == -2)
        // The ordinary custom lift keeps the heaviest set as its top set and its Epley e1RM.
        let press = ExerciseHistoryState(analysis(Self.events, asOf: Self.asOf), exercise: "custom-quokka-press")
        #expect(!press.assisted && press.bestSet == SetValue(weight: 30, unit: .kg, reps: 8) && press.bests?.e1rmKilograms == 38)
    }

    @Test("progress: the strength series of an assisted exercise is its least help per session")
    func progress() {
        let progress = ProgressState(analysis(Self.events, asOf: Self.asOf), range: .all)
        let series = progress.strength.first { $0.exercise == "machine-assisted-pull-up" }
        #expect(series?.assisted == true)
        #expect(series?.points.map(\.value) == [30, 20, 20])
        #expect(progress.strength.first { $0.exercise == "custom-quokka-press" }?.assisted == false)
    }
}
