import JournalEvents
import JournalModel

/// Daily and weekly streaks (PROJECTIONS.md §"Streaks").
public struct Streaks: Equatable, Hashable, Sendable {
    /// The run of consecutive local days with a finished workout ending on the latest such day; 0 when that day is before yesterday.
    public var currentDays: Int
    public var longestDays: Int
    /// Consecutive local ISO weeks with a finished workout, up to this week; this week never breaks it.
    public var currentWeeks: Int
    public var longestWeeks: Int
    /// Like `currentWeeks`, counting only weeks that met the weekly target (nil without a target).
    public var currentTargetWeeks: Int?
    public var lastWorkoutDate: LocalDate?

    public init(currentDays: Int, longestDays: Int, currentWeeks: Int, longestWeeks: Int, currentTargetWeeks: Int? = nil, lastWorkoutDate: LocalDate? = nil) {
        self.currentDays = currentDays; self.longestDays = longestDays; self.currentWeeks = currentWeeks; self.longestWeeks = longestWeeks
        self.currentTargetWeeks = currentTargetWeeks; self.lastWorkoutDate = lastWorkoutDate
    }

    /// `days`: the local day of every finished workout (any order, repeats allowed); `today`: T's local day.
    public init(days: [Int], today: Int, weeklyTarget: Int?) {
        let unique = Array(Set(days)).sorted()
        var longest = 0, run = 0, previous = Int.min
        for day in unique {
            run = (previous != Int.min && day == previous + 1) ? run + 1 : 1
            longest = max(longest, run)
            previous = day
        }
        let current = (unique.last.map { $0 >= today - 1 } ?? false) ? run : 0

        var perWeek: [Int: Int] = [:]
        for day in days { perWeek[LocalDate.weekStart(ofDay: day), default: 0] += 1 }
        let thisWeek = LocalDate.weekStart(ofDay: today)
        func streak(_ qualifies: (Int) -> Bool) -> Int {
            var week = qualifies(thisWeek) ? thisWeek : thisWeek - 7
            var count = 0
            while qualifies(week) { count += 1; week -= 7 }
            return count
        }
        var longestWeeks = 0, weekRun = 0, previousWeek = Int.min
        for week in perWeek.keys.sorted() {
            weekRun = week == previousWeek + 7 ? weekRun + 1 : 1
            longestWeeks = max(longestWeeks, weekRun)
            previousWeek = week
        }
        self.init(currentDays: current, longestDays: longest, currentWeeks: streak { perWeek[$0] != nil }, longestWeeks: longestWeeks,
                  currentTargetWeeks: weeklyTarget.map { target in streak { (perWeek[$0] ?? 0) >= target } },
                  lastWorkoutDate: unique.last.map(LocalDate.init(day:)))
    }
}

extension Analysis {
    public var streaks: Streaks { Streaks(days: finished.map(\.day), today: asOf.localDay, weeklyTarget: weeklyTarget) }

    /// Workouts per week the lifter aims for: the programme's days per week, else the questionnaire's answer.
    public var weeklyTarget: Int? { ledger.weeklyTarget }

    /// Finished workouts whose day falls in the local week starting on `weekStart`.
    public func finished(inWeekStarting weekStart: Int) -> [WorkoutRecord] {
        finished.filter { $0.day >= weekStart && $0.day < weekStart + 7 }
    }
}

/// A programme session as a card: "Push • 6 exercises".
public struct SessionCard: Equatable, Hashable, Sendable {
    public struct Exercise: Equatable, Hashable, Sendable {
        public var exercise: String
        public var name: String
        public var sets: Int
        public var reps: String?
        public init(exercise: String, name: String, sets: Int, reps: String?) { self.exercise = exercise; self.name = name; self.sets = sets; self.reps = reps }
    }
    public var session: Int
    public var name: String
    public var exercises: [Exercise]
    public init(session: Int, name: String, exercises: [Exercise]) { self.session = session; self.name = name; self.exercises = exercises }
}

/// A planned workout not yet started (seed 003's planner: upcoming workouts with their dates and exercises).
public struct PlannedCard: Equatable, Hashable, Sendable {
    public var plan: String
    public var name: String
    /// The day it is planned for (`workout.planned` `date`), if any.
    public var date: LocalDate?
    /// Planned for a day before T's and still not started.
    public var overdue: Bool
    public var exercises: [SessionCard.Exercise]
    public init(plan: String, name: String, date: LocalDate?, overdue: Bool, exercises: [SessionCard.Exercise]) {
        self.plan = plan; self.name = name; self.date = date; self.overdue = overdue; self.exercises = exercises
    }
}

