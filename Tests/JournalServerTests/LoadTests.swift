import Foundation
import Hummingbird
import HummingbirdTesting
import JournalLoad
import JournalServer
import JournalServerBench
import JournalSync
import JournalTesting
import Testing
import Logging

@Suite("journal-load: simulated devices against the server and its two peers, nothing acknowledged lost", .serialized)
struct LoadTests {
    /// CI's short load: `LOAD_DEVICES` devices (200 by default) for `LOAD_SECONDS` (8) per design.
    static let devices = Int(ProcessInfo.processInfo.environment["LOAD_DEVICES"] ?? "") ?? 200
    static let seconds = Double(ProcessInfo.processInfo.environment["LOAD_SECONDS"] ?? "") ?? 8

    @Test("a bounded load on each design: events acknowledged, every one read back, none unexpected")
    func shortLoad() async throws {
        let options = {
            var options = LoadRun.Options(devices: Self.devices, requestsPerDevice: 30, seconds: Self.seconds, seed: 7)
            options.offlineShare = 0.3
            return options
        }()
        var reports: [StoreDesign: LoadRun.Report] = [:]
        for design in StoreDesign.allCases {
            let planned = LoadRun.users(prefix: PostgresFixture.freshUser("load-\(design.rawValue)"), options: options)
            #expect(planned.map(\.devices).reduce(0, +) == Self.devices)
            #expect(planned.allSatisfy { (1...3).contains($0.devices) })
            let users = planned.map { LoadRun.User(id: $0.id, token: Tokens.generate(), devices: $0.devices) }
            try await withSyncStore(try DatabaseURL(try PostgresFixture.url())) { store in
                for user in users { try await store.addToken(user.token, user: user.id, role: .user) }
            }
            var configuration = try PostgresFixture.configuration()
            configuration.logLevel = .critical
            let app = try await buildApplication(configuration, makeStore: design.makeStore)
            let report = try await app.test(.live) { client in
                let server = URL(string: "http://127.0.0.1:\(try #require(client.port))")!
                let report = try await LoadRun.run(label: design.rawValue, server: server, users: users, options: options)
                print(report)
                #expect(report.acknowledgedEvents > 0)
                #expect(report.pushes > 0)
                #expect(report.pulls > 0)
                #expect(report.missing == 0)
                #expect(report.unexpected == 0)
                return report
            }
            reports[design] = report
        }
        if let batches = reports[.batches], let naive = reports[.naive], let memory = reports[.memory] {
            print(String(format: "load %d devices: batches/naive acknowledged events/s %.2fx, push p99 %.1f vs %.1f ms; batches at %.0f%% of the ceiling (memory)",
                         Self.devices, batches.eventsPerSecond / max(naive.eventsPerSecond, 0.001), batches.push[1], naive.push[1],
                         100 * batches.eventsPerSecond / max(memory.eventsPerSecond, 0.001)))
        }
    }

    #if os(Linux)
    @Test("the read-back restores each user's journal and finds an acknowledged event the server lacks, and one nobody pushed")
    func verifierFindsLossAndStrangers() async throws {
        let user = PostgresFixture.freshUser("verify")
        let token = try await PostgresFixture.token(user: user)
        let scratch = ScratchDirectory("load-verify")
        let events = try recordedEvents(device: "ph", workouts: 1, in: scratch)
        #expect(events.count == 4)
        try await withServer { server in
            // The server stores the first three events; the fourth is never pushed.
            _ = try await SyncClient(server: server, token: token).push(user: user, events: Array(events[..<3]))
            let users = [LoadRun.User(id: user, token: token, devices: 1)]
            let all = Set(events.map(\.id))
            let exact = try await LoadRun.verify(server: server, users: users, acknowledged: [user: Set(events[..<3].map(\.id))],
                                                 transport: HTTPClientTransport())
            #expect(exact.missing == 0 && exact.unexpected == 0)
            // "Acknowledged" all four: one is missing.
            let lost = try await LoadRun.verify(server: server, users: users, acknowledged: [user: all], transport: HTTPClientTransport())
            #expect(lost.missing == 1 && lost.unexpected == 0)
            // Acknowledged two of the three stored: one is unexpected.
            let stranger = try await LoadRun.verify(server: server, users: users, acknowledged: [user: Set(events[..<2].map(\.id))],
                                                    transport: HTTPClientTransport())
            #expect(stranger.missing == 0 && stranger.unexpected == 1)
        }
    }
    #endif
}
