import SwiftCSV

/// A CSV file read by SwiftCSV, with the line each row starts on (quoted fields may span lines).
public struct CSVTable: Sendable {
    /// The header cells, trimmed, without a byte-order mark.
    public var header: [String]
    public var rows: [Row]
    /// `,` or `;`: the separator the header line uses most outside quotes.
    public var delimiter: Character

    public struct Row: Sendable {
        /// 1-based line of the file where the row starts.
        public var line: Int
        public var cells: [String]
        public func cell(_ index: Int?) -> String {
            guard let index, index < cells.count else { return "" }
            return cells[index].trimmingCharacters(in: .whitespacesAndNewlines)
        }
        public var isBlank: Bool { cells.allSatisfy { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } }
    }

    /// Parses `text`; `file` names it in errors.
    public init(text original: String, file: String) throws(InterchangeError) {
        var text = original
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        delimiter = CSVTable.guessDelimiter(text)
        var parsed: [[String]] = []
        var line = 1
        var lines: [Int] = []
        do {
            let csv = try EnumeratedCSV(string: text, delimiter: delimiter == ";" ? .semicolon : .comma, loadColumns: false, rowLimit: 0)
            try csv.enumerateAsArray(startAt: 0, rowLimit: nil) { (cells: [String]) in
                lines.append(line)
                parsed.append(cells)
                line += 1 + cells.reduce(0) { $0 + $1.reduce(0) { $0 + ($1.isNewline ? 1 : 0) } }
            }
        } catch {
            let detail: String
            switch error {
            case CSVParseError.quotation(let message), CSVParseError.generic(let message): detail = message
            default: detail = "\(error)"
            }
            throw InterchangeError(file: file, line: line, column: nil, value: nil,
                                   problem: "is not valid CSV (\(detail)): a quote is not closed or text follows a closing quote",
                                   advice: "fix the quoting on that line (a quote inside a quoted field is written \"\")")
        }
        guard let first = parsed.first, !(first.count == 1 && first[0].isEmpty) else {
            throw InterchangeError(file: file, line: 1, column: nil, value: nil, problem: "is empty: there is no header line",
                                   advice: "export the workouts again from the other app")
        }
        header = first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        rows = zip(lines.dropFirst(), parsed.dropFirst()).map { Row(line: $0, cells: $1) }
    }

    /// The separator of the first line: the more frequent of `;` and `,` outside quotes.
    static func guessDelimiter(_ text: String) -> Character {
        var commas = 0, semicolons = 0, quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() } else if !quoted {
                if character == "," { commas += 1 } else if character == ";" { semicolons += 1 } else if character.isNewline { break }
            }
        }
        return semicolons > commas ? ";" : ","
    }

    /// The index of the first header matching one of `aliases` (compared by `normalize`).
    public func column(_ aliases: [String]) -> Int? {
        let wanted = Set(aliases.map(CSVTable.normalize))
        return header.firstIndex { wanted.contains(CSVTable.normalize($0)) }
    }

    /// Lowercased, without spaces, underscores or punctuation: `Weight (kg)` → `weightkg`.
    public static func normalize(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }
}

import Foundation