/// Home page (seed 000 §9, seed 001 §5, seed 003 Home).
public struct HomeState: Equatable, Sendable {
    public struct ProgrammeProgress: Equatable, Sendable {
        public var split: String
        /// Week X of Y: whole weeks since the day of `programme.generated` plus 1 (week 1 starts with the programme),
        /// clamped to 1…Y.
        public var week: Int
        public var weeks: Int
        public var daysPerWeek: Int
        public var sessionMinutes: String?
        public var priorityMuscles: [String]
        /// T is past the programme's last week: it is over (seed 000/001 then offer to retake the questionnaire).
        public var finished: Bool
        /// What the seeds offer once it is over: `retake` (the questionnaire, seed 000/001 "Retake Quiz") and
        /// `regenerate` (a new programme from the same answers, seed 002); empty while it runs.
        public var nextSteps: [String]
        public init(split: String, week: Int, weeks: Int, daysPerWeek: Int, sessionMinutes: String?, priorityMuscles: [String],
                    finished: Bool = false) {
            self.split = split; self.week = week; self.weeks = weeks; self.daysPerWeek = daysPerWeek
            self.sessionMinutes = sessionMinutes; self.priorityMuscles = priorityMuscles
            self.finished = finished; self.nextSteps = finished ? ProgrammeProgress.afterTheLastWeek : []
        }
        public static let afterTheLastWeek = ["retake", "regenerate"]

        /// The sessions of a programme's week, in order (PROJECTIONS.md §"The week"): its `count` sessions from the
        /// first when they cover `daysPerWeek`; otherwise the programme rotates (Starting Strength's A/B at 3 days):
        /// `daysPerWeek` sessions in rotation order, starting after `lastBefore`, the session of the last workout
        /// of this programme before the week (A B A, then B A B).
        public static func weekSessions(count: Int, daysPerWeek: Int, lastBefore: Int?) -> [Int] {
            guard count > 0 else { return [] }
            let start = count < daysPerWeek ? (lastBefore.map { $0 + 1 } ?? 0) % count : 0
            return (0..<max(count, daysPerWeek)).map { (start + $0) % count }
        }

        /// The programme week of `day` (local days) for a programme generated on local day `generatedDay`:
        /// 1 for its first seven days, and so on; below 1 before it. Not clamped.
        public static func week(ofDay day: Int, generatedDay: Int) -> Int {
            Int((Double(day - generatedDay) / 7).rounded(.down)) + 1
        }
    }
    public struct SessionStatus: Equatable, Sendable {
        public var session: Int
        public var name: String
        public var completed: Bool
        /// The finished workout that completed it this week.
        public var workout: String?
        public init(session: Int, name: String, completed: Bool, workout: String? = nil) {
            self.session = session; self.name = name; self.completed = completed; self.workout = workout
        }
    }
    public struct CalendarDay: Equatable, Sendable {
        public var date: LocalDate
        public var finished: Bool
        public var workouts: Int
        /// What is scheduled that day and not done yet (seed 001's session indicators): a dated plan's name, or a
        /// programme session the week still needs (`HomeState.scheduleDays`).
        public var scheduled: [String]
        public init(date: LocalDate, finished: Bool, workouts: Int, scheduled: [String] = []) {
            self.date = date; self.finished = finished; self.workouts = workouts; self.scheduled = scheduled
        }
    }
    public struct Week: Equatable, Sendable {
        /// Monday of this local week.
        public var start: LocalDate
        /// Programme sessions completed this week (finished workouts without a programme).
        public var completed: Int
        public var target: Int?
        /// Every finished workout this week, programme or not.
        public var workouts: Int
        public var sessions: [SessionStatus]
        public var calendar: [CalendarDay]
        public init(start: LocalDate, completed: Int, target: Int?, workouts: Int, sessions: [SessionStatus], calendar: [CalendarDay]) {
            self.start = start; self.completed = completed; self.target = target; self.workouts = workouts
            self.sessions = sessions; self.calendar = calendar
        }
    }
    public struct RecentWorkout: Equatable, Sendable {
        public var workout: String
        public var name: String
        public var date: LocalDate
        public var durationSeconds: Int
        public var exerciseCount: Int
        public var volumeKilograms: Double
        public init(workout: String, name: String, date: LocalDate, durationSeconds: Int, exerciseCount: Int, volumeKilograms: Double) {
            self.workout = workout; self.name = name; self.date = date; self.durationSeconds = durationSeconds
            self.exerciseCount = exerciseCount; self.volumeKilograms = volumeKilograms
        }
    }

