import Foundation
@testable import JournalInterchange
import Testing

/// The byte-level readings of cells give what Foundation's string work gives, on the texts the importers meet and on
/// the edge cases (non-ASCII spaces, a `T` inside a date, case).
@Suite struct CellReadingTests {
    static let cells = ["", " ", "\t", "82.5", " 82.5", "82.5 ", "\u{00A0}82.5", "82.5\u{00A0}", "\u{2003}x\u{2003}", "\"Bench Press \"",
                        "Bench Press ", "é", " é ", "a\u{0301}", "\r\n", "x\r\n", "\u{FEFF}x", "\u{85}x", "~", "\u{7F}"]

    @Test func trimsAsFoundationDoes() {
        for cell in CellReadingTests.cells {
            #expect(CSVTable.Trim.whitespacesAndNewlines(cell) == cell.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(cell.unicodeScalars))")
            #expect(CSVTable.Trim.whitespaces(cell) == cell.trimmingCharacters(in: .whitespaces), "\(Array(cell.unicodeScalars))")
        }
    }

    static let dates = ["2021-02-10 16:46:13", "2021-02-10T16:46", "2024/03/04", "2024-03-04", "7 Apr 2026, 10:14", "Apr 7, 2026, 10:14 AM",
                        "APR 7, 2026, 12:05 pm", "2024-03-04t10:00", "Tuesday 2024-03-04", "T 2024", "2024-03-04 T", "10::14 2024-03-04",
                        " 2024-03-04 ", "2024-03-04\r\n", "", "abc", "99999999999999999999 1 2", "2024_03_04"]

    @Test func tokenizesASCIIDatesAsTheFoldingPathDoes() throws {
        for text in CellReadingTests.dates {
            #expect(try #require(ValueParsing.asciiDateTokens(text)) == ValueParsing.dateTokens(text), "\(text)")
        }
        #expect(ValueParsing.asciiDateTokens("3 févr. 2026, 18:00") == nil)
        #expect(ValueParsing.dateTokens("3 févr. 2026, 18:00") == ["3", "fevr", "2026", "18:00"])
        #expect(ValueParsing.dateTime("2021-02-10T16:46")?.description == "2021-02-10 16:46:00")
        #expect(ValueParsing.dateTime("Apr 7, 2026, 12:05 AM")?.description == "2026-04-07 00:05:00")
        #expect(ValueParsing.dateTime("3 févr. 2026, 18:00")?.description == "2026-02-03 18:00:00")
    }
}
