import Foundation
import Testing

/// A thin CLI: `Sources/JournalCLI` reaches what an app also does (record, erase, every view, sync, import, export,
/// charts, the report) through the library an app that syncs uses (`WorkoutJournalSync`, which re-exports the facade
/// `WorkoutJournal`), plus the simulator; it imports a lower layer by name only for the tools no app needs, each
/// declared in Package.swift; and every command is a `…Command` type in a file of its name.
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

    /// The lower layers the CLI may import by name, for its tools no app needs: the raw writer and reader, verify,
    /// salvage and merge (JournalFile), the codec and the vocabulary (JournalEvents), support's timeline, explain and
    /// diff and the terminal's charts (JournalInterchange). The importer's name matcher is interchange's default
    /// (`ImportPlanner(matcher:)`), so the CLI does not name TrainingDomain.
    static let toolModules: Set<String> = ["JournalFile", "JournalEvents", "JournalInterchange"]

    @Test("Sources/JournalCLI imports WorkoutJournalSync, JournalSimulator and, for its tools, only JournalFile, JournalEvents and JournalInterchange, each a declared dependency")
    func imports() throws {
        #expect(Self.packageModules.contains("WorkoutJournal") && Self.packageModules.contains("JournalStore"))
        var imported: [String: Set<String>] = [:]
        for file in Self.files {
            for line in Self.text(file).split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@_exported import ") {
                let module = String(line.split(separator: " ").last ?? "")
                if Self.packageModules.contains(module) { imported[module, default: []].insert(file) }
            }
        }
        let library: Set<String> = ["WorkoutJournalSync", "JournalSimulator"]
        #expect(library.isSubset(of: Set(imported.keys)), "\(imported)")
        #expect(Set(imported.keys).subtracting(library).isSubset(of: Self.toolModules), "\(imported)")
        // The store, the model and the screens reach the CLI only through the facade's exports.
        for module in ["JournalStore", "JournalModel", "JournalProjections", "WorkoutJournal"] { #expect(imported[module] == nil, "\(module): \(imported[module] ?? [])") }
        #expect(!Self.files.contains { Self.text($0).contains("@_exported") })
        // Import, export, charts, the report, templates and links go through the facade; interchange by name only for
        // support's tools and the terminal's charts.
        #expect(imported["JournalInterchange"] == ["Commands/Interchange/DiffCommand.swift", "Commands/Interchange/ExplainCommand.swift",
                                                   "Commands/Interchange/TimelineCommand.swift", "Support/TerminalCharts.swift"])
        // The codec and the vocabulary only for cat, erase's rewrite and the schema; the file's machinery only for the
        // raw writer and reader, verify, salvage, merge, durable output files and the simulator's bulk writer.
        #expect(imported["JournalEvents"] == ["Commands/Core/CatCommand.swift", "Commands/Core/SchemaCommand.swift",
                                              "Commands/Reliability/EraseCommand.swift"])
        #expect(imported["JournalFile"] == ["Commands/Core/CatCommand.swift", "Commands/Core/RecordCommand.swift",
                                            "Commands/Core/SimulateCommand.swift", "Commands/Core/VerifyCommand.swift",
                                            "Commands/InterchangeCommands.swift", "Commands/Reliability/MergeCommand.swift",
                                            "Commands/Reliability/SalvageCommand.swift", "Commands/ViewCommands.swift"])
        let declared = Set(try #require(try ProductLayeringTests.targets()["JournalCLI"]).dependencies)
        #expect(Set(imported.keys).isSubset(of: declared), "imported \(imported.keys.sorted()), declared \(declared.sorted())")
    }

    @Test("the facade exports the types an app names one by one, never a whole module")
    func facadeExportsByName() throws {
        let root = CLI.packageRoot + "/Sources/WorkoutJournal"
        var exported: [String] = [], wholeModules: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: root) where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("@_exported import ") {
                let words = line.split(separator: " ")
                if words.count == 3 { wholeModules.append("\(file): \(line)") } else { exported.append(String(words[3])) }
            }
        }
        #expect(wholeModules == [])
        // The app's everyday names are among them; the machinery is not.
        for name in ["JournalEvents.Event", "JournalProjections.HomeState", "JournalModel.WeightUnit", "TrainingDomain.Questionnaire", "JournalFile.JournalError",
                     "JournalInterchange.ExportReader", "JournalInterchange.ImportPlanner", "JournalInterchange.Exporters", "JournalInterchange.SVGChart"] {
            #expect(exported.contains(name), "\(name)")
        }
        for name in ["JournalFile.EventJournal", "JournalFile.Salvage", "JournalFile.Merge", "JournalEvents.EventCodec", "JournalProjections.HomeFold",
                     "JournalInterchange.Timeline", "JournalInterchange.TerminalChart"] {
            #expect(!exported.contains(name), "\(name)")
        }
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