    /// The profile's name (nil before one is known).
    public var name: String?
    public var streak: Streaks
    public var programme: ProgrammeProgress?
    public var week: Week
    public var nextWorkout: SessionCard?
    /// Later programme sessions not completed this week.
    public var upcoming: [SessionCard]
    /// Planned workouts (`workout.planned`) not yet started.
    public var planned: [String]
    /// The same plans with their dates and exercises, by date (undated last), then in the order planned.
    public var plannedWorkouts: [PlannedCard] = []
    /// The five latest records, newest first.
    public var recentRecords: [PersonalRecord]
    /// The three latest finished workouts, newest first.
    public var lastWorkouts: [RecentWorkout]
    public var message: String
    /// The open workout, if one is in progress.
    public var activeWorkout: String?

    public init(name: String?, streak: Streaks, programme: ProgrammeProgress?, week: Week, nextWorkout: SessionCard?, upcoming: [SessionCard],
                planned: [String] = [], recentRecords: [PersonalRecord], lastWorkouts: [RecentWorkout], message: String, activeWorkout: String? = nil) {
        self.name = name; self.streak = streak; self.programme = programme; self.week = week; self.nextWorkout = nextWorkout
        self.upcoming = upcoming; self.planned = planned; self.recentRecords = recentRecords; self.lastWorkouts = lastWorkouts
        self.message = message; self.activeWorkout = activeWorkout
    }

    /// The days `count` sessions are scheduled on, in order (PROJECTIONS.md §"The week (home)"): the days from `from`
    /// to `to` without a finished workout (`trained`), every other one when they leave a rest day between sessions
    /// (2 sessions in 5 days: days 1 and 3), else one after another from `from`; sessions past the last day are not
    /// scheduled this week.
    public static func scheduleDays(count: Int, from: Int, to: Int, trained: Set<Int>) -> [Int] {
        guard count > 0, from <= to else { return [] }
        let free = (from...to).filter { !trained.contains($0) }
        let step = free.count >= 2 * count - 1 ? 2 : 1
        return Array(stride(from: 0, to: free.count, by: step).map { free[$0] }.prefix(count))
    }

    /// The plans not yet started (`workout.planned` with a `date`, seed 003) dated on `days`, by day, in the order planned.
    public static func datedPlans(_ ledger: Ledger, days: Range<Int>) -> [Int: [String]] {
        var scheduled: [Int: [String]] = [:]
        for plan in ledger.plans where plan.startedWorkout == nil {
            guard let day = plan.date.flatMap(LocalDate.init(iso:))?.day, days.contains(day) else { continue }
            scheduled[day, default: []].append(plan.name)
        }
        return scheduled
    }

    /// The home page of `analysis` (the full ledger).
    public init(_ analysis: Analysis) {
        self.init(ledger: analysis.ledger, finished: analysis.finished.map { FinishedWorkout($0, addsVolume: analysis.ledger.addsVolume) },
                  recentRecords: Array(analysis.records.suffix(5).reversed()), context: analysis.context)
    }

