// libFuzzer target: the CSV importers (ExportReader.read, then ImportPlanner.plan, then recording every
// planned event) on arbitrary bytes, read as `journal import` reads a file (UTF-8, else Latin-1), with
// `--from auto` (detection, then the layout's reader) and one of strong, hevy, fitnotes, stronglifts.
// Built by Fuzz/run.sh as separate modules (JournalEvents, JournalModel, TrainingDomain, JournalProjections,
// JournalInterchange), each instrumented, linked with this file; Fuzz/TrainingDomainBundle.swift stands in
// for the resource bundle SwiftPM would generate.
//
// Any bytes must be read or refused with an InterchangeError naming the file and a line, never crash,
// hang or allocate without bound; whatever is read must hold finite, non-negative weights and reps on
// lines of the file; every event the importer plans must be accepted by the recording rules, in order
// (the CLI records the plan as one batch, so one refused event refuses the whole import).
import Foundation
import JournalEvents
import JournalInterchange
import JournalModel
import TrainingDomain

let fuzzFile = "fuzz.csv"

@_cdecl("LLVMFuzzerTestOneInput")
public func importerFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    guard let text = String(data: bytes, encoding: .utf8) ?? String(data: bytes, encoding: .isoLatin1) else { return 0 }
    let lineCount = 1 + text.reduce(0) { $0 + ($1.isNewline ? 1 : 0) }
    // Auto-detection reads every layout; one explicit `--from`, picked by the input's length, checks the app
    // named against the one detected (two reads per input instead of five: the same paths, faster).
    let explicit = ExportReader.Source.allCases.filter { $0 != .auto }[size % 4]
    for source in [ExportReader.Source.auto, explicit] {
        let parsed: ParsedExport
        do {
            parsed = try ExportReader.read(text: text, file: fuzzFile, source: source, defaultUnit: .kg)
        } catch {
            check(error.file == fuzzFile, "error names another file: \(error)")
            check(error.line.map { $0 >= 1 && $0 <= lineCount } ?? false, "error without a line of the file: \(error)")
            check(!error.problem.isEmpty && !error.advice.isEmpty, "error without a problem or advice: \(error)")
            continue
        }
        if source != .auto { check(parsed.layout.app == source.rawValue, "read as \(parsed.layout) for --from \(source)") }
        for workout in parsed.workouts {
            check(workout.firstLine >= 1 && workout.firstLine <= lineCount, "workout line \(workout.firstLine) outside the file")
            for set in workout.sets {
                check(set.weight.isFinite && set.weight >= 0, "weight \(set.weight) on line \(set.line)")
                check(set.reps >= 0, "reps \(set.reps) on line \(set.line)")
                check((set.seconds ?? 0).isFinite && (set.seconds ?? 0) >= 0, "seconds \(String(describing: set.seconds)) on line \(set.line)")
                check((set.kilometres ?? 0).isFinite && (set.kilometres ?? 0) >= 0, "km \(String(describing: set.kilometres)) on line \(set.line)")
                check(set.line >= 1 && set.line <= lineCount, "set line \(set.line) outside the file")
            }
        }
        for row in parsed.skipped { check(row.line >= 1 && row.line <= lineCount && !row.reason.isEmpty, "skipped \(row)") }
        let plan = ImportPlanner(matcher: FuzzState.matcher, offsetSeconds: 3600).plan(parsed, file: fuzzFile, existing: [])
        var rules = RecordingRules()
        for draft in plan.drafts {
            switch rules.prepare(draft, device: "fuzz") {
            case .success(let event): rules.apply(event)
            case .failure(let problem): check(false, "planned event refused: \(problem): \(JSONWriter.string(draft.jsonValue))")
            }
        }
        _ = plan.summary.text
        _ = JSONWriter.string(plan.summary.jsonValue)
    }
    return 0
}

/// `precondition`, with its message printed in an optimized build too (where `precondition` traps silently).
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    guard !condition() else { return }
    FileHandle.standardError.write(Data("importer fuzz: \(message())\n".utf8))
    abort()
}

enum FuzzState {
    static let matcher = NameMatcher(catalogue: .builtIn)
}

/// Loads the catalogue (a lazily made global) and runs one Strong export before fuzzing, so
/// LeakSanitizer does not blame the first input for what lives until exit.
@_cdecl("LLVMFuzzerInitialize")
public func importerFuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    let csv = Array("""
    Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
    2024-03-04 07:12:40,"Push A",1h 5m,"Bench Press (Barbell)",1,80.0,8,0,0,"","",8

    """.utf8)
    csv.withUnsafeBufferPointer { _ = importerFuzz($0.baseAddress!, $0.count) }
    return 0
}
