import Foundation
import Histogram
import JournalEvents
import JournalFile
import JournalModel
import JournalServer
import JournalSimulator
import JournalSync
import NIOConcurrencyHelpers

/// The load generator's engine (SCALE-FIGURES.md §"Load"): simulated users with 1–3 devices each sync with a server over
/// loopback, for a bounded number of requests and a bounded time, then every user's journal is restored (`journal
/// restore`'s code) and every acknowledged event looked for in it.
///
/// Each user's first device is a phone in a live workout: it pushes each action as it happens, one event per
/// request, with no pause (a closed loop: the next action once the last one is acknowledged). Other devices
/// pull after their cursor every `pullPauseMilliseconds`; `offlineShare` of them first come back from days
/// offline and push a week of workouts in one request. Pushes are retried, the same events again, on a transport
/// error, a 5xx or a 429 (after its Retry-After), until acknowledged.
public enum LoadRun {
    public struct Options: Sendable {
        public var devices: Int
        /// Most requests per device.
        public var requestsPerDevice: Int
        /// The run stops starting requests after this long.
        public var seconds: Double
        public var seed: UInt64
        public var offlineShare: Double = 0.3
        public var pullPauseMilliseconds: Int = 100
        /// Workouts in the week an offline device pushes at once.
        public var offlineWorkouts: Int = 4
        /// Events each live device makes before the run's clock starts (at most `requestsPerDevice`); past them it
        /// makes each as it goes. A phone makes its events on its own CPU, not on the server's machine: made
        /// during the run, they took about a tenth of the load generator's CPU (SCALE-FIGURES.md §"What the devices cost").
        public var eventsMadeAhead: Int = 256
        public init(devices: Int, requestsPerDevice: Int, seconds: Double, seed: UInt64 = 1) {
            self.devices = devices
            self.requestsPerDevice = requestsPerDevice
            self.seconds = seconds
            self.seed = seed
        }
    }

    public struct User: Sendable {
        public var id: String
        public var token: String
        public var devices: Int
        public init(id: String, token: String, devices: Int) { self.id = id; self.token = token; self.devices = devices }
    }

    /// Users for `options.devices` devices (1–3 each, from the seed), named `prefix-N`.
    public static func users(prefix: String, options: Options) -> [(id: String, devices: Int)] {
        var random = SplitMix64(seed: options.seed)
        var users: [(String, Int)] = []
        var left = options.devices
        while left > 0 {
            let count = min(left, random.int(1...3))
            users.append(("\(prefix)-\(users.count)", count))
            left -= count
        }
        return users
    }

    public struct Report: Sendable, CustomStringConvertible {
        public var label: String
        public var devices: Int
        public var users: Int
        public var seconds: Double
        /// Events the server acknowledged as stored for the first time.
        public var acknowledgedEvents: Int
        public var pushes: Int
        public var pulls: Int
        /// Milliseconds at p50, p99, p99.9.
        public var push: [Double]
        public var pull: [Double]
        public var errors: [String: Int]
        /// Events acknowledged but not on the server when read back (must be 0).
        public var missing: Int
        /// Events on the server that nobody pushed in this run, or stored twice (must be 0).
        public var unexpected: Int
        /// The server process's CPU seconds during the run, when its pid was given.
        public var serverCPUSeconds: Double?
        /// The load generator's own CPU seconds during the run (the devices' side: every device, its requests and
        /// what it does with the answers), from its process's /proc entry; nil where there is none.
        public var devicesCPUSeconds: Double? = nil

        public var eventsPerSecond: Double { Double(acknowledgedEvents) / seconds }
        public var cpuMicrosecondsPerEvent: Double? { perEvent(serverCPUSeconds) }
        public var devicesCPUMicrosecondsPerEvent: Double? { perEvent(devicesCPUSeconds) }
        func perEvent(_ seconds: Double?) -> Double? {
            seconds.map { acknowledgedEvents > 0 ? $0 * 1e6 / Double(acknowledgedEvents) : 0 }
        }

