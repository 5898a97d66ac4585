import Foundation
import JournalEvents
import JournalModel

/// Dates, durations and numbers as other apps write them.
enum ValueParsing {
    /// The longest workout read from a file: a longer duration is a typo, refused with the cell.
    static let maxDurationSeconds = 31 * 86_400
    /// Kilometres in a mile (the international mile).
    static let kilometresPerMile = 1.609344
    /// Strong's classic layout has no distance unit: its distances are in miles when its weights are in pounds, else
    /// kilometres. The importer reads them so, and the Strong CSV export writes them so.
    static func strongDistanceInMiles(_ unit: WeightUnit) -> Bool { unit == .lb }

    /// Years a date may have: four digits (what RFC 3339 writes), with centuries of headroom for a duration.
    static let years = 1901...2999

    /// A number with `.` or (in semicolon files) `,` as decimal mark; nil for an empty cell.
    static func number(_ text: String) -> Double?? {
        let trimmed = CSVTable.Trim.whitespaces(text)
        if trimmed.isEmpty { return .some(nil) }
        if let value = Double(trimmed), value.isFinite { return .some(value) }
        if let value = Double(trimmed.replacingOccurrences(of: ",", with: ".")), value.isFinite, trimmed.filter({ $0 == "," }).count == 1 {
            return .some(value)
        }
        return nil
    }

    static let months: [String: Int] = {
        var table: [String: Int] = [:]
        let names: [[String]] = [
            ["jan", "january", "janv", "janvier", "januar", "jän", "ene", "enero", "gen", "gennaio"],
            ["feb", "february", "fevr", "fev", "fevrier", "februar", "febrero", "febbraio"],
            ["mar", "march", "mars", "marz", "marzo"],
            ["apr", "april", "avr", "avril", "abr", "abril", "aprile"],
            ["may", "mai", "mayo", "mag", "maggio"],
            ["jun", "june", "juin", "juni", "junio", "giu", "giugno"],
            ["jul", "july", "juil", "juillet", "juli", "julio", "lug", "luglio"],
            ["aug", "august", "aout", "ago", "agosto"],
            ["sep", "sept", "september", "septembre", "septiembre", "set", "settembre"],
            ["oct", "october", "octobre", "okt", "oktober", "octubre", "ott", "ottobre"],
            ["nov", "november", "novembre", "noviembre"],
            ["dec", "december", "dez", "dezember", "dic", "diciembre", "dicembre", "decembre"],
        ]
        for (index, words) in names.enumerated() { for word in words { table[word] = index + 1 } }
        return table
    }()

    /// `2021-02-10 16:46:13`, `2021-02-10T16:46`, `2024/03/04`, `2024-03-04`, `7 Apr 2026, 10:14`, `3 févr. 2026, 18:00`,
    /// `Apr 7, 2026, 10:14 AM`. Nil when it is none of these.
    static func dateTime(_ text: String) -> LocalDateTime? {
        var year: Int?, month: Int?, day: Int?, seconds = 0, pm: Bool?
        var numbers: [Int] = []
        for token in asciiDateTokens(text) ?? dateTokens(text) {
            if token.utf8.contains(UInt8(ascii: ":")) {
                let parts = token.split(separator: ":").map { Int($0) }
                guard parts.count >= 2, parts.count <= 3, let h = parts[0], let m = parts[1], h < 24, m < 60 else { return nil }
                let s = parts.count == 3 ? parts[2] ?? 0 : 0
                guard s < 60 else { return nil }
                seconds = h * 3600 + m * 60 + s
            } else if let value = Int(token) {
                numbers.append(value)
            } else if token == "am" || token == "pm" {
                pm = token == "pm"
            } else if let m = months[token] {
                month = m
            } else {
                return nil
            }
        }
        if month == nil {
            // Numeric: yyyy mm dd
            guard numbers.count == 3, numbers[0] > 1900 else { return nil }
            (year, month, day) = (numbers[0], numbers[1], numbers[2])
        } else {
            guard numbers.count == 2 else { return nil }
            if numbers[0] > 1900 { (year, day) = (numbers[0], numbers[1]) } else { (day, year) = (numbers[0], numbers[1]) }
        }
        guard let year, years.contains(year), let month, let day, (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year) else { return nil }
        if let pm {
            let hour = seconds / 3600
            if pm && hour < 12 { seconds += 12 * 3600 } else if !pm && hour == 12 { seconds -= 12 * 3600 }
        }
        return LocalDateTime(date: LocalDate(year: year, month: month, day: day), seconds: seconds)
    }

