import Foundation
import Testing

/// The products by need (README.md §"Layout"): the device library `WorkoutJournal` depends on nothing outside this
/// package but libzstd, so an app that keeps a journal on the device builds no HTTP, TLS or event-loop stack; sync is
/// the `WorkoutJournalSync` product. Read from `swift package dump-package` (the manifest as SwiftPM evaluates it).
@Suite("Products by need")
struct ProductLayeringTests {
    struct Target { var dependencies: [String]; var products: [String] }

    /// Every target of the package: its dependencies on targets of the package, and on other packages' products.
    static func targets() throws -> [String: Target] {
        // A scratch path of its own: the manifest is read without the build directory's lock, which `swift test` holds.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-package-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let result = try CLI.tool("/usr/bin/env", ["swift", "package", "--package-path", CLI.packageRoot, "--scratch-path", scratch, "dump-package"])
        #expect(result.status == 0)
        let manifest = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        var targets: [String: Target] = [:]
        for target in try #require(manifest["targets"] as? [[String: Any]]) {
            var dependencies: [String] = [], products: [String] = []
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                if let byName = dependency["byName"] as? [Any], let name = byName.first as? String { dependencies.append(name) }
                if let target = dependency["target"] as? [Any], let name = target.first as? String { dependencies.append(name) }
                if let product = dependency["product"] as? [Any], let name = product.first as? String { products.append(name) }
            }
            targets[try #require(target["name"] as? String)] = Target(dependencies: dependencies, products: products)
        }
        return targets
    }

    /// `target` and every target of the package it depends on, directly or not.
    static func closure(_ target: String, in targets: [String: Target]) -> Set<String> {
        var seen: Set<String> = [], pending = [target]
        while let next = pending.popLast() {
            if seen.insert(next).inserted { pending += targets[next]?.dependencies ?? [] }
        }
        return seen
    }

    @Test("WorkoutJournal depends on no other package: no NIO, no AsyncHTTPClient, no TLS")
    func deviceLibraryOpensNoSocket() throws {
        let targets = try Self.targets()
        let closure = Self.closure("WorkoutJournal", in: targets)
        #expect(closure == ["WorkoutJournal", "JournalFile", "JournalStore", "CZstd", "JournalEvents", "JournalModel",
                            "TrainingDomain", "JournalProjections", "JournalInterchange"])
        for target in closure.sorted() {
            #expect(targets[target]?.products == [], "\(target) depends on \(targets[target]?.products ?? [])")
        }
    }

    @Test("WorkoutJournalSync adds the sync client, and the CLI keeps sync")
    func syncIsItsOwnProduct() throws {
        let targets = try Self.targets()
        #expect(Self.closure("WorkoutJournalSync", in: targets).contains("JournalSync"))
        #expect(Self.closure("JournalCLI", in: targets).isSuperset(of: ["WorkoutJournal", "WorkoutJournalSync"]))
    }

    @Test("no program links the test-support target: only test targets depend on JournalTesting")
    func testSupportStaysInTests() throws {
        let targets = try Self.targets()
        let programs = ["JournalCLI", "JournalServerCLI", "JournalLoadCLI", "WorkoutJournal", "WorkoutJournalSync"]
        for program in programs {
            #expect(!Self.closure(program, in: targets).contains("JournalTesting"), "\(program) links JournalTesting")
        }
        let dependents = targets.filter { $0.value.dependencies.contains("JournalTesting") }.keys
        #expect(dependents.allSatisfy { $0.hasSuffix("Tests") }, "\(dependents.sorted())")
    }

    @Test("the production server links no simulator and no peer store: those are JournalServerBench's, which journal-server's CLI adds")
    func serverShipsNoBenchCode() throws {
        let targets = try Self.targets()
        let server = Self.closure("JournalServer", in: targets)
        #expect(!server.contains("JournalSimulator"))
        #expect(!server.contains("JournalServerBench"))
        #expect(Self.closure("JournalServerBench", in: targets).contains("JournalSimulator"))
        #expect(Self.closure("JournalServerCLI", in: targets).contains("JournalServerBench"))
    }
}
