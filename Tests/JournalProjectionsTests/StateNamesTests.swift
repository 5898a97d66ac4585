import Foundation
import JournalProjections
import Testing

/// Screen states are named as states (`HomeState`), not as views: no public type of the device library ends in
/// `View` (SwiftUI's `ProgressView`, and the names an app gives its own views), and the earlier names still compile.
@Suite("screen states are named …State; the earlier …View names still compile, deprecated")
struct StateNamesTests {
    @available(*, deprecated, message: "uses the deprecated names on purpose")
    @Test("each earlier name is the state type it was renamed to")
    func earlierNamesCompile() {
        #expect(HomeView.self == HomeState.self)
        #expect(ProgressView.self == ProgressState.self)
        #expect(HistoryView.self == HistoryState.self)
        #expect(ProfileView.self == ProfileState.self)
        #expect(TemplatesView.self == TemplatesState.self)
        #expect(ActiveWorkoutView.self == ActiveWorkoutState.self)
        #expect(ExerciseHistoryView.self == ExerciseHistoryState.self)
        #expect(ActiveWorkoutState.WarmupSuggestionView.self == ActiveWorkoutState.WarmupSuggestionState.self)
    }

    @Test("no public type of the library's sources is named …View but the deprecated aliases")
    func noPublicViewTypes() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let declaration = try Regex(#"public (?:struct|enum|class|final class|actor|protocol|typealias) ([A-Za-z]*View)\b"#)
        var found: [String] = []
        for case let file as URL in FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        where file.pathExtension == "swift" && file.lastPathComponent != "DeprecatedViewNames.swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            found += text.matches(of: declaration).map { "\(file.lastPathComponent): \($0.output[1].substring ?? "")" }
        }
        #expect(found == [])
    }
}
