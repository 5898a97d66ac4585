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
    /// Bytes of the checksum frame after it (`Layout.checksumFrameSize` in version 2, else 0).
    public var checksumSize = 0
    /// Where the frame and its checksum frame end: the next frame's offset.
    public var end: Int { offset + compressedSize + checksumSize }
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
    /// The file format version (FORMAT.md §"Grammar"); `.v2` for an empty file.
    public var version: Layout.Version = .v2
    public var fileSize = 0
    public var frames = 0
    public var skippableFrames = 0
    public var records = 0
    public var plainBytes = 0
    /// Where the last valid frame (with its checksum frame) ends: the end of the data.
    public var validEnd = 0
    /// Bytes of the padding frame that ends the file (0 when there is none).
    public var paddingBytes = 0
    public var damage: [Damage] = []
    /// Trailing frames holding exactly one record: the unsealed tail (FORMAT.md §"Sealing").
    public var tailRun: [FrameInfo] = []
    /// The frame just before `tailRun`, if any.
    public var lastSealedFrame: FrameInfo?
    /// Where the **sealed part** of the journal ends (FORMAT.md §"Sealing"): the end of the last
    /// data frame (with its checksum frame) that holds two or more lines and has only valid frames
    /// before it, or the end of the header (16 in version 2, 0 in version 1) when there is none.
    /// No writer ever changes a byte before it (erasure, FORMAT.md §"Erasure", excepted).
    public var sealedEnd = 0
    /// Damaged data frames whose lines were handed out all the same (only when the scanner
    /// `rescuesFrames`, as `journal salvage` does): each is also in `damage`.
    public var rescued: [RescuedFrame] = []

    public init() {}

    public var tornTail: Damage? { damage.last.flatMap { $0.kind == .tornTail ? $0 : nil } }
    public var corruption: [Damage] { damage.filter { $0.kind == .corrupt } }
    public var isClean: Bool { damage.isEmpty }
}

/// A version-2 data frame that failed its check but whose content zstd's own content checksum
/// (XXH64, which every journal frame carries) still verifies: its checksum frame is what was
/// damaged, or the damage hit bits zstd's decoder does not read. Its lines are what was written.
public struct RescuedFrame: Equatable, Sendable {
    /// The data frame and its (damaged) checksum frame.
    public var frame: FrameInfo
    /// True when the frame with its checksum frame is the whole damaged range, or is followed in
    /// it only by a valid padding frame: the damage held nothing else.
    public var coversDamage: Bool
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
    /// Bytes read from the source at a time, unless a frame needs more.
    public static let defaultWindowSize = 1 << 20

    let source: any ByteSource
    let zstd: Zstd
    let windowSize: Int
    var window: [UInt8] = []
    var windowStart = 0
    let fileSize: Int
    /// The file's format version, from its first bytes.
    public let version: Layout.Version
    /// Where the first data frame may start: after the header of a version-2 journal.
    let dataStart: Int
    /// Why the first bytes are not a valid header or data frame, if they are not.
    let headerProblem: Zstd.FrameProblem?
    /// Hand out the lines of damaged frames that can be rescued (`RescuedFrame`): for `journal
    /// salvage`, never for reading a journal to append to it or to verify it.
    public var rescuesFrames = false

    /// `windowSize` bounds each read from `source` (a frame larger than it is still read whole);
    /// a caller that scans a single frame of a large source passes a small one.
    public init(source: any ByteSource, zstd: Zstd, windowSize: Int = FrameScanner.defaultWindowSize) throws(StoreError) {
        self.source = source
        self.zstd = zstd
        self.windowSize = max(windowSize, 4)
        fileSize = try source.size()
        let head = try source.read(at: 0, count: min(fileSize, Layout.headerSize))
        (version, dataStart, headerProblem) = FrameScanner.identify(head, fileSize: fileSize)
    }

    /// The format of a file that starts with `head` (its first 16 bytes, fewer in a smaller file):
    /// version 2 when it is the header (or a header cut short, or a header with at most 4 bytes
    /// damaged), version 1 when it starts with a zstd frame or is anything else.
    static func identify(_ head: [UInt8], fileSize: Int) -> (version: Layout.Version, dataStart: Int, problem: Zstd.FrameProblem?) {
        if fileSize == 0 { return (.v2, 0, nil) }
        if head == Layout.header { return (.v2, Layout.headerSize, nil) }
        if head.starts(with: Zstd.frameMagic) { return (.v1, 0, nil) }
        if Layout.header.starts(with: head) {
            return (.v2, 0, .incomplete(needed: "the rest of the 16-byte journal header"))
        }
        let matching = zip(head, Layout.header).filter { $0 == $1 }.count
        // Anything else is a version-1 journal whose first frame is damaged: the scan reports it.
        guard head.count == Layout.headerSize, matching >= 12 else { return (.v1, 0, nil) }
        if head[0..<12] == Layout.header[0..<12] {
            let found = head[12..<16].withUnsafeBytes { Layout.loadU32($0, 0) }
            // Only version 2 has a header: a header naming 0 or 1 is damage, not a journal this build cannot read.
            return (.v2, 0, .corrupt(found < 2
                ? "the journal header names format version \(found), but only version 2 has a header (a version-1 journal starts with a zstd frame)"
                : "the journal header names format version \(found); this build reads versions 1 and 2 (a newer journal needs a newer build)"))
        }
        return (.v2, 0, .corrupt("the 16-byte journal header is damaged (found \(hex(head)), expected \(hex(Layout.header)))"))
    }

