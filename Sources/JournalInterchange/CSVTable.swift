import Foundation

/// A CSV file (RFC 4180 quoting: quoted fields, doubled quotes, line breaks inside quotes), with the line each row
/// starts on, so messages point at the file's own line numbers even after a multi-line note.
///
/// Strict (`lenient: false`) refuses the file at the first quoting error. Lenient reads on: a lone quote inside an
/// unquoted field (`6" Box Jump`) is taken as a character and the row listed in `repaired`; a row with text after a
/// closing quote, or whose quote is never closed, is listed in `broken` and reading resumes on the line after the
/// row's first (INTERCHANGE.md §"Rows repaired or skipped").
public struct CSVTable: Sendable {
    /// The header cells, trimmed, without a byte-order mark.
    public var header: [String]
    public var rows: [Row]
    /// `,` or `;`: the separator the header line uses most outside quotes.
    public var delimiter: Character
    /// Rows the lenient reader could not split into cells, with the line they start on and why.
    public var broken: [SkippedRow] = []
    /// Rows the lenient reader split after a repair, with the line and what was repaired.
    public var repaired: [SkippedRow] = []

    public struct Row: Sendable {
        /// 1-based line of the file where the row starts.
        public var line: Int
        public var cells: [String]
        /// The cell trimmed of surrounding spaces, or "" when the row is shorter.
        public func cell(_ index: Int?) -> String {
            guard let index, index < cells.count else { return "" }
            return Trim.whitespacesAndNewlines(cells[index])
        }
        /// The cell as the file holds it (a quoted cell's spaces kept: Strong's `"Bench Press "`), or "".
        public func text(_ index: Int?) -> String {
            guard let index, index < cells.count else { return "" }
            return cells[index]
        }
        public var isBlank: Bool { cells.allSatisfy { Trim.whitespacesAndNewlines($0).isEmpty } }
    }

    /// Parses `text`; `file` names it in errors. `lenient` reads past quoting errors (above).
    public init(text original: String, file: String, lenient: Bool = false) throws(InterchangeError) {
        var text = original
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        delimiter = CSVTable.guessDelimiter(text)
        var parser = Parser(bytes: Array(text.utf8), delimiter: delimiter == ";" ? UInt8(ascii: ";") : UInt8(ascii: ","), lenient: lenient)
        var parsed: [(line: Int, cells: [String])] = []
        do {
            try parser.parse { parsed.append(($0, $1)) }
        } catch {
            throw InterchangeError(file: file, line: error.line, column: nil, value: nil,
                                   problem: "is not valid CSV: \(error.problem)",
                                   advice: "fix the quoting on that line (a quote inside a quoted field is written \"\")")
        }
        broken = parser.broken
        repaired = parser.repaired
        guard let first = parsed.first, !(first.cells.count == 1 && first.cells[0].isEmpty) else {
            throw InterchangeError(file: file, line: 1, column: nil, value: nil, problem: "is empty: there is no header line",
                                   advice: "export the workouts again from the other app")
        }
        header = first.cells.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        rows = parsed.dropFirst().map { Row(line: $0.line, cells: $0.cells) }
    }

    /// A quoting error: the line it was found on and what it is.
    struct ParseError: Error { var line: Int; var problem: String }

    /// A byte-level CSV reader: `,`/`;`, `"` and the line breaks `\n`, `\r\n` and `\r` are ASCII, so cells are cut
    /// from the UTF-8 bytes and decoded once.
    struct Parser {
        let bytes: [UInt8]
        let delimiter: UInt8
        let lenient: Bool
        var broken: [SkippedRow] = []
        var repaired: [SkippedRow] = []
        static let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")

        init(bytes: [UInt8], delimiter: UInt8, lenient: Bool) { self.bytes = bytes; self.delimiter = delimiter; self.lenient = lenient }

        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

        /// The position after the line break at or after `position`, or the end when there is none.
        func skipLine(from position: Int) -> Int {
            var i = position
            while i < bytes.count {
                if bytes[i] == Parser.newline { return i + 1 }
                if bytes[i] == Parser.carriageReturn { return i + 1 < bytes.count && bytes[i + 1] == Parser.newline ? i + 2 : i + 1 }
                i += 1
            }
            return i
        }

