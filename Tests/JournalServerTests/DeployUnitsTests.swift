import Foundation
import Testing

/// The systemd units shipped under deploy/ (OPERATIONS.md §"systemd"), checked by `systemd-analyze verify` when this
/// machine has it: every key known, every command executable (journal-server's path replaced by the one built here).
@Suite("deploy/: the systemd units verify")
struct DeployUnitsTests {
    static let analyze = "/usr/bin/systemd-analyze"

    @Test("journal-server@.service (as journal-server@8081.service) and haproxy-journal.service pass systemd-analyze verify with no warning", .enabled(if: FileManager.default.isExecutableFile(atPath: analyze)))
    func unitsVerify() throws {
        let deploy = PostgresFixture.packageRoot.appendingPathComponent("deploy")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("journal-units-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = try String(contentsOf: deploy.appendingPathComponent("journal-server@.service"), encoding: .utf8)
        #expect(server.contains("ExecStart=/usr/local/bin/journal-server serve "))
        try server.replacingOccurrences(of: "/usr/local/bin/journal-server", with: PatroniCluster.serverBinary)
            .write(to: scratch.appendingPathComponent("journal-server@8081.service"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: deploy.appendingPathComponent("haproxy-journal.service"),
                                         to: scratch.appendingPathComponent("haproxy-journal.service"))
        let result = PostgresFixture.run(Self.analyze, ["verify"] + ["journal-server@8081.service", "haproxy-journal.service"].map { scratch.appendingPathComponent($0).path })
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "", "\(result)")
    }
}
