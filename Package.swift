// swift-tools-version:6.0
import PackageDescription

// Layers, bottom to top (see README.md "Layout"):
//   CZstd (libzstd) → JournalStore (bytes, frames, recovery, locking)
//   → JournalEvents (vocabulary, validation, JSON codec) → JournalModel (the one fold: Ledger, units, set kinds)
//   → JournalFile (a user's journal file: store + events; its writer is the type EventJournal) → TrainingDomain (catalogue, programmes, progression, plates)
//   → JournalProjections (screens as folds) → JournalInterchange (imports, exports, charts, report)
//   → WorkoutJournal (facade for apps; no networking)
//   → WorkoutJournalSync (the facade's sync, over JournalSync's HTTP client) → journal (the CLI).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// libzstd: on Linux the system library (Debian's libzstd-dev, through CZstd); on Apple platforms, whose SDKs ship no
// zstd header, zstd's own Swift package (github.com/facebook/zstd, product libzstd), compiled into the app. The
// manifest runs on the machine that builds, and iOS and watchOS apps build on a Mac, so the host decides (README,
// "Apple platforms").
#if os(Linux)
let zstdPackages: [Package.Dependency] = []
let zstd: Target.Dependency = "CZstd"
#else
let zstdPackages: [Package.Dependency] = [.package(url: "https://github.com/facebook/zstd", from: "1.5.6")]
let zstd: Target.Dependency = .product(name: "libzstd", package: "zstd")
#endif