    /// A date's words, numbers and times (`16:46:13`), case and diacritics folded: the runs of letters, digits and `:`.
    /// A `T` is a space in a text that starts with a digit (`2021-02-10T16:46`).
    static func dateTokens(_ text: String) -> [String] {
        let base = text.first?.isNumber == true ? text.replacingOccurrences(of: "T", with: " ") : text
        let folded = base.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        var tokens: [String] = []
        var current = ""
        for character in folded {
            if character.isLetter || character.isNumber || character == ":" { current.append(character) } else if !current.isEmpty {
                tokens.append(current); current = ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// `dateTokens` of an ASCII text, from its bytes (folding is lowercasing there); nil when `text` is not ASCII.
    static func asciiDateTokens(_ text: String) -> [String]? {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9"), upper = UInt8(ascii: "A")...UInt8(ascii: "Z"), lower = UInt8(ascii: "a")...UInt8(ascii: "z")
        let startsWithDigit = text.utf8.first.map { digits.contains($0) } ?? false
        var tokens: [String] = []
        var current: [UInt8] = []
        for original in text.utf8 {
            guard original < 0x80 else { return nil }
            var byte = original
            if startsWithDigit && byte == UInt8(ascii: "T") { byte = UInt8(ascii: " ") }
            if upper.contains(byte) { byte += 0x20 }
            if lower.contains(byte) || digits.contains(byte) || byte == UInt8(ascii: ":") { current.append(byte) } else if !current.isEmpty {
                tokens.append(String(decoding: current, as: UTF8.self)); current.removeAll(keepingCapacity: true)
            }
        }
        if !current.isEmpty { tokens.append(String(decoding: current, as: UTF8.self)) }
        return tokens
    }

    /// Strong's `2h 18m`, `47m`, `1h`, `30s`; also `1:05:00` and plain seconds. Nil when unreadable or longer than
    /// `maxDurationSeconds`.
    static func duration(_ text: String) -> Int? {
        let trimmed = CSVTable.Trim.whitespaces(text).lowercased()
        if trimmed.isEmpty { return nil }
        if let seconds = Double(trimmed) { return durationSeconds(seconds) }
        if trimmed.utf8.contains(UInt8(ascii: ":")) {
            let parts = trimmed.split(separator: ":").map { Int($0) ?? -1 }
            guard parts.count >= 2, parts.count <= 3, parts.allSatisfy({ $0 >= 0 && $0 <= maxDurationSeconds }) else { return nil }
            return durationSeconds(Double(parts.reduce(0) { $0 * 60 + $1 } * (parts.count == 2 ? 60 : 1)))
        }
        var total = 0, number = "", found = false
        for character in trimmed {
            if character.isNumber { number.append(character); continue }
            if character == " " { continue }
            guard let value = Int(number), value <= maxDurationSeconds else { return nil }
            switch character {
            case "h": total += value * 3600
            case "m": total += value * 60
            case "s": total += value
            default: return nil
            }
            guard total <= maxDurationSeconds else { return nil }
            number = ""; found = true
        }
        return found && number.isEmpty ? total : nil
    }

    /// Whole seconds from a number of seconds, or nil when it is not a duration from 0 to `maxDurationSeconds`.
    static func durationSeconds(_ seconds: Double) -> Int? {
        seconds >= 0 && seconds <= Double(maxDurationSeconds) ? Int(seconds) : nil
    }

    /// `0:01:30` or `90` as seconds (FitNotes `Time`).
    static func clockSeconds(_ text: String) -> Double? {
        let trimmed = CSVTable.Trim.whitespaces(text)
        if trimmed.isEmpty { return nil }
        if let value = Double(trimmed) { return value.isFinite && value >= 0 ? value : nil }
        let parts = trimmed.split(separator: ":").compactMap { Double($0) }
        guard parts.count >= 2 else { return nil }
        let value = parts.reduce(0) { $0 * 60 + $1 }
        return value.isFinite && value >= 0 ? value : nil
    }
}
