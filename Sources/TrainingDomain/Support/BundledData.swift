import Foundation
import JournalEvents

/// Reads the JSON files under `Data/` (copied into the module bundle). A malformed bundled file is a
/// programming error caught by the tests, so loaders report it with the file name and the parser's reason.
enum BundledData {
    struct LoadError: Error, CustomStringConvertible {
        var file: String
        var reason: String
        var description: String { "bundled data file \(file): \(reason)" }
    }

    static var dataDirectory: URL? {
        Bundle.module.url(forResource: "Data", withExtension: nil)
    }

    static func json(_ relativePath: String) throws -> JSONValue {
        guard let base = dataDirectory else { throw LoadError(file: relativePath, reason: "the Data folder is missing from the bundle") }
        return try json(at: base.appendingPathComponent(relativePath), name: relativePath)
    }

    static func json(at url: URL, name: String) throws -> JSONValue {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw LoadError(file: name, reason: "cannot be read")
        }
        do {
            return try JSONParser.parse([UInt8](data))
        } catch {
            throw LoadError(file: name, reason: error.description)
        }
    }

    /// Every `*.json` in a sub-folder of `Data/`, sorted by file name so loading is deterministic.
    static func jsonFiles(in folder: String) throws -> [(name: String, value: JSONValue)] {
        guard let base = dataDirectory else { throw LoadError(file: folder, reason: "the Data folder is missing from the bundle") }
        let directory = base.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return try names.filter { $0.hasSuffix(".json") }.sorted().map { name in
            (name, try json(at: directory.appendingPathComponent(name), name: "\(folder)/\(name)"))
        }
    }
}
