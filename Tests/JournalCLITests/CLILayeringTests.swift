import Foundation
import Testing

/// A thin CLI: `Sources/JournalCLI` imports at most three of the package's own modules — the library an app that
/// syncs uses (`WorkoutJournalSync`, which re-exports the facade `WorkoutJournal`), interchange and the simulator —
/// and every command is a `…Command` type in a file of its name.
@Suite("The CLI is thin")
struct CLILayeringTests {
    /// The package's own modules: the targets under Sources/.
    static let packageModules: Set<String> = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot + "/Sources")) ?? []
        return Set(names)
    }()

    /// Every Swift file under Sources/JournalCLI, relative to it.
    static let files: [String] = {
        let root = CLI.packageRoot + "/Sources/JournalCLI"
        let all = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return all.filter { $0.hasSuffix(".swift") }.sorted()
    }()

    static func text(_ file: String) -> String {
        (try? String(contentsOfFile: CLI.packageRoot + "/Sources/JournalCLI/" + file, encoding: .utf8)) ?? ""
    }

    @Test("Sources/JournalCLI imports WorkoutJournalSync, JournalInterchange and JournalSimulator and no other module of the package")
    func imports() throws {
        #expect(Self.packageModules.contains("WorkoutJournal") && Self.packageModules.contains("JournalStore"))
        var imported: [String: Set<String>] = [:]
        for file in Self.files {
            for line in Self.text(file).split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@_exported import ") {
                let module = String(line.split(separator: " ").last ?? "")
                if Self.packageModules.contains(module) { imported[module, default: []].insert(file) }
            }
        }
        #expect(Set(imported.keys) == ["WorkoutJournalSync", "JournalInterchange", "JournalSimulator"], "\(imported)")
        #expect(!Self.files.contains { Self.text($0).contains("@_exported") })
    }

    @Test("every subcommand is a …Command type declared in a file named after it")
    func commandNames() throws {
        var commands: [String] = []
        for file in Self.files where file != "Journal.swift" {   // the root command, `journal` itself
            for line in Self.text(file).split(separator: "\n") where line.hasPrefix("struct ") && line.contains(": ParsableCommand") {
                let name = String(line.dropFirst("struct ".count).prefix { $0 != ":" })
                commands.append(name)
                #expect(name.hasSuffix("Command"), "\(file): \(name)")
                #expect(file.hasSuffix("/\(name).swift"), "\(name) is declared in \(file)")
            }
        }
        #expect(commands.count >= 30)
    }
}
