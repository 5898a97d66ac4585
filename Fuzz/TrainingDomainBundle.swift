// Fuzz builds only: compiled into TrainingDomain in place of the accessor SwiftPM generates for the
// module's resources. The bundle is the source folder itself, where Data/ sits (Fuzz/run.sh passes this
// file by its absolute path, so #filePath finds the folder from wherever the fuzzer runs).
import Foundation

extension Foundation.Bundle {
    static let module: Bundle = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/TrainingDomain").path
        guard let bundle = Bundle(path: folder) else { fatalError("TrainingDomain resources not found at \(folder)") }
        return bundle
    }()
}
