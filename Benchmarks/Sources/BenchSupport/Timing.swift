import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic nanoseconds.
@inline(__always)
public func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Runs `body` `runs` times and returns the fastest wall time in seconds (the least disturbed run
/// on a shared machine) and the last result.
public func fastest<T>(runs: Int, _ body: () throws -> T) rethrows -> (seconds: Double, result: T) {
    var best = Double.infinity
    var last: T?
    for _ in 0..<max(runs, 1) {
        let start = monotonicNanoseconds()
        let result = try body()
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        best = min(best, seconds)
        last = result
    }
    return (best, last!)
}

/// The value at `fraction` (0…1) of the sorted samples (nearest rank).
public func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// Peak resident set size of this process so far, in bytes. On Linux from `VmHWM` in
/// `/proc/self/status`: `getrusage`'s `ru_maxrss` survives `execve`, so a child started by a
/// process that had just made a large fixture reported the parent's peak (112 MiB for 38 MiB).
public func peakResidentBytes() -> Int {
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
       let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") {
        return kilobytes * 1024
    }
    #endif
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    #if canImport(Darwin)
    return Int(usage.ru_maxrss)
    #else
    return Int(usage.ru_maxrss) * 1024
    #endif
}

/// User plus system CPU time of this process so far, in seconds (all threads).
public func processCPUSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