let package = Package(
    name: "workout-journal",
    platforms: [.macOS(.v14), .iOS(.v17), .watchOS(.v10)],
    products: [
        .executable(name: "journal", targets: ["JournalCLI"]),
        // The device library: a user's journal and every screen. Opens no socket (ProductLayeringTests).
        .library(name: "WorkoutJournal", targets: ["WorkoutJournal"]),
        // Sync and backup with journal-server, for apps that sync (SYNC.md): brings the HTTP client.
        .library(name: "WorkoutJournalSync", targets: ["WorkoutJournalSync"]),
        // The sync and backup server (SYNC.md).
        .executable(name: "journal-server", targets: ["JournalServerCLI"]),
        // The load generator (SCALE.md).
        .executable(name: "journal-load", targets: ["JournalLoadCLI"]),
        // For Benchmarks/ (a separate package): the reader, the projections and the simulator's bulk writer.
        .library(name: "JournalBenchmarkSupport", targets: ["JournalFile", "JournalSimulator", "JournalModel", "JournalProjections", "WorkoutJournal"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // journal-server only (SYNC.md); the core targets do not depend on these.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // journal-server only: SHA-256 of bearer tokens before any query (already under postgres-nio).
        .package(url: "https://github.com/apple/swift-crypto", "3.9.0" ..< "6.0.0"),
        // journal-server only: sign-in with the app's own JWTs (SYNC.md §"Signing in with the app's own auth"). Its
        // dependencies (swift-crypto, swift-certificates, swift-log) are already under postgres-nio and swift-nio-ssl.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // JournalSync on Linux: the sync client's HTTP, with TLS (SYNC.md §"HTTP on Linux": URLSession there keeps a
        // core busy while it waits). Already under the server's tests (HummingbirdTesting).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // journal-load only (SCALE.md): latency percentiles.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // journal-load only (SCALE.md): its devices' HTTP/1.1 connections (already under Hummingbird and postgres-nio).
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    ] + zstdPackages,
    targets: [
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .target(name: "JournalStore", dependencies: [zstd], swiftSettings: swiftSettings),
        .target(name: "JournalEvents", swiftSettings: swiftSettings),
        .target(name: "JournalModel", dependencies: ["JournalEvents"], swiftSettings: swiftSettings),
        .target(name: "JournalFile", dependencies: ["JournalStore", "JournalEvents", "JournalModel"], swiftSettings: swiftSettings),
        .target(name: "TrainingDomain", dependencies: ["JournalEvents", "JournalModel"],
                resources: [.copy("Data")], swiftSettings: swiftSettings),
        .target(name: "JournalProjections", dependencies: ["JournalEvents", "JournalModel", "TrainingDomain"], swiftSettings: swiftSettings),
        .target(name: "JournalSimulator", dependencies: ["JournalEvents", "JournalModel", "TrainingDomain", "JournalStore"], swiftSettings: swiftSettings),
        .target(name: "JournalInterchange",
                dependencies: ["JournalEvents", "JournalModel", "TrainingDomain", "JournalProjections"],
                swiftSettings: swiftSettings),
        // The sync protocol's wire types and its HTTP client (AsyncHTTPClient on Linux, URLSession elsewhere); SYNC.md.
        .target(name: "JournalSync",
                dependencies: ["JournalFile", "JournalEvents", "JournalStore",
                               .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                               .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: [.linux])),
                               .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(platforms: [.linux]))],
                swiftSettings: swiftSettings),
        .target(name: "JournalServer",
                dependencies: [
                    "JournalSync", "JournalFile", "JournalEvents", "JournalModel", "JournalStore",
                    // The support pages: the HTML report of a user's journal.
                    "JournalProjections", "TrainingDomain", "JournalInterchange",
                    .product(name: "Hummingbird", package: "hummingbird"),
                    .product(name: "HummingbirdTLS", package: "hummingbird"),
                    .product(name: "PostgresNIO", package: "postgres-nio"),
                    .product(name: "Crypto", package: "swift-crypto"),
                    .product(name: "JWTKit", package: "jwt-kit"),
                    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                    .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                    .product(name: "Logging", package: "swift-log"),
                    .product(name: "Metrics", package: "swift-metrics"),
                    .product(name: "Prometheus", package: "swift-prometheus"),
                ],
                swiftSettings: swiftSettings),
        // What only measurements use, out of the production server: the load generator's peer stores (naive, ceiling)
        // behind `serve --store`, and `fleet ingest`'s simulated users (SCALE.md, SCALE-FIGURES.md).
        .target(name: "JournalServerBench",
                dependencies: ["JournalServer", "JournalSync", "JournalEvents", "JournalModel", "JournalSimulator", "TrainingDomain",
                               .product(name: "PostgresNIO", package: "postgres-nio"),
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: swiftSettings),
        .executableTarget(
            name: "JournalServerCLI",
            dependencies: ["JournalServer", "JournalServerBench", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        // The load generator's engine and its command (SCALE.md).
        .target(name: "JournalLoad",
                dependencies: ["JournalServer", "JournalServerBench", "JournalSync", "JournalFile", "JournalEvents", "JournalModel", "JournalSimulator",
                               .product(name: "Histogram", package: "hdrhistogram-swift"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio"),
                               .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                               .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                               .product(name: "PostgresNIO", package: "postgres-nio")],
                swiftSettings: swiftSettings),
        .executableTarget(
            name: "JournalLoadCLI",
            dependencies: ["JournalLoad", "JournalServer", "JournalServerBench", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        .target(name: "WorkoutJournal",
                dependencies: ["JournalStore", "JournalFile", "JournalEvents", "JournalModel", "TrainingDomain", "JournalProjections",
                               "JournalInterchange"],
                swiftSettings: swiftSettings),
        .target(name: "WorkoutJournalSync", dependencies: ["WorkoutJournal", "JournalSync"], swiftSettings: swiftSettings),
        .target(name: "JournalTesting", dependencies: ["JournalStore", "JournalEvents", "JournalFile", "JournalSimulator"],
                swiftSettings: swiftSettings),
        .executableTarget(
            name: "JournalCLI",
            // The library an app that syncs uses (WorkoutJournalSync, re-exporting WorkoutJournal, which exports the
            // types an app names, imports and exports among them), plus the simulator; and, by name, the lower layers of
            // the tools no app needs: the raw writer and reader, verify, salvage and merge (JournalFile), the codec and
            // the vocabulary (JournalEvents), support's timeline, explain, diff and terminal charts (JournalInterchange).
            // CLILayeringTests checks both lists.
            dependencies: [
                "WorkoutJournalSync", "JournalSimulator",
                "JournalFile", "JournalEvents", "JournalInterchange",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // An app's first day through the public API alone (Examples/SeedDay: its own package for an app to copy; built
        // here so that CI builds and runs it, SeedDayExampleTests).
        .executableTarget(name: "SeedDay", dependencies: ["WorkoutJournal", "WorkoutJournalSync"],
                          path: "Examples/SeedDay/Sources/SeedDay", swiftSettings: swiftSettings),
        .testTarget(name: "JournalStoreTests", dependencies: ["JournalStore", "JournalTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "JournalEventsTests", dependencies: ["JournalEvents", "JournalTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "JournalFileTests", dependencies: ["JournalFile", "JournalModel", "JournalTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "TrainingDomainTests", dependencies: ["TrainingDomain", "JournalModel"], swiftSettings: swiftSettings),
        .testTarget(name: "JournalModelTests", dependencies: ["JournalModel", "JournalEvents", "JournalTesting", "JournalSimulator"], swiftSettings: swiftSettings),
        .testTarget(name: "JournalProjectionsTests", dependencies: ["JournalProjections", "JournalModel", "JournalEvents"], swiftSettings: swiftSettings),
        .testTarget(name: "JournalCLITests", dependencies: ["JournalCLI"], swiftSettings: swiftSettings),
        .testTarget(name: "WorkoutJournalTests", dependencies: ["WorkoutJournal", "JournalFile", "JournalEvents", "JournalModel", "JournalProjections", "JournalStore", "JournalSimulator", "JournalInterchange", "JournalTesting"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "JournalInterchangeTests",
                    dependencies: ["JournalInterchange", "JournalEvents", "JournalModel", "JournalProjections", "TrainingDomain"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "JournalServerTests",
                    dependencies: ["JournalServer", "JournalServerBench", "JournalSync", "WorkoutJournal", "WorkoutJournalSync", "JournalFile", "JournalEvents",
                                   "JournalStore", "JournalTesting", "JournalSimulator", "JournalProjections",
                                   "JournalInterchange", "TrainingDomain",
                                   // The real binaries the end-to-end and crash tests run.
                                   "JournalServerCLI", "JournalCLI", "JournalLoad", "JournalLoadCLI",
                                   .product(name: "HummingbirdTesting", package: "hummingbird"),
                                   // Keys and JWTs the sign-in tests make.
                                   .product(name: "JWTKit", package: "jwt-kit"),
                                   .product(name: "CryptoExtras", package: "swift-crypto")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ReliabilityTests",
                    dependencies: ["JournalFile", "JournalEvents", "JournalModel", "JournalStore", "JournalTesting", "JournalSimulator"],
                    swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