    /// The home page from what it needs alone: the ledger's profile, programme, answers, plans and open workouts
    /// (the bodies of finished workouts are not read), every finished workout's summary in `Analysis.finished`
    /// order, and the five latest records, newest first, named. `HomeFold` answers from its snapshot this way.
    public init(ledger: Ledger, finished: [FinishedWorkout], recentRecords: [PersonalRecord], context: ProjectionContext) {
        let today = ledger.asOf.localDay
        let weekStart = LocalDate.weekStart(ofDay: today)
        let thisWeek = finished.filter { $0.day >= weekStart && $0.day < weekStart + 7 }

        var progress: ProgrammeProgress?
        var sessions: [SessionStatus] = []
        var cards: [SessionCard] = []
        if let programme = ledger.programme {
            let running = ProgrammeProgress.week(ofDay: today, generatedDay: programme.generatedAt.localDay)
            let over = running > max(1, programme.weeks)
            progress = ProgrammeProgress(split: programme.split, week: min(max(1, running), max(1, programme.weeks)), weeks: programme.weeks,
                                         daysPerWeek: programme.daysPerWeek,
                                         sessionMinutes: programme.sessionMinutes ?? ledger.answers["session_minutes"]?.stringValue,
                                         priorityMuscles: programme.priorityMuscles, finished: over)
            // The week's sessions: a rotation continues from the last session done before this week.
            let before = finished.last { $0.day < weekStart && programme.session(ofWorkoutStartedAt: $0.seq, index: $0.session) != nil }
            let slots = ProgrammeProgress.weekSessions(count: programme.sessions.count, daysPerWeek: programme.daysPerWeek,
                                                       lastBefore: before?.session)
            var doneBy: [String?] = Array(repeating: nil, count: slots.count)
            for workout in thisWeek {
                guard let index = programme.session(ofWorkoutStartedAt: workout.seq, index: workout.session),
                      let slot = slots.indices.first(where: { slots[$0] == index && doneBy[$0] == nil }) else { continue }
                doneBy[slot] = workout.id
            }
            for (slot, index) in slots.enumerated() {
                let session = programme.sessions[index]
                sessions.append(SessionStatus(session: index, name: session.name, completed: doneBy[slot] != nil, workout: doneBy[slot]))
                // A finished programme proposes no next session: what comes next is a retake or a new programme.
                if doneBy[slot] == nil && !over {
                    cards.append(SessionCard(session: index, name: session.name, exercises: session.exercises.map {
                        SessionCard.Exercise(exercise: $0.exercise, name: ledger.exerciseName($0.exercise, context: context),
                                             sets: $0.setCount, reps: $0.reps)
                    }))
                }
            }
        }
        let completed = ledger.programme == nil ? thisWeek.count : sessions.filter(\.completed).count
        let target = ledger.weeklyTarget
        // Seed 001's scheduled days: the sessions the week still needs from today on, then the week's dated plans.
        let trainedDays = Set(thisWeek.map(\.day))
        var scheduled = HomeState.scheduleDays(count: cards.count, from: today, to: weekStart + 6, trained: trainedDays)
            .enumerated().reduce(into: [Int: [String]]()) { $0[$1.element, default: []].append(cards[$1.offset].name) }
        scheduled.merge(HomeState.datedPlans(ledger, days: weekStart..<weekStart + 7)) { $0 + $1 }
        let calendar = (0..<7).map { offset -> CalendarDay in
            let count = thisWeek.filter { $0.day == weekStart + offset }.count
            return CalendarDay(date: LocalDate(day: weekStart + offset), finished: count > 0, workouts: count, scheduled: scheduled[weekStart + offset] ?? [])
        }
        let message: String
        if finished.isEmpty {
            message = "Let's get your first workout done"
        } else if let target, target > 0, completed >= target {
            message = "You're killing it this week"
        } else if completed > 0 {
            message = target.map { "Keep it up: \($0 - completed) more this week" } ?? "Nice work this week"
        } else {
            message = "New week, fresh start"
        }
        let recent = finished.suffix(3).reversed().map { workout in
            RecentWorkout(workout: workout.id, name: workout.name, date: LocalDate(day: workout.day),
                          durationSeconds: workout.durationSeconds, exerciseCount: workout.exerciseCount,
                          volumeKilograms: Rounding.kilograms(workout.volumeKilograms))
        }
        let active = ledger.workouts.last { $0.status == .open }
        self.init(
            name: ledger.profile.name, streak: Streaks(days: finished.map(\.day), today: today, weeklyTarget: target), programme: progress,
            week: Week(start: LocalDate(day: weekStart), completed: completed, target: target, workouts: thisWeek.count,
                       sessions: sessions, calendar: calendar),
            nextWorkout: cards.first, upcoming: Array(cards.dropFirst()),
            planned: ledger.plans.filter { $0.startedWorkout == nil }.map(\.name),
            recentRecords: recentRecords, lastWorkouts: Array(recent),
            message: message, activeWorkout: active?.id)
        plannedWorkouts = ledger.plans.filter { $0.startedWorkout == nil }.enumerated().sorted { a, b in
            let x = a.element.date.flatMap(LocalDate.init(iso:))?.day ?? Int.max, y = b.element.date.flatMap(LocalDate.init(iso:))?.day ?? Int.max
            return (x, a.offset) < (y, b.offset)
        }.map { _, plan in
            let date = plan.date.flatMap(LocalDate.init(iso:))
            return PlannedCard(plan: plan.id, name: plan.name, date: date, overdue: date.map { $0.day < today } ?? false,
                               exercises: plan.exercises.map {
                                   SessionCard.Exercise(exercise: $0.exercise, name: ledger.exerciseName($0.exercise, context: context), sets: $0.setCount, reps: $0.reps)
                               })
        }
    }
}
