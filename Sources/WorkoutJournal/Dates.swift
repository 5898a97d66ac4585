import Foundation

/// Foundation's `Date` for the journal's times. The journal stores an instant as epoch milliseconds plus the UTC
/// offset the device had (`Timestamp`, FORMAT.md §"Envelope"); a `Date` is the instant, and `timeZone` is the offset,
/// for showing a time as the lifter saw it.
extension Timestamp {
    /// The instant (the offset is not part of it: format with `timeZone` to show the recorded local time).
    public var date: Date { Date(timeIntervalSince1970: Double(epochMilliseconds) / 1000) }

    /// The fixed UTC offset the time was recorded in (GMT for an offset Foundation cannot represent, beyond ±18 h).
    public var timeZone: TimeZone { TimeZone(secondsFromGMT: Int(offsetSeconds)) ?? .gmt }

    /// `date` to the millisecond (rounded down), in the UTC offset `timeZone` has at that instant.
    public init(date: Date, timeZone: TimeZone = .current) {
        self.init(epochMilliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)),
                  offsetSeconds: Int32(timeZone.secondsFromGMT(for: date)))
    }
}

extension LocalDate {
    /// The day's first instant (local midnight) in `timeZone`; nil only for a day the Gregorian calendar cannot give.
    public func startDate(in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let (year, month, day) = components
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
    }
}

extension ActiveWorkoutState {
    /// `startedAt` as a `Date`.
    public var startedAtDate: Date { startedAt.date }
}

extension ActiveWorkoutState.Rest {
    /// `endsAt` as a `Date` (what a countdown or a notification is scheduled for).
    public var endsAtDate: Date { endsAt.date }
}

extension WorkoutSummary {
    /// `startedAt` as a `Date`.
    public var startedAtDate: Date { startedAt.date }
    /// `finishedAt` as a `Date`.
    public var finishedAtDate: Date { finishedAt.date }
}

extension TemplatesState.Item {
    /// `createdAt` as a `Date`.
    public var createdAtDate: Date { createdAt.date }
    /// `lastUsedAt` as a `Date`; nil when never used.
    public var lastUsedAtDate: Date? { lastUsedAt?.date }
}