        public var description: String {
            func ms(_ values: [Double]) -> String { values.map { String(format: "%.1f", $0) }.joined(separator: "/") }
            let errorText = errors.isEmpty ? "none" : errors.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: ", ")
            let cpu = (cpuMicrosecondsPerEvent.map { String(format: ", server CPU %.0f µs/event", $0) } ?? "")
                + (devicesCPUMicrosecondsPerEvent.map { String(format: ", devices' CPU %.0f µs/event", $0) } ?? "")
            return String(format: "%@: %d devices (%d users) %.1f s: %d events acknowledged, %.0f events/s; %d pushes p50/p99/p99.9 %@ ms; %d pulls %@ ms; errors %@%@; verified: %d missing, %d unexpected",
                          label, devices, users, seconds, acknowledgedEvents, eventsPerSecond, pushes, ms(push), pulls, ms(pull),
                          errorText, cpu, missing, unexpected)
        }
    }

    /// Everything the devices saw, in one place: under a lock rather than in an actor, so that recording a
    /// request never makes a device's task wait for a turn on another executor.
    final class Tally: Sendable {
        struct Counts {
            var push = Histogram<UInt64>(highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)
            var pull = Histogram<UInt64>(highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)
            var errors: [String: Int] = [:]
            var acknowledged: [String: Set<String>] = [:]
            var stored = 0
        }
        private let counts = NIOLockedValueBox(Counts())

        func pushed(user: String, ids: [String], stored count: Int, microseconds: UInt64) {
            counts.withLockedValue {
                $0.push.record(microseconds)
                $0.acknowledged[user, default: []].formUnion(ids)
                $0.stored += count
            }
        }
        func pulled(microseconds: UInt64) { counts.withLockedValue { _ = $0.pull.record(microseconds) } }
        func failed(_ kind: String) { counts.withLockedValue { $0.errors[kind, default: 0] += 1 } }
        var totals: Counts { counts.withLockedValue { $0 } }
    }

    /// Runs the load against `server` for `users` (tokens already made), then reads every user's journal back.
    public static func run(label: String, server: URL, users: [User], options: Options, serverPID: pid_t? = nil) async throws -> Report {
        let transport = NIOTransport()
        do {
            let report = try await run(label: label, server: server, users: users, options: options, serverPID: serverPID, transport: transport)
            await transport.shutdown()
            return report
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    static func run(label: String, server: URL, users: [User], options: Options, serverPID: pid_t?,
                    transport: NIOTransport) async throws -> Report {
        let tally = Tally()
        // Every device's events up to `eventsMadeAhead`, and every offline device's week, are made before the clock
        // starts.
        var random = SplitMix64(seed: options.seed &+ 7)
        var devices: [(user: String, client: SyncClient, device: Int, actions: Actions, week: [Event])] = []
        for user in users {
            var client = SyncClient(server: server, token: user.token, transport: transport)
            client.retry = .none   // the load run retries itself, counting each 429 (retryAfterMilliseconds)
            for device in 0..<user.devices {
                let offline = device > 0 && Double(random.int(0...999)) < options.offlineShare * 1000
                var actions = Actions(device: "d\(device)")
                var week: [Event] = []
                if offline {
                    week = (0..<options.offlineWorkouts).flatMap { _ in actions.workout() }
                } else if device == 0 {
                    actions.makeAhead(min(options.eventsMadeAhead, options.requestsPerDevice))
                }
                devices.append((user.id, client, device, actions, week))
            }
        }
        let cpuBefore = serverPID.flatMap(cpuSeconds), devicesCPUBefore = cpuSeconds(getpid())
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = started + .milliseconds(Int64(options.seconds * 1000))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for device in devices {
                group.addTask {
                    try await simulate(device: device.device, week: device.week, actions: device.actions, user: device.user,
                                       client: device.client, options: options, deadline: deadline, tally: tally)
                }
            }
            try await group.waitForAll()
        }
        let elapsed = clock.now - started
        let cpuAfter = serverPID.flatMap(cpuSeconds), devicesCPUAfter = cpuSeconds(getpid())
        let totals = tally.totals
        let (missing, unexpected) = try await verify(server: server, users: users, acknowledged: totals.acknowledged, transport: transport)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        func percentiles(_ histogram: Histogram<UInt64>) -> [Double] {
            [50.0, 99.0, 99.9].map { Double(histogram.valueAtPercentile($0)) / 1000 }
        }
        return Report(label: label, devices: options.devices, users: users.count, seconds: seconds,
                      acknowledgedEvents: totals.stored, pushes: Int(totals.push.totalCount), pulls: Int(totals.pull.totalCount),
                      push: percentiles(totals.push), pull: percentiles(totals.pull), errors: totals.errors,
                      missing: missing, unexpected: unexpected,
                      serverCPUSeconds: cpuBefore.flatMap { before in cpuAfter.map { $0 - before } },
                      devicesCPUSeconds: devicesCPUBefore.flatMap { before in devicesCPUAfter.map { $0 - before } })
    }

    /// Every user's journal restored with `journal restore`'s own code (`JournalSyncing.restore`: every page pulled,
    /// absorbed into a new journal file in a scratch directory), then read from the file: the acknowledged events
    /// not in it (`missing`), and the events in it that nobody pushed, or that the server stored more than once
    /// (`unexpected`; restoring merges by id, so a second copy shows as more events pulled than the file holds).
    public static func verify(server: URL, users: [User], acknowledged: [String: Set<String>],
                              transport: any SyncTransport) async throws -> (missing: Int, unexpected: Int) {
        var missing = 0, unexpected = 0
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("journal-load-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (index, user) in users.enumerated() {
            var client = SyncClient(server: server, token: user.token, transport: transport)
            client.retry = .none   // the load run retries itself
            let path = scratch.appendingPathComponent("user-\(index).journal").path
            let pulled = NIOLockedValueBox(0)
            try await restoring(path) { () async throws(JournalSyncing.Problem) in
                _ = try await JournalSyncing.restore(to: path, client: client, user: user.id) { progress in
                    if case .pulled(let events) = progress { pulled.withLockedValue { $0 = events } }
                }
            }
            let ids = try EventReader.events(path: path).map(\.id)
            try FileManager.default.removeItem(atPath: path)
            let mine = acknowledged[user.id] ?? []
            let stored = Set(ids)
            missing += mine.subtracting(stored).count
            unexpected += stored.subtracting(mine).count + (pulled.withLockedValue { $0 } - ids.count)
        }
        return (missing, unexpected)
    }

    /// One device: `week` (when it comes back from days offline: a week of workouts in one push), then, for the
    /// first device, each of `actions` pushed as it happens, for the others a pull every `pullPauseMilliseconds`.
    static func simulate(device: Int, week: [Event], actions: Actions, user: String, client: SyncClient, options: Options,
                         deadline: ContinuousClock.Instant, tally: Tally) async throws {
        var actions = actions
        var cursor = SyncCursor.start
        var requests = 0
        if !week.isEmpty {
            try await push(week, user: user, client: client, tally: tally)
            requests += 1
        }
        while requests < options.requestsPerDevice && ContinuousClock.now < deadline {
            requests += 1
            if device == 0 {
                try await push([actions.next()], user: user, client: client, tally: tally)
            } else {
                let started = ContinuousClock.now
                var pause = options.pullPauseMilliseconds
                do {
                    let page = try await client.pull(user: user, after: cursor)
                    tally.pulled(microseconds: microseconds(since: started))
                    cursor = page.cursor
                } catch {
                    tally.failed(kind(error))
                    // A device honours Retry-After, as it does for a push.
                    pause = max(pause, error.retryAfterMilliseconds ?? 0)
                }
                try await Task.sleep(for: .milliseconds(pause))
            }
        }
    }

    /// Pushes `events` until the server acknowledges them (the same events again after a transient failure).
    static func push(_ events: [Event], user: String, client: SyncClient, tally: Tally) async throws {
        for attempt in 0... {
            let started = ContinuousClock.now
            do {
                let answer = try await client.push(user: user, events: events)
                tally.pushed(user: user, ids: answer.acknowledged, stored: answer.stored, microseconds: microseconds(since: started))
                return
            } catch {
                tally.failed(kind(error))
                guard error.isTransient || error.status == 429, attempt < 200 else { throw error }
                try await Task.sleep(for: .milliseconds(error.retryAfterMilliseconds ?? 50))
            }
        }
    }

    /// `body` (a restore into `output`) again after a transient failure or a 429, `output` removed first (a restore
    /// refuses an existing file; it writes the file only once every page is pulled).
    static func restoring(_ output: String, _ body: () async throws(JournalSyncing.Problem) -> Void) async throws {
        for attempt in 0... {
            do { return try await body() } catch {
                guard case .server(let failure) = error, failure.isTransient || failure.status == 429, attempt < 100 else { throw error }
                try? FileManager.default.removeItem(atPath: output)
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        fatalError("unreachable")
    }

    static func kind(_ error: SyncClient.Failure) -> String {
        switch error {
        case .refused(let status, let code, _): return "\(status) \(code)"
        case .transport: return "transport"
        case .badAnswer: return "bad_answer"
        case .tokenProvider: return "token_provider"
        }
    }

    static func microseconds(since start: ContinuousClock.Instant) -> UInt64 {
        let elapsed = ContinuousClock.now - start
        return UInt64(max(0, elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000))
    }

    /// utime + stime of a process, from /proc (Linux).
    static func cpuSeconds(_ pid: pid_t) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14, stime 15 (1-based, man 5 proc).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// One device's actions, made with the journal's own recording rules: workouts of a bench press, each
    /// started, 8 sets, finished.
    struct Actions {
        let device: String
        var rules = RecordingRules()
        var queue: [JSONValue] = []
        var workouts = 0
        var time = ScriptedWorkout.start
        /// Events made before the run (`makeAhead`), handed out first.
        var ahead: ArraySlice<Event> = []

        init(device: String) { self.device = device }

        mutating func makeAhead(_ count: Int) {
            ahead = ArraySlice((0..<count).map { _ in make() })
        }

        mutating func next() -> Event { ahead.popFirst() ?? make() }

        private mutating func make() -> Event {
            if queue.isEmpty {
                workouts += 1
                queue = ScriptedWorkout.drafts("\(device)-w\(workouts)", sets: 8, at: time)
                time = time.adding(milliseconds: 86_400_000)
            }
            let draft = queue.removeFirst()
            switch rules.prepare(draft, device: device, now: time) {
            case .success(let event):
                rules.apply(event)
                return event
            case .failure(let problem):
                fatalError("the load generator made an event its own rules refuse: \(problem)")
            }
        }

        /// One whole workout (only before any event was made ahead).
        mutating func workout() -> [Event] {
            var events = [make()]
            while !queue.isEmpty { events.append(make()) }
            return events
        }
    }
}

extension SyncClient.Failure {
    var status: Int? { if case .refused(let status, _, _) = self { return status } else { return nil } }
    /// After a 429: the server's Retry-After (`BackPressureMiddleware` always sends 1 s; SyncClient does not
    /// expose headers).
    var retryAfterMilliseconds: Int? { status == 429 ? 1000 : nil }
}
