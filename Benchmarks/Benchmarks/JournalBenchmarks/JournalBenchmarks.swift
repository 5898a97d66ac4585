// The package-benchmark suite (`swift package benchmark` in Benchmarks/): the same work as
// journal-bench, measured with package-benchmark's metrics (wall clock, throughput, mallocs,
// peak memory). Ratios between stores are in BENCHMARKS.md, from journal-bench's single run.
import Benchmark
import BenchSupport
import JournalFile
import Foundation
import JournalEvents

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 50
    )

    // Fixtures are made (once, cached under .build/fixtures) before any benchmark runs.
    let fiveYears = try! Fixtures.recorded(weeks: 260)
    let lines = try! Fixtures.lines(fiveYears)
    let database = try! SQLitePeer.imported(from: fiveYears)

    Benchmark("Replay 5 years (ours: decompress, decode, fold)", configuration: .init(scalingFactor: .one)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try OurReplay.replay(fiveYears)) }
    }

    Benchmark("Replay 5 years (floor: read and decompress only)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try OurReplay.decompressOnly(fiveYears)) }
    }

    Benchmark("Replay 5 years (Foundation JSONDecoder + same fold)", configuration: .init(maxIterations: 5)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try FoundationReplay.replay(fiveYears)) }
    }

    Benchmark("Decode 5 years of lines (ours)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try OurReplay.decode(lines)) }
    }

    Benchmark("Decode 5 years of lines (Foundation JSONDecoder)", configuration: .init(maxIterations: 5)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try FoundationReplay.decode(lines)) }
    }

    Benchmark("Home page, 5 years (ours: full replay)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try OurReplay.home(fiveYears)) }
    }

    Benchmark("Home page, 5 years (SQLite)") { benchmark in
        let peer = try SQLitePeer(path: database)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try peer.home()) }
        benchmark.stopMeasurement()
        try peer.close()
    }

    Benchmark("Exercise history, 5 years (SQLite)") { benchmark in
        let peer = try SQLitePeer(path: database)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try peer.history(exercise: "barbell-bench-press")) }
        benchmark.stopMeasurement()
        try peer.close()
    }
}
