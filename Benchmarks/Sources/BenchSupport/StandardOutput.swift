// The one file here that names C's `stdout`: libc imports it as a mutable global, which Swift 6 refuses; it is
// assigned before `main` and never again, so `@preconcurrency` (this file only) is safe.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// Line-buffers standard output, so each table row shows as soon as it is measured, through a pipe too.
public func lineBufferStandardOutput() {
    setvbuf(stdout, nil, _IOLBF, 0)
}
