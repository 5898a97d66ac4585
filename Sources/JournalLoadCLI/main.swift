import ArgumentParser
import Foundation
import JournalLoad
import JournalServer
import JournalServerBench

/// `journal-load`: the load generator (SCALE-FIGURES.md §"Load"). For each device count, and for each store design,
/// starts `journal-server serve --store DESIGN` on a free loopback port, makes the users' tokens, runs the load,
/// reads every acknowledged event back, stops the server, and prints one report line; then the ratios.
@main
struct JournalLoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal-load",
        abstract: "Simulated devices syncing with journal-server over loopback, against the naive peer design in the same run (SCALE.md).",
        discussion: "Exit codes: 0 every acknowledged event was read back; 1 an acknowledged event is missing or a run failed; 64 bad usage.")

    @Option(help: "PostgreSQL URL (postgres://USER@HOST:PORT/DB); default $JOURNAL_DATABASE_URL.")
    var database: String?
    @Option(help: "Device counts, comma-separated: one run per count and design.")
    var devices: String = "10,100"
    @Option(help: "Most requests per device.")
    var requests: Int = 40
    @Option(help: "Seconds after which devices start no new request.")
    var seconds: Double = 20
    @Option(help: "Store designs, comma-separated: batches, naive, memory (the ceiling: events in the server's memory only); both = batches,naive; all = batches,naive,memory.")
    var design: String = "both"
    @Option(help: "Seed of the users' device counts and of which devices come back from offline.")
    var seed: UInt64 = 1
    @Option(help: "Milliseconds a pulling device waits after each pull (after a 429, at least its Retry-After).")
    var pullEvery: Int = 100
    @Option(help: "The journal-server binary (default: the one beside journal-load).")
    var server: String?

    func run() async throws {
        guard let url = database ?? ProcessInfo.processInfo.environment["JOURNAL_DATABASE_URL"], !url.isEmpty else {
            throw ValidationError("no database: pass --database postgres://USER@HOST:PORT/DB or set JOURNAL_DATABASE_URL (scripts/postgres start DIR prints one)")
        }
        let databaseURL: DatabaseURL
        do { databaseURL = try DatabaseURL(url) } catch { throw ValidationError("\(error)") }
        guard pullEvery >= 0 else { throw ValidationError("--pull-every \(pullEvery) is not a number of milliseconds (0 or more)") }
        let counts = devices.split(separator: ",").compactMap { Int($0) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else { throw ValidationError("--devices \(devices) is not a list of positive counts (10,100,1000)") }
        let designs: [StoreDesign]
        switch design {
        case "both": designs = [.batches, .naive]
        case "all": designs = [.batches, .naive, .memory]
        default:
            designs = try design.split(separator: ",", omittingEmptySubsequences: false).map {
                guard let one = StoreDesign(rawValue: String($0)) else {
                    throw ValidationError("--design \(design): \(String($0).debugDescription) is not batches, naive or memory (or pass both or all)")
                }
                return one
            }
            // A design's users are named by design and count: a second run of one would push what the first stored.
            var seen = Set<StoreDesign>()
            for one in designs where !seen.insert(one).inserted {
                throw ValidationError("--design \(design) names \(one.rawValue) twice; list each design once (each runs once per device count)")
            }
        }
        let binary = server ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("journal-server").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ValidationError("no journal-server at \(binary); build it (swift build) or pass --server PATH")
        }
        let run = "\(getpid())-\(Int(Date().timeIntervalSince1970) % 100_000)"
        var failed = false
        var checkpoints = true
        for count in counts {
            var reports: [StoreDesign: LoadRun.Report] = [:]
            for design in designs {
                var options = LoadRun.Options(devices: count, requestsPerDevice: requests, seconds: seconds, seed: seed)
                options.seed = seed
                options.pullPauseMilliseconds = pullEvery
                let planned = LoadRun.users(prefix: "load-\(run)-\(design.rawValue)-\(count)", options: options)
                var users: [LoadRun.User] = []
                for (id, devices) in planned { users.append(LoadRun.User(id: id, token: Tokens.generate(), devices: devices)) }
                let made = users
                try await withSyncStore(databaseURL) { store in
                    for user in made { try await store.addToken(user.token, user: user.id, role: .user) }
                }
                if checkpoints {
                    do { try await checkpoint(databaseURL) } catch {
                        checkpoints = false
                        FileHandle.standardError.write(Data("journal-load: CHECKPOINT on \(databaseURL) refused: \(error); the runs go on without one, so each may pay for the writes of the run before it; for equal starts, connect as a superuser or a role granted pg_checkpoint\n".utf8))
                    }
                }
                let server = try ServerProcess(binary: binary, database: url, design: design)
                defer { server.stop() }
                let report = try await LoadRun.run(label: design.rawValue, server: server.url, users: users, options: options, serverPID: server.pid)
                print(report)
                if report.missing > 0 || report.unexpected > 0 { failed = true }
                reports[design] = report
            }
            if let batches = reports[.batches], let naive = reports[.naive] {
                print(String(format: "%d devices: batches/naive acknowledged events/s %.2fx; push p99 %.1f ms vs %.1f ms; server CPU per event %@",
                             count, batches.eventsPerSecond / max(naive.eventsPerSecond, 0.001), batches.push[1], naive.push[1],
                             zip(batches.cpuMicrosecondsPerEvent, naive.cpuMicrosecondsPerEvent).map { String(format: "%.0f vs %.0f µs", $0, $1) } ?? "-"))
            }
            if let memory = reports[.memory] {
                for design in designs where design != .memory {
                    guard let report = reports[design] else { continue }
                    let naive = reports[.naive].map { String(format: ", %.2fx the naive design's", memory.eventsPerSecond / max($0.eventsPerSecond, 0.001)) } ?? ""
                    print(String(format: "%d devices: %@ at %.0f%% of the ceiling (memory: %.0f acknowledged events/s%@)",
                                 count, design.rawValue, 100 * report.eventsPerSecond / max(memory.eventsPerSecond, 0.001), memory.eventsPerSecond, naive))
                }
            }
        }
        if failed { throw ExitCode(1) }
    }
}

func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? { if let a, let b { return (a, b) } else { return nil } }

