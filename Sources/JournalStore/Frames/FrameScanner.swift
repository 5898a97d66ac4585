#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a frame sits in the file and what it holds.
public struct FrameInfo: Equatable, Sendable {
    public var offset: Int
    public var compressedSize: Int
    /// Lines in the frame (0 for a skippable frame).
    public var recordCount: Int
    public var contentSize: Int
    public var isSkippable: Bool
}

/// Bytes that do not decode. A torn tail runs to the end of the file with no valid frame after
/// it ("the writer died": repaired on the next open); anything else is damage in the middle.
public struct Damage: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable { case tornTail = "torn tail", corrupt = "damage" }
    public var kind: Kind
    public var offset: Int
    public var length: Int
    public var reason: String
    public init(kind: Kind, offset: Int, length: Int, reason: String) {
        self.kind = kind
        self.offset = offset
        self.length = length
        self.reason = reason
    }
    public var description: String { "\(kind.rawValue) at byte \(offset) (\(length) bytes): \(reason)" }
}

/// Where a record (one line) came from.
public struct RecordLocation: Equatable, Sendable {
    /// Byte offset of the frame holding the line.
    public var frameOffset: Int
    /// 1-based index of the frame in the file.
    public var frameIndex: Int
    /// 1-based index of the line in the journal.
    public var lineNumber: Int
}

/// What a scan saw: counts, sizes, and every damaged range.
public struct ScanReport: Equatable, Sendable {
    public var fileSize = 0
    public var frames = 0
    public var skippableFrames = 0
    public var records = 0
    public var plainBytes = 0
    /// Where the last valid frame ends.
    public var validEnd = 0
    public var damage: [Damage] = []
    /// Trailing frames holding exactly one record: the unsealed tail (FORMAT.md §"Sealing").
    public var tailRun: [FrameInfo] = []
    /// The frame just before `tailRun`, if any.
    public var lastSealedFrame: FrameInfo?

    public init() {}

    public var tornTail: Damage? { damage.last.flatMap { $0.kind == .tornTail ? $0 : nil } }
    public var corruption: [Damage] { damage.filter { $0.kind == .corrupt } }
    public var isClean: Bool { damage.isEmpty }
}

/// Random access to bytes: a file, or a file seen through a pending seal.
public protocol ByteSource {
    func size() throws(StoreError) -> Int
    func read(at offset: Int, count: Int) throws(StoreError) -> [UInt8]
}

struct FileSource: ByteSource {
    let file: any StorageFile
    func size() throws(StoreError) -> Int { try file.size() }
    func read(at offset: Int, count: Int) throws(StoreError) -> [UInt8] { try file.read(at: offset, count: count) }
}

/// Reads a journal frame by frame, in bounded memory, and hands each line to a callback.
/// FORMAT.md §"Reading" is this algorithm.
public struct FrameScanner {
    static let windowSize = 1 << 20

    let source: any ByteSource
    let zstd: Zstd
    var window: [UInt8] = []
    var windowStart = 0
    let fileSize: Int

    public init(source: any ByteSource, zstd: Zstd) throws(StoreError) {
        self.source = source
        self.zstd = zstd
        fileSize = try source.size()
    }

    /// Makes the window cover [offset, offset + count) as far as the file allows.
    mutating func ensure(_ offset: Int, _ count: Int) throws(StoreError) {
        let end = min(offset + count, fileSize)
        if offset >= windowStart && end <= windowStart + window.count { return }
        // Never more than the file holds: a small journal costs a small buffer.
        window = try source.read(at: offset, count: min(max(count, FrameScanner.windowSize), max(fileSize - offset, count)))
        windowStart = offset
    }

    enum Attempt {
        case frame(FrameInfo, contentOK: Bool)
        case failed(Zstd.FrameProblem)
    }

