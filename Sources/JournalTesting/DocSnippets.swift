import Foundation

/// The code blocks of a document and the code a test runs in their place: a snippet in the docs runs as written when
/// a test holds the same lines between two markers and compares them with `DocSnippets.swiftBlockLines`.
public enum DocSnippets {
    /// The lines of every ```swift block of the file at `path`, in order, blank lines left out.
    public static func swiftBlockLines(_ path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.components(separatedBy: "```swift\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
            .flatMap { $0.split(separator: "\n").map(String.init) }
    }

    /// The lines of the file at `path` between the line `// BEGINS` and the line `// ENDS` (each indented by
    /// `indent` spaces), with that indentation removed and blank lines left out; empty when the markers are missing.
    public static func markedLines(in path: String, begins: String, ends: String, indent: Int = 8) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let margin = String(repeating: " ", count: indent)
        let parts = text.components(separatedBy: "\(margin)// \(begins)\n")
        guard parts.count == 2, let body = parts[1].components(separatedBy: "\(margin)// \(ends)\n").first else { return [] }
        return body.split(separator: "\n").map { String($0.dropFirst(indent)) }
    }

    /// The repository's root, from a test file's `#filePath` (`Tests/TARGET/FILE.swift`).
    public static func repository(fromTestFile file: String) -> URL {
        URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
