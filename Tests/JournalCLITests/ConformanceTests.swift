import Foundation
import Testing

/// The conformance suite of SampleJournals/conformance (its README.md lists the cases): every hand-made journal,
/// valid or damaged, gives exactly the `journal verify` output committed beside it, as text and as JSON, with exit
/// status 0 when it is clean and 1 when it is not. Another implementation can run the same comparison.
@Suite("Conformance cases")
struct ConformanceTests {
    static let directory = CLI.packageRoot + "/SampleJournals/conformance"
    static let cases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
        .filter { $0.hasSuffix(".journal") }.map { String($0.dropLast(".journal".count)) }.sorted()

    /// Runs `journal ARGUMENTS` in the conformance directory, so reports name the file as the expected outputs do.
    static func verify(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["verify"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("there are 54 cases, each with its expected text and JSON output, and the README lists every one")
    func everyCaseIsDocumented() throws {
        #expect(ConformanceTests.cases.count == 54)
        let readme = try String(contentsOfFile: ConformanceTests.directory + "/README.md", encoding: .utf8)
        for name in ConformanceTests.cases {
            #expect(readme.contains("`\(name).journal`"), "README.md does not list \(name).journal")
            #expect(FileManager.default.fileExists(atPath: ConformanceTests.directory + "/\(name).verify.txt"))
            #expect(FileManager.default.fileExists(atPath: ConformanceTests.directory + "/\(name).verify.json"))
        }
    }

    @Test("journal verify prints exactly the committed output", arguments: cases)
    func verifyMatches(_ name: String) throws {
        let text = try ConformanceTests.verify([name + ".journal"])
        let json = try ConformanceTests.verify(["--json", name + ".journal"])
        let expectedText = try String(contentsOfFile: ConformanceTests.directory + "/\(name).verify.txt", encoding: .utf8)
        let expectedJSON = try String(contentsOfFile: ConformanceTests.directory + "/\(name).verify.json", encoding: .utf8)
        #expect(text.stdout == expectedText)
        #expect(json.stdout == expectedJSON)
        let clean = expectedJSON.contains(#""clean":true"#)
        #expect(text.status == (clean ? 0 : 1))
        #expect(json.status == (clean ? 0 : 1))
        #expect(name.hasPrefix("valid-") == clean)
    }
}
