import Foundation

/// The time a rest countdown ticks by: now on the journal's time line (a rest's `endsAt` is the journal clock's
/// time) and a way to wait for an instant of it. `SystemCountdownClock` is the device's; tests pass one they move
/// by hand, so every tick is deterministic.
public protocol CountdownClock: Sendable {
    /// Now, on the same time line as the journal's clock.
    var now: Timestamp { get }
    /// Returns once `now` has reached `deadline` (at once when it has); throws `CancellationError` when the waiting
    /// task is cancelled.
    func sleep(until deadline: Timestamp) async throws
}

/// The device's clock: `JournalDirectory.systemClock` and `Task.sleep`.
public struct SystemCountdownClock: CountdownClock {
    /// The device's clock.
    public init() {}
    /// `JournalDirectory.systemClock()`.
    public var now: Timestamp { JournalDirectory.systemClock() }
    /// `Task.sleep` for the milliseconds from now to `deadline`.
    public func sleep(until deadline: Timestamp) async throws {
        let wait = deadline.epochMilliseconds - now.epochMilliseconds
        if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
    }
}

extension UserJournal {
    /// The open workout's rest timer, ticking: its state now, then the remaining whole seconds each time they change
    /// by `clock` (once a second), following the journal's changes (`rest.adjusted` moves the end at once, a new
    /// `rest.started` restarts the count). It ends after the value that shows 0 (state `.finished`), after the
    /// value that shows the rest skipped or finished when the journal records it (`skipRest`, `finishRest`), at once
    /// when no rest is running, on `close()`, or when the task iterating it is cancelled. A slow reader gets the
    /// newest value. The countdown records nothing: the app records `finishRest` when it shows 0.
    ///
    ///     for await rest in journal.restCountdown() { model.restLeft = rest.remainingSeconds }
    public func restCountdown(clock: some CountdownClock = SystemCountdownClock()) -> AsyncStream<ActiveWorkoutState.Rest> {
        let (stream, continuation) = AsyncStream.makeStream(of: ActiveWorkoutState.Rest.self, bufferingPolicy: .bufferingNewest(1))
        let timers = observe { analysis in ActiveWorkoutState.openWorkout(analysis.ledger)?.rest }
        let gate = CountdownGate(continuation)
        let run = Task.detached {
            var ticking: Task<Void, Never>?
            for await timer in timers {
                ticking?.cancel()
                guard let timer else { break }
                let generation = gate.nextGeneration()
                let rest = ActiveWorkoutState.Rest(timer, asOf: clock.now)
                if rest.state != .running {
                    gate.yield(rest, generation: generation)
                    break
                }
                ticking = Task.detached { await UserJournal.tick(timer, clock: clock, gate: gate, generation: generation) }
            }
            ticking?.cancel()
            gate.finish()
        }
        continuation.onTermination = { _ in run.cancel() }
        return stream
    }

    /// Yields `timer` as of each second until it shows 0, then ends the countdown; stops when `generation` is no
    /// longer the gate's (the journal changed the rest) or the task is cancelled.
    static func tick(_ timer: RestTimer, clock: some CountdownClock, gate: CountdownGate, generation: Int) async {
        var now = clock.now
        while true {
            let rest = ActiveWorkoutState.Rest(timer, asOf: now)
            guard gate.yield(rest, generation: generation) else { return }
            guard let next = ActiveWorkoutState.Rest.nextTick(until: timer.endsAt, asOf: now) else {
                gate.finish()
                return
            }
            do { try await clock.sleep(until: next) } catch { return }
            now = clock.now
        }
    }
}

/// Lets only the countdown's current timer yield, so a tick of a rest the journal has since changed never follows
/// the new rest's value.
// @unchecked Sendable: `generation` and `ended` are read and written only while holding `lock`.
final class CountdownGate: @unchecked Sendable {
    private let lock = NSLock()
    private var generation = 0
    private var ended = false
    private let continuation: AsyncStream<ActiveWorkoutState.Rest>.Continuation

    init(_ continuation: AsyncStream<ActiveWorkoutState.Rest>.Continuation) { self.continuation = continuation }

    /// A new timer's generation; every earlier one can no longer yield.
    func nextGeneration() -> Int { lock.withLock { generation += 1; return generation } }

    /// Yields `rest` when `generation` is still current and the countdown has not ended; false otherwise.
    @discardableResult
    func yield(_ rest: ActiveWorkoutState.Rest, generation: Int) -> Bool {
        lock.withLock {
            guard !ended, generation == self.generation else { return false }
            continuation.yield(rest)
            return true
        }
    }

    /// Ends the countdown (once).
    func finish() {
        let first = lock.withLock { () -> Bool in
            defer { ended = true }
            return !ended
        }
        if first { continuation.finish() }
    }
}