        mutating func parse(_ emit: (Int, [String]) -> Void) throws(ParseError) {
            var i = 0, line = 1
            let end = bytes.count
            rows: while i < end {
                let rowStart = i, rowLine = line
                var cells: [String] = []
                var lonely = false
                var field: [UInt8] = []
                fields: while true {
                    field.removeAll(keepingCapacity: true)
                    // Spaces before an opening quote are not part of the cell.
                    var j = i
                    while j < end && isSpace(bytes[j]) { j += 1 }
                    if j < end && bytes[j] == Parser.quote {
                        i = j + 1
                        let quoteLine = line
                        var closed = false
                        // The run up to the next quote or line break is the cell's as it is: appended at once.
                        let run = i
                        while i < end && bytes[i] != Parser.quote && bytes[i] != Parser.newline && bytes[i] != Parser.carriageReturn { i += 1 }
                        field.append(contentsOf: bytes[run..<i])
                        while i < end {
                            let byte = bytes[i]
                            if byte == Parser.quote {
                                if i + 1 < end && bytes[i + 1] == Parser.quote { field.append(Parser.quote); i += 2; continue }
                                i += 1; closed = true; break
                            }
                            if byte == Parser.newline { line += 1 }
                            else if byte == Parser.carriageReturn && !(i + 1 < end && bytes[i + 1] == Parser.newline) { line += 1 }
                            field.append(byte); i += 1
                        }
                        if !closed {
                            let problem = "the quote opened on line \(quoteLine) is never closed"
                            guard lenient else { throw ParseError(line: rowLine, problem: problem) }
                            broken.append(SkippedRow(line: rowLine, reason: "is not valid CSV: \(problem); the row is skipped and reading goes on with the next line"))
                            i = skipLine(from: rowStart); line = rowLine + 1
                            continue rows
                        }
                        while i < end && isSpace(bytes[i]) { i += 1 }
                        if i < end && bytes[i] != delimiter && bytes[i] != Parser.newline && bytes[i] != Parser.carriageReturn {
                            let problem = "text follows a closing quote (\(String(decoding: bytes[i..<min(end, i + 12)], as: UTF8.self)))"
                            guard lenient else { throw ParseError(line: line, problem: problem) }
                            broken.append(SkippedRow(line: rowLine, reason: "is not valid CSV: \(problem); the row is skipped and reading goes on with the next line"))
                            // A stray quote may have swallowed the lines after the row's first: read on from there.
                            i = skipLine(from: rowStart); line = rowLine + 1
                            continue rows
                        }
                    } else {
                        // The run up to the next quote, separator or line break is the cell's as it is: appended at once.
                        let run = i
                        while i < end && bytes[i] != delimiter && bytes[i] != Parser.quote && bytes[i] != Parser.newline
                            && bytes[i] != Parser.carriageReturn { i += 1 }
                        field.append(contentsOf: bytes[run..<i])
                        while i < end {
                            let byte = bytes[i]
                            if byte == delimiter || byte == Parser.newline || byte == Parser.carriageReturn { break }
                            if byte == Parser.quote {
                                if i + 1 < end && bytes[i + 1] == Parser.quote { field.append(Parser.quote); i += 2; continue }
                                let problem = "a quote inside a cell that does not start with one"
                                guard lenient else { throw ParseError(line: line, problem: problem) }
                                lonely = true
                            }
                            field.append(byte); i += 1
                        }
                    }
                    cells.append(String(decoding: field, as: UTF8.self))
                    if i < end && bytes[i] == delimiter { i += 1; continue fields }
                    // A line break or the end: the row is complete.
                    if i < end { i = skipLine(from: i); line += 1 }
                    break fields
                }
                if lonely {
                    repaired.append(SkippedRow(line: rowLine, reason: "a quote inside a cell that does not start with one (6\" Box Jump) is read as a character"))
                }
                emit(rowLine, cells)
            }
        }
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

    /// Foundation's trims of a cell, answered without Foundation when there is nothing to trim: the first and last
    /// bytes are printable ASCII (every number and date, nearly every name), so neither end is a space or a newline.
    enum Trim {
        static func isPrintableASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
        static func hasNothingToTrim(_ text: String) -> Bool {
            guard let first = text.utf8.first, let last = text.utf8.last else { return true }
            return isPrintableASCII(first) && isPrintableASCII(last)
        }
        /// `trimmingCharacters(in: .whitespacesAndNewlines)`.
        static func whitespacesAndNewlines(_ text: String) -> String {
            hasNothingToTrim(text) ? text : text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        /// `trimmingCharacters(in: .whitespaces)`.
        static func whitespaces(_ text: String) -> String {
            hasNothingToTrim(text) ? text : text.trimmingCharacters(in: .whitespaces)
        }
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
