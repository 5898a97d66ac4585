/// An instant with the UTC offset the user's device had when the event happened.
///
/// Written as RFC 3339 with milliseconds and a numeric offset: `2026-11-21T18:04:05.120+01:00`
/// (FORMAT.md §"Envelope"). The user's local calendar day and ISO week come from this offset.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var epochMilliseconds: Int64
    /// The local offset from UTC, in seconds (e.g. 3600 for +01:00).
    public var offsetSeconds: Int32

    public init(epochMilliseconds: Int64, offsetSeconds: Int32) {
        self.epochMilliseconds = epochMilliseconds
        self.offsetSeconds = offsetSeconds
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.epochMilliseconds, lhs.offsetSeconds) < (rhs.epochMilliseconds, rhs.offsetSeconds)
    }

    /// Local milliseconds since 1970-01-01T00:00 local.
    public var localMilliseconds: Int64 { epochMilliseconds + Int64(offsetSeconds) * 1000 }

    /// The local calendar day as days since 1970-01-01.
    public var localDay: Int { Int(floorDiv(localMilliseconds, 86_400_000)) }

    /// The local day on which the local ISO week containing this instant starts (a Monday).
    public var localWeekStartDay: Int { LocalDate.weekStart(ofDay: localDay) }

    /// The same instant shown in another UTC offset.
    public func with(offsetSeconds: Int32) -> Timestamp { Timestamp(epochMilliseconds: epochMilliseconds, offsetSeconds: offsetSeconds) }

    public func adding(milliseconds: Int64) -> Timestamp {
        Timestamp(epochMilliseconds: epochMilliseconds + milliseconds, offsetSeconds: offsetSeconds)
    }

    public var description: String { rfc3339 }

    /// `YYYY-MM-DDTHH:MM:SS.mmm±HH:MM`.
    public var rfc3339: String {
        var out: [UInt8] = []
        out.reserveCapacity(29)
        writeRFC3339(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `rfc3339`'s UTF-8 to `out` (the event encoder writes it so, with no `String` in between).
    public func writeRFC3339(into out: inout [UInt8]) {
        let local = localMilliseconds
        let day = floorDiv(local, 86_400_000)
        let msOfDay = local - day * 86_400_000
        LocalDate(day: Int(day)).writeISO(into: &out)
        out.append(UInt8(ascii: "T"))
        appendPadded(msOfDay / 3_600_000, 2, into: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded((msOfDay / 60_000) % 60, 2, into: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded((msOfDay / 1000) % 60, 2, into: &out)
        out.append(UInt8(ascii: "."))
        appendPadded(msOfDay % 1000, 3, into: &out)
        out.append(offsetSeconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let offset = abs(Int(offsetSeconds))
        appendPadded(Int64(offset / 3600), 2, into: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(Int64(offset / 60 % 60), 2, into: &out)
    }

    /// Parses RFC 3339 (`T` or space, optional fraction of 1–9 digits, `Z` or `±HH:MM`).
    /// Returns nil for anything else, including out-of-range fields.
    public init?(rfc3339 text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Timestamp(rfc3339UTF8: $0) }) else { return nil }
        self = parsed
    }

    /// The same grammar as `init?(rfc3339:)`, read from UTF-8 bytes (the event decoder's fast path).
    public init?(rfc3339UTF8 b: UnsafeBufferPointer<UInt8>) {
        guard b.count >= 20 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var value = 0
            for index in start..<(start + count) {
                let digit = Int(b[index]) - 48
                guard digit >= 0 && digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0, 4), b[4] == UInt8(ascii: "-"), let month = number(5, 2), b[7] == UInt8(ascii: "-"),
              let day = number(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
              let hour = number(11, 2), b[13] == UInt8(ascii: ":"), let minute = number(14, 2), b[16] == UInt8(ascii: ":"),
              let second = number(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var millis = 0
        if index < b.count && b[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < b.count, b[index] >= 48, b[index] <= 57 {
                if digits < 3 { millis = millis * 10 + Int(b[index] - 48) }
                digits += 1
                index += 1
            }
            guard digits >= 1 && digits <= 9 else { return nil }
            if digits < 3 { for _ in digits..<3 { millis *= 10 } }
        }
        guard index < b.count else { return nil }
        var offset = 0
        if b[index] == UInt8(ascii: "Z") || b[index] == UInt8(ascii: "z") {
            index += 1
        } else if b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-") {
            let negative = b[index] == UInt8(ascii: "-")
            guard let oh = number(index + 1, 2), index + 3 < b.count, b[index + 3] == UInt8(ascii: ":"),
                  let om = number(index + 4, 2), oh < 24, om < 60 else { return nil }
            offset = (oh * 3600 + om * 60) * (negative ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == b.count else { return nil }
        let days = LocalDate(year: year, month: month, day: day).day
        let local = Int64(days) * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000 + second * 1000 + millis)
        self.init(epochMilliseconds: local - Int64(offset) * 1000, offsetSeconds: Int32(offset))
    }
}

/// A calendar date, stored as days since 1970-01-01 (proleptic Gregorian).
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var day: Int

    public init(day: Int) { self.day = day }

    /// Howard Hinnant's days-from-civil.
    public init(year: Int, month: Int, day: Int) {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        self.day = era * 146_097 + doe - 719_468
    }

    /// Parses `YYYY-MM-DD`.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), d >= 1, d <= LocalDate.daysIn(month: m, year: y) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public var components: (year: Int, month: Int, day: Int) {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int { Int(floorMod(Int64(day) + 3, 7)) + 1 }

    public static func weekStart(ofDay day: Int) -> Int { day - (LocalDate(day: day).isoWeekday - 1) }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.day < rhs.day }

    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(10)
        writeISO(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `description`'s UTF-8 (`YYYY-MM-DD`) to `out`.
    public func writeISO(into out: inout [UInt8]) {
        let (y, m, d) = components
        appendPadded(Int64(y), 4, into: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(Int64(m), 2, into: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(Int64(d), 2, into: &out)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

@inline(__always) func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
@inline(__always) func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }
/// Appends `value`'s decimal text (`-` first when negative) after as many `0` as make it `width` characters long.
func appendPadded(_ value: Int64, _ width: Int, into out: inout [UInt8]) {
    var magnitude = value.magnitude
    var digits = 1
    var scale: UInt64 = 1
    while magnitude / scale >= 10 { scale *= 10; digits += 1 }
    let length = digits + (value < 0 ? 1 : 0)
    if length < width { out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - length)) }
    if value < 0 { out.append(UInt8(ascii: "-")) }
    while scale > 0 {
        out.append(UInt8(ascii: "0") + UInt8(magnitude / scale))
        magnitude %= scale
        scale /= 10
    }
}
