// libFuzzer target: the frame reader (FrameScanner through JournalReader) on arbitrary bytes.
// Linked by Fuzz/run.sh with the instrumented JournalStore module.
// Any bytes must give a report (frames, records, damage) and never crash, hang or allocate
// without bound; every record handed out must be a whole line of an intact frame (or, when
// rescuing as `journal salvage` does, of a rescued frame inside a damaged range).

import JournalStore

@_cdecl("LLVMFuzzerTestOneInput")
public func frameReaderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let storage = MemoryStorage()
    storage.setContents(of: "fuzz", to: bytes)
    var records = 0
    var recordBytes = 0
    do {
        let report = try JournalReader.read(path: "fuzz", storage: storage) { line, _ in
            precondition(!line.contains(0x0A), "a record holds a newline")
            records += 1
            recordBytes += line.count + 1
        }
        precondition(report.records == records, "report counts \(report.records) records, callback saw \(records)")
        precondition(report.plainBytes == recordBytes, "plain bytes disagree")
        precondition(report.validEnd <= size, "valid end beyond the file")
        var covered = 0
        for damage in report.damage {
            precondition(damage.offset >= covered && damage.length > 0 && damage.offset + damage.length <= size, "damage out of bounds")
            covered = damage.offset + damage.length
        }
        // Salvage's reading: the same damage, and the rescued frames' lines on top of the others, each
        // rescued frame at the start of a damaged range and inside it.
        var rescuedRecords = 0
        let rescuing = try JournalReader.read(path: "fuzz", storage: storage, rescuingFrames: true) { line, _ in
            precondition(!line.contains(0x0A), "a rescued record holds a newline")
            rescuedRecords += 1
        }
        precondition(rescuing.damage == report.damage, "rescuing changed the damage reported")
        precondition(rescuedRecords == records + rescuing.rescued.reduce(0) { $0 + $1.frame.recordCount }, "rescued records miscounted")
        for rescued in rescuing.rescued {
            let damage = report.damage.first { $0.offset == rescued.frame.offset }
            precondition(damage.map { rescued.frame.end <= $0.offset + $0.length } ?? false, "a rescued frame outside its damage")
        }
    } catch {
        preconditionFailure("the reader threw on in-memory bytes: \(error)")
    }
    // Opening for writing must repair or refuse, never crash.
    if let writer = try? JournalWriter(path: "fuzz", storage: storage) {
        writer.close()
        let (_, after) = try! JournalReader.records(path: "fuzz", storage: storage)
        precondition(after.isClean, "a journal the writer opened is not clean: \(after.damage)")
    }
    return 0
}

/// Builds lazily made globals once before fuzzing, so LeakSanitizer does not blame the first input.
@_cdecl("LLVMFuzzerInitialize")
public func frameReaderFuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    let frame = Zstd().compressFrame(Array("{\"n\":1}\n".utf8), level: 3)
    frame.withUnsafeBufferPointer { _ = frameReaderFuzz($0.baseAddress!, $0.count) }
    return 0
}
