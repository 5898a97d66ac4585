// swift-tools-version:6.0
import PackageDescription

// Layers, bottom to top (see README.md "Layout"):
//   CZstd (libzstd) → JournalStore (bytes, frames, recovery, locking)
//   → JournalEvents (vocabulary, validation, JSON codec) → JournalModel (the one fold: Ledger, units, set kinds)
//   → EventJournal (store + events) → TrainingDomain (catalogue, programmes, progression, plates)
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
        .library(name: "JournalBenchmarkSupport", targets: ["EventJournal", "JournalSimulator", "JournalModel", "JournalProjections", "WorkoutJournal"]),
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
        .target(name: "JournalModel", dependencies: ["JournalEvents"], swiftSettings: swiftSettings),
        .target(name: "EventJournal", dependencies: ["JournalStore", "JournalEvents", "JournalModel"], swiftSettings: swiftSettings),
        .target(name: "TrainingDomain", dependencies: ["JournalEvents", "JournalModel"],
                resources: [.copy("Data")], swiftSettings: swiftSettings),
        .target(name: "JournalProjections", dependencies: ["JournalEvents", "JournalModel", "TrainingDomain"], swiftSettings: swiftSettings),
        .target(name: "JournalSimulator", dependencies: ["JournalEvents", "JournalModel", "TrainingDomain", "JournalStore"], swiftSettings: swiftSettings),
        .target(name: "JournalInterchange",
                dependencies: ["JournalEvents", "JournalModel", "TrainingDomain", "JournalProjections", "SwiftCSV"],
                swiftSettings: swiftSettings),
        .target(name: "WorkoutJournal",
                dependencies: ["EventJournal", "JournalEvents", "JournalModel", "TrainingDomain", "JournalProjections"],
                swiftSettings: swiftSettings),
        .target(name: "JournalTesting", dependencies: ["JournalStore", "JournalEvents", "EventJournal", "JournalSimulator"],
                swiftSettings: swiftSettings),
        .executableTarget(
            name: "JournalCLI",
            // The library an app uses, plus interchange and the simulator; the lower layers come through WorkoutJournal.
            dependencies: [
                "WorkoutJournal", "JournalInterchange", "JournalSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "JournalStoreTests", dependencies: ["JournalStore", "JournalTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "JournalEventsTests", dependencies: ["JournalEvents"], swiftSettings: swiftSettings),
        .testTarget(name: "EventJournalTests", dependencies: ["EventJournal", "JournalModel", "JournalTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "TrainingDomainTests", dependencies: ["TrainingDomain", "JournalModel"], swiftSettings: swiftSettings),
        .testTarget(name: "JournalModelTests", dependencies: ["JournalModel", "JournalEvents"], swiftSettings: swiftSettings),
        .testTarget(name: "JournalProjectionsTests", dependencies: ["JournalProjections", "JournalModel", "JournalEvents"], swiftSettings: swiftSettings),
        .testTarget(name: "JournalCLITests", dependencies: ["JournalCLI"], swiftSettings: swiftSettings),
        .testTarget(name: "WorkoutJournalTests", dependencies: ["WorkoutJournal", "EventJournal", "JournalEvents", "JournalModel", "JournalProjections", "JournalStore", "JournalSimulator", "JournalInterchange"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "JournalInterchangeTests",
                    dependencies: ["JournalInterchange", "JournalEvents", "JournalModel", "JournalProjections", "TrainingDomain"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ReliabilityTests",
                    dependencies: ["EventJournal", "JournalEvents", "JournalModel", "JournalStore", "JournalTesting", "JournalSimulator"],
                    swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
