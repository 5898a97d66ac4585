import JournalEvents
import JournalModel

/// A cardio exercise's history (seed 004's exercise detail "time/distance for cardio", seed 003's
/// exercise progress): its `cardio.logged` entries in finished workouts, bests and chart series.
public struct CardioHistory: Equatable, Sendable {
    public struct Session: Equatable, Sendable {
        public var workout: String
        public var workoutName: String
        public var date: LocalDate
        public var minutes: Double
        public var km: Double?
        public var calories: Double?
        /// Minutes per km, to 0.01; nil without a distance or without minutes.
        public var paceMinutesPerKm: Double?
        public init(workout: String, workoutName: String, date: LocalDate, minutes: Double, km: Double?, calories: Double?) {
            self.workout = workout; self.workoutName = workoutName; self.date = date; self.minutes = minutes; self.km = km
            self.calories = calories; self.paceMinutesPerKm = CardioHistory.pace(minutes: minutes, km: km)
        }
    }
    public struct Bests: Equatable, Sendable {
        public var longestMinutes: Double
        public var longestKm: Double?
        /// The lowest minutes per km of any session with a distance.
        public var fastestPaceMinutesPerKm: Double?
    }
    public struct Charts: Equatable, Sendable {
        /// Oldest first, one point per session (distance and pace only for sessions with a distance).
        public var minutes: [ChartPoint]
        public var km: [ChartPoint]
        public var pace: [ChartPoint]
    }

    /// Newest first.
    public var sessions: [Session]
    public var bests: Bests
    public var charts: Charts

    /// Minutes per km to 0.01 (30 min over 5 km: 6); nil without a positive distance or a positive time (a 0-minute
    /// entry has no pace, not the fastest one).
    public static func pace(minutes: Double, km: Double?) -> Double? {
        guard let km, km > 0, minutes > 0 else { return nil }
        return Rounding.display(minutes / km)
    }

    /// Nil when no finished workout holds an entry for `exercise`.
    public init?(_ analysis: Analysis, exercise: String) {
        var sessions: [Session] = []
        for workout in analysis.finished {
            for entry in workout.cardio where entry.exercise == exercise {
                sessions.append(Session(workout: workout.id, workoutName: workout.name, date: LocalDate(day: workout.day),
                                        minutes: entry.minutes, km: entry.km, calories: entry.calories))
            }
        }
        guard !sessions.isEmpty else { return nil }
        let distances = sessions.compactMap(\.km)
        let paces = sessions.compactMap(\.paceMinutesPerKm)
        self.sessions = sessions.reversed()
        bests = Bests(longestMinutes: sessions.map(\.minutes).max() ?? 0, longestKm: distances.max(), fastestPaceMinutesPerKm: paces.min())
        charts = Charts(
            minutes: sessions.map { ChartPoint(date: $0.date, workout: $0.workout, value: $0.minutes) },
            km: sessions.compactMap { session in session.km.map { ChartPoint(date: session.date, workout: session.workout, value: $0) } },
            pace: sessions.compactMap { session in session.paceMinutesPerKm.map { ChartPoint(date: session.date, workout: session.workout, value: $0) } })
    }
}

extension CardioHistory: JSONRepresentable {
    public var jsonValue: JSONValue {
        object([
            "sessions": .array(sessions.map {
                object(["workout": json($0.workout), "workout_name": json($0.workoutName), "date": json($0.date), "minutes": json($0.minutes),
                        "km": json($0.km, json), "calories": json($0.calories, json), "pace_min_per_km": json($0.paceMinutesPerKm, json)])
            }),
            "bests": object(["longest_minutes": json(bests.longestMinutes), "longest_km": json(bests.longestKm, json),
                             "fastest_pace_min_per_km": json(bests.fastestPaceMinutesPerKm, json)]),
            "charts": object(["minutes": json(charts.minutes), "km": json(charts.km), "pace": json(charts.pace)]),
        ])
    }
}
