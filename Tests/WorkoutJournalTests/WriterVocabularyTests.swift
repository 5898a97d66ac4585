import Foundation
import JournalEvents
import Testing

/// The modules that write or read events above the codec (the facade, sync, the simulator, interchange, the CLI) name
/// event types and payload keys through the vocabulary (`EventType`, `PayloadKey`, `JSONValue.draft`), so that a
/// misspelt name does not compile. A string literal that is an event type's name, or a payload key read by its
/// string, is refused here with its file and line.
@Suite("Writers name events through the vocabulary")
struct WriterVocabularyTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let modules = ["WorkoutJournal", "WorkoutJournalSync", "JournalSimulator", "JournalInterchange", "JournalCLI"]

    /// Each code line (comments left out) of every Swift file of `modules`, with its place.
    static func codeLines() -> [(place: String, line: String)] {
        var lines: [(String, String)] = []
        for module in modules {
            let root = packageRoot + "/Sources/" + module
            let files = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".swift") }.sorted()
            for file in files {
                let text = (try? String(contentsOfFile: root + "/" + file, encoding: .utf8)) ?? ""
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    if code.hasPrefix("//") { continue }
                    lines.append(("Sources/\(module)/\(file):\(index + 1)", String(line)))
                }
            }
        }
        return lines
    }

    /// The string literals of a line (no escapes inside: an event type or key never has one).
    static func literals(_ line: String) -> [String] {
        line.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test("no code line of the writers spells an event type as a string, or reads a payload key by its string")
    func writersUseTheVocabulary() {
        let lines = Self.codeLines()
        #expect(lines.count > 5_000, "\(lines.count) code lines read: the sources were not found under \(Self.packageRoot)")
        let typeNames = Set(EventType.allCases.map(\.name))
        let keyNames = Set(PayloadKey.allCases.map(\.name))
        var spelled: [String] = []
        for (place, line) in lines {
            for literal in Self.literals(line) where typeNames.contains(literal) {
                spelled.append("\(place): the event type \"\(literal)\" (write EventType.\(EventType(name: literal).map { "\($0)" } ?? "?"))")
            }
            guard line.contains("(\"") else { continue }
            for accessor in ["string", "int", "double", "bool", "array", "object"] {
                for piece in line.components(separatedBy: ".\(accessor)(\"").dropFirst() {
                    let literal = String(piece.prefix { $0 != "\"" })
                    guard keyNames.contains(literal), piece.dropFirst(literal.count).hasPrefix("\")") else { continue }
                    spelled.append("\(place): the payload key \"\(literal)\" read by its string (write .\(accessor)(.\(PayloadKey(name: literal).map { "\($0)" } ?? "?")))")
                }
            }
        }
        #expect(spelled == [], "\(spelled.joined(separator: "\n"))")
    }

    @Test("the check finds a spelled type and a key read by its string")
    func theCheckFindsThem() {
        #expect(Self.literals(#"case "workout.started": x = y.string("set")"#) == ["workout.started", "set"])
        #expect(EventType.allCases.map(\.name).contains("workout.started"))
        #expect(PayloadKey.allCases.map(\.name).contains("source_rows"))
    }
}
