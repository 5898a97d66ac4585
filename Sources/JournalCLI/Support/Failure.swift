import ArgumentParser
import WorkoutJournalSync
// The one file that touches C's `stdin`/`stdout`/`stderr`: libc imports them as mutable globals, which Swift 6 rejects;
// they are assigned once before `main` and never again, and every stdio call locks its FILE, so
// `@preconcurrency` (this file only) is safe.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// The one place that turns library errors into messages on stderr and exit codes
/// (README.md §"Exit codes"): 1 journal or input problem, 3 locked; ArgumentParser exits 64 for usage errors.
struct Failure: Error, CustomStringConvertible {
    var message: String
    var code: Int32 = 1
    var description: String { message }
}

/// Runs a command body, printing any error as `journal: <message>` and exiting with its code.
func reportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ExitCode {
        throw error
    } catch let error as Failure {
        printError(error.message)
        throw ExitCode(error.code)
    } catch let error as JournalError {
        printError(error.description)
        throw ExitCode(error.exitCode)
    } catch let error as ValidationError {
        throw error
    } catch {
        printError("\(error)")
        throw ExitCode(1)
    }
}

func printError(_ message: String) {
    StandardError.write("journal: \(message)\n")
}

enum StandardError {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { fwrite($0.baseAddress, 1, $0.count, stderr) }
        fflush(stderr)
    }
}

enum StandardInput {
    /// Lines of standard input read straight from file descriptor 0 (not through `stdin`'s buffer), as bytes, so that a caller
    /// can wait for the next line with a time limit (`journal record --batch`).
    final class LineReader {
        private var buffer: [UInt8] = []
        private var start = 0
        private var ended = false

        enum Next { case line([UInt8]), timedOut, end }

        /// The next line without its newline (a last line without one counts); `.timedOut` when no whole line arrived
        /// within `milliseconds` (nil: wait as long as it takes).
        func next(waiting milliseconds: Int64?) -> Next {
            let deadline = milliseconds.map { StandardInput.monotonicMilliseconds() + $0 }
            while true {
                if let newline = buffer[start...].firstIndex(of: 0x0A) {
                    let line = Array(buffer[start..<newline])
                    start = newline + 1
                    if start > 1 << 16 { buffer.removeFirst(start); start = 0 }
                    return .line(line)
                }
                if ended {
                    guard start < buffer.count else { return .end }
                    let line = Array(buffer[start...])
                    start = buffer.count
                    return .line(line)
                }
                if let deadline {
                    let left = deadline - StandardInput.monotonicMilliseconds()
                    if left <= 0 { return .timedOut }
                    var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&descriptor, 1, Int32(min(left, Int64(Int32.max))))
                    if ready == 0 { return .timedOut }
                    if ready < 0 && errno == EINTR { continue }
                }
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { ended = true } else { buffer += chunk[0..<count] }
            }
        }
    }

    /// Milliseconds on the monotonic clock.
    static func monotonicMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// A line of spaces, tabs and carriage returns only: skipped, as no event.
    static func isBlank(_ line: [UInt8]) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
}

/// Buffered standard output for commands that print a lot (cat).
struct Output {
    private var buffer: [UInt8] = []
    init() { buffer.reserveCapacity(1 << 16) }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        _ = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, stdout) }
        fflush(stdout)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Pushes what `print` has buffered to standard output now.
    static func flushPrinted() { fflush(stdout) }
}

/// Parses an `--as-of`, `--since` or `--until` value.
func parseTime(_ text: String, option: String) throws -> Timestamp {
    if let time = Timestamp(rfc3339: text) { return time }
    if let date = LocalDate(iso: text) {
        // A bare date means its start, in this machine's offset.
        let offset = SystemClock.now().offsetSeconds
        return Timestamp(epochMilliseconds: Int64(date.day) * 86_400_000 - Int64(offset) * 1000, offsetSeconds: offset)
    }
    throw ValidationError("\(option) \"\(text)\" is not a time: use RFC 3339 with an offset, e.g. 2026-11-21T18:04:05+01:00, or a date YYYY-MM-DD")
}