    /// Makes the window cover [offset, offset + count) as far as the file allows.
    mutating func ensure(_ offset: Int, _ count: Int) throws(StoreError) {
        let end = min(offset + count, fileSize)
        if offset >= windowStart && end <= windowStart + window.count { return }
        // Never more than the file holds: a small journal costs a small buffer.
        window = try source.read(at: offset, count: min(max(count, windowSize), max(fileSize - offset, count)))
        windowStart = offset
    }

    enum Attempt {
        case frame(FrameInfo)
        /// A valid padding frame of this many bytes, ending the file.
        case padding(Int)
        case failed(Zstd.FrameProblem)
    }

    /// Tries to read the frame at `offset` (in version 2: the data frame and its checksum frame, or
    /// the padding); calls `body` with its content when it is valid.
    mutating func attempt(at offset: Int, body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Attempt {
        var want = min(64 << 10, windowSize)
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
                let magic = window.withUnsafeBytes { Layout.loadU32($0, offset - windowStart) }
                var checksumSize = 0
                if version == .v2 {
                    if magic == Layout.paddingMagic { return padding(at: offset, size: size) }
                    guard magic == Zstd.dataMagic else {
                        return .failed(.corrupt("a skippable frame (magic 0x\(String(magic, radix: 16, uppercase: true))) where a data frame should start"))
                    }
                    checksumSize = Layout.checksumFrameSize
                    if offset + size + checksumSize > fileSize {
                        return .failed(.incomplete(needed: "the checksum frame after the frame"))
                    }
                    try ensure(offset, size + checksumSize)
                    if let problem = checkChecksum(frameAt: offset, size: size) { return .failed(problem) }
                } else if Zstd.isSkippable(magic) {
                    return .frame(FrameInfo(offset: offset, compressedSize: size, recordCount: 0, contentSize: 0, isSkippable: true))
                }
                return try decode(frameAt: offset, size: size, checksumSize: checksumSize, body: body)
            }
        }
    }

    /// Decompresses the data frame of `size` bytes at `offset` (in the window), which zstd checks
    /// against its content checksum; calls `body` with its content when that is whole lines.
    mutating func decode(frameAt offset: Int, size: Int, checksumSize: Int, body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Attempt {
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
            return .frame(FrameInfo(offset: offset, compressedSize: size, recordCount: lines, contentSize: content.count,
                                    isSkippable: false, checksumSize: checksumSize))
        }
    }

    /// Checks the checksum frame after the data frame of `size` bytes at `offset` (both in the window).
    func checkChecksum(frameAt offset: Int, size: Int) -> Zstd.FrameProblem? {
        window.withUnsafeBytes { raw in
            let local = offset - windowStart
            let checksum = UnsafeRawBufferPointer(rebasing: raw[(local + size)..<(local + size + Layout.checksumFrameSize)])
            guard Layout.loadU32(checksum, 0) == Layout.checksumMagic, Layout.loadU32(checksum, 4) == 4 else {
                return .corrupt("the frame is not followed by its checksum frame (found \(hex(checksum.prefix(8))))")
            }
            let computed = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[local..<(local + size)]))
            let stored = Layout.loadU32(checksum, 8)
            guard computed == stored else {
                return .corrupt("the frame's \(size) bytes have CRC-32C \(hex32(computed)) but its checksum frame holds \(hex32(stored))")
            }
            return nil
        }
    }

    /// A padding frame of `size` bytes at `offset` (in the window) is valid when it ends the file
    /// and its payload is all zeros.
    func padding(at offset: Int, size: Int) -> Attempt {
        guard offset + size == fileSize else {
            return .failed(.corrupt("a padding frame that ends at byte \(offset + size), not at the end of the file (\(fileSize))"))
        }
        let local = offset - windowStart
        let nonZero: Int? = window.withUnsafeBufferPointer { buffer in
            var index = local + Layout.paddingHeaderSize
            let end = local + size
            // Eight bytes at a time, then the byte that is not zero.
            while index + 8 <= end, UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self) == 0 { index += 8 }
            while index < end, buffer[index] == 0 { index += 1 }
            return index < end ? index : nil
        }
        if let nonZero {
            return .failed(.corrupt("padding byte \(windowStart + nonZero) is 0x\(hex([window[nonZero]])), not zero"))
        }
        return .padding(size)
    }

    /// The version-2 data frame at `offset` that failed its check, when it can be rescued: zstd
    /// decodes it with its content checksum verified, it ends in a newline, and all 12 bytes of its
    /// checksum frame lie before `limit` (the next valid frame, or the end of the file). A frame cut
    /// short is never rescued. Calls `body` with its content.
    mutating func rescue(at offset: Int, before limit: Int, body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> RescuedFrame? {
        guard version == .v2, offset > 0 || headerProblem == nil, limit - offset > 4 + Layout.checksumFrameSize else { return nil }
        try ensure(offset, limit - offset)
        let local = offset - windowStart
        let available = min(windowStart + window.count, limit) - offset
        guard window.withUnsafeBytes({ Layout.loadU32($0, local) }) == Zstd.dataMagic,
              case .success(let size) = window.withUnsafeBytes({ Zstd.frameSize(UnsafeRawBufferPointer(rebasing: $0[local..<(local + available)])) }),
              size + Layout.checksumFrameSize <= available,
              case .frame(let info) = try decode(frameAt: offset, size: size, checksumSize: Layout.checksumFrameSize, body: body)
        else { return nil }
        var covers = info.end == limit
        if !covers, limit == fileSize, case .padding = try attempt(at: info.end, body: { _ in }) { covers = true }
        return RescuedFrame(frame: info, coversDamage: covers)
    }

    /// The first offset after `offset` where a complete, valid frame starts, if any.
    mutating func resync(after offset: Int) throws -> Int? {
        var candidate = offset + 1
        while candidate + 4 <= fileSize {
            try ensure(candidate, 4)
            // Find the next magic within the window.
            let localStart = candidate - windowStart
            let found: Int? = window.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return nil }
                var index = localStart
                while index + 4 <= buffer.count {
                    // memchr for the magic's first byte: resync crosses long runs (padding zeros) quickly.
                    guard let hit = memchr(base + index, 0x28, buffer.count - 3 - index) else { return nil }
                    index = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
                    if buffer[index + 1] == 0xB5 && buffer[index + 2] == 0x2F && buffer[index + 3] == 0xFD {
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

    /// Scans from `start` (a frame boundary) to the end, or to the first frame boundary at or after
    /// `until`. `linesBefore` is the number of lines before `start`, so line numbers stay those of
    /// the whole journal; `onFrame` hears the offset of each frame before its lines. Counts in the
    /// report cover the scanned part only, and `validEnd` says where the scan stopped when it
    /// stopped clean. What the scan of a range finds is what a scan of the whole file finds there:
    /// the reading of a frame depends on its own bytes only (and, for the padding, on the file's
    /// size), and a damaged range ends at the next valid frame whatever came before it.
    public mutating func scan(from start: Int, linesBefore: Int, until: Int = .max, onFrame: (Int) throws -> Void,
                              onRecord: (UnsafeBufferPointer<UInt8>, RecordLocation) throws -> Void) throws -> ScanReport {
        var report = ScanReport()
        report.version = version
        report.fileSize = fileSize
        report.validEnd = start
        var offset = start
        var lineNumber = linesBefore
        if start == 0 && dataStart > 0 {
            report.skippableFrames += 1
            offset = dataStart
            report.validEnd = dataStart
        }
        report.sealedEnd = report.validEnd
        while offset < fileSize && offset < until {
            let frameIndex = report.frames + 1
            let frameOffset = offset
            try onFrame(frameOffset)
            // Hands out the lines of `content`, a frame's, in order.
            func handOut(_ content: UnsafeBufferPointer<UInt8>) throws {
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
            let attempted: Attempt
            if offset == 0, let headerProblem {
                attempted = .failed(headerProblem)
            } else {
                attempted = try attempt(at: offset, body: handOut)
            }
            switch attempted {
            case .padding(let size):
                report.skippableFrames += 1
                report.paddingBytes = size
                offset += size
            case .frame(let info):
                // `frames` counts data frames: a skipped skippable frame of version 1 is not one (FORMAT.md §17).
                if !info.isSkippable { report.frames += 1 }
                if info.isSkippable || info.checksumSize > 0 { report.skippableFrames += 1 }
                report.records += info.recordCount
                report.plainBytes += info.contentSize
                if info.recordCount == 1 {
                    report.tailRun.append(info)
                } else {
                    if report.damage.isEmpty && !info.isSkippable { report.sealedEnd = info.end }
                    report.lastSealedFrame = info.isSkippable ? nil : info
                    report.tailRun = []
                }
                offset = info.end
                report.validEnd = offset
            case .failed(let problem):
                let reason: String
                switch problem {
                case .incomplete(let needed): reason = "the file ends before \(needed) (a write that never finished)"
                case .corrupt(let why): reason = why
                }
                let next = try resync(after: offset)
                if rescuesFrames, case .corrupt = problem,
                   let rescued = try rescue(at: offset, before: next ?? fileSize, body: handOut) {
                    report.rescued.append(rescued)
                    report.records += rescued.frame.recordCount
                    report.plainBytes += rescued.frame.contentSize
                }
                if let next {
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
        if let first = report.tailRun.first, report.lastSealedFrame.map({ $0.end != first.offset }) ?? false {
            report.lastSealedFrame = nil
        }
        return report
    }
}
