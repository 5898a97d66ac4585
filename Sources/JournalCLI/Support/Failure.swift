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
    /// The next line of standard input without its newline, as bytes; nil at end of input.
    static func readRawLine() -> [UInt8]? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let count = getline(&buffer, &capacity, stdin)
        guard count >= 0, let buffer else { return nil }
        var bytes = [UInt8](UnsafeRawBufferPointer(start: buffer, count: count))
        if bytes.last == 0x0A { bytes.removeLast() }
        return bytes
    }
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
