// swift-tools-version:6.0
import PackageDescription

// Layers, bottom to top (see README.md "Layout"):
//   CZstd (libzstd) → JournalStore (bytes, frames, recovery, locking)
//   → JournalEvents (vocabulary, validation, JSON codec) → EventJournal (store + events)
//   → TrainingDomain (catalogue, programmes, progression, plates)
//   → JournalProjections (screens as folds) → WorkoutJournal (facade for apps)
//   → journal (the CLI).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "workout-journal",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "journal", targets: ["JournalCLI"]),
        .library(name: "WorkoutJournal", targets: ["WorkoutJournal"]),
        // For Benchmarks/ (a separate package): the reader, the projections and the simulator's bulk writer.
        .library(name: "JournalBenchmarkSupport", targets: ["EventJournal", "JournalSimulator", "JournalProjections", "WorkoutJournal"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .target(name: "JournalStore", dependencies: ["CZstd"], swiftSettings: swiftSettings),
        .target(name: "JournalEvents", swiftSettings: swiftSettings),
        .target(name: "EventJournal", dependencies: ["JournalStore", "JournalEvents"], swiftSettings: swiftSettings),
        .target(name: "TrainingDomain", dependencies: ["JournalEvents"],
                resources: [.copy("Data")], swiftSettings: swiftSettings),
        .target(name: "JournalProjections", dependencies: ["JournalEvents", "TrainingDomain"], swiftSettings: swiftSettings),
        .target(name: "JournalSimulator", dependencies: ["JournalEvents", "TrainingDomain", "JournalStore"], swiftSettings: swiftSettings),
        .target(name: "JournalInterchange",
                dependencies: ["JournalEvents", "TrainingDomain", "JournalProjections", "SwiftCSV"],
                swiftSettings: swiftSettings),
        .target(name: "WorkoutJournal",
                dependencies: ["EventJournal", "JournalEvents", "TrainingDomain", "JournalProjections"],
                swiftSettings: swiftSettings),
        .target(name: "JournalTesting", dependencies: ["JournalStore", "JournalEvents", "EventJournal", "JournalSimulator"],
                swiftSettings: swiftSettings),
        .executableTarget(
            name: "JournalCLI",
            dependencies: [
                "EventJournal", "JournalEvents", "JournalStore", "TrainingDomain", "JournalProjections",
                "JournalSimulator", "JournalInterchange", "WorkoutJournal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "JournalStoreTests", dependencies: ["JournalStore", "JournalTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "JournalEventsTests", dependencies: ["JournalEvents"], swiftSettings: swiftSettings),
        .testTarget(name: "EventJournalTests", dependencies: ["EventJournal", "JournalTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "TrainingDomainTests", dependencies: ["TrainingDomain"], swiftSettings: swiftSettings),
        .testTarget(name: "JournalProjectionsTests", dependencies: ["JournalProjections", "JournalEvents"], swiftSettings: swiftSettings),
        .testTarget(name: "JournalCLITests", dependencies: ["JournalCLI"], swiftSettings: swiftSettings),
        .testTarget(name: "WorkoutJournalTests", dependencies: ["WorkoutJournal", "EventJournal", "JournalEvents", "JournalProjections", "JournalStore", "JournalSimulator", "JournalTesting"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "JournalInterchangeTests",
                    dependencies: ["JournalInterchange", "JournalEvents", "JournalProjections", "TrainingDomain"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ReliabilityTests",
                    dependencies: ["EventJournal", "JournalEvents", "JournalStore", "JournalTesting", "JournalSimulator"],
                    swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v5]
)
