#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Zstd {
    /// Runs `body` with a `Zstd` nobody else uses meanwhile, taken from a process-wide pool and put back after.
    /// Making a `Zstd` allocates libzstd's decompression context (about 160 KiB, beyond malloc's mmap threshold):
    /// the server's pulls and the fleet jobs read one journal or block after another, and making one per read
    /// showed as a few percent of their CPU and, with two worker threads, as the kernel's TLB shootdowns of each
    /// unmapped context. Nested calls take distinct contexts; at most `pooledMaximum` are kept.
    public static func pooled<T>(_ body: (Zstd) throws -> T) rethrows -> T {
        let zstd = ZstdPool.shared.take() ?? Zstd()
        defer { ZstdPool.shared.give(zstd) }
        return try body(zstd)
    }

    /// Idle contexts the pool keeps (one per thread that reads at once is enough).
    public static let pooledMaximum = 16
}

/// The idle contexts of `Zstd.pooled`, behind a mutex.
final class ZstdPool: @unchecked Sendable {
    // @unchecked: `idle` is only read and written while `mutex` is held.
    static let shared = ZstdPool()
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var idle: [Zstd] = []

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    func take() -> Zstd? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return idle.popLast()
    }

    func give(_ zstd: Zstd) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if idle.count < Zstd.pooledMaximum { idle.append(zstd) }
    }
}
