import Foundation

/// A value threads share, behind a lock (Synchronization's `Mutex` needs macOS 15; the package supports macOS 14).
// @unchecked Sendable: `value` is only read or written inside `withLock`, while holding `lock`.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    public init(_ value: Value) { self.value = value }
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
