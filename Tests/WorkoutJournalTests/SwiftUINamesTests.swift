import Foundation
import Testing

/// A SwiftUI file imports SwiftUI and `WorkoutJournal` together, so a type name both export is ambiguous there
/// ("is ambiguous for type lookup"). The library's products export none of SwiftUI's own type names.
@Suite("the library exports no type name SwiftUI declares")
struct SwiftUINamesTests {
    /// SwiftUI's public types an app's screens are likely to name (SwiftUI's documentation, iOS 17).
    static let swiftUINames: Set<String> = [
        "Alert", "Angle", "Animation", "App", "Axis", "Binding", "Button", "Canvas", "Capsule", "Circle",
        "Color", "ContentUnavailableView", "DatePicker", "Divider", "Edge", "EmptyView", "Environment", "ForEach",
        "Form", "Gauge", "Gradient", "Grid", "Group", "Image", "Label", "Layout", "Link", "List", "Menu", "Namespace",
        "NavigationLink", "NavigationStack", "Path", "Picker", "ProgressView", "Rectangle", "Scene", "Section",
        "Settings", "Shape", "Slider", "Spacer", "State", "Stepper", "TabView", "Table", "Text", "TimelineView",
        "Toggle", "Transaction", "View", "Window",
    ]

    /// The names the products export: each `@_exported import` by name and each public top-level type they declare.
    static func exportedNames() throws -> Set<String> {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let exported = try Regex(#"^@_exported import [a-z]+ [A-Za-z]+\.([A-Za-z]+)"#).anchorsMatchLineEndings()
        let declared = try Regex(#"^public (?:final )?(?:struct|enum|class|actor|protocol|typealias) ([A-Za-z]+)"#)
            .anchorsMatchLineEndings()
        var names: Set<String> = []
        for product in ["WorkoutJournal", "WorkoutJournalSync"] {
            let folder = sources.appendingPathComponent(product)
            for case let file as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
            where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in text.matches(of: exported) { names.insert(String(match.output[1].substring ?? "")) }
                for match in text.matches(of: declared) { names.insert(String(match.output[1].substring ?? "")) }
            }
        }
        return names
    }

    @Test("the products' exported and declared type names meet none of SwiftUI's")
    func noClash() throws {
        let names = try Self.exportedNames()
        #expect(names.count > 100)
        #expect(names.contains("HomeState") && names.contains("UserJournal"))
        #expect(names.intersection(Self.swiftUINames).sorted() == [])
    }
}
