import Foundation
import Testing

/// `scripts/postgres` from wherever a user stands: a working directory the `postgres` user cannot enter, and a DIR it
/// could not reach (scripts/lib/postgres-owner.sh).
@Suite(.serialized)
struct PostgresScriptTests {
    /// A fresh folder of mode 0700 (as `mktemp -d` makes): as root, the `postgres` user cannot enter it.
    static func privateFolder() throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/journal-private.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw PostgresFixture.Failure(description: "mkdtemp failed: errno \(errno)")
        }
        return String(cString: made)
    }

    /// `scripts/postgres ARGUMENTS` run by a shell standing in `folder`.
    static func script(from folder: String, _ arguments: [String]) -> PostgresFixture.Output {
        PostgresFixture.run("/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder, PostgresFixture.script] + arguments)
    }

    @Test func startsAndStopsFromAFolderThePostgresUserCannotEnter() throws {
        _ = try PostgresFixture.url()   // skip (throw) where PostgreSQL cannot be had
        let folder = try Self.privateFolder()
        let cluster = FileManager.default.temporaryDirectory.appendingPathComponent("journal-cwd-\(getpid())").path
        defer {
            PostgresFixture.script(["stop", cluster])
            try? FileManager.default.removeItem(atPath: cluster)
            try? FileManager.default.removeItem(atPath: folder)
        }
        let started = Self.script(from: folder, ["start", cluster])
        #expect(started.status == 0)
        // One line, the URL, and nothing on standard error: no PostgreSQL tool complains about the caller's folder.
        #expect(started.stdout.hasPrefix("postgres://postgres@127.0.0.1:"))
        #expect(started.stdout.split(separator: "\n").count == 1)
        #expect(started.stderr == "")
        let url = Self.script(from: folder, ["url", cluster])
        #expect(url.stdout == started.stdout)
        let stopped = Self.script(from: folder, ["stop", cluster])
        #expect(stopped.status == 0)
        #expect(stopped.stdout == "postgres: stopped \(cluster)\n")
        #expect(stopped.stderr == "")
    }

    @Test func aDirUnderAFolderThePostgresUserCannotEnterIsRefusedBeforeAnythingIsMade() throws {
        _ = try PostgresFixture.url()
        let folder = try Self.privateFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cluster = folder + "/pg"
        let result = PostgresFixture.script(["start", cluster])
        defer { PostgresFixture.script(["stop", cluster]) }
        guard getuid() == 0 else {
            // Not root: the cluster is the caller's own, and the caller can enter its own folder.
            #expect(result.status == 0)
            #expect(result.lastLine?.hasPrefix("postgres://") == true)
            return
        }
        #expect(result.status == 1)
        #expect(result.stdout == "")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first == "postgres: the postgres user cannot enter \(folder) (mode 700, owner root), so it cannot keep a cluster in \(cluster).")
        #expect(lines.last?.hasPrefix("postgres: pass a DIR whose every parent folder it can enter (e.g. /tmp/journal-pg.") == true)
        #expect(lines.last?.hasSuffix("), or let it pass: chmod o+x \(folder)") == true)
        // Nothing was made.
        #expect(FileManager.default.fileExists(atPath: cluster) == false)
    }
}
