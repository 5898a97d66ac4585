import Foundation
import Testing

/// Every public declaration of the facade (`Sources/WorkoutJournal`, `Sources/WorkoutJournalSync`) has a doc comment
/// (README.md §"Documentation"): the rule `scripts/docs` shows in DocC, checked here from the sources so that CI
/// enforces it without building the documentation.
@Suite("every public declaration of the facade has a doc comment")
struct DocCommentTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// A public declaration without a doc comment: `file:line: text`.
    struct Undocumented: CustomStringConvertible, Equatable {
        var file: String
        var line: Int
        var text: String
        var description: String { "\(file):\(line): \(text)" }
    }

    /// The public declarations of `text` (one Swift file) and those of them without a doc comment (`///` or `/** */`
    /// right above, past attributes and plain `//` comments). A declaration is a line that starts, after attributes,
    /// with `public` or `open` (not `public import`, not a `public extension`, whose members say `public` themselves
    /// here), or a `case` of a `public enum` (one that does not end with `:`, as a `switch`'s does).
    static func scan(_ text: String, file: String) -> (declarations: Int, undocumented: [Undocumented]) {
        let lines = text.components(separatedBy: "\n")
        var declarations = 0
        var undocumented: [Undocumented] = []
        // For each open brace: whether it opened a public enum.
        var braces: [Bool] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let afterAttributes = Self.droppingAttributes(trimmed)
            let isPublic = (afterAttributes.hasPrefix("public ") || afterAttributes.hasPrefix("open "))
                && !afterAttributes.hasPrefix("public import ") && !afterAttributes.hasPrefix("public extension ")
            let isCase = (afterAttributes.hasPrefix("case ") || afterAttributes.hasPrefix("indirect case "))
                && !trimmed.hasSuffix(":") && braces.last == true
            if isPublic || isCase {
                declarations += 1
                var above = index - 1
                while above >= 0 {
                    let previous = lines[above].trimmingCharacters(in: .whitespaces)
                    guard previous.hasPrefix("@") || (previous.hasPrefix("//") && !previous.hasPrefix("///")) else { break }
                    above -= 1
                }
                let previous = above >= 0 ? lines[above].trimmingCharacters(in: .whitespaces) : ""
                if !previous.hasPrefix("///") && !previous.hasSuffix("*/") {
                    undocumented.append(Undocumented(file: file, line: index + 1, text: trimmed))
                }
            }
            guard !trimmed.hasPrefix("//") else { continue }
            let opensEnum = afterAttributes.hasPrefix("public enum ") || afterAttributes.hasPrefix("public indirect enum ")
            for character in Self.code(of: line) {
                if character == "{" { braces.append(opensEnum) } else if character == "}", !braces.isEmpty { braces.removeLast() }
            }
        }
        return (declarations, undocumented)
    }

    /// `line` without its leading attributes (`@discardableResult`, `@available(…)`).
    static func droppingAttributes(_ line: Substring) -> String {
        var rest = line
        while rest.hasPrefix("@") {
            var depth = 0
            var end = rest.endIndex
            for index in rest.indices {
                let character = rest[index]
                if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
                if character == " " && depth == 0 { end = index; break }
            }
            rest = rest[end...].drop { $0 == " " }
        }
        return String(rest)
    }

    static func droppingAttributes(_ line: String) -> String { droppingAttributes(line[...]) }

    /// `line` without its string literals and its `//` comment: the characters whose braces count.
    static func code(of line: String) -> String {
        var code = ""
        var inString = false, escaped = false
        var previous: Character = " "
        for character in line {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "/" && previous == "/" {
                code.removeLast()
                break
            } else {
                code.append(character)
            }
            previous = character
        }
        return code
    }

    @Test("no public declaration of WorkoutJournal or WorkoutJournalSync lacks a doc comment")
    func facadeIsDocumented() throws {
        var declarations = 0
        var undocumented: [Undocumented] = []
        for module in ["WorkoutJournal", "WorkoutJournalSync"] {
            let folder = Self.sources.appendingPathComponent(module)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
            for file in files {
                let found = Self.scan(try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8), file: "\(module)/\(file)")
                declarations += found.declarations
                undocumented += found.undocumented
            }
        }
        #expect(declarations > 200)
        #expect(undocumented.isEmpty, "public declarations without a doc comment (add a /// line above each):\n\(undocumented.map(\.description).joined(separator: "\n"))")
    }

    @Test("the scan finds a public declaration without a doc comment, a public enum's bare case, and skips a switch's cases")
    func scanFindsWhatLacksDocs() {
        let text = """
            /// Documented.
            public struct A {
                /// Documented, past an attribute.
                @discardableResult
                public func b() -> Int { 1 }
                public var c: Int { 2 }
            }
            /// Documented, past a plain comment.
            // @unchecked: a note.
            public enum D {
                case e
                /// Documented.
                case f(String)
                func g() -> Int {
                    switch self {
                    case .e: return 1
                    case .f: return 2
                    }
                }
            }
            enum Internal {
                case h
            }
            """
        let found = Self.scan(text, file: "A.swift")
        #expect(found.declarations == 6)
        #expect(found.undocumented == [Undocumented(file: "A.swift", line: 6, text: "public var c: Int { 2 }"),
                                       Undocumented(file: "A.swift", line: 11, text: "case e")])
    }
}
