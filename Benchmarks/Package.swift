// swift-tools-version:6.1
import PackageDescription

// Benchmarks for workout-journal, kept out of the root package so `swift test` at the root (CI)
// builds neither GRDB nor package-benchmark. See BENCHMARKS.md at the repository root.
//
//   swift run -c release journal-bench all        # every ratio table of BENCHMARKS.md, in one run
//   BENCHMARK_DISABLE_JEMALLOC=true swift package benchmark   # the package-benchmark suite
let package = Package(
    name: "workout-journal-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "workout-journal", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "JournalBenchmarkSupport", package: "workout-journal"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(name: "journal-bench", dependencies: ["BenchSupport"]),
        .executableTarget(
            name: "JournalBenchmarks",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/JournalBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
