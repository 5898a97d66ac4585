// swift-tools-version:6.0
// An app's package that embeds the journal: only the two products an app adds (README, "The library").
import PackageDescription

let package = Package(
    name: "SeedDay",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "workout-journal", path: "../..")],
    targets: [
        .executableTarget(name: "SeedDay", dependencies: [
            .product(name: "WorkoutJournal", package: "workout-journal"),
            .product(name: "WorkoutJournalSync", package: "workout-journal"),
        ]),
    ]
)
