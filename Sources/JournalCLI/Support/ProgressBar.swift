#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress of a long command (import, simulate, verify, replay) on stderr, only when stderr is a
/// terminal: `label [████    ] 42%`; pipes and logs stay silent.
struct ProgressBar {
    let label: String
    let total: Int
    let enabled = isatty(STDERR_FILENO) == 1
    private var shown = -1
    init(_ label: String, total: Int) { self.label = label; self.total = max(1, total) }
    mutating func update(_ done: Int) {
        guard enabled else { return }
        let percent = done * 100 / total
        guard percent != shown else { return }
        shown = percent
        let width = 24, filled = percent * width / 100
        StandardError.write("\r\(label) [" + String(repeating: "█", count: filled) + String(repeating: " ", count: width - filled) + "] \(percent)%")
    }
    func finish() { if enabled && shown >= 0 { StandardError.write("\r\u{1B}[K") } }
}
