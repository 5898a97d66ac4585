import Foundation

/// Threads of their own for the CPU-bound part of fleet jobs (decompressing, decoding, verifying, folding,
/// simulating): neither Swift's cooperative pool, which the PostgreSQL client's tasks share, nor NIO's event
/// loops. `map` hands items to whichever thread is free and suspends the calling task until all are done.
package final class WorkerThreads: @unchecked Sendable {
    let count: Int
    private let condition = NSCondition()
    private var queue: [@Sendable () -> Void] = []
    private var next = 0
    private var stopping = false

    /// Thread stack size: the event decoder and the rules recurse into nested JSON.
    static let stackSize = 8 << 20

    package init(count: Int) {
        precondition(count >= 1, "at least one worker thread")
        self.count = count
        for index in 0..<count {
            let thread = Thread { [self] in
                // Linux copies the creating thread's name into a new thread; name it for top -H and /proc/PID/task.
                Thread.current.name = "fleet-worker-\(index + 1)"
                loop()
            }
            thread.stackSize = Self.stackSize
            thread.start()
        }
    }

    private func loop() {
        while true {
            condition.lock()
            while next == queue.count && !stopping { condition.wait() }
            if next == queue.count {
                condition.unlock()
                return
            }
            let job = queue[next]
            next += 1
            if next == queue.count { queue.removeAll(keepingCapacity: true); next = 0 }
            condition.unlock()
            job()
        }
    }

    private func submit(_ jobs: [@Sendable () -> Void]) {
        condition.lock()
        queue += jobs
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the threads once the queued work is done.
    package func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// `work` applied to every item on the threads; the results in the items' order.
    package func map<T: Sendable, R: Sendable>(_ items: [T], _ work: @escaping @Sendable (T) -> R) async -> [R] {
        guard !items.isEmpty else { return [] }
        return await withCheckedContinuation { (continuation: CheckedContinuation<[R], Never>) in
            let results = Results<R>(count: items.count)
            submit(items.enumerated().map { index, item in
                { if let all = results.set(index, work(item)) { continuation.resume(returning: all) } }
            })
        }
    }

    /// The results of one `map`, filled by the threads.
    private final class Results<R>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [R?]
        private var remaining: Int
        init(count: Int) { values = Array(repeating: nil, count: count); remaining = count }
        /// Stores one result; returns them all once the last one is in.
        func set(_ index: Int, _ value: R) -> [R]? {
            lock.lock()
            defer { lock.unlock() }
            values[index] = value
            remaining -= 1
            return remaining == 0 ? values.map { $0! } : nil
        }
    }
}