    /// Tries to read the frame at `offset`; calls `body` with its content when it decodes.
    mutating func attempt(at offset: Int, body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Attempt {
        var want = 64 << 10
        while true {
            try ensure(offset, want)
            let available = min(windowStart + window.count, fileSize) - offset
            let sized: Result<Int, Zstd.FrameProblem> = window.withUnsafeBytes { raw in
                Zstd.frameSize(UnsafeRawBufferPointer(rebasing: raw[(offset - windowStart)..<(offset - windowStart + available)]))
            }
            switch sized {
            case .failure(.incomplete(let needed)):
                if offset + available >= fileSize { return .failed(.incomplete(needed: needed)) }
                want = available * 2
                continue
            case .failure(let problem):
                return .failed(problem)
            case .success(let size):
                let skippable = window.withUnsafeBytes { raw in Zstd.isSkippable(UnsafeRawBufferPointer(rebasing: raw[(offset - windowStart)...])) }
                if skippable {
                    return .frame(FrameInfo(offset: offset, compressedSize: size, recordCount: 0, contentSize: 0, isSkippable: true), contentOK: true)
                }
                let decoded: Result<UnsafeBufferPointer<UInt8>, Zstd.FrameProblem> = window.withUnsafeBytes { raw in
                    zstd.decompressFrame(UnsafeRawBufferPointer(rebasing: raw[(offset - windowStart)..<(offset - windowStart + size)]))
                }
                switch decoded {
                case .failure(let problem): return .failed(problem)
                case .success(let content):
                    guard content.count > 0, content[content.count - 1] == 0x0A else {
                        return .failed(.corrupt(content.isEmpty ? "frame is empty" : "frame content does not end with a newline"))
                    }
                    let lines = FrameScanner.countLines(content)
                    try body(content)
                    return .frame(FrameInfo(offset: offset, compressedSize: size, recordCount: lines, contentSize: content.count, isSkippable: false), contentOK: true)
                }
            }
        }
    }

    /// The first offset after `offset` where a complete, valid frame starts, if any.
    mutating func resync(after offset: Int) throws -> Int? {
        var candidate = offset + 1
        while candidate + 4 <= fileSize {
            try ensure(candidate, 4)
            // Find the next magic within the window.
            let localStart = candidate - windowStart
            let found: Int? = window.withUnsafeBufferPointer { buffer in
                var index = localStart
                while index + 4 <= buffer.count {
                    if buffer[index] == 0x28 && buffer[index + 1] == 0xB5 && buffer[index + 2] == 0x2F && buffer[index + 3] == 0xFD {
                        return index
                    }
                    index += 1
                }
                return nil
            }
            guard let local = found else {
                candidate = windowStart + max(window.count - 3, localStart + 1)
                if windowStart + window.count >= fileSize { return nil }
                continue
            }
            let absolute = windowStart + local
            if case .frame = try attempt(at: absolute, body: { _ in }) { return absolute }
            candidate = absolute + 1
        }
        return nil
    }

    /// The number of newlines in `content`.
    static func countLines(_ content: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = content.baseAddress else { return 0 }
        let end = base + content.count
        var start = base
        var lines = 0
        while start < end, let found = memchr(start, 0x0A, end - start) {
            lines += 1
            start = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return lines
    }

    /// Scans the whole source. `onRecord` gets each line without its newline.
    public mutating func scan(onRecord: (UnsafeBufferPointer<UInt8>, RecordLocation) throws -> Void) throws -> ScanReport {
        try scan(from: 0, linesBefore: 0, onFrame: { _ in }, onRecord: onRecord)
    }

    /// Scans from `start` (a frame boundary) to the end. `linesBefore` is the number of lines
    /// before `start`, so line numbers stay those of the whole journal; `onFrame` hears the offset
    /// of each frame before its lines. Counts in the report cover the scanned part only.
    public mutating func scan(from start: Int, linesBefore: Int, onFrame: (Int) throws -> Void,
                              onRecord: (UnsafeBufferPointer<UInt8>, RecordLocation) throws -> Void) throws -> ScanReport {
        var report = ScanReport()
        report.fileSize = fileSize
        report.validEnd = start
        var offset = start
        var lineNumber = linesBefore
        while offset < fileSize {
            let frameIndex = report.frames + 1
            let frameOffset = offset
            try onFrame(frameOffset)
            let attempted = try attempt(at: offset) { content in
                // memchr finds each newline (the content is known to end with one).
                guard let base = content.baseAddress else { return }
                let end = base + content.count
                var start = base
                while start < end {
                    guard let found = memchr(start, 0x0A, end - start) else { break }
                    let newline = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                    lineNumber += 1
                    try onRecord(UnsafeBufferPointer(start: start, count: newline - start),
                                 RecordLocation(frameOffset: frameOffset, frameIndex: frameIndex, lineNumber: lineNumber))
                    start = newline + 1
                }
            }
            switch attempted {
            case .frame(let info, _):
                report.frames += 1
                if info.isSkippable { report.skippableFrames += 1 }
                report.records += info.recordCount
                report.plainBytes += info.contentSize
                if info.recordCount == 1 {
                    report.tailRun.append(info)
                } else {
                    report.lastSealedFrame = info.isSkippable ? nil : info
                    report.tailRun = []
                }
                offset += info.compressedSize
                report.validEnd = offset
            case .failed(let problem):
                let reason: String
                switch problem {
                case .incomplete(let needed): reason = "the file ends before \(needed) (a write that never finished)"
                case .corrupt(let why): reason = why
                }
                if let next = try resync(after: offset) {
                    report.damage.append(Damage(kind: .corrupt, offset: offset, length: next - offset, reason: reason))
                    offset = next
                    report.tailRun = []
                    report.lastSealedFrame = nil
                } else {
                    report.damage.append(Damage(kind: .tornTail, offset: offset, length: fileSize - offset, reason: reason))
                    offset = fileSize
                }
            }
        }
        // A tail run is only meaningful when it ends the file cleanly.
        if !report.corruption.isEmpty { report.tailRun = [] }
        if let first = report.tailRun.first, report.lastSealedFrame.map({ $0.offset + $0.compressedSize != first.offset }) ?? false {
            report.lastSealedFrame = nil
        }
        return report
    }
}
