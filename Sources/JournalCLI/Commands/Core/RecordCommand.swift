import ArgumentParser
import WorkoutJournalSync
import Foundation
import JournalFile

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Append events to a journal, creating it when it does not exist.",
        discussion: """
        Reads one JSON object per line from standard input (or one from --event). Missing envelope keys \
        are filled in: seq (next), id (<device>-<counter>), at (now), v (the type's version). Each event \
        is acknowledged by printing its seq on its own line once it is durable (fsync), before the next \
        line is read. The first refused line stops the command with exit status 1; it and everything \
        after it are not written.

        With --batch (for scripts that pipe many events): events are acknowledged once per batch instead — \
        when --batch-lines events have been read, when --batch-ms milliseconds have passed since the batch's \
        first event was read, and at the end of the input — by printing the seqs of the whole batch once it is \
        durable: one write and one sync per batch, in sealed frames (FORMAT.md §5 "Batches"). Every event is \
        still checked against every recording rule. A refused line (not JSON, or breaking a rule) refuses its \
        whole batch: nothing of that batch is written, every seq printed before it is durable, and the command \
        stops with exit status 1, naming the line and the batch's lines.
        """
    )

    @Argument(help: "The journal file.") var file: String
    @Option(help: "Device tag for the ids this writer assigns (1–16 of a-z, 0-9, _).") var device: String = "cli"
    @Option(help: "One event as JSON, instead of standard input.") var event: String?
    @Flag(help: "Accept event types this version does not know (written by a newer app).") var allowUnknownTypes = false
    @Flag(help: "Acknowledge standard input once per batch, not once per event (see below).") var batch = false
    @Option(help: "With --batch: events per batch at most.")
    var batchLines: Int = BatchRecorder.Policy.standard.lines
    @Option(help: "With --batch: longest wait in milliseconds, from a batch's first event, before it is recorded.")
    var batchMs: Int64 = BatchRecorder.Policy.standard.milliseconds

    func validate() throws {
        if batch && event != nil { throw ValidationError("--batch reads standard input; it cannot be used with --event") }
        if batchLines < 1 { throw ValidationError("--batch-lines \(batchLines) must be at least 1") }
        if batchMs < 0 { throw ValidationError("--batch-ms \(batchMs) must be 0 or more") }
    }

    func run() throws {
        try reportingFailures {
            var options = Journal.recordingOptions
            options.allowUnknownTypes = allowUnknownTypes
            let journal = try EventJournal(path: file, device: device, options: options, clock: SystemClock.now)
            // A journal this command created stays only if it received an event.
            defer { journal.closeDiscardingIfEmpty() }
            if let tornTail = journal.recovery.tornTail {
                // The reason says what the bytes were: a frame cut short is an append that never finished; a
                // complete frame with the wrong CRC may also be decay on the disk (FORMAT.md §8), whose events
                // `journal cat` still prints from the kept bytes when only the checksum frame decayed.
                let kept = journal.recovery.quarantinePath ?? "?"
                printError("\(file): repaired a torn tail at byte \(tornTail.offset): its \(tornTail.length) bytes are kept in \(kept) (\(tornTail.reason)); `journal cat \(kept)` prints any events still readable in them")
            }
            if let event {
                try append(event, line: nil, to: journal)
                return
            }
            if batch {
                try recordBatches(to: journal)
                return
            }
            var lineNumber = 0
            // Raw bytes, not readLine(): it would replace invalid UTF-8 with U+FFFD and store
            // something the user never sent. The parser refuses invalid UTF-8 with its offset.
            let reader = StandardInput.LineReader()
            while case .line(let line) = reader.next(waiting: nil) {
                lineNumber += 1
                if StandardInput.isBlank(line) { continue }
                try append(line, line: lineNumber, to: journal)
            }
        }
    }

    /// `--batch`: lines go to a `BatchRecorder`, which records a batch when it is full; while a batch waits, reading
    /// waits at most until the batch is due.
    func recordBatches(to journal: EventJournal) throws {
        let recorder = BatchRecorder(journal: journal, policy: BatchRecorder.Policy(lines: batchLines, milliseconds: batchMs))
        let reader = StandardInput.LineReader()
        var lineNumber = 0
        func acknowledge(_ events: [Event]) {
            guard !events.isEmpty else { return }
            print(events.map { String($0.seq) }.joined(separator: "\n"))
            Output.flushPrinted()
        }
        do {
            reading: while true {
                switch reader.next(waiting: recorder.millisecondsUntilDue(now: StandardInput.monotonicMilliseconds())) {
                case .end:
                    break reading
                case .timedOut:
                    acknowledge(try recorder.flushIfDue(now: StandardInput.monotonicMilliseconds()))
                case .line(let bytes):
                    lineNumber += 1
                    if StandardInput.isBlank(bytes) { continue }
                    acknowledge(try recorder.add(line: bytes, line: lineNumber, now: StandardInput.monotonicMilliseconds()))
                }
            }
            acknowledge(try recorder.flush())
        } catch {
            throw Failure(message: error.description)
        }
    }

    func append(_ text: String, line: Int?, to journal: EventJournal) throws {
        try append(Array(text.utf8), line: line, to: journal)
    }

    func append(_ bytes: [UInt8], line: Int?, to journal: EventJournal) throws {
        let draft: JSONValue
        do {
            draft = try JSONParser.parse(bytes)
        } catch {
            let place = line.map { "input line \($0)" } ?? "--event"
            throw Failure(message: "\(file): \(place) is not JSON: \(error); nothing was written")
        }
        let stored = try journal.record(draft, inputLine: line, sealNow: false)
        print(stored.seq)
        Output.flushPrinted()
        // Acknowledged above; a due seal (recompressing the tail) runs after, off the acknowledgement path.
        journal.sealIfDue()
    }
}
